/* 오프라인 읽기: 사이트의 서비스 워커(../sw.js, tools/coursebook/offline.py가 빌드에서 쓴다)를 등록하고,
 * 새 판이 받아졌으면 "새 판이 있다 — 다시 불러오기"를 보이고, 첫 페이지의 "오프라인으로 모두 받아 두기"를 움직인다.
 * 크기는 빌드가 적은 글자(data-*-bytes는 진행 막대의 최댓값)이고, 이 스크립트는 아무것도 계산하지 않는다.
 */
(function () {
  "use strict";

  // the site's pages name the manifest (tools/coursebook/offline.py); the print edition has no worker
  if (!("serviceWorker" in navigator) || !window.caches || !document.querySelector('link[rel="manifest"]')) return;
  const script = document.currentScript || document.querySelector('script[src*="offline.js"]');
  const workerURL = new URL("../sw.js", script.src);

  function el(tag, props, ...children) {
    const node = Object.assign(document.createElement(tag), props || {});
    node.append(...children);
    return node;
  }

  function style() {
    if (document.getElementById("rl-offline-style")) return;
    document.head.append(el("style", {id: "rl-offline-style", textContent: `
.rl-update{position:fixed;inset:auto 1rem 1rem auto;z-index:1050;max-width:24rem;padding:.75rem 1rem;border-radius:.5rem;
  background:var(--pst-color-on-background,#fff);color:var(--pst-color-text-base,#222);
  border:1px solid var(--pst-color-border,#bbb);box-shadow:0 .25rem 1rem rgba(0,0,0,.25)}
.rl-update button,.rl-offline button{margin:.25rem .5rem .25rem 0;padding:.3rem .8rem;border-radius:.3rem;cursor:pointer;
  font:inherit;color:var(--pst-color-text-base,#222);background:var(--pst-color-surface,#f3f4f5);
  border:1px solid var(--pst-color-primary,#0a7d91)}
.rl-update button:focus-visible,.rl-offline button:focus-visible{outline:2px solid var(--pst-color-primary,#0a7d91);outline-offset:2px}
.rl-offline progress{vertical-align:middle;width:12rem;max-width:60%}`}));
  }

  function ask(worker, message, onReply) {
    return new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => {
        if (onReply) onReply(event.data);
        if (!onReply || event.data.finished || event.data.error || event.data.done === true) resolve(event.data);
      };
      worker.postMessage(message, [channel.port2]);
    });
  }

  /* "새 판이 있다 — 다시 불러오기": the new build is whole in its own cache; pressing swaps it in and reloads. */
  function offerUpdate(waiting) {
    if (document.querySelector(".rl-update")) return;
    style();
    const button = el("button", {type: "button"}, "다시 불러오기");
    const box = el("div", {className: "rl-update", role: "status"},
      el("p", {style: "margin:0 0 .25rem"}, "새 판이 있다 — 다시 불러오기를 누르면 새 판으로 바뀐다."), button);
    button.addEventListener("click", () => {
      button.disabled = true;
      waiting.postMessage({type: "skip"});
    });
    document.body.append(box);
  }

  let reloading = false;
  function watch(registration) {
    const hadController = Boolean(navigator.serviceWorker.controller);
    navigator.serviceWorker.addEventListener("controllerchange", () => {
      if (hadController && !reloading) { reloading = true; location.reload(); }
    });
    const check = () => { if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration.waiting); };
    registration.addEventListener("updatefound", () => {
      const installing = registration.installing;
      if (installing) installing.addEventListener("statechange", check);
    });
    check();
  }

  function landing(registration) {
    const box = document.querySelector(".rl-offline");
    if (!box) return;
    style();
    box.hidden = false;
    const progress = box.querySelector(".rl-offline-progress");
    const status = box.querySelector(".rl-offline-status");
    const buttons = [...box.querySelectorAll("button")];
    const show = (info) => {
      if (info.all) status.textContent = info.live ? "사이트 전체와 실시간 계산을 이 기기에 받아 두었다."
                                                   : "사이트 전체를 이 기기에 받아 두었다.";
    };
    navigator.serviceWorker.ready.then((ready) => ask(ready.active, {type: "status"}, null)).then(show);
    for (const button of buttons) {
      const live = button.classList.contains("rl-offline-live");
      button.addEventListener("click", async () => {
        const worker = (await navigator.serviceWorker.ready).active;
        buttons.forEach((b) => { b.disabled = true; });
        progress.hidden = false;
        progress.max = Number(box.dataset.siteBytes) + (live ? Number(box.dataset.liveBytes) : 0);
        progress.value = 0;
        status.textContent = "받는 중";
        const reply = await ask(worker, {type: "keep-all", live}, (data) => {
          if (data.bytes !== undefined) progress.value = data.bytes;
        });
        progress.hidden = true;
        buttons.forEach((b) => { b.disabled = false; });
        if (reply.error) status.textContent = `다 받지 못했다. 인터넷 연결을 확인하고 다시 누르자. (${reply.error})`;
        else show({all: true, live});
      });
    }
  }

  navigator.serviceWorker.register(workerURL.href, {scope: new URL("./", workerURL).href}).then((registration) => {
    watch(registration);
    landing(registration);
    // this page and what it needs, kept now (the worker also keeps every page fetched through it)
    navigator.serviceWorker.ready.then((ready) => ask(ready.active, {type: "keep-page", url: location.href}, null));
  }).catch(() => {});
})();
