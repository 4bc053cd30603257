/* 페이지 스크립트들이 같이 쓰는 핵심(ES 모듈): 독자의 기록(store), 요소 만들기(el), 사이트의 JSON 파일 받기(json),
 * 이 페이지의 이름(pageName). 쓰는 스크립트(exercises.js, explorer.js, live.js, predict.js, variants.js,
 * progress-page.js, why-panel.js)가 `import {store, el} from "./core.js"`로 받는다: 한 페이지에서 한 번만 실행되므로
 * store는 페이지에 하나다. 적은 수의 읽기와 판정은 judge.js에 있다(연습 문제가 있는 페이지와 예측만 쓴다).
 *
 * 독자의 기록: 연습 문제의 답, 탐색기의 예측, 학번, 페이지별 모드. 이 브라우저의 localStorage에만 있고,
 * 독자가 "내 진도"에서 CSV로 내보낼 때만 밖으로 나간다. 이 모듈은 모델의 값을 계산하지 않는다: 라이브러리가
 * 쓴 값(판정, 모델 값, 오차)을 받아 적어 둘 뿐이다. 바뀔 때마다 store.listen(fn)으로 등록한 함수가 fn(kind)로
 * 불리고, 다른 탭의 변경도 kind "other-tab"으로 온다. window.rlProgress는 테스트와 콘솔을 위한 같은 store다(어느
 * 스크립트도 읽지 않는다). 가져올 때 하는 일은 다른 탭의 변경을 듣는 것뿐이므로 Node에서도 읽힌다(tests/book/progress_node.js).
 *
 * 저장 형식(한 키, JSON; 사이트의 경로마다 따로: 한 도메인에 강의가 여럿이어도 섞이지 않는다):
 *   {v: 2, student: "",                                  학번(강사가 정한 아무 식별자), 없으면 ""
 *    modes: {"<page>": {"<name>": value}},               예: {"w4_2_roofline": {"predict": true}}
 *    answers: [{t, page, exercise, student, typed, right, reason}],
 *    predictions: [{t, page, explorer, state, quantity, student, guess, model, error, mistake,
 *                   right (the guess within the page's tolerance), off (|error| in %, for the page's mean)}],
 *    aside: [{t, why, value}]}                            읽지 못해 따로 둔 것(원래 글자 그대로), 최대 ASIDE개
 * t는 ISO 시각, page는 장의 이름(chapters/ 아래 파일 이름, 확장자 없이: pageName), student는 그때의 학번("" = 기본 문제).
 *
 * 기록은 잃지 않는다(이슈 56): 예전 형식(v1: aside가 없다)은 MIGRATE로 올리고, 모르는 필드는 그대로 두며, 모양이 틀린
 * 기록(answers: null, student: 12345, JSON이 아닌 글, 이 모듈보다 새 형식)은 읽을 수 있는 것만 읽고 나머지는 원래
 * 글자 그대로 aside에 둔다(problem()이 한국어로 말한다). 저장 공간이 가득 차면 저장된 기록은 그대로 두고 이번 방문의
 * 기록만 메모리에 두며 problem()이 그렇게 말한다. tests/book/progress_records/에 버전마다의 기록이 있다.
 */

const VERSION = 2;
const LIMIT = 5000;          // answers and predictions kept, each (the oldest go first)
const ASIDE = 20;            // records set aside kept (the oldest go first)
const root = new URL("..", import.meta.url).pathname;   // the site's base path (this file is in its _static/)
const KEY = `roofline.progress:${root}`;
const listeners = new Set();   // store.listen

let memory = null;           // when the browser refuses storage or it is full: this page's visit only
let full = false;            // the last save did not fit

function empty() { return {v: VERSION, student: "", modes: {}, answers: [], predictions: [], aside: []}; }

/* every format this script has written, each raised to the next: v1 → v2 (the aside list) */
const MIGRATE = {1: (data) => Object.assign(data, {v: 2, aside: []})};

const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
const isText = (x) => typeof x === "string" || typeof x === "number";

