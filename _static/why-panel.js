// "이 값은 어떻게 나왔나": a glued number's derivation (tools/coursebook/derivations.py marks the numbers, the library writes
// the records). Places the records' text; computes nothing. why.js imports this module when the reader first comes
// near a number (a first visit does not load it) and fetches the number's records beside it: the page's, or for an
// explorer's number the state it shows (explorer.js, already on a page that has one).
import {el} from "./core.js";

let open = null;
const KIND = {toml: "course.toml의 ", cell: "매개변수 셀의 ", control: "조건 탐색기에서 고른 값 ", typed: "직접 계산하기에 적은 값 ", search: "모델이 찾은 값: ", measured: "이 기계에서 잰 값: ", simulated: "모델의 시뮬레이션: ", cite: "참고문헌 ", quoted: "출처 없이 흔히 인용되는 값: ", code: "이 쪽의 코드 셀(숨긴 셀은 노트북 판에서 보인다)이 정한 값: "};
const CALLED = "이 쪽의 코드 셀(숨긴 셀은 노트북 판에서 보인다)이 이 호출로 얻은 값: ";
const unit = (u) => (u ? " " + u : "");
// a value as the library wrote it: readable ("약 6.871948 ms") beside the exact one (why.value_text)
const value = (x, exact) => (x.approx ? x.approx + " (정확한 값 " + exact + unit(x.unit) + ")" : exact + unit(x.unit));
// a link inside the panel that does `go` instead of following its address
function action(text, go) {
  const a = el("a", {href: "#"}, text);
  a.addEventListener("click", (ev) => { ev.preventDefault(); go(); });
  return a;
}
function origin(o, d, show) {
  const i = o.indexOf(":"), kind = o.slice(0, i), what = o.slice(i + 1);
  if (kind === "derived") return action("유도 보기: " + d.r[what].symbol + " = " + d.r[what].formula, () => show(what));
  if (kind === "toml" || kind === "cell") return el("a", {href: "#rl-params"}, KIND[kind] + what);
  // a code cell's call computes what it gives (a rank, ρ), it does not choose it: "name = value" and a call's
  // argument "digits=6" are chosen
  if (kind === "code" && !what.includes("=")) return el("span", {}, CALLED + what);
  return el("span", {}, (KIND[kind] || "") + what);
}
const line = (text, extra) => el("span", {className: "rl-why-line" + (extra ? " " + extra : "")}, text);
function render(panel, d, g, id, path) {
  const r = d.r[id], top = id === g.of;
  // another record of the same derivation in the same panel, kept in place and focused
  const show = (next, trail) => { render(panel, d, g, next, trail); place(open.button, panel); panel.focus({preventScroll: true}); };
  const close = el("button", {type: "button", className: "rl-why-close"}, "닫기");
  close.addEventListener("click", () => shut(true));
  const parts = [el("span", {className: "rl-why-head"}, el("strong", {}, "이 값은 어떻게 나왔나"), close)];
  if (!top) {
    const back = action("← 처음 값 " + d.r[g.of].symbol, () => show(g.of, []));
    back.className = "rl-why-back";
    parts.push(back);
  }
  const named = r.symbol + (r.name ? " (" + r.name + ")" : "");
  if (r.origin) parts.push(line(named));   // an input: its value and where it comes from
  else {
    parts.push(line(named + (r.formula !== r.symbol ? " = " + r.formula : "")));
    if (r.numbers !== r.formula) parts.push(line("= " + (r.said || r.numbers)));
  }
  const bare = /^[−-]?[\d,./]+/.exec(g.shown);   // the shown number without the words around it ("1배", "4,096×4,096")
  const same = g.shown === r.exact || (bare && bare[0].replace(/,/g, "") === r.exact.replace(/,/g, ""))
    || (r.unit && g.shown.includes(r.exact + " " + r.unit));   // "64 MiB(67,108,864 Byte)" says its exact value
  const said = g.shown + unit(g.unit) + (g.rounding ? " — " + g.rounding : "");   // why.result_text
  const result = top ? said + (same ? "" : (g.rounding ? " (정확한 값 " : " (= ") + r.exact + unit(r.unit) + ")")
    : value(r, r.exact);
  parts.push(line("= " + result, "rl-why-result"));
  const deeper = (next) => show(next, path.concat([id]));
  if (r.origin) parts.push(el("span", {className: "rl-why-line"}, "출처: ", origin(r.origin, d, deeper)));
  if (r.inputs.length) {
    parts.push(el("span", {className: "rl-why-sub"}, "넣은 값"), el("ul", {className: "rl-why-inputs"},
      ...r.inputs.map((x) => el("li", {}, x.symbol + " = " + value(x, x.value) + " ← ", origin(x.origin, d, deeper)))));
  }
  panel.replaceChildren(...parts);
}
// fixed, beside its number (a table's scrolling box would clip an absolute panel); below it, or above when the
// viewport has no room below (`fit`: measured, which lays the panel out); placed again when the page scrolls
function place(button, panel, fit = true) {
  const b = button.getBoundingClientRect(), vw = document.documentElement.clientWidth, w = Math.min(416, vw - 16);
  panel.style.width = w + "px";
  panel.style.left = Math.max(8, Math.min(b.left, vw - w - 8)) + "px";
  const h = fit ? panel.offsetHeight : 0;
  let top = b.bottom + 4;
  if (top + h > innerHeight && b.top - h - 4 >= 0) top = b.top - h - 4;
  panel.style.top = top + "px";
}
function shut(focus) {
  if (!open) return;
  const b = open.button;
  open.panel.remove();
  b.setAttribute("aria-expanded", "false");
  b.removeAttribute("aria-controls");
  open = null;
  if (focus) b.focus();
}
// `records`: a promise of the number's records (why.js). The panel enters the page once, written, and is laid out
// once (to place it above its number when there is no room below); only when the records take longer than a reader
// waits unanswered (SLOW ms) does it show "불러오는 중…" first. The number's own style answers the press at once.
const SLOW = 100;
export function toggle(button, records) {
  if (open && open.button === button) { shut(true); return; }
  shut(false);
  const panel = el("span", {className: "rl-why-panel", id: "rl-why-panel", role: "group",
    "aria-label": "이 값은 어떻게 나왔나", tabIndex: -1});
  const enter = () => {   // placed below the number from its box alone (read before the panel is in the page: no
    // layout is forced for that), in the main landmark, fixed to the viewport: no section's containment or table's
    // scroll box clips it
    if (panel.isConnected) return;
    place(button, panel, false);
    (document.querySelector("main") || document.body).append(panel);
  };
  button.setAttribute("aria-controls", panel.id);
  button.setAttribute("aria-expanded", "true");
  open = {button, panel};
  const mine = () => open && open.panel === panel;
  const slow = setTimeout(() => {
    if (!mine()) return;
    panel.textContent = "불러오는 중…";
    enter();
  }, SLOW);
  records.then((d) => {
    clearTimeout(slow);
    if (!mine()) return;
    const g = d.g[button.getAttribute("data-why")];
    render(panel, d, g, g.of, []);
    enter();
    place(button, panel);
    panel.focus({preventScroll: true});   // the reader goes on inside the panel; Tab past its ends goes back to the number
  }, () => {
    clearTimeout(slow);
    if (!mine()) return;
    panel.textContent = "유도를 불러오지 못했다.";
    enter();
    place(button, panel);
  });
}

// the explorer shows another state: a panel open on one of its numbers is out of date
document.addEventListener("rl-update", (ev) => { if (open && ev.target.contains(open.button)) shut(false); }, true);   // (not a bubbling event: caught on its way down)
document.addEventListener("keydown", (ev) => {
  if (!open) return;
  if (ev.key === "Escape") { ev.preventDefault(); shut(true); return; }
  if (ev.key !== "Tab" || !open.panel.contains(document.activeElement)) return;
  const f = open.panel.querySelectorAll("a, button"), a = document.activeElement;
  if ((ev.shiftKey && (a === open.panel || a === f[0])) || (!ev.shiftKey && a === f[f.length - 1])) {
    ev.preventDefault(); open.button.focus();
  }
});
addEventListener("resize", () => { if (open) place(open.button, open.panel); });
addEventListener("scroll", () => { if (open) place(open.button, open.panel); }, {passive: true, capture: true});
