/* 조건 탐색기 (②, ④, ⑤, 3주차 노트).
 *
 * 모든 상태는 빌드할 때 강의 라이브러리가 계산하고 형식까지 맞춰 페이지의
 * <script type="application/json" class="rl-data">에 넣어 두었다(상태가 많으면 그 자리에는 상태 파일의 주소
 * "states"만 있고, 탐색기가 시작할 때 그 파일을 받는다: tools/coursebook/assets.py). 이 스크립트는 계산하지 않는다:
 * 폼 컨트롤이 가리키는 상태를 골라 그 문자열을 페이지에 옮기고, 그림 좌표를 uPlot에 넘길 뿐이다.
 * 바뀐 뒤에는 섹션에 "rl-update" 이벤트를 보낸다(why.js가 열린 유도를 닫고, 테스트가 응답 시간을 잰다).
 *
 * ES 모듈: 시작한 탐색기는 started(root)가 준다(live.js, why.js). 이 페이지에서 직접 계산하기(_static/live.js)를
 * 켜면, 라이브러리가 브라우저 안에서 계산한 상태를 setLive(state)로 받아 같은 방식으로 옮긴다. 컨트롤의 값(과 직접
 * 계산한 값)은 주소의 # 뒤에 남아, 그 주소를 열면 같은 상태가 된다. "먼저 예측하기"를 켜면(페이지마다 기억)
 * predict.js를 가져오고, 조건이 바뀐 상태의 hide 값은 "?"로 옮긴다. 시작한 탐색기는 섹션의 rlExplorer에도 있고
 * "rl-ready" 이벤트가 간다(테스트와 make bench가 쓴다; 스크립트는 started를 쓴다).
 */
import {json, pageName, store} from "./core.js";

const REDUCED = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

/* The hash holds every explorer's values: "roofline.hardware=H100_SXM&roofline.dtype=BF16&…". */
function hashParams() {
  const text = location.hash.slice(1);
  return new URLSearchParams(text.includes("=") ? text : "");
}

/* The address is written once the reader pauses (HASH_PAUSE_MS after the last change), not at every step of a
   slider: each history.replaceState makes the browser fetch and draw the tab's icon again (about as much work as
   the update itself), and browsers limit how often a page may change its address (Safari throws a SecurityError
   after a hundred in thirty seconds: a held arrow key on a slider gets there). */
const HASH_PAUSE_MS = 300;
const pendingHash = new Map();   // explorer prefix → its values, not yet in the address
let hashTimer = null;

function writeHash(prefix, values) {
  pendingHash.set(prefix, values);
  clearTimeout(hashTimer);
  hashTimer = setTimeout(flushHash, HASH_PAUSE_MS);
}

function flushHash() {
  clearTimeout(hashTimer);
  hashTimer = null;
  if (!pendingHash.size) return;
  const params = hashParams();
  for (const [prefix, values] of pendingHash) {
    for (const key of [...params.keys()]) if (key.startsWith(prefix + ".")) params.delete(key);
    for (const [name, value] of Object.entries(values)) params.set(`${prefix}.${name}`, value);
  }
  const text = params.toString().replace(/%2C/g, ",").replace(/%2F/g, "/").replace(/%5B/g, "[").replace(/%5D/g, "]");
  try {
    history.replaceState(history.state, "", text ? `#${text}` : location.pathname + location.search);
    pendingHash.clear();
  } catch {   // refused (too many changes): the explorer goes on, and the address is tried again later
    hashTimer = setTimeout(flushHash, 10 * HASH_PAUSE_MS);
  }
}

// leaving the page (or its tab) before the pause: the address still gets the last values (back, bookmarks)
window.addEventListener("pagehide", flushHash);
// an address the reader went to (a link on the page, one pasted): it wins over values still waiting to be written
window.addEventListener("hashchange", () => { clearTimeout(hashTimer); hashTimer = null; pendingHash.clear(); });
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") flushHash(); });

