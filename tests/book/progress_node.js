// Runs _static/progress.js under Node with a stand-in localStorage (no build, no browser).
//   node progress_node.js SCRIPT STORED QUOTA ACTIONS   (tests/book/test_progress_records.py): the stored text
//     ("" = nothing stored), the quota in characters (0 = none), JSON actions [[method, ...args]]; prints what the
//     store then holds and says, its CSV for a small catalog, and what stayed in storage.
//   node progress_node.js SCRIPT --export FILE   (tests/tooling/test_grade.py): FILE holds {catalog, records}; prints
//     the CSV today's script exports for each stored record, as a student's "CSV로 내보내기" would.
const fs = require("fs"), vm = require("vm");

function storeWith(script, stored, quota) {
  const items = new Map();
  if (stored !== "") items.set("roofline.progress:/", stored);
  const localStorage = {
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem(k, v) {
      if (Number(quota) && String(v).length > Number(quota)) {
        const e = new Error("full"); e.name = "QuotaExceededError"; e.code = 22; throw e;
      }
      items.set(k, String(v));
    },
  };
  const target = () => {
    const listeners = {};
    return {addEventListener: (t, f) => { (listeners[t] = listeners[t] || []).push(f); },
      dispatchEvent: (e) => { for (const f of listeners[e.type] || []) f(e); }};
  };
  class CustomEvent { constructor(type, init) { this.type = type; this.detail = (init || {}).detail; } }
  const window = target();
  const document = {currentScript: {src: "http://site.test/_static/progress.js"}, querySelector: () => null, ...target()};
  const context = {window, document, localStorage, CustomEvent, URL, location: {href: "http://site.test/"}, console};
  vm.createContext(context);
  vm.runInContext(script, context);
  return [window.rlProgress, items];
}

const [file, ...rest] = process.argv.slice(2);
const script = fs.readFileSync(file, "utf8");
if (rest[0] === "--export") {
  const {catalog, records} = JSON.parse(fs.readFileSync(rest[1], "utf8"));
  process.stdout.write(JSON.stringify(records.map((r) => storeWith(script, JSON.stringify(r), 0)[0].csv(catalog))));
} else {
  const [stored, quota, actions] = rest;
  const [s, items] = storeWith(script, stored, quota), errors = [];
  for (const [name, ...args] of JSON.parse(actions)) {
    try { s[name](...args); } catch (e) { errors.push(`${name}: ${e.message}`); }
  }
  const catalog = {chapters: [{page: "w4_1_intensity", title: "① 산술 강도", term: "abc", exercises: [["q1", "①-1"]]}],
    mistakes: {"c-write": "C 쓰기를 빼먹었다"}};
  process.stdout.write(JSON.stringify({student: s.student(), answers: s.answers(), predictions: s.predictions(),
    mode: s.mode("w4_2_roofline", "predict"), problem: s.problem(), csv: s.csv(catalog), errors,
    stored: items.get("roofline.progress:/") || null}));
}
