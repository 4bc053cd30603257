/* 오프라인 읽기의 보이는 부분 (tools/coursebook/offline.py가 빌드마다 _static/offline-ui.js로 쓴다).
 *
 * 모든 페이지에 실리는 _static/offline.js는 워커를 등록만 하고, 이 모듈은 필요할 때만 불러온다: 새 판이 받아졌을 때의
 * "새 판이 있다 — 다시 불러오기"(offerUpdate)와 첫 페이지의 "오프라인으로 모두 받아 두기"(landing). 크기는 빌드가
 * 적은 글자이고, 이 모듈은 아무것도 계산하지 않는다(진행 막대는 받아 둔 파일의 수).
 */
const LIVE = "_static/live/";     // the live mode's files (offline.py LIVE): kept with the second button only

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
.rl-update button{margin:.25rem .5rem .25rem 0;padding:.3rem .8rem;border-radius:.3rem;cursor:pointer;
font:inherit;color:var(--pst-color-text-base,#222);background:var(--pst-color-surface,#f3f4f5);
border:1px solid var(--pst-color-primary,#0a7d91)}
.rl-update button:focus-visible{outline:2px solid var(--pst-color-primary,#0a7d91);outline-offset:2px}`}));
}

/* One reply of the worker to `message`. */
function ask(worker, message) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data);
    worker.postMessage(message, [channel.port2]);
  });
}

/* The worker's cache of this build, its record (sw.js's META: the file list, "all", "live") and the names in that
 * list (decoded as sw.js decodes it). */
async function edition() {
  const worker = (await navigator.serviceWorker.ready).active;
  const name = await ask(worker, {type: "cache"});
  const scope = new URL("./", worker.scriptURL).href, key = scope + "__rl-build.json";
  const cache = await caches.open(name);
  const info = await (await cache.match(key) || new Response("{}")).json();
  const names = [];
  let last = "";
  for (const line of info.files ? info.files.split("\n") : []) {
    const coded = line.split(" ")[0];
    names.push(last = last.slice(0, parseInt(coded[0], 36)) + coded.slice(1));
  }
  return {scope, names, info, mark: (change) => cache.put(key, new Response(JSON.stringify({...info, ...change})))};
}

/* Every file of `names` fetched through the worker, four at a time: the worker keeps each (checked against this
 * build's list) before it answers. */
async function fetchAll(scope, names, progress) {
  const queue = [...names];
  let done = 0;
  await Promise.all([1, 2, 3, 4].map(async () => {
    while (queue.length) {
      const response = await fetch(scope + queue.shift());
      if (!response.ok) throw new Error(`${response.status} ${response.url}`);
      response.body && response.body.cancel();
      progress(++done, names.length);
    }
  }));
}

/* "새 판이 있다 — 다시 불러오기": the new build is whole in its own cache; pressing swaps it in (offline.js reloads). */
export function offerUpdate(waiting) {
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

/* The landing page's "오프라인으로 모두 받아 두기" and "실시간 계산까지 받아 두기" (offline.js shows the box and
 * calls this on each click in it, and once on load when the worker serves the page); `pressed`: the button clicked. */
export async function landing(box, pressed) {
  box.rlKeep = box.rlKeep || control(box);
  if (pressed) box.rlKeep.press(pressed.hasAttribute("data-live"));
  else box.rlKeep.tell((await edition()).info, false);
}

/* The control's progress line, made here, not in the page (the landing page's first visit is smaller): `press` keeps
 * the files, `tell` says what is kept (`over`: even over what the line says now). */
function control(box) {
  const line = el("span");
  line.setAttribute("role", "status");
  const progress = el("progress", {max: 1, hidden: true});
  box.append(el("p", {}, progress, " ", line));
  const buttons = [...box.querySelectorAll("button")];
  const tell = (info, over) => {
    if (info.all && (over || !line.textContent)) {
      line.textContent = info.live ? "사이트 전체와 실시간 계산을 이 기기에 받아 두었다." : "사이트 전체를 이 기기에 받아 두었다.";
    }
  };
  const press = async (live) => {
    if (buttons.some((b) => b.disabled)) return;   // already at it
    buttons.forEach((b) => { b.disabled = true; });
    progress.hidden = false;
    progress.value = 0;
    line.textContent = "받는 중";
    let failed = null;
    try {
      const {scope, names, mark} = await edition();
      await fetchAll(scope, names.filter((name) => live || !name.startsWith(LIVE)), (done, total) => {
        progress.max = total;
        progress.value = done;
      });
      await mark(live ? {all: true, live: true} : {all: true});
    } catch (error) {
      failed = error;
    }
    progress.hidden = true;
    buttons.forEach((b) => { b.disabled = false; });
    if (failed) line.textContent = `다 받지 못했다. 인터넷 연결을 확인하고 다시 누르자. (${failed.message})`;
    else tell({all: true, live}, true);
  };
  return {press, tell};
}