const PAGE = pageName();
const HIDDEN = "?";   // a value waiting for the guess

/* predict.js (once: `predict` once it is here), then the predict parts of `data`'s states (its `ready`) */
let predict = null;
let predicting = null;
function predictLoaded(data) {
  predicting = predicting || import("./predict.js").then((module) => { predict = module; }, () => {});
  return predicting.then(() => predict && predict.ready(data));
}

function colour(el, value) {
  const m = /^var\((--[\w-]+)\)$/.exec(value || "");
  return m ? getComputedStyle(el).getPropertyValue(m[1]).trim() : value;
}

class Explorer {
  constructor(root, data, predictOn) {
    this.root = root;
    this.data = data;
    this.values = {};
    this.charts = {};
    this.plots = {};
    this.current = {};
    this.live = null;
    this.prefix = root.id.replace(/^rl-/, "");
    for (const [name, spec] of Object.entries(this.data.controls)) {
      this.values[name] = spec.initial;
      for (const el of this.inputs(name)) {
        el.addEventListener(spec.kind === "range" ? "input" : "change", () => this.changed(name));
      }
    }
    // the controls, plots, legends and meters appear; a legend or meter repeats what the plot's label and the
    // fields say, so assistive technology skips it
    root.querySelectorAll("[hidden]").forEach((el) => {
      el.hidden = false;
      if (el.matches(".rl-legend, .rl-meter")) el.setAttribute("aria-hidden", "true");
    });
    this.predictor = null;
    this.linked = null;   // values from the address that no precomputed state has (live.js puts them in its form)
    this.toggle(predict && predictOn);
    const linked = this.restore();
    if (predict && this.predictButton.getAttribute("aria-pressed") === "true") {
      this.predictor = predict.attach(this, PAGE);
    }
    this.render(false, linked);
    if (window.ResizeObserver) {
      let width = root.clientWidth;
      new ResizeObserver(() => {
        if (root.clientWidth !== width) { width = root.clientWidth; this.redraw(); }
      }).observe(root);
    }
  }

  /* Values from the page's address: a precomputed state is shown at once; other values wait for live mode
     (this.linked, which live.js puts in its form). */
  restore() {
    const params = hashParams();
    const mine = {};
    for (const [key, value] of params) if (key.startsWith(this.prefix + ".")) mine[key.slice(this.prefix.length + 1)] = value;
    if (!Object.keys(mine).length) return false;
    const names = this.data.hash || {};
    const byParam = Object.fromEntries(Object.entries(names).map(([control, param]) => [param, control]));
    const values = {...this.values};
    let precomputed = Object.keys(mine).every((param) => byParam[param]);
    for (const [param, value] of Object.entries(mine)) if (byParam[param]) values[byParam[param]] = value;
    if (precomputed) {
      for (const part of this.data.parts) {
        if (!part.states[part.on.map((n) => values[n]).join("|")]) precomputed = false;
      }
    }
    if (precomputed) {
      this.values = values;
      for (const name of Object.keys(this.data.controls)) this.show(name, values[name]);
    } else {
      this.linked = mine;
    }
    this.root.scrollIntoView();
    return precomputed;
  }

