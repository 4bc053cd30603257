// Runs _static/progress.js under Node with a stand-in localStorage (tests/book/test_progress_records.py):
// argv: the script, the stored text ("" = nothing stored), the quota in characters (0 = none), then JSON actions.
// Prints what the store then holds and says, and what stayed in storage.
const fs = require("fs"), vm = require("vm");
const [script, stored, quota, actions] = process.argv.slice(2);
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
const listeners = {};
const target = {addEventListener: (t, f) => { (listeners[t] = listeners[t] || []).push(f); },
  dispatchEvent: (e) => { for (const f of listeners[e.type] || []) f(e); }};
class CustomEvent { constructor(type, init) { this.type = type; this.detail = (init || {}).detail; } }
const window = {...target};
const document = {currentScript: {src: "http://site.test/_static/progress.js"}, querySelector: () => null, ...target};
const context = {window, document, localStorage, CustomEvent, URL, location: {href: "http://site.test/"}, console};
vm.createContext(context);
vm.runInContext(fs.readFileSync(script, "utf8"), context);
const s = window.rlProgress, errors = [];
for (const [name, ...args] of JSON.parse(actions)) {
  try { s[name](...args); } catch (e) { errors.push(`${name}: ${e.message}`); }
}
const catalog = {chapters: [{page: "w4_1_intensity", title: "① 산술 강도", term: "abc", exercises: [["q1", "①-1"]]}],
  mistakes: {"c-write": "C 쓰기를 빼먹었다"}};
process.stdout.write(JSON.stringify({student: s.student(), answers: s.answers(), predictions: s.predictions(),
  mode: s.mode("w4_2_roofline", "predict"), problem: s.problem(), csv: s.csv(catalog), errors,
  stored: items.get("roofline.progress:/") || null}));
