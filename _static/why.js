// "이 값은 어떻게 나왔나": each glued number with a derivation is a button (button.rl-why, tools/coursebook/derivations.py).
// The panel that shows it (why-panel.js) and the number's records are fetched when the reader first comes near such a
// button — points at it, touches it, tabs to it, or presses it — not on a first visit; both at once, not the records
// after the panel's module (one round trip, not two or three); a press before they are here opens once they are.
const button = (ev) => ev.target.closest && ev.target.closest("button.rl-why");
const src = document.querySelector("[data-rl-why]");
// a promise made once, when first asked for (a failed one is made again at the next ask); kept, so that asking again
// resolves at once (an import() of a module already here still waits for a task: a frame more for every press)
const quiet = () => {};
const once = (make) => { let p = null; return () => (p = p || make().catch((error) => { p = null; throw error; })); };
const load = once(() => import("./why-panel.js"));
const explorers = once(() => import("./explorer.js"));
// (fetched at once, beside the modules: not after core.js has come, a round trip more on a page that does not load it)
const get = (url) => {
  const got = fetch(url);
  got.catch(quiet);   // (its failure is core.json's to report, once core.js is here)
  return import("./core.js").then((core) => core.json(url, got));
};
let whole = false;   // the page's whole records file has come: every later panel opens from it
const pageWhole = once(() => get(src.getAttribute("data-rl-why")).then((d) => { whole = true; return d; }));
// a large file is also in parts of `per` buttons (tools/coursebook/recordfiles.py): a first panel fetches its part,
// and the whole file follows when the page is idle (the offline worker keeps it: every panel then opens offline)
const per = src ? Number(src.getAttribute("data-rl-why-per")) || 0 : 0;
const parts = new Map();
const idle = (go) => (window.requestIdleCallback || setTimeout)(() => go().catch(quiet));
function pageRecords(b) {
  if (!per || whole) return pageWhole();
  const n = Math.floor(Number(b.getAttribute("data-why")) / per);
  if (!parts.has(n)) {
    parts.set(n, get(src.getAttribute("data-rl-why-parts").replace("{}", n))
      .then((d) => { idle(pageWhole); return d; }, (error) => { parts.delete(n); throw error; }));
  }
  return parts.get(n).catch(() => pageWhole());   // (offline, a part never fetched: the whole file if it was)
}
// a number's records: the page's, or for an explorer's number those of the state it shows (explorer.js:
// precomputed, or the live mode's result)
function records(b) {
  const holder = b.closest("[data-rl-explorer]");
  return holder ? explorers().then((explorer) => explorer.started(holder)).then((x) => x.records(b.getAttribute("data-why")))
    : pageRecords(b);
}

if (src) {
  // a page with an explorer has its module already: asked for now (no fetch), a first press does not wait a task
  // for it before it can ask for the state's records
  if (document.querySelector("[data-rl-explorer]")) explorers().catch(quiet);
  document.addEventListener("click", (ev) => {
    const b = button(ev);
    if (!b) return;
    const panel = load(), d = records(b);   // (the module asked for first: the smaller file, and it is compiled)
    d.catch(quiet);   // the panel says when they did not come
    panel.then((m) => m.toggle(b, d), quiet);
  });
  for (const type of ["pointerover", "focusin"]) {   // (a touch sends pointerover when the finger lands)
    document.addEventListener(type, (ev) => {
      const b = button(ev);
      if (b) { load().catch(quiet); records(b).catch(quiet); }
    }, {passive: true});
  }
}
