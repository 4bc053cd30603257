// 옆으로 스크롤하는 상자(코드, 출력, 표, 긴 수식)에 키보드로 갈 수 있게 한다: 넘칠 때만 tab 정지점이다.
// 빌드는 그런 상자마다 tabindex="0"을 달아 두고(tools/coursebook/a11y.py: 넘치는지 모르는 상자는 키보드로 갈 수 있다),
// 테마의 스크립트는 다 읽은 뒤 넘치는 상자에 정지점을 준다. 이 스크립트는 상자가 화면 가까이 와서 브라우저가 어차피
// 배치한 뒤에(IntersectionObserver) 읽고, 모두 읽은 다음에 써서, 넘치지 않는 상자의 정지점을 뗀다(폭이 바뀌면 다시 본다).
const BOXES = "pre, .cell_output > .output, .pst-scrollable-table-container, .bd-article div.math";
const main = document.getElementById("main-content") || document.body;
const near = new Set();            // boxes within a screen of the viewport, laid out
const scrolls = (box) => {
  if (box.scrollWidth > box.clientWidth + 1) return true;
  if (box.scrollHeight <= box.clientHeight + 1) return false;
  const y = getComputedStyle(box).overflowY;
  return y === "auto" || y === "scroll";
};
// every read first, then every write: one layout, not one per box
const check = (boxes) => {
  const found = boxes.filter((box) => box.isConnected)
    .map((box) => [box, box === document.activeElement || scrolls(box)]);
  for (const [box, stop] of found) {
    if (stop) { if (box.getAttribute("tabindex") !== "0") box.tabIndex = 0; }
    else if (box.hasAttribute("tabindex")) box.removeAttribute("tabindex");
  }
};
const seen = new IntersectionObserver((entries) => {
  const boxes = [];
  for (const entry of entries) {
    if (entry.isIntersecting) { near.add(entry.target); boxes.push(entry.target); }
    else near.delete(entry.target);
  }
  if (boxes.length) check(boxes);
}, {rootMargin: "100% 0px"});
const watch = (root) => {
  if (root.matches && root.matches(BOXES)) seen.observe(root);
  if (root.querySelectorAll) root.querySelectorAll(BOXES).forEach((box) => seen.observe(box));
};
// after the next frame is laid out: the reads cost nothing more
const later = (run) => requestAnimationFrame(() => setTimeout(run, 0));
// a box whose content a script changed (an explorer's table) is checked again; a new box is watched
let changed = null;
new MutationObserver((records) => {
  const first = changed === null;
  changed = changed || new Set();
  for (const record of records) {
    record.addedNodes.forEach((node) => { if (node.nodeType === 1) watch(node); });
    const node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
    const box = node && node.closest(BOXES);
    if (box && near.has(box)) changed.add(box);
  }
  if (first) later(() => { const boxes = [...changed]; changed = null; check(boxes); });
}).observe(main, {subtree: true, childList: true, characterData: true});
// a new window width: the boxes in view are checked again, the others are reachable until they are seen
let timer = null;
window.addEventListener("resize", () => {
  clearTimeout(timer);
  timer = setTimeout(() => {
    document.querySelectorAll(BOXES).forEach((box) => {
      if (!near.has(box) && box.matches("pre, .pst-scrollable-table-container, div.math")) box.tabIndex = 0;
    });
    later(() => check([...near]));
  }, 200);
});
// a font that comes after a box was seen (Hangul, the math font) widens its text without any mutation: the boxes in
// view are checked again once it is in
if (document.fonts) document.fonts.addEventListener("loadingdone", () => later(() => check([...near])));
watch(main);