/* What can be read of the stored text, and the rest set aside (as written): never throws. */
function read(raw) {
  const data = empty(), aside = data.aside;
  const put = (why, value) => aside.push({t: new Date().toISOString(), why, value: typeof value === "string" ? value
    : JSON.stringify(value)});
  if (raw === null || raw === undefined) return data;
  let stored;
  try { stored = JSON.parse(raw); } catch { put("JSON이 아닌 기록", raw); return data; }
  if (!isObject(stored)) { if (stored !== null) put("기록의 모양이 아니다", raw); return data; }
  if (stored.v > VERSION) put(`이 사이트보다 새 형식(v${stored.v})의 기록 전체`, raw);
  else if (stored.v !== VERSION && !MIGRATE[stored.v]) {
    put(stored.v === undefined ? "형식 번호가 없는 기록 전체" : `알 수 없는 형식(v${stored.v})의 기록 전체`, raw);
  }
  for (let v = stored.v; MIGRATE[v]; v = stored.v) stored = MIGRATE[v](stored);
  for (const [name, value] of Object.entries(stored)) {
    if (!(name in data)) data[name] = value;            // a field this script does not know: kept as it is
  }
  if (isText(stored.student)) data.student = String(stored.student);
  else if (stored.student !== undefined && stored.student !== null) put("학번", stored.student);
  if (isObject(stored.modes)) {
    for (const [page, modes] of Object.entries(stored.modes)) {
      if (isObject(modes)) data.modes[page] = modes; else put(`${page}의 모드`, modes);
    }
  } else if (stored.modes !== undefined) put("모드", stored.modes);
  for (const list of ["answers", "predictions"]) {
    const entries = stored[list];
    if (Array.isArray(entries)) {
      for (const e of entries) {
        if (isObject(e) && typeof e.page === "string") data[list].push(e); else put(list === "answers" ? "답" : "예측", e);
      }
    } else if (entries !== undefined) put(list === "answers" ? "답 목록" : "예측 목록", entries);
  }
  data.v = VERSION;
  data.aside = (Array.isArray(stored.aside) ? stored.aside.filter(isObject) : []).concat(aside).slice(-ASIDE);
  return data;
}

function load() {
  if (memory) return memory;
  let raw = null;
  try { raw = localStorage.getItem(KEY); } catch { /* refused: start empty */ }
  return read(raw);
}

function save(data, kind) {
  for (const list of ["answers", "predictions"]) {
    if (data[list].length > LIMIT) data[list] = data[list].slice(-LIMIT);
  }
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
    memory = null;
    full = false;
  } catch (error) {
    memory = data;                                      // what was stored stays as it was
    full = error && (error.name === "QuotaExceededError" || error.code === 22 || error.code === 1014);
  }
  tell(kind);
}

function tell(kind) {
  for (const listener of listeners) listener(kind);
}

function update(kind, change) {
  const data = load();
  change(data);
  save(data, kind);
}

const text = (value) => (value === undefined || value === null ? "" : String(value));

