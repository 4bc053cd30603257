/* 이 페이지에서 직접 계산하기 (②, ④, ⑤, 3주차 노트의 조건 탐색기와 ②의 "내 커널").
 *
 * 누르기 전에는 아무것도 받지 않는다. 누르면 이 사이트의 _static/live/에서 Pyodide(브라우저에서 도는 Python)와
 * 강의 라이브러리의 휠을 받아(window.rlLive: 빌드가 적은 파일과 크기), 조건 탐색기의 컨트롤을 장의 매개변수 셀과
 * 같은 이름의 입력 칸으로 바꾼다. 독자가 적은 값은 라이브러리의 roofline.show.engine.live가 계산하고, 이 스크립트는
 * 그 결과(형식까지 맞춘 글자와 그림 좌표, 또는 한국어 ParameterError)를 탐색기(explorer.js)에 넘기거나 칸 옆에 적을
 * 뿐 계산하지 않는다. 바깥 주소로는 아무것도 요청하지 않는다. ES 모듈: 탐색기는 explorer.js의 started가 준다.
 */
import {el} from "./core.js";
import {started} from "./explorer.js";

let engine = null;     // one Pyodide per page, shared by its explorers
let stage = [0, ""];   // how far loading is (0–4) and what it does, for every explorer's progress bar
const watchers = new Set();
const lives = new Map();   // an explorer's section → its Live
const tell = (n, text) => { stage = [n, text]; watchers.forEach((watch) => watch(n, text)); };
const mark = (name) => performance.mark(`rl-live:${name}`);    // make bench reads these (tools/bench/bench.py)

function megabytes(bytes) {
  return (bytes / 1e6).toLocaleString("ko-KR", {maximumFractionDigits: 1}) + " MB";
}

/* Pyodide, the course's wheel and the engine with the modules of this page's explorers (`pages`), loaded once:
 * Pyodide with the standard library as bytecode and a lock file of no packages (tools/coursebook/live.py), the
 * wheel (with its bytecode) fetched while Python starts and unpacked by Pyodide's unpackArchive. A failed load
 * may be tried again. */
function load(pages) {
  if (engine) return engine;
  const live = window.rlLive;
  const base = new URL("live/", import.meta.url);
  const pyodideURL = new URL(live.pyodide, base).href;
  engine = (async () => {
    tell(1, "Python 실행 환경(Pyodide)을 받는 중");
    mark("start");
    const wheel = fetch(new URL(live.wheel, base)).then((r) => {
      if (!r.ok) throw new Error(`${live.wheel}: ${r.status}`);
      return r.arrayBuffer();
    });
    wheel.catch(() => {});
    const {loadPyodide} = await import(pyodideURL + "pyodide.mjs");
    // the build's standard library (bytecode where the page imports it) and a lock file of no packages
    const pyodide = await loadPyodide({indexURL: pyodideURL, stdLibURL: pyodideURL + live.stdlib,
                                       lockFileURL: pyodideURL + live.lock, fullStdLib: false});
    mark("python");
    tell(2, "강의 라이브러리를 받는 중");
    pyodide.unpackArchive(await wheel, "wheel");
    mark("wheel");
    tell(3, "라이브러리를 불러오는 중");
    pyodide.runPython("import importlib; importlib.invalidate_caches()\nfrom roofline.show import engine as _rl_engine");
    const rl = pyodide.globals.get("_rl_engine");
    for (const page of pages) rl.form(page);    // the page's own module (roofline.show.pages.<chapter>)
    mark("engine");
    const call = rl.live;
    return (page, values) => JSON.parse(call(page, JSON.stringify(values)));
  })();
  engine.catch(() => { engine = null; });
  return engine;
}

/* Whether this device keeps the live mode's files (the site's worker holds them once the live mode has run, or
 * the reader kept everything): then starting Python costs no download, only this device's time. */
async function kept() {
  const live = window.rlLive;
  const wasm = new URL(live.pyodide + "pyodide.asm.wasm", new URL("live/", import.meta.url));
  return Boolean(window.caches && navigator.serviceWorker && navigator.serviceWorker.controller
                 && await caches.match(wasm.href).catch(() => null));
}

