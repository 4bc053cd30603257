// 폰처럼 좁은 화면에서 옆으로 스크롤하는 긴 수식 상자에 키보드로 갈 수 있게 한다(넘칠 때만 tab 정지점).
// 테마의 스크립트가 표·코드 상자에 하는 일과 같다. tests/test_a11y.py가 확인한다.
// 상자의 너비를 읽으면 그 절을 배치해야 하므로(화면 밖의 절은 배치를 미룬다: responsive.css), 첫 화면을 그린 뒤
// 브라우저가 한가할 때 상자 몇 개씩 읽는다: 긴 작업 하나로 페이지를 붙잡지 않는다.
(() => {
  const idle = window.requestIdleCallback || ((run) => setTimeout(() => run({timeRemaining: () => 10}), 16));
  let pending = [];
  const check = (box) => {
    if (box.scrollWidth > box.clientWidth + 1) box.tabIndex = 0;
    else box.removeAttribute("tabindex");
  };
  const step = (deadline) => {
    do check(pending.shift()); while (pending.length && deadline.timeRemaining() > 4);
    if (pending.length) idle(step);
  };
  const update = () => {
    const waiting = pending.length;
    pending = [...document.querySelectorAll(".bd-article div.math")];
    if (pending.length && !waiting) idle(step);
  };
  let timer = null;
  window.addEventListener("resize", () => { clearTimeout(timer); timer = setTimeout(update, 200); });
  if (document.readyState === "complete") update();
  else window.addEventListener("load", update);
})();
