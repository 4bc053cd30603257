/* 강의 사이트의 서비스 워커 (tools/coursebook/offline.py가 빌드마다 BUILD 한 줄을 앞에 붙여 sw.js로 쓴다).
 *
 * - 캐시는 빌드마다 하나: "rl-<빌드 요약값>". 읽은 페이지는 그 페이지에 필요한 파일(BUILD.pages)과 함께 이 캐시에
 *   담기고, 캐시에 있는 파일은 네트워크 없이 나온다. 네트워크에서 받은 파일은 BUILD.files의 sha-256과 맞을 때만
 *   쓰고 담는다: 서버가 이미 새 판이면 옛 판의 페이지 옆에 새 판의 파일이 섞이지 않는다.
 * - 새 판(새 sw.js)은 옛 캐시 옆에 새 캐시를 통째로 채운 뒤(옛 판에서 바뀌지 않은 파일은 옛 캐시에서 옮긴다)
 *   기다린다. 독자가 "다시 불러오기"를 누르면 한꺼번에 바뀌고, 옛 캐시는 지운다.
 * - 받아 두지 않은 페이지를 네트워크 없이 열면 그렇다고 적은 짧은 페이지를 보인다.
 * 첫 방문마다 받는 파일이므로 짧게 쓴다(offline.py의 compact가 주석과 들여쓰기를 뺀다). BUILD의 모양은
 * offline.py의 worker_data가 말한다.
 */
const PREFIX = "rl-", CACHE = PREFIX + BUILD.digest, SCOPE = new URL("./", location).href, on = addEventListener;
// this build's cache, opened once (every request asked it again: a round trip to the browser's storage each)
let opened = null;
const mine = () => (opened = opened || caches.open(CACHE));
// this cache's edition: its file list and whether all or the live mode are kept (written by offline_ui.js too)
const META = SCOPE + "__rl-build.json";

/* name → hash of a file list as offline.front_coded writes it (this build's, or an old one's from its META;
 * offline_ui.js decodes it the same way) */
function decode(list) {
  const files = new Map();
  let name = "";
  for (const line of list ? list.split("\n") : []) {
    const [coded, hash] = line.split(" ");
    files.set(name = name.slice(0, parseInt(coded[0], 36)) + coded.slice(1), hash);
  }
  return files;
}

const FILES = decode(BUILD.files), NAMES = [...FILES.keys()];
const named = (list) => (list ? list.split(",").map((n) => NAMES[parseInt(n, 36)]) : []);
const COMMON = named(BUILD.common);
const live = (name) => name.startsWith(BUILD.live);
// data a page fetches when the reader asks (a number's derivations, the predict parts, a student's variants): not
// in the list, but named by their content's digest, so a file of that name never changes; kept once fetched
const ASKED = /^_static\/(why|variants|states)\/.+\.[0-9a-f]{12}\.json$/;