/* one CSV field: quoted when it holds a comma, a quote or a line break; a leading = + - @ made inert */
function field(value) {
  let t = text(value);
  if (/^[=+\-@]/.test(t) && !/^-?\d/.test(t)) t = "'" + t;
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

/* the CSV a student hands in: Korean words first (the instructor's `make grade` reads the last three columns,
 * and the format before them: 11 columns, English verdict codes, pages by file name, UTC times) */
const CSV_HEADER = ["종류", "시각", "페이지", "문항", "학번", "적은 값", "맞음", "판정", "모델 값", "오차", "실수",
  "페이지 파일", "문항 키", "학기"];
const VERDICTS = {right: "정답", wrong: "오답", unit: "단위가 다름", unreadable: "읽을 수 없음",
  digits: "유효숫자 부족", mistake: "실수"};

/* "2026-12-06 11:58:46 UTC+09:00": the reader's local time and its offset */
function local(iso) {
  const d = new Date(iso);
  if (!iso || Number.isNaN(d.getTime())) return text(iso);
  const two = (n) => String(n).padStart(2, "0");
  const off = -d.getTimezoneOffset(), sign = off < 0 ? "-" : "+";
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:` +
    `${two(d.getSeconds())} UTC${sign}${two(Math.floor(Math.abs(off) / 60))}:${two(Math.abs(off) % 60)}`;
}

/* catalog (the progress page's, from the build): {chapters: [{page, title, term, exercises: [[key, label]]}],
 * mistakes: {kind: Korean name}} */
function verdict(reason, names) {
  const [code, kind] = text(reason).split(":");
  if (code === "mistake") return `실수: ${(kind && names[kind]) || kind || ""}`.trim();
  return VERDICTS[code] || text(reason);
}

const store = {
  key: KEY,
  student: () => load().student,
  setStudent(id) {
    const value = text(id).trim();
    update("student", (data) => { data.student = value; });
    return value;
  },
  mode: (page, name) => ((load().modes[page] || {})[name]),
  setMode(page, name, value) {
    update("mode", (data) => { (data.modes[page] = data.modes[page] || {})[name] = value; });
  },
  /* {page, exercise, student?, typed, right, reason}: one try at an exercise */
  answer(entry) {
    update("answer", (data) => {
      data.answers.push({t: new Date().toISOString(), student: data.student, ...entry, right: !!entry.right});
    });
  },
  /* {page, explorer, state, quantity, guess, model, error, mistake?}: one committed guess (texts from the library) */
  predict(entry) {
    update("prediction", (data) => {
      data.predictions.push({t: new Date().toISOString(), student: data.student, ...entry});
    });
  },
  answers: (page) => load().answers.filter((a) => page === undefined || a.page === page),
  predictions: (page) => load().predictions.filter((p) => page === undefined || p.page === page),
  /* what the reader should know about the record, in Korean ("" when nothing): what was set aside, a full storage */
  problem() {
    const said = [];
    const aside = load().aside;
    if (aside.length) {
      said.push(`저장된 기록에서 읽지 못한 부분 ${aside.length}개(${[...new Set(aside.map((a) => a.why))].join(", ")})를 ` +
        "따로 두었다. 나머지 기록은 그대로 쓰며, 따로 둔 것도 지우지 않았다(기록 지우기를 누르기 전까지).");
    }
    if (full) said.push("이 브라우저의 저장 공간이 가득 차 방금 한 답을 저장하지 못했다. 전에 저장된 기록은 그대로다. " +
      "이 페이지를 닫기 전에 CSV로 내보내고, 다른 사이트의 저장 데이터를 지우자.");
    return said.join(" ");
  },
  csv(catalog) {
    const data = load(), chapters = new Map(), names = (catalog && catalog.mistakes) || {};
    for (const c of (catalog && catalog.chapters) || []) chapters.set(c.page, {...c, labels: new Map(c.exercises)});
    const rows = [CSV_HEADER];
    for (const a of data.answers) {
      const c = chapters.get(a.page);
      const said = verdict(a.reason, names);
      rows.push(["답", local(a.t), c ? c.title : a.page, (c && c.labels.get(a.exercise)) || a.exercise, a.student,
        a.typed, a.right ? "예" : "아니오", said, "", "", said.startsWith("실수: ") ? said.slice(4) : "", a.page,
        a.exercise, c ? c.term : ""]);
    }
    for (const p of data.predictions) {
      const c = chapters.get(p.page);
      const named = p.mistake ? verdict(`mistake:${p.mistake}`, names) : "";
      const said = named || (p.right === undefined ? "" : p.right ? "정답" : "오답");
      rows.push(["예측", local(p.t), c ? c.title : p.page, [p.explorer, p.state, p.quantity].map(text).join(" ").trim(),
        p.student, p.guess, p.right === undefined ? "" : p.right ? "예" : "아니오", said, p.model, p.error,
        named.slice(4), p.page, "", c ? c.term : ""]);
    }
    return "\ufeff" + rows.map((row) => row.map(field).join(",")).join("\r\n") + "\r\n";
  },
  reset() { save(empty(), "reset"); },
  /* fn(kind) after every change ("student", "mode", "answer", "prediction", "reset"; "other-tab": another tab's) */
  listen(fn) { listeners.add(fn); return () => listeners.delete(fn); },
};

window.addEventListener("storage", (event) => { if (event.key === KEY) tell("other-tab"); });

window.rlProgress = store;   // for the tests and the console: the scripts import it
export {store};

// ---------------------------------------------------------------- helpers the page scripts share

/* <tag> with `props` (a property of the element where it has one — className, htmlFor, hidden, onsubmit —, an
 * attribute otherwise — "aria-label", "data-…", "class") and `children` (elements or text; null, undefined and
 * false are left out) */
export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props || {})) {
    if (name in node) node[name] = value;
    else node.setAttribute(name, value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined && child !== false));
  return node;
}

/* a JSON file of the site (an explorer's states, a page's records, a student's variants), or an error naming it;
   `response`: its fetch, when the caller started it before this module had come (why.js) */
export function json(url, response = fetch(url)) {
  return response.then((response) => {
    if (!response.ok) throw new Error(`${response.status} ${url}`);
    return response.json();
  });
}

/* this page's name as the reader's record names pages: its file without .html ("w4_2_roofline") */
export const pageName = () => decodeURIComponent(location.pathname.split("/").pop() || "index").replace(/\.html$/, "");
