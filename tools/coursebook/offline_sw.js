/* 강의 사이트의 서비스 워커 (tools/coursebook/offline.py가 빌드마다 BUILD 한 줄을 앞에 붙여 sw.js로 쓴다).
 *
 * - 캐시는 빌드마다 하나: "rl-<빌드 요약값>". 읽은 페이지는 그 페이지에 필요한 파일(BUILD.pages)과 함께 이 캐시에
 *   담기고, 캐시에 있는 파일은 네트워크 없이 나온다. 네트워크에서 받은 파일은 BUILD.files의 sha-256과 맞을 때만
 *   쓰고 담는다: 서버가 이미 새 판이면 옛 판의 페이지 옆에 새 판의 파일이 섞이지 않는다.
 * - 새 판(새 sw.js)은 옛 캐시 옆에 새 캐시를 통째로 채운 뒤(옛 판에서 바뀌지 않은 파일은 옛 캐시에서 옮긴다)
 *   기다린다. 독자가 "다시 불러오기"를 누르면 한꺼번에 바뀌고, 옛 캐시는 지운다.
 * - 받아 두지 않은 페이지를 네트워크 없이 열면 그렇다고 적은 짧은 페이지를 보인다.
 */
"use strict";

const PREFIX = "rl-";
const CACHE = PREFIX + BUILD.digest;
const SCOPE = new URL("./", self.location.href).href;
const META = SCOPE + "__rl-build.json";     // 이 캐시의 판: 파일 목록과 "모두", "실시간 계산" 표시
const FILES = new Map(BUILD.files.map(([name, hash, size]) => [name, {hash, size}]));
const NAMES = BUILD.files.map(([name]) => name);

function keyOf(url) {
  const u = new URL(url, SCOPE);
  if (!u.href.startsWith(SCOPE)) return null;
  let path = decodeURIComponent(u.pathname.slice(new URL(SCOPE).pathname.length));
  if (path === "" || path.endsWith("/")) path += "index.html";
  return path;
}

async function hashOf(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return btoa(String.fromCharCode(...digest.slice(0, 6))).replace(/\+/g, "-").replace(/\//g, "_");
}

class Stale extends Error {}

/* The file of this build from the network, checked against its hash; a Response to keep. The browser's HTTP
 * cache is tried first (a page just loaded is there on a server that allows caching), then the server itself. */
async function fetchChecked(name) {
  for (const mode of ["default", "no-cache"]) {
    const response = await fetch(SCOPE + name, {cache: mode});
    if (!response.ok) throw new Stale(`${name}: ${response.status}`);
    const buffer = await response.arrayBuffer();
    if ((await hashOf(buffer)) !== FILES.get(name).hash) continue;
    const headers = new Headers();
    if (response.headers.has("content-type")) headers.set("content-type", response.headers.get("content-type"));
    return new Response(buffer, {status: 200, headers});
  }
  self.registration.update().catch(() => {});
  throw new Stale(`${name}: 다른 판`);
}

async function meta(cache) {
  const found = await cache.match(META);
  return found ? found.json() : {digest: BUILD.digest, files: {}, all: false, live: false};
}

async function setMeta(cache, change) {
  const now = Object.assign(await meta(cache), change);
  await cache.put(META, new Response(JSON.stringify(now), {headers: {"content-type": "application/json"}}));
}

/* Keep `names` in this build's cache: from an old build's cache when its bytes are the same, else the network;
 * a file being fetched for one request is not fetched again for another. */
let olds = null;
const pending = new Map();
function keepOne(cache, name) {
  if (!pending.has(name)) {
    pending.set(name, (async () => {
      if (await cache.match(SCOPE + name)) return;
      let response = null;
      for (const old of olds || []) {
        if (old.files[name] === FILES.get(name).hash && (response = await old.cache.match(SCOPE + name))) break;
      }
      await cache.put(SCOPE + name, response || await fetchChecked(name));
    })().finally(() => pending.delete(name)));
  }
  return pending.get(name);
}

async function keep(names, progress) {
  const cache = await caches.open(CACHE);
  let done = 0, bytes = 0;
  const queue = [...new Set(names)].filter((name) => FILES.has(name));
  const total = queue.length;
  const workers = Array.from({length: 4}, async () => {
    while (queue.length) {
      const name = queue.shift();
      await keepOne(cache, name);
      done += 1;
      bytes += FILES.get(name).size;
      if (progress) progress(done, total, bytes);
    }
  });
  await Promise.all(workers);
}

function needsOf(page) {
  return [page, ...(BUILD.pages[page] || []).map((n) => NAMES[n])];
}

const siteNames = () => NAMES.filter((n) => !n.startsWith(BUILD.live));
const liveNames = () => NAMES.filter((n) => n.startsWith(BUILD.live));

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    olds = [];
    const wanted = [];
    let all = false, live = false;
    for (const name of await caches.keys()) {
      if (!name.startsWith(PREFIX) || name === CACHE) continue;
      const old = await caches.open(name);
      const info = await meta(old);
      olds.push({cache: old, files: info.files || {}});
      all = all || info.all;
      live = live || info.live;
      for (const request of await old.keys()) {
        const key = keyOf(request.url);
        if (key && FILES.has(key)) wanted.push(...(key.endsWith(".html") ? needsOf(key) : [key]));
      }
    }
    const files = Object.fromEntries(BUILD.files.map(([name, hash]) => [name, hash]));
    await setMeta(cache, {digest: BUILD.digest, files, all, live});
    // the new build whole, beside the old one: what the reader had kept, in this build's bytes
    await keep([...wanted, ...(all ? siteNames() : []), ...(live ? liveNames() : [])]);
    const first = !olds.length;
    olds = null;
    if (first) await self.skipWaiting();   // the first worker: nothing to swap
  })().catch(async (error) => { await caches.delete(CACHE); throw error; }));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
    // the pages open before the worker was there: keep them too
    const pages = (await self.clients.matchAll({type: "window"})).map((c) => keyOf(c.url)).filter((k) => FILES.has(k));
    // and the site root (a page that sends the reader to the landing page), so the site's address opens offline too
    await keep([...pages.flatMap(needsOf), "index.html"]).catch(() => {});
  })());
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  const port = event.ports[0];
  const reply = (message) => port && port.postMessage(message);
  if (data.type === "skip") {
    self.skipWaiting();
  } else if (data.type === "keep-page") {
    const key = keyOf(data.url);
    event.waitUntil(keep(FILES.has(key) ? needsOf(key) : []).then(() => reply({done: true}), (e) => reply({error: String(e)})));
  } else if (data.type === "keep-all") {
    const names = data.live ? [...siteNames(), ...liveNames()] : siteNames();
    event.waitUntil((async () => {
      try {
        await keep(names, (done, total, bytes) => reply({done, total, bytes}));
        const cache = await caches.open(CACHE);
        await setMeta(cache, data.live ? {all: true, live: true} : {all: true});
        reply({finished: true});
      } catch (error) {
        reply({error: String(error)});
      }
    })());
  } else if (data.type === "status") {
    event.waitUntil((async () => {
      const cache = await caches.open(CACHE);
      const info = await meta(cache);
      reply({digest: BUILD.digest, all: info.all, live: info.live});
    })());
  }
});