  /* "먼저 예측하기": a toggle below the controls */
  toggle(on) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "rl-predict-toggle";
    button.textContent = "먼저 예측하기";
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.addEventListener("click", () => {
      const pressed = button.getAttribute("aria-pressed") !== "true";
      store.setMode(PAGE, "predict", pressed);
      this.setPredict(pressed);
    });
    this.predictButton = button;
    const bar = document.createElement("p");   // after the controls (live mode hides them, not this)
    bar.className = "rl-predict-bar";
    bar.append(button);
    (this.root.querySelector(".rl-controls") || this.root.querySelector(".rl-intro")).after(bar);
  }

  setPredict(on) {
    this.predictButton.setAttribute("aria-pressed", on ? "true" : "false");
    if (!on) {
      if (this.predictor) this.predictor.remove();
      this.predictor = null;
      this.render(false);
      return;
    }
    predictLoaded(this.data).catch(() => {}).then(() => {
      if (!predict || this.predictor || this.predictButton.getAttribute("aria-pressed") !== "true") return;
      this.predictor = predict.attach(this, PAGE);
      this.render(false);
    });
  }

  /* The controls' values in the address (the names of the parameter cell where they have one). */
  remember() {
    const names = this.data.hash || {};
    writeHash(this.prefix, Object.fromEntries(Object.entries(this.values).map(([n, v]) => [names[n] || n, v])));
  }

  /* A state the library computed in the page (live mode) replaces the precomputed ones; `why`: the records of its
     numbers, which a number's panel shows (the reader's typed values put in). */
  setLive(state, values, why) {
    this.live = state;
    this.liveValues = values;
    this.liveWhy = why || null;
    if (values) writeHash(this.prefix, values);
    this.render(true, true);
  }

  inputs(name) {
    return this.root.querySelectorAll(`[data-rl-control="${name}"]`);
  }

  label(name, key) {
    const option = this.data.controls[name].options.find((o) => o[0] === key);
    return option ? option[1] : key;
  }

  allowed(name) {
    const spec = this.data.controls[name];
    return spec.depends ? spec.allowed[this.values[spec.depends]] : spec.options.map((o) => o[0]);
  }

  read(name) {
    const spec = this.data.controls[name];
    const els = [...this.inputs(name)];
    if (spec.kind === "radio") return (els.find((el) => el.checked) || {}).value;
    if (spec.kind === "range") return this.allowed(name)[Number(els[0].value)];
    return els[0].value;
  }

  /* Put control `name` back on `key` among its allowed options (a dependent list may have changed). */
  show(name, key) {
    const spec = this.data.controls[name];
    const allowed = this.allowed(name);
    const el = this.inputs(name)[0];
    if (spec.kind === "select") {
      const have = [...el.options].map((o) => o.value);
      if (have.join("|") !== allowed.join("|")) {
        el.replaceChildren(...allowed.map((k) => new Option(this.label(name, k), k)));
      }
      el.value = key;
    } else if (spec.kind === "range") {
      el.max = String(allowed.length - 1);
      el.value = String(allowed.indexOf(key));
      el.setAttribute("aria-valuetext", this.label(name, key));
      const out = this.root.querySelector(`[data-rl-output="${name}"]`);
      if (out) out.textContent = this.label(name, key);
    } else if (spec.kind === "radio") {
      this.inputs(name).forEach((radio) => { radio.checked = radio.value === key; });
    }
  }

  changed(name) {
    this.values[name] = this.read(name);
    this.show(name, this.values[name]);
    for (const [other, spec] of Object.entries(this.data.controls)) {
      if (spec.depends !== name) continue;
      const allowed = this.allowed(other);
      let key = this.values[other];
      if (!allowed.includes(key)) key = spec.kind === "range" ? allowed[allowed.length - 1] : allowed[0];
      this.values[other] = key;
      this.show(other, key);
    }
    this.remember();
    this.render(true, true);
  }

  state(part) {
    const key = part.on.map((n) => this.values[n]).join("|");
    const state = part.states[key];
    if (!state) throw new Error(`조건 탐색기: 계산해 둔 상태가 없다 (${key})`);
    return state;
  }

  /* the shown state's key, for the reader's record */
  stateKey() {
    if (this.live) return "live&" + new URLSearchParams(this.liveValues || {});
    return Object.entries(this.values).map(([n, v]) => `${n}=${v}`).join("&");
  }

  /* moved: the reader changed the conditions (control, live form, linked state): predict mode hides the answers */
  render(flash, moved) {
    const started = performance.now();
    const changed = [];
    this.plots = {};
    const states = this.live ? [this.live] : this.data.parts.map((part) => this.state(part));
    const hide = this.predictor ? this.predictor.before(states, !!moved) : null;
    const hidden = (kind, name) => !!hide && (hide[kind] || []).includes(name);
    for (const state of states) {
      const why = state.why || {};
      for (const [name, value] of Object.entries(state.fields || {})) {
        const out = hidden("fields", name);
        const text = out ? HIDDEN : value;
        this.root.querySelectorAll(`[data-rl-field="${name}"]`).forEach((el) => {
          if (place(el, text, out ? null : (why.fields || {})[name])) changed.push(el);
        });
      }
      for (const [name, width] of Object.entries(state.widths || {})) {
        this.root.querySelectorAll(`[data-rl-width="${name}"]`).forEach((el) => { el.style.width = hidden("widths", name) ? "0%" : width; });
      }
      for (const [name, on] of Object.entries(state.flags || {})) {
        this.root.classList.toggle(`rl-${name}`, on && !hidden("flags", name));
      }
      for (const [name, table] of Object.entries(state.tables || {})) {
        const cols = hide && hide.tables && hide.tables[name];
        const ids = (why.tables || {})[name];
        this.table(name, cols ? {...table, rows: table.rows.map((row) => row.map((c, j) => (cols.includes(j) ? HIDDEN : c)))}
          : table, changed, ids && cols ? ids.map((row) => row.map((id, j) => (cols.includes(j) ? 0 : id))) : ids);
      }
      for (const [name, plot] of Object.entries(state.plots || {})) {
        // a plot that gives the answer away is out (and out of the accessibility tree) until the guess
        const out = hidden("plots", name);
        this.root.querySelectorAll(`[data-rl-plot="${name}"], [data-rl-legend="${name}"]`).forEach((el) => { el.hidden = out; });
        if (!out) this.plots[name] = plot;
      }
    }
    this.redraw();
    if (this.predictor) this.predictor.after(states);
    // a changed value lights up briefly, unless the reader asked for reduced motion
    if (flash && changed.length && !(REDUCED && REDUCED.matches) && changed[0].animate) {
      const from = colour(this.root, "var(--rl-flash)");
      for (const el of changed) {
        el.animate([{backgroundColor: from}, {backgroundColor: "transparent"}], {duration: 600, easing: "ease-out"});
      }
    }
    this.root.dispatchEvent(new CustomEvent("rl-update", {
      detail: {values: {...this.values}, ms: performance.now() - started},
    }));
  }

  /* A table body from a state's rows: cells whose text changed are updated (and light up); a different
     number of rows rebuilds the body. */
  table(name, table, changed, ids) {
    const side = {l: "text-left", r: "text-right", c: "text-center"};
    const id = (i, j) => (ids && ids[i] ? ids[i][j] : 0);
    this.root.querySelectorAll(`[data-rl-table="${name}"]`).forEach((body) => {
      if (body.rows.length !== table.rows.length) {
        body.replaceChildren(...table.rows.map((row, i) => {
          const tr = document.createElement("tr");
          row.forEach((text, j) => {
            const td = tr.insertCell();
            td.className = side[table.align[j]];
            cell(td, text, id(i, j));
          });
          return tr;
        }));
        return;
      }
      table.rows.forEach((row, i) => row.forEach((text, j) => {
        const td = body.rows[i].cells[j];
        if (cell(td, text, id(i, j))) changed.push(td);
      }));
    });
  }

  /* The records of the shown state's numbers (why.js asks for them when a number's panel opens): the live
     mode's from its result, the precomputed states' from their file (fetched once). A large file is also in parts
     (tools/coursebook/recordfiles.py: `whyParts`, each state's `wp`): until the whole file has come, a panel opens
     from the part of the state on show that holds its number `id` (or of every state on show), and the whole file
     is fetched when the page is idle (the offline worker keeps it: every state's panels then open offline). */
  records(id) {
    if (this.live) return Promise.resolve(this.liveWhy || {g: {}, r: {}});
    const src = this.data.why;
    if (!src || typeof src === "object") return Promise.resolve(src || {g: {}, r: {}});
    const whole = () => (this.whyLoading = this.whyLoading || json(new URL(src, document.baseURI))
      .then((d) => { this.whyWhole = true; return d; }, (error) => { this.whyLoading = null; throw error; }));
    const shown = this.data.whyParts && !this.whyWhole
      ? this.data.parts.map((part) => this.state(part)).filter((state) => state.wp !== undefined) : [];
    const holding = shown.filter((state) => JSON.stringify(state.why).includes(`"${id}"`));
    const wanted = [...new Set((holding.length ? holding : shown).map((state) => state.wp))];
    if (!wanted.length) return whole();
    const parts = this.whyParts = this.whyParts || new Map();
    const part = (n) => {
      if (!parts.has(n)) {
        parts.set(n, json(new URL(this.data.whyParts.replace("{}", n), document.baseURI))
          .catch((error) => { parts.delete(n); throw error; }));
      }
      return parts.get(n);
    };
    return Promise.all(wanted.map(part)).then((got) => {
      (window.requestIdleCallback || setTimeout)(() => whole().catch(() => {}));
      return {g: Object.assign({}, ...got.map((d) => d.g)), r: Object.assign({}, ...got.map((d) => d.r))};
    }, whole);   // (offline, a part never fetched: the whole file if it was)
  }

  legend(name, items) {
    const el = this.root.querySelector(`[data-rl-legend="${name}"]`);
    if (!el || !items) return;
    el.replaceChildren(...items.map(([color, dashed, text]) => {
      const key = document.createElement("span");
      key.className = "rl-key";
      const swatch = document.createElement("span");
      swatch.className = dashed ? "rl-swatch rl-dashed" : "rl-swatch";
      swatch.style.setProperty("--rl-swatch", color);
      key.append(swatch, text);
      return key;
    }));
  }

  redraw() {
    for (const [name, plot] of Object.entries(this.plots)) this.draw(name, plot);
  }

  draw(name, plot) {
    const el = this.root.querySelector(`[data-rl-plot="${name}"]`);
    const spec = this.data.plots[name];
    if (!el || !spec) return;
    this.legend(name, plot.legend);
    if (!window.uPlot) return;
    const specSeries = plot.series || spec.series;
    this.current[name] = plot;
    const now = () => this.current[name];
    el.setAttribute("aria-label", plot.aria);
    const width = Math.max(200, el.clientWidth);
    const height = Math.round(Math.min(340, Math.max(220, width * 0.6)));
    const ink = colour(el, "var(--rl-ink)");
    const grid = colour(el, "var(--rl-grid)");
    const family = getComputedStyle(this.root).fontFamily;
    const font = `12px ${family}`;
    // ticks, ranges and marks are read from the current state, so new data needs no rebuild
    const axis = (which, label) => ({
      stroke: ink, label, labelFont: `600 12px ${family}`, font, labelSize: 20,
      grid: {stroke: grid, width: 1}, ticks: {stroke: grid, width: 1},
      splits: () => now()[which].map((t) => t[0]), values: () => now()[which].map((t) => t[1]),
      filter: (u, s) => s,
    });
    const series = [{}].concat(specSeries.map((s) => {
      const c = colour(el, s.color);
      return {
        stroke: c, width: s.line ? s.width : 0, dash: s.dash, spanGaps: true,
        paths: s.line ? undefined : () => null,
        points: s.points ? {show: true, size: s.points, width: 1, stroke: c, fill: c} : {show: false},
      };
    }));
    const marks = (u) => {
      const ctx = u.ctx;
      const ratio = u.pxRatio || window.devicePixelRatio || 1;
      ctx.save();
      ctx.font = `${12 * ratio}px ${family}`;
      ctx.fillStyle = ink;
      for (const m of now().marks || []) {
        const x = u.valToPos(m.x, "x", true);
        const y = u.valToPos(m.y, "y", true);
        if (m.vline) {
          ctx.strokeStyle = colour(el, "var(--rl-muted)");
          ctx.setLineDash([5 * ratio, 4 * ratio]);
          ctx.lineWidth = ratio;
          ctx.beginPath();
          ctx.moveTo(x, u.bbox.top + u.bbox.height);
          ctx.lineTo(x, y);
          ctx.stroke();
          ctx.setLineDash([]);
        }
        const right = x + ctx.measureText(m.text).width + 8 * ratio > u.bbox.left + u.bbox.width;
        ctx.textAlign = right ? "right" : "left";
        ctx.textBaseline = m.vline ? "top" : "bottom";
        ctx.fillText(m.text, x + (right ? -6 : 6) * ratio, y + (m.vline ? 6 : -6) * ratio);
      }
      ctx.restore();
    };
    const opts = {
      width, height, legend: {show: false}, cursor: {show: false}, select: {show: false},
      scales: {
        x: {time: false, distr: 3, log: 10, range: () => now().xrange},
        y: {distr: 3, log: 10, range: () => now().yrange},
      },
      axes: [axis("xticks", plot.xlabel || spec.xlabel), Object.assign(axis("yticks", plot.ylabel || spec.ylabel), {size: 58})],
      series,
      hooks: {draw: [marks]},
    };
    const data = [plot.x].concat(plot.y);
    const old = this.charts[name];
    const signature = JSON.stringify([specSeries, plot.xlabel, plot.ylabel]);   // a state's own axis labels (its units)
    if (old && old.width === width && old._rlTheme === ink && old._rlSeries === signature) {   // same size, colours, series: new data only
      old.setData(data);
      return;
    }
    if (old) old.destroy();
    const u = new window.uPlot(opts, data, el);
    u._rlTheme = ink;
    u._rlSeries = signature;
    this.charts[name] = u;
  }
}

