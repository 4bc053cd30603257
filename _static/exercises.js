/* 스스로 확인하는 문제 (4주차 안내의 계산표, 각 장 끝의 연습 문제).
 *
 * 답은 빌드할 때 강의 라이브러리가 정확한 분수(분자, 분모)나 고르는 문제의 보기 이름으로 계산해 페이지의
 * <script type="application/json" class="rl-quiz-data">에 넣어 두었고, 판정 문구와 풀이(식, 숫자를 넣은 식,
 * 중간값, 답: 라이브러리가 형식까지 맞춘 글)도 거기 있다. 이 스크립트는 모델의 값을 계산하지 않는다: 적은 값의
 * 판정은 judge.js(라이브러리의 judge와 같은 규칙)가 하고, 이 스크립트는 칸과 풀이를 놓고 판정을 독자의
 * 기록(core.js의 store)에 적는다. 판정한 뒤에는 섹션에 "rl-verdict" 이벤트를 보낸다.
 */
import {el, pageName, store} from "./core.js";
import {verdict} from "./judge.js";

/* 풀이: 라이브러리가 적은 줄들을 번호 목록으로, 마지막에 답 */
function showSolution(root, box, item) {
  // 계산표의 칸은 좁아서, 풀이는 누른 칸의 줄 바로 아래에 표 폭의 줄 하나로 보인다(첫 줄에 어느 칸인지 적는다).
  const place = box.querySelector(".rl-solution") || root.querySelector(".rl-sheet-solution");
  const line = box.closest("tr");
  if (!box.contains(place) && line) {
    const row = root.querySelector("tr.rl-sol-row") || el("tr", {className: "rl-sol-row"}, el("td"));
    row.firstChild.colSpan = line.children.length;
    line.after(row);
    row.firstChild.append(place);
  }
  const parts = [];
  if (place.classList.contains("rl-sheet-solution")) {
    parts.push(el("p", {className: "rl-solution-title"}, box.querySelector("button.rl-show").getAttribute("aria-label")));
  }
  if (item.steps.length) parts.push(el("ol", {}, ...item.steps.map((step) => el("li", {}, step))));
  parts.push(el("p", {className: "rl-solution-answer"}, item.answer));
  place.replaceChildren(...parts);
  place.hidden = false;
  box.dataset.solution = "shown";
}

function start(root) {
  const data = JSON.parse(root.querySelector("script.rl-quiz-data").textContent);
  const select = root.querySelector("[data-rl-digits]");
  const digits = () => (select ? Number(select.value) : data.digits);
  root.querySelectorAll(".rl-quiz-rule[hidden]").forEach((rule) => { rule.hidden = false; });
  root.classList.add("rl-live");
  // the base questions and their mistakes' messages, or a student's variant's (students())
  const quiz = {questions: data.questions, mistakes: data.mistakes};

  for (const box of root.querySelectorAll("[data-rl-q]")) {
    const item = () => quiz.questions[box.dataset.rlQ];
    const input = box.querySelector("input[type=text]");
    const radios = [...box.querySelectorAll("input[type=radio]")];
    const out = box.querySelector("output");
    const show = box.querySelector("button.rl-show");
    const typed = () => (input ? input.value.trim() : (radios.find((r) => r.checked) || {value: ""}).value);
    const judge = () => {
      const text = typed();
      if (!text) { out.textContent = ""; box.dataset.verdict = ""; return; }
      const v = verdict({...data, mistakes: quiz.mistakes}, item(), text, digits());
      out.textContent = v.message;
      box.dataset.verdict = v.right ? "right" : "again";
      if (input) input.setAttribute("aria-invalid", v.right ? "false" : "true");
      root.dispatchEvent(new CustomEvent("rl-verdict", {detail: {key: box.dataset.rlQ, typed: text, ...v}}));
    };
    if (input) {
      input.addEventListener("keydown", (e) => {
        if (e.key === "Enter") { e.preventDefault(); judge(); }
      });
      input.addEventListener("change", judge);
    }
    radios.forEach((r) => r.addEventListener("change", judge));
    show.addEventListener("click", () => {   // 풀이와 답은 눌렀을 때만 페이지에 들어간다
      showSolution(root, box, item());
      show.setAttribute("aria-expanded", "true");
    });
    show.setAttribute("aria-expanded", "false");
  }
  if (select) {
    select.addEventListener("change", () => {
      root.querySelectorAll("[data-rl-q] input[type=text]").forEach((input) => {
        if (input.value.trim()) input.dispatchEvent(new Event("change"));
      });
    });
  }
  record(root);
  students(root, data, quiz);
}

/* 판정한 답마다 독자의 기록(core.js의 store)에 한 줄: 그때의 학번은 기록이 적는다 */
function record(root) {
  const last = new Map();   // a field judged on Enter and again on leaving it (change) is one try
  root.addEventListener("rl-verdict", (e) => {
    const v = e.detail, kind = v.mistake || v.kind, mark = `${root.dataset.student || ""}\n${v.typed}`;
    if (last.get(v.key) === mark) return;
    last.set(v.key, mark);
    store.answer({page: pageName(), exercise: v.key, typed: v.typed, right: v.right,
      reason: kind ? `mistake:${kind}` : v.reason});
  });
}

/* 학번 칸(roofline.show.exercises.student_box): 처음 쓸 때, 또는 이 브라우저에 학번이 있을 때 variants.js를 받아
 * 그 학생의 변형을 보인다(첫 방문의 바이트는 그대로). */
let variants = null;   // the module, once it is here

function students(root, data, quiz) {
  const box = root.querySelector(".rl-student");
  if (!box || !root.dataset.rlVariants) return;
  box.hidden = false;
  let started = false, pending = false;
  const early = (e) => {   // Enter or a button before the script is here: done once it is
    if (variants || !(e.type === "click" ? e.target.closest("button") : e.key === "Enter")) return;
    e.preventDefault();
    if (e.target.closest("[data-rl-student-clear]")) box.querySelector("[data-rl-student]").value = "";
    pending = true;
  };
  box.addEventListener("keydown", early);
  box.addEventListener("click", early);
  const go = () => {
    if (started) return;
    started = true;
    import("./variants.js").then((module) => {
      variants = module;
      const api = module.start(root, data, quiz);
      if (pending) api.set();
    });
  };
  box.addEventListener("focusin", go);
  if (store.student()) go();
  store.listen(() => { if (store.student()) go(); });
}

document.querySelectorAll("[data-rl-quiz]").forEach(start);