const pagesHere = () => [...lives.values()].map((live) => live.page);

/* A returning reader (the files kept here): Python starts while the reader reads, when the browser is idle after
 * an explorer with this mode came near the screen, or at once when the pointer or focus comes to its button —
 * so that the press finds it ready. A reader who has not run it yet downloads nothing before pressing. */
function prepare() {
  if (engine) return;
  kept().then((yes) => {
    if (!yes || engine) return;
    load(pagesHere()).catch(() => {});
  });
}

/* A field for a whole file (an Nsight Compute CSV export): pasted, or a file dropped on it. Its text goes to the
 * library as it is; a change event makes the form compute. */
function fileArea(id, name) {
  const area = el("textarea", {id, name, rows: 4, autocomplete: "off", spellcheck: false, wrap: "off"});
  const put = (file) => file.text().then((text) => {
    area.value = text;
    area.dispatchEvent(new Event("change"));
  });
  area.addEventListener("dragover", (event) => { if (event.dataTransfer.types.includes("Files")) event.preventDefault(); });
  area.addEventListener("drop", (event) => {
    const file = event.dataTransfer.files[0];
    if (!file) return;
    event.preventDefault();
    put(file);
  });
  area.rlPut = put;
  return area;
}

/* The same file chosen with the device's picker (a phone cannot drop one). */
function filePicker(area) {
  const picker = el("input", {type: "file", accept: ".csv,text/csv,text/plain", className: "rl-live-file"});
  picker.setAttribute("aria-label", "CSV 파일 고르기");
  picker.addEventListener("change", () => { if (picker.files[0]) area.rlPut(picker.files[0]); });
  return picker;
}

class Live {
  constructor(root, explorer) {
    this.root = root;
    this.explorer = explorer;
    this.data = JSON.parse(root.querySelector("script.rl-data").textContent).live;
    this.page = this.data.page;
    this.inputs = {};
    const info = window.rlLive;
    const linked = explorer.linked;
    this.box = el("div", {className: "rl-live"});
    this.button = el("button", {type: "button", className: "rl-live-button"}, "이 페이지에서 직접 계산하기");
    this.about = el("p", {className: "rl-live-about"},
      `누르면 이 사이트에서 Python 실행 환경 Pyodide ${info.version}와 강의 라이브러리(합계 ${megabytes(info.bytes)})를 ` +
      "한 번 받는다. 그다음에는 인터넷 없이 이 자리에서 라이브러리가 계산하므로, 아래 칸에 어떤 값을 적어도 그 값의 결과가 나온다.");
    if (linked) {
      this.about.prepend(el("strong", {}, "이 주소의 값은 미리 계산해 둔 것이 아니다. "));
    }
    this.progress = el("progress", {max: 4, value: 0, hidden: true});
    this.status = el("span", {className: "rl-live-status", role: "status"});
    this.button.addEventListener("click", () => this.start());
    for (const type of ["pointerenter", "focus"]) this.button.addEventListener(type, prepare, {once: true});
    this.box.append(this.button, this.about, el("p", {className: "rl-live-progress"}, this.progress, " ", this.status));
    const intro = root.querySelector(".rl-intro");
    intro.after(this.box);
    this.form = this.buildForm(linked || {});
  }

