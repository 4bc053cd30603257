/* 학번의 변형 (이슈 40): exercises.js가 학번 칸을 처음 쓸 때 가져오는 ES 모듈.
 *
 * 번호 = FNV-1a 32(UTF-8, 학기 + "\n" + normal(학번)) mod 변형 수 — roofline.show.variants.index와 같다(학번의 해시는
 * 모델의 값이 아니다). normal은 학번 규칙 하나다: 어디에 있든 BOM·공백·보이지 않는 구분 문자를 빼고, 전각 영숫자를 반각으로,
 * 그리고 NFC(roofline.show.variants.normal과 같은 표, tests/show/identifiers.json으로 Node에서 둘을 맞춰 본다). 학기의 지문, 변형마다의 조건과 문제(문구, 분수, 판정 문구, 풀이)는 라이브러리가 빌드할 때 쓴 파일
 * (_static/variants/<장>.<지문>.json, 페이지의 data-rl-variants)에 있고, 이 스크립트는 학번으로 그중 하나를 골라 문구와
 * 고르는 문항의 보기 글을 옮기고 판정에 넘길 뿐이다. 계산표처럼 문제를 본문(data-rl-problem)에 적는 쪽이면 변형의 문제
 * (문장과 표의 행, 라이브러리가 쓴 글)를 그 자리에 보이고 본문의 것은 숨긴다. 학번은 독자의 기록(core.js의 store)에 남는다.
 */
import {el, json, store} from "./core.js";

function fnv1a(text) {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(text)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h >>> 0;
}

// roofline.show.variants.DROPPED, spelled out the same way (not \s: its class is not Python's)
// eslint-disable-next-line no-control-regex -- U+001C–U+001F are among what Python strips, on purpose
const DROPPED = /[\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u180e\u2000-\u200d\u2028\u2029\u202f\u205f\u2060\u3000\ufeff]/g;

export function normal(id) {
  const text = id === undefined || id === null ? "" : String(id);
  return text.replace(DROPPED, "")
    .replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).normalize("NFC");
}

/* the variant of an identifier among count (term: the file's hexadecimal digest) */
export const index = (term, id, count) => fnv1a(term + "\n" + normal(id)) % count;

/* The student's problem in place of the page's (`base`, a [data-rl-problem] block): its sentence and its table's
 * rows as the library wrote them; none (`problem` null) shows the page's own again. */
function placeProblem(base, id, problem) {
  const next = base.nextElementSibling;
  let own = next && next.classList.contains("rl-problem-own") ? next : null;
  base.hidden = Boolean(problem);
  if (!problem) { if (own) own.remove(); return; }
  if (!own) {
    own = el("div", {className: "rl-problem rl-problem-own"});
    base.after(own);
  }
  const row = (tag, cells) => el("tr", {}, ...cells.map((text) => el(tag, {}, text)));
  own.replaceChildren(el("p", {}, `학번 ${id}의 문제다. ${problem.text}`),
    el("table", {className: "table"}, el("thead", {}, row("th", ["항목", "값"])),
       el("tbody", {}, ...problem.rows.map((cells) => row("td", cells)))));
}

export function start(root, data, quiz) {
  const box = root.querySelector(".rl-student"), url = root.dataset.rlVariants;
  if (!box || !url) return;
  box.hidden = false;
  const field = box.querySelector("[data-rl-student]"), now = box.querySelector(".rl-student-now");
  const texts = new Map();   // question key → its text on the page (the base)
  const picks = new Map();   // a choice question's key → [its choice's value, the label's text, the base's label]
  for (const q of root.querySelectorAll("[data-rl-q]")) {
    const p = q.previousElementSibling;
    if (p && p.tagName === "P") texts.set(q.dataset.rlQ, [p, p.lastChild.textContent]);
    const labels = [...q.querySelectorAll("label.rl-pick")].map((l) => [l.querySelector("input").value, l.lastChild,
                                                                        l.lastChild.textContent]);
    if (labels.length) picks.set(q.dataset.rlQ, labels);
  }
  let file = null, shown = "";
  const load = () => (file = file || json(new URL(url, location.href)).catch((error) => { file = null; throw error; }));
  const clearAnswers = () => {
    for (const q of root.querySelectorAll("[data-rl-q]")) {
      q.querySelectorAll("input[type=text]").forEach((i) => { i.value = ""; i.removeAttribute("aria-invalid"); });
      q.querySelectorAll("input[type=radio]").forEach((r) => { r.checked = false; });
      q.querySelector("output").textContent = "";
      q.dataset.verdict = "";
      const show = q.querySelector("button.rl-show");
      if (show) show.setAttribute("aria-expanded", "false");
      delete q.dataset.solution;
    }
    root.querySelectorAll(".rl-solution").forEach((s) => { s.hidden = true; s.textContent = ""; });
  };
  const use = (id, variant) => {
    quiz.questions = variant ? variant.questions : data.questions;
    quiz.mistakes = variant ? variant.mistakes : data.mistakes;   // a variant's questions index its own messages
    for (const [key, [p, base]] of texts) {
      p.lastChild.textContent = " " + (variant ? variant.questions[key].ask : base.replace(/^ /, ""));
    }
    for (const [key, labels] of picks) {
      const own = variant && new Map(variant.questions[key].choices);
      for (const [value, text, base] of labels) text.textContent = own ? " " + own.get(value) : base;
    }
    const base = document.querySelector("[data-rl-problem]");
    if (base) placeProblem(base, id, variant && variant.problem);
    clearAnswers();
    shown = id;
    root.dataset.student = id;
    field.value = id;
    now.textContent = variant ? `학번 ${id}의 문제다. 바뀐 조건: ${variant.conditions}` : "";
  };
  const apply = (id) => {
    id = normal(id);
    if (id === shown) return Promise.resolve();
    if (!id) { use("", null); return Promise.resolve(); }
    return load().then((f) => {
      const n = f.variants.length;
      const i = index(f.term, id, n);
      use(id, f.variants[i]);
      root.dataset.variant = String(i);
    }).catch(() => { now.textContent = "변형 문제를 받지 못했다. 연결을 확인하고 다시 적용하자."; });
  };
  const set = () => {
    const id = normal(field.value);
    apply(id).then(() => { if (store.student() !== shown) store.setStudent(shown); });
  };
  field.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); set(); } });
  box.querySelector("[data-rl-student-set]").addEventListener("click", set);
  box.querySelector("[data-rl-student-clear]").addEventListener("click", () => {
    field.value = "";
    set();
    field.focus();
  });
  apply(store.student());
  store.listen((kind) => { if (["student", "other-tab", "reset"].includes(kind)) apply(store.student()); });
  return {set};
}
