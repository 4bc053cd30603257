// 주소의 # 뒤가 가리키는 곳(다른 페이지의 용어, 절로 가는 링크)에 정확히 선다.
// 첫 화면 밖의 절은 화면에 가까워질 때에야 배치되므로(responsive.css의 content-visibility), 브라우저가 처음 스크롤한
// 자리는 그 위 절들의 어림 높이로 셈한 것이다. 그 절들이 그려진 뒤 그 자리가 멈출 때까지 다시 그 자리로 간다.
const settle = () => {
  let id;
  try { id = decodeURIComponent(location.hash.slice(1)); } catch { return; }
  const target = id && document.getElementById(id);
  if (!target) return;
  // each time the sections near the target are drawn they take their real height: go again until it holds still
  let tries = 6;
  let last = null;
  const step = () => {
    const top = Math.round(target.getBoundingClientRect().top);
    if (top === last || !tries--) return;
    target.scrollIntoView();
    last = Math.round(target.getBoundingClientRect().top);
    requestAnimationFrame(() => requestAnimationFrame(step));
  };
  requestAnimationFrame(() => requestAnimationFrame(step));
};
if (document.readyState === "complete") settle();
else window.addEventListener("load", settle, {once: true});
window.addEventListener("hashchange", settle);
