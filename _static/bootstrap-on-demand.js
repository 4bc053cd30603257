// 테마의 Bootstrap 스크립트(81 KB)는 머리 막대의 두 메뉴(실행하기, 내려받기)와 단추의 풍선 도움말에만 쓰인다.
// 페이지를 열 때마다 읽고 실행하는 대신, 독자가 그런 단추에 다가갈 때(포인터, 터치, 키보드 초점) 받아 실행하고,
// 그보다 먼저 누른 메뉴는 받은 뒤에 연다. 그 묶음이 하던 "맨 위로" 단추(위로 스크롤할 때 보임)는 여기서 한다.
// tools/coursebook/assets.py가 테마의 <script>와 preload를 페이지에서 뺀다.
const src = new URL("scripts/bootstrap.js", import.meta.url).href;
let loading = null;
const load = () => loading || (loading = new Promise((done, fail) => {
  const script = document.createElement("script");
  script.src = src;
  script.onload = () => done(window.bootstrap);
  script.onerror = fail;
  document.head.appendChild(script);
}));
const TOGGLES = "[data-bs-toggle]";
const near = (event) => {
  const el = event.target.closest && event.target.closest(TOGGLES);
  if (!el || window.bootstrap) return;
  load().then(() => {   // the tooltip the reader is pointing at or focusing shows as it would have
    if (el.matches('[data-bs-toggle="tooltip"]') && (el.matches(":hover") || el === document.activeElement))
      el.dispatchEvent(new Event(el === document.activeElement ? "focusin" : "mouseover", {bubbles: true}));
  });
};
for (const type of ["pointerover", "touchstart", "focusin"])
  document.addEventListener(type, near, {capture: true, passive: true});
// a menu opened before the script was there opens once it is
document.addEventListener("click", (event) => {
  const el = event.target.closest && event.target.closest('[data-bs-toggle="dropdown"]');
  if (!el || window.bootstrap) return;
  event.preventDefault();
  event.stopPropagation();
  load().then((bootstrap) => bootstrap.Dropdown.getOrCreateInstance(el).toggle());
}, true);

// "back to top": shown while the reader scrolls up below the header
const button = document.getElementById("pst-back-to-top");
// nothing is read before the first scroll (reading the scroll position as the page starts lays it out then)
let last = null;
let header = null;
if (button) {
  window.addEventListener("scroll", () => {
    if (header === null) {
      const bar = document.querySelector(".bd-header");
      header = bar ? bar.getBoundingClientRect().bottom + window.scrollY : 0;
    }
    const y = window.scrollY;
    if (last === null) last = y;
    button.style.display = last > y && y > header ? "block" : "none";
    last = y;
  }, {passive: true});
  button.addEventListener("click", () => {
    document.body.scrollTop = 0;
    document.documentElement.scrollTop = 0;
  });
}