function keyOf(url) {
  const u = new URL(url, SCOPE);
  if (!u.href.startsWith(SCOPE)) return null;
  const path = u.href.slice(SCOPE.length).split(/[?#]/)[0];    // the site's names are ASCII
  return path === "" || path.endsWith("/") ? path + "index.html" : path;
}

class Stale extends Error {}

/* The file of this build from the network, checked against its hash; a Response to keep. The browser's HTTP
 * cache is tried first (a page just loaded is there on a server that allows caching), then the server itself. */
async function fetchChecked(name) {
  const want = FILES.get(name) || "";   // "": asked-for data, named by its digest (ASKED), taken as it comes
  for (const cache of ["default", "no-cache"]) {
    const r = await fetch(SCOPE + name, {cache});
    if (!r.ok) throw new Stale(name);
    const body = await r.arrayBuffer();
    // only its type: the body is decoded already (a Content-Encoding kept here would lie)
    const kept = () => new Response(body, {headers: {"content-type": r.headers.get("content-type") || ""}});
    if (!want) return kept();   // (its name is its digest: nothing to check it against)
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
    const hash = btoa(String.fromCharCode(...digest.slice(0, 6))).replace(/\+/g, "-").replace(/\//g, "_");
    if (hash.startsWith(want)) return kept();
  }
  registration.update().catch(() => {});
  throw new Stale(name);
}

const meta = async (cache) => (await cache.match(META) || new Response("{}")).json();
const setMeta = async (cache, change) => cache.put(META, new Response(JSON.stringify({...await meta(cache), ...change})));

/* Keep one file in this build's cache: from an old build's cache when its bytes are the same, else the network;
 * a file being fetched for one request is not fetched again for another. {got: its Response, or null when it was
 * kept already, kept: done when it is in the cache}: a page waiting for the file is answered from `got`, not after
 * the cache has written it and read it back. */
let olds = [];
const pending = new Map();
function keepOne(cache, name, missed = false) {
  if (!pending.has(name)) {
    const got = (async () => {
      if (!missed && await cache.match(SCOPE + name)) return null;   // (`missed`: the caller has just looked)
      let r;
      for (const old of olds) if (old.files.get(name) === FILES.get(name) && (r = await old.cache.match(SCOPE + name))) break;
      return r || fetchChecked(name);
    })();
    const kept = got.then((r) => r && cache.put(SCOPE + name, r.clone())).finally(() => pending.delete(name));
    pending.set(name, {got, kept});
  }
  return pending.get(name);
}

/* Keep `names`, four at a time; `progress(done, total)` after each. */
async function keep(names, progress) {
  const cache = await mine();
  const queue = [...new Set(names)].filter((name) => FILES.has(name)), total = queue.length;
  let done = 0;
  await Promise.all([1, 2, 3, 4].map(async () => {
    while (queue.length) {
      await keepOne(cache, queue.shift()).kept;
      if (progress) progress(++done, total);
    }
  }));
}

/* A page and what it needs: BUILD.pages[its index] is "+" (the files that every page of the book needs) and more. */
function needsOf(page) {
  const own = BUILD.pages[NAMES.indexOf(page).toString(36)];
  return own === undefined ? [page] : [page, ...(own[0] === "+" ? COMMON : []), ...named(own.replace("+", ""))];
}

on("install", (event) => event.waitUntil((async () => {
  const cache = await mine(), wanted = [];
  let all = false, withLive = false;
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const old = await caches.open(name), info = await meta(old);
    olds.push({cache: old, files: decode(info.files)});
    all ||= info.all;
    withLive ||= info.live;
    for (const request of await old.keys()) {
      const key = keyOf(request.url);
      if (FILES.has(key)) wanted.push(...(key.endsWith(".html") ? needsOf(key) : [key]));
    }
  }
  await setMeta(cache, {files: BUILD.files, all, live: withLive});
  // the new build whole, beside the old one: what the reader had kept, in this build's bytes
  await keep([...wanted, ...NAMES.filter((n) => live(n) ? withLive : all)]);
  if (!olds.length) await skipWaiting();   // the first worker: nothing to swap
  olds = [];
})().catch(async (error) => { opened = null; await caches.delete(CACHE); throw error; })));

on("activate", (event) => event.waitUntil((async () => {
  for (const name of await caches.keys()) if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
  await clients.claim();
  // the pages open before the worker was there
  const open = (await clients.matchAll({type: "window"})).map((c) => keyOf(c.url)).filter((k) => FILES.has(k));
  await keep(open.flatMap(needsOf)).catch(() => {});
})()));

on("message", (event) => {
  const data = event.data || {}, port = event.ports[0];
  const reply = (message) => port && port.postMessage(message);
  if (data.type === "skip") skipWaiting();
  if (data.type === "cache") reply(CACHE);
  // a page and what it needs, with what it loaded (data.loaded: its fonts, say)
  if (data.type === "keep-page") {
    const key = keyOf(data.url);
    event.waitUntil(keep([...FILES.has(key) ? needsOf(key) : [], ...(data.loaded || []).map(keyOf)])
      .then(() => reply({done: true}), (e) => reply({error: String(e)})));
  }
});

/* The worker's own page: a title, a sentence, for a new edition a button that swaps the new worker in (once it is
 * whole) and reloads, and the pages kept on this device. */
async function notice(title, text, swap) {
  const cache = await mine();
  let links = "";
  for (const request of await cache.keys()) {
    const key = keyOf(request.url);
    if (!key.endsWith(".html") || key === "index.html") continue;
    const found = (await (await cache.match(request)).text()).match(/<title>([^<]*)</);
    links += `<li><a href="${request.url}">${found ? found[1] : key}</a>`;
  }
  return new Response(`<!DOCTYPE html><html lang="ko"><meta charset="utf-8"><meta name="viewport"
content="width=device-width"><title>${title}</title><style>:root{color-scheme:light dark}</style><main><h1>${title}</h1>
<p>${text}${swap ? `<p><button id="s">다시 불러오기</button><script>s.onclick=async()=>{const w=navigator.serviceWorker,
r=await w.getRegistration();w.oncontrollerchange=()=>location.reload();r&&r.waiting?r.waiting.postMessage({type:"skip"})
:location.reload()}</script>` : ""}${links && `<h2>이 기기에 받아 둔 페이지</h2><ul>${links}</ul>`}</main>`,
    {status: 503, headers: {"content-type": "text/html;charset=utf-8"}});
}

async function answer(event, key) {
  const request = event.request, cache = await mine(), hit = await cache.match(SCOPE + key);
  if (hit) return hit;
  try {
    const {got, kept} = keepOne(cache, key, true);
    event.waitUntil(kept.catch(() => {}));
    if (request.mode === "navigate" && key.endsWith(".html")) keep(needsOf(key)).catch(() => {});
    const r = await got;   // (each request its own copy: another may share the fetch)
    const answered = r ? r.clone() : await cache.match(SCOPE + key);
    if (!answered) throw new Stale(key);
    return answered;
  } catch (error) {
    if (request.mode !== "navigate") return Response.error();
    return error instanceof Stale
      ? notice("새 판이 있다 — 다시 불러오기", "이 페이지는 새 판에만 있다: 새 판을 다 받으면 열린다.", true)
      : notice("이 페이지는 이 기기에 받아 두지 않았다", "인터넷 연결이 없고, 이 페이지는 연 적이 없다. " +
               "첫 페이지에서 사이트 전체를 받아 둘 수 있다.");
  }
}

on("fetch", (event) => {
  const key = keyOf(event.request.url);
  if (event.request.method === "GET" && (FILES.has(key) || ASKED.test(key))) event.respondWith(answer(event, key));
});