  buildForm(linked) {
    const form = el("form", {className: "rl-live-form", hidden: true, onsubmit: () => false});
    form.setAttribute("aria-label", "매개변수 셀의 값");
    const uid = this.root.id;
    for (const [name, label, value] of this.data.fields) {
      const id = `${uid}-live-${name}`;
      const choices = (this.data.choices || {})[name];
      const multiline = (this.data.multiline || []).includes(name);
      const input = choices
        ? el("select", {id, name}, ...choices.map(([key, text]) => new Option(text, key)))
        : multiline ? fileArea(id, name) : el("input", {id, name, type: "text", autocomplete: "off", spellcheck: false});
      input.value = name in linked ? linked[name] : value;
      input.dataset.rlLive = name;
      const error = el("span", {className: "rl-live-error", id: `${id}-error`});
      error.dataset.rlError = name;
      input.setAttribute("aria-describedby", error.id);
      const row = el("div", {className: "rl-live-field"},
        el("label", {htmlFor: id}, el("code", {}, name), " ", label), input, error);
      row.dataset.rlLiveRow = name;
      if (multiline) error.before(filePicker(input));
      form.append(row);
      this.inputs[name] = input;
      let timer = null;
      input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => this.compute(), 250); });
      input.addEventListener("change", () => { clearTimeout(timer); this.compute(); });
    }
    this.box.after(form);
    return form;
  }

  /* The kernel form shows only the sizes of the chosen kernel. */
  relevant() {
    const sizes = this.data.sizes;
    if (!sizes) return null;
    const kind = this.inputs.kernel.value;
    const all = new Set(Object.values(sizes).flat());
    return (name) => !all.has(name) || sizes[kind].includes(name);
  }

  values() {
    const keep = this.relevant();
    const values = {};
    for (const [name, input] of Object.entries(this.inputs)) {
      if (!keep || keep(name)) values[name] = input.value;
    }
    return values;
  }

  async start() {
    this.button.disabled = true;
    this.progress.hidden = false;
    const step = (n, text) => { this.progress.value = n; this.status.textContent = text; };
    watchers.add(step);
    step(...stage);
    try {
      this.call = await load([this.page, ...pagesHere()]);
    } catch (error) {
      this.status.textContent = `불러오지 못했다: ${error.message}`;
      this.button.disabled = false;
      return;
    } finally {
      watchers.delete(step);
    }
    step(4, "이 페이지에서 계산하고 있다. 값을 바꿔 보자.");
    this.progress.hidden = true;
    this.button.hidden = true;
    this.about.hidden = true;
    const controls = this.root.querySelector(".rl-controls");
    if (controls) controls.hidden = true;
    this.form.hidden = false;
    this.root.classList.add("rl-is-live");
    this.compute();
  }

  compute() {
    if (!this.call) return;
    const started = performance.now();
    const keep = this.relevant();
    this.form.querySelectorAll("[data-rl-live-row]").forEach((row) => {
      row.hidden = keep ? !keep(row.dataset.rlLiveRow) : false;
    });
    const values = this.values();
    const result = this.call(this.page, values);
    for (const [name, input] of Object.entries(this.inputs)) {
      const bad = result.error && (result.field === name || (!result.field && name === Object.keys(this.inputs)[0]));
      input.setAttribute("aria-invalid", bad ? "true" : "false");
      this.form.querySelector(`[data-rl-error="${name}"]`).textContent = bad ? result.error : "";
    }
    if (result.error) {
      this.root.dispatchEvent(new CustomEvent("rl-live-error", {detail: {field: result.field, message: result.error}}));
      return;
    }
    // a pasted file stays out of the page's address (the state link)
    const linked = Object.fromEntries(Object.entries(values).filter(([name]) => !(this.data.multiline || []).includes(name)));
    this.explorer.setLive(result.state, linked, result.why);
    if (!performance.getEntriesByName("rl-live:result").length) mark("result");
    this.root.dispatchEvent(new CustomEvent("rl-live", {detail: {values, ms: performance.now() - started}}));
  }
}

function start() {
  if (!window.rlLive) return;
  document.querySelectorAll("[data-rl-explorer]").forEach((root) => {
    const data = root.querySelector("script.rl-data");
    if (!data || !data.textContent.includes('"live"')) return;
    // explorer.js starts an explorer when it comes near the screen
    started(root).then((explorer) => {
      if (!lives.has(root)) lives.set(root, new Live(root, explorer));
      // a returning reader's Python, started when the browser is idle (it takes a second or more of work)
      (window.requestIdleCallback || setTimeout)(prepare, {timeout: 3000});
    });
  });
}

start();