/* A number's button: why.js opens its derivation */
function whyButton() {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "rl-why";
  b.setAttribute("aria-expanded", "false");
  return b;
}

/* A shown number's entry among the records (why.js opens its panel): a button with `data-why`, none while a
   guess waits for it (its panel would give the answer) or when the state has no record for it. */
function entry(el, id) {
  if (el.tagName !== "BUTTON") return;
  if (id) el.setAttribute("data-why", id);
  else el.removeAttribute("data-why");
  el.disabled = !id;
}

/* A field's text: a number's button (its entry `id`), or a sentence whose numbers are buttons (`id`: [[at, length,
   entry], …]), or plain text; true when what it shows changed. */
function place(el, text, id) {
  if (Array.isArray(id)) {
    const sig = JSON.stringify(id);
    if (el.textContent === text && el.dataset.whyParts === sig) return false;
    el.dataset.whyParts = sig;
    const nodes = [];
    let at = 0;
    for (const [start, length, key] of id) {
      const b = whyButton();
      b.setAttribute("data-why", key);
      b.textContent = text.slice(start, start + length);
      nodes.push(text.slice(at, start), b);
      at = start + length;
    }
    nodes.push(text.slice(at));
    el.replaceChildren(...nodes);
    return true;
  }
  const had = "whyParts" in el.dataset;
  if (had) delete el.dataset.whyParts;
  entry(el, id);
  if (!had && el.textContent === text) return false;
  el.textContent = text;
  return true;
}

