// 폰처럼 좁은 화면에서 옆으로 스크롤하는 긴 수식 상자에 키보드로 갈 수 있게 한다(넘칠 때만 tab 정지점).
// 테마의 스크립트가 표·코드 상자에 하는 일과 같다. tests/test_a11y.py가 확인한다.
(() => {
  const update = () => {
    document.querySelectorAll(".bd-article div.math").forEach((box) => {
      if (box.scrollWidth > box.clientWidth + 1) box.tabIndex = 0;
      else box.removeAttribute("tabindex");
    });
  };
  let timer = null;
  window.addEventListener("resize", () => { clearTimeout(timer); timer = setTimeout(update, 200); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", update);
  else update();
})();
