// 폰처럼 좁은 화면에서 옆으로 스크롤하는 긴 수식 상자에 키보드로 갈 수 있게 한다(넘칠 때만 tab 정지점).
// 테마의 스크립트가 표·코드 상자에 하는 일과 같다. tests/test_a11y.py가 확인한다.
// 상자의 너비를 읽으면 그 절을 배치해야 하므로(화면 밖의 절은 배치를 미룬다: responsive.css), 상자가 화면 가까이
// (두 화면 안) 올 때 읽는다: 첫 화면 뒤에 장 전체를 배치하는 긴 작업이 없다.
(() => {
  const check = (box) => {
    if (box.scrollWidth > box.clientWidth + 1) box.tabIndex = 0;
    else box.removeAttribute("tabindex");
  };
  const boxes = () => document.querySelectorAll(".bd-article div.math");
  if (!window.IntersectionObserver) {
    const all = () => boxes().forEach(check);
    window.addEventListener("resize", all);
    window.addEventListener("load", all);
    return;
  }
  const near = new IntersectionObserver((entries) => {
    entries.forEach((e) => { if (e.isIntersecting) check(e.target); });
  }, {rootMargin: "200% 0px"});
  const observe = () => boxes().forEach((box) => { near.unobserve(box); near.observe(box); });
  let timer = null;
  window.addEventListener("resize", () => { clearTimeout(timer); timer = setTimeout(observe, 200); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", observe);
  else observe();
})();
