// "이 값은 어떻게 나왔나": each glued number with a derivation is a button (button.rl-why, tools/coursebook/derivations.py).
// The panel that shows it (why-panel.js, and the page's records) is fetched when the reader first comes near such a
// button — points at it, tabs to it, or presses it — not on a first visit; a press before it is here opens once it is.
const button = (ev) => ev.target.closest && ev.target.closest("button.rl-why");
let panel = null;
const load = () => (panel = panel || import("./why-panel.js").catch((error) => { panel = null; throw error; }));

if (document.querySelector("[data-rl-why]")) {
  document.addEventListener("click", (ev) => {
    const b = button(ev);
    if (b) load().then((m) => m.toggle(b), () => {});
  });
  for (const type of ["pointerover", "focusin"]) {
    document.addEventListener(type, (ev) => {
      const b = button(ev);
      if (b) load().then((m) => m.soon(b), () => {});
    }, {passive: true});
  }
}