/* For the notice of a new edition: a button that swaps the new worker in (once it is whole) and reloads. */
const SWAP = `<p><button type="button" id="rl-swap">다시 불러오기</button></p><script>
document.getElementById("rl-swap").addEventListener("click", async () => {
const sw = navigator.serviceWorker, r = await sw.getRegistration();
sw.addEventListener("controllerchange", () => location.reload());
if (r && r.waiting) r.waiting.postMessage({type: "skip"}); else location.reload(); });</script>`;

function notice(title, text, kept, extra = "") {
  const links = kept.map(([href, name]) => `<li><a href="${href}">${name}</a></li>`).join("");
  const body = `<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
<style>:root{color-scheme:light dark}body{font:1rem/1.6 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}
a{color:#0a5fb4}@media (prefers-color-scheme:dark){body{background:#14181e;color:#ced6dd}a{color:#8ab4f8}}</style>
</head><body><main><h1>${title}</h1><p>${text}</p>${extra}${links ? `<h2>이 기기에 받아 둔 페이지</h2><ul>${links}</ul>` : ""}
</main></body></html>`;
  return new Response(body, {status: 503, headers: {"content-type": "text/html; charset=utf-8"}});
}

async function keptPages(cache) {
  const pages = [];
  for (const request of await cache.keys()) {
    const key = keyOf(request.url);
    if (key && key.endsWith(".html") && key !== "index.html") pages.push(key);
  }
  const names = [];
  for (const key of pages.sort()) {
    const text = await (await cache.match(SCOPE + key)).text();
    const title = (text.match(/<title>([^<]*)<\/title>/) || [, key])[1];
    names.push([SCOPE + key, title]);
  }
  return names;
}

async function answer(request, key) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(SCOPE + key);
  if (hit) return hit;
  try {
    await keepOne(cache, key);
    if (request.mode === "navigate" && key.endsWith(".html")) keep(needsOf(key)).catch(() => {});
    const kept = await cache.match(SCOPE + key);
    if (!kept) throw new Stale(key);
    return kept;
  } catch (error) {
    if (request.mode !== "navigate") return Response.error();
    if (error instanceof Stale) {
      return notice("새 판이 있다 — 다시 불러오기",
        "사이트가 새 판으로 바뀌어, 이 기기에 받아 둔 판에는 이 페이지가 없다. 새 판을 다 받으면 아래 " +
        "\"다시 불러오기\"로 새 판이 열린다.", await keptPages(cache), SWAP);
    }
    return notice("이 페이지는 이 기기에 받아 두지 않았다",
      "인터넷에 연결되어 있지 않고, 이 페이지는 아직 연 적이 없어 기기에 없다. 인터넷에 다시 연결되면 열린다. " +
      "첫 페이지의 \"오프라인으로 모두 받아 두기\"를 누르면 사이트 전체를 받아 둔다.", await keptPages(cache));
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const key = keyOf(request.url);
  if (!key || !FILES.has(key)) return;
  event.respondWith(answer(request, key));
});