/* A table cell's text and its number's button; true when the text changed. */
function cell(td, text, id) {
  if (Array.isArray(id)) return place(td, text, id);
  const button = td.firstElementChild && td.firstElementChild.matches("button.rl-why") ? td.firstElementChild : null;
  if (!id) {
    if (!button && td.textContent === text) return false;
    td.textContent = text;
    return true;
  }
  const same = button && button.textContent === text;
  const b = button || whyButton();
  if (!button) td.replaceChildren(b);
  entry(b, id);
  if (!same) b.textContent = text;
  return !same;
}

/* The plotting library (uPlot, beside this script), loaded once when the first explorer starts: a page
   whose reader never comes near an explorer does not run it. Without it the explorer still shows its values. */
let plotting = null;
function uPlotLoaded() {
  if (!plotting) {
    plotting = window.uPlot ? Promise.resolve() : new Promise((resolve) => {
      const tag = document.createElement("script");
      tag.src = new URL("vendor/uplot/uPlot.iife.min.js", import.meta.url).href;
      tag.onload = resolve;
      tag.onerror = () => { console.warn(`조건 탐색기: 그림 라이브러리를 받지 못했다 (${tag.src})`); resolve(); };
      document.head.append(tag);
    });
  }
  return plotting;
}

/* An explorer's data; its states from their own file when the page names one (fetched once). */
const loading = new Map();   // root → its data and the plotting library, once asked for
function load(root) {
  if (!loading.has(root)) {
    const data = JSON.parse(root.querySelector("script.rl-data").textContent);
    const states = !data.states ? Promise.resolve(data) :
      json(new URL(data.states, document.baseURI)).then((states) => {
        data.parts.forEach((part, i) => { part.states = states[i]; });
        delete data.states;
        return data;
      });
    const both = Promise.all([states, uPlotLoaded()]).then(([loaded]) => loaded);
    both.catch(() => loading.delete(root));   // tried again when it comes near again
    loading.set(root, both);
  }
  return loading.get(root);
}

