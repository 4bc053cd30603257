/* 오프라인 읽기: 사이트의 서비스 워커(../sw.js)를 등록한다. 모든 페이지가 받으므로 이것만 하고, 새 판의 안내와
 * 첫 페이지의 "오프라인으로 모두 받아 두기"는 그때 offline-ui.js를 불러 움직인다. 빌드(tools/coursebook/offline.py)가
 * 이 파일을 주석 없이 줄여 싣는다.
 */
const sw = navigator.serviceWorker, url = new URL("../sw.js", import.meta.url);
// (offline-ui.js is written by the build after the page scripts: beside this file, named as it is)
const ui = (use) => import(new URL("offline-ui.js", import.meta.url)).then(use, () => {});

// the site's pages name the manifest; the print edition has no worker
if (sw && document.querySelector('link[rel="manifest"]')) start();

function start() {
  let reload = !!sw.controller;    // a new edition swapped in under this page: show it
  sw.oncontrollerchange = () => reload && (reload = false, location.reload());
  // registered once the page has loaded and the browser is idle: installing, the worker fetches the site's shell
  // and keeps what the page loaded, work that would otherwise share a phone's CPU and link with the first paint
  // and with the theme's layout reads at the load event
  const idle = () => (window.requestIdleCallback || setTimeout)(register, {timeout: 2000});
  if (document.readyState === "complete") idle();
  else addEventListener("load", idle, {once: true});
  // the landing page's control: shown here, its script loaded when it is used (or, once the worker serves this
  // page, to say what is kept). A press counts even before the script has come.
  const box = document.querySelector(".rl-offline");
  if (box) {
    box.hidden = false;
    const use = (event) => ui((m) => m.landing(box, event && event.target.closest("button")));
    box.addEventListener("click", use);
    if (sw.controller) use();
  }
}

function register() {
  sw.register(url, {scope: new URL("./", url).href}).then((reg) => {
    if (!reg) return;   // a browser set to refuse workers can answer with no registration: the page reads on as it is
    const check = () => reg.waiting && sw.controller && ui((m) => m.offerUpdate(reg.waiting));
    reg.onupdatefound = () => reg.installing && (reg.installing.onstatechange = check);
    check();
    // this page, what it needs and what it loaded, kept now (the worker also keeps all it serves)
    sw.ready.then((ready) => ready.active.postMessage({type: "keep-page", url: location.href,
      loaded: performance.getEntriesByType("resource").map((e) => e.name)}));
  }, () => {});
}
