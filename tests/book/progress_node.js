// Imports _static/core.js (an ES module: the reader's record, `store`) under Node with a stand-in localStorage (no build, no browser).
//   node progress_node.js SCRIPT STORED QUOTA ACTIONS   (tests/book/test_progress_records.py): the stored text
//     ("" = nothing stored), the quota in characters (0 = none), JSON actions [[method, ...args]]; prints what the
//     store then holds and says, its CSV for a small catalog, and what stayed in storage.
//   node progress_node.js SCRIPT --export FILE   (tests/tooling/test_grade.py): FILE holds {catalog, records}; prints
//     the CSV today's script exports for each stored record, as a student's "CSV로 내보내기" would.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

globalThis.window = { addEventListener() {} };   // the store listens for other tabs' changes on it
let loaded = 0;

/* a store of its own (a fresh module instance) over a storage that holds `stored` under its key */
async function storeWith(script, stored, quota) {
  const items = new Map();
  globalThis.localStorage = {
    getItem: (k) => (items.has(k) ? items.get(k) : null),
    setItem(k, v) {
      if (Number(quota) && String(v).length > Number(quota)) {
        const e = new Error("full"); e.name = "QuotaExceededError"; e.code = 22; throw e;
      }
      items.set(k, String(v));
    },
  };
  const { store } = await import(`${pathToFileURL(script).href}?instance=${++loaded}`);
  if (stored !== "") items.set(store.key, stored);
  return [store, items];
}

const [file, ...rest] = process.argv.slice(2);
if (rest[0] === "--export") {
  const { catalog, records } = JSON.parse(readFileSync(rest[1], "utf8"));
  const out = [];
  for (const r of records) out.push((await storeWith(file, JSON.stringify(r), 0))[0].csv(catalog));
  process.stdout.write(JSON.stringify(out));
} else {
  const [stored, quota, actions] = rest;
  const [s, items] = await storeWith(file, stored, quota), errors = [];
  for (const [name, ...args] of JSON.parse(actions)) {
    try { s[name](...args); } catch (e) { errors.push(`${name}: ${e.message}`); }
  }
  const catalog = {chapters: [{page: "w4_1_intensity", title: "① 산술 강도", term: "abc", exercises: [["q1", "①-1"]]}],
    mistakes: {"c-write": "C 쓰기를 빼먹었다"}};
  process.stdout.write(JSON.stringify({student: s.student(), answers: s.answers(), predictions: s.predictions(),
    mode: s.mode("w4_2_roofline", "predict"), problem: s.problem(), csv: s.csv(catalog), errors,
    stored: items.get(s.key) || null}));
}