/* The explorer of the section `root` once it has started (it starts when it comes near the screen). */
const explorers = new Map();   // root → {promise, started (its resolve), begun, explorer}
function entryOf(root) {
  if (!explorers.has(root)) {
    const entry = {begun: false};
    entry.promise = new Promise((resolve) => { entry.started = resolve; });
    explorers.set(root, entry);
  }
  return explorers.get(root);
}
export const started = (root) => entryOf(root).promise;

function begin(root) {
  const entry = entryOf(root);
  if (entry.begun) return;
  entry.begun = true;
  // the predict mode and its script before the first state is placed
  const on = !!store.mode(PAGE, "predict");
  load(root)
    .then((data) => Promise.resolve(on && predictLoaded(data)).then(() => [data, on], () => [data, false]))
    .then(([data, predictOn]) => {
      const explorer = new Explorer(root, data, predictOn);
      root.rlExplorer = entry.explorer = explorer;         // (on the section for the tests and make bench)
      entry.started(explorer);
      root.dispatchEvent(new CustomEvent("rl-ready"));
    }, (error) => {
      // the page keeps the values of the chapter's own condition (what a reader without JavaScript sees)
      entry.begun = false;
      console.warn(`조건 탐색기: 계산해 둔 상태를 받지 못했다 (${error.message})`);
    });
}

// each explorer starts when it comes near the screen (its charts cost the first paint nothing), or when the
// reader reaches one of its controls first (keyboard)
const near = window.IntersectionObserver ? new IntersectionObserver((entries) => {
  entries.forEach((e) => { if (e.isIntersecting) { near.unobserve(e.target); begin(e.target); } });
}, {rootMargin: "200px 0px"}) : null;
// the states' file is fetched a little earlier than the explorer starts, so it is there when the reader is
const soon = window.IntersectionObserver ? new IntersectionObserver((entries) => {
  entries.forEach((e) => { if (e.isIntersecting) { soon.unobserve(e.target); load(e.target).catch(() => {}); } });
}, {rootMargin: "1200px 0px"}) : null;
document.querySelectorAll("[data-rl-explorer]").forEach((root) => {
  // a shared link names a state (#roofline.hardware=…): show it at once
  if (near === null || location.hash.length > 1) { begin(root); return; }
  near.observe(root);
  soon.observe(root);
  root.addEventListener("focusin", () => begin(root), {once: true});
});
// the theme's light/dark switch: redraw with the new colours
new MutationObserver(() => {
  for (const entry of explorers.values()) if (entry.explorer) entry.explorer.redraw();
}).observe(document.documentElement, {attributes: true, attributeFilter: ["data-theme"]});
