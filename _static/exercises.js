/* 스스로 확인하는 문제 (4주차 안내의 계산표, 각 장 끝의 연습 문제).
 *
 * 답은 빌드할 때 강의 라이브러리가 정확한 분수(분자, 분모)나 고르는 문제의 보기 이름으로 계산해 페이지의
 * <script type="application/json" class="rl-quiz-data">에 넣어 두었고, 판정 문구와 풀이(식, 숫자를 넣은 식,
 * 중간값, 답: 라이브러리가 형식까지 맞춘 글)도 거기 있다. 이 스크립트는 모델의 값을 계산하지 않는다.
 * 이 스크립트는 적은 값을 읽어 그 분수와 비교할 뿐이다(BigInt로 정확히). 규칙은 라이브러리의 judge(그 docstring)와
 * 같고, 두 쪽이 tests/show/judge_cases.json의 같은 표로 시험된다(Node에서 이 파일을 그대로 읽는다):
 *   유효숫자 k개, 마지막 자리 10^e로 적은 값 x가 답 a를 10^e에서 반올림하거나 버린 값이고 k ≥ 판정 자릿수이면 정답
 *   (소수점 없는 정수 끝의 0은 독자가 뜻했을 법한 읽기를 모두 본다: "60"은 6·10¹ 또는 60), x = a이면 정답,
 *   흔한 실수의 값이나 다른 단위의 답과 정확히 같으면 "실수"/"단위", 자릿수만 모자라면 "자릿수", 같은 규칙으로
 *   흔한 실수의 값과 맞으면 "실수", 다른 단위로 맞으면(유효숫자 두 자리 이상) "단위", 그 밖은 "다시"(힌트).
 *   10^±limit 밖의 수는 지수를 만들지 않고 곧바로 읽지 않는다.
 * 판정한 뒤에는 섹션에 "rl-verdict" 이벤트를 보낸다.
 */
(function () {
  "use strict";

  const SUPER = {"⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8",
    "⁹": "9", "⁻": "-", "⁺": "+"};
  const WS = "[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]";
  const NUMBER = /^([+-]?)([0-9]{1,3}(?:([,_ \u00a0\u2009\u202f])[0-9]{3})(?:\3[0-9]{3})*|[0-9]*)(?:\.([0-9]*))?(?:e([+-]?[0-9]+))?$/;
  const LIMIT = 30;   // 라이브러리의 exercises.LIMIT (자료의 limit)

  /* 적은 답 → {m: BigInt (부호 포함), e: 마지막 자리의 지수, k: 유효숫자, z: 뜻했을 수도 있는 정수 끝의 0},
   * 숫자가 아니면 null, 10^±LIMIT 밖이면 {far: true} */
  function read(text, unit) {
    let t = text.replace(new RegExp(`^${WS}+|${WS}+$`, "g"), "");
    if (unit && t.endsWith(unit)) t = t.slice(0, -unit.length).replace(new RegExp(`${WS}+$`), "");
    t = t.replace(/\u2212/g, "-").replace(new RegExp(`${WS}*([×xX*^])${WS}*`, "g"), "$1");
    t = t.replace(/(?:[×xX*]10(?:\^|\*\*))([+-]?[0-9]+)$/, "e$1");
    t = t.replace(/[×xX*]10([⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+)$/, (_, p) => "e" + [...p].map((c) => SUPER[c]).join(""));
    const m = NUMBER.exec(t.replace(/E/g, "e"));
    if (!m || !(m[2] || m[4])) return null;
    if (m[5] && m[5].replace(/^[+-]?0*/, "").length > 6) return {far: true};
    const whole = (m[2] || "").replace(/[^0-9]/g, ""), part = m[4], exp = parseInt(m[5] || "0", 10);
    let digits = (whole + (part || "")).replace(/^0+/, "");
    let e = exp - (part || "").length, z = 0;
    if (part === undefined) {            // 소수점 없는 정수: 끝의 0은 뜻했을 수도, 아닐 수도 있다
      const stripped = digits.replace(/0+$/, "");
      z = digits.length - stripped.length;
      e += z;
      digits = stripped;
    }
    const lead = e + digits.length - 1;
    if (Math.abs(e) > 2 * LIMIT || (digits && Math.abs(lead) > LIMIT)) return {far: true};
    let mant = BigInt(digits || "0");
    if (m[1] === "-") mant = -mant;
    return {m: mant, e, k: Math.max(1, digits.length), z};
  }

  const abs = (x) => (x < 0n ? -x : x);
  const pow10 = (n) => 10n ** BigInt(n);

  /* x = m·10^e와 답 p/q: 10^e에서 반올림하거나 버린 값인가 (exercises.in_place와 같은 규칙, 정확한 정수 비교) */
  function inPlace(m, e, p, q) {
    const up = e >= 0 ? pow10(e) : 1n, down = e >= 0 ? 1n : pow10(-e);
    const xa = m * up * q, aa = p * down;   // x와 a에 q·down을 곱한 값
    if (xa === aa) return true;
    const off = abs(xa - aa), unit = up * q;  // |x − a|와 10^e에 q·down을 곱한 값
    if (unit <= abs(aa)) return 2n * off <= unit || (xa * aa > 0n && abs(xa) <= abs(aa) && off < unit);
    return abs(m) === 1n && 10n * abs(aa) >= unit && 20n * off <= unit;   // 반올림이 올라간 자리(9.99 → 10)
  }

  /* 끝의 0을 읽는 방법마다 [유효숫자, 마지막 자리] */
  const readings = (x) => Array.from({length: x.z + 1}, (_, i) => [x.k + i, x.e - i]);
  const same = (x, p, q) => x.m * (x.e >= 0 ? pow10(x.e) : 1n) * q === p * (x.e >= 0 ? 1n : pow10(-x.e));
  const near = (x, p, q) => readings(x).some(([, e]) => inPlace(x.m * pow10(x.e - e), e, p, q));
  const matches = (x, p, q, digits, exact) =>
    same(x, p, q) || (!exact && readings(x).some(([k, e]) => k >= digits && inPlace(x.m * pow10(x.e - e), e, p, q)));

  function mistake(data, index) {
    const [kind, message] = data.mistakes[index];
    return {right: false, reason: "mistake", mistake: kind, message};
  }

  function verdict(data, item, text, digits) {
    const mistakes = item.mistakes || [];
    if (item.choice !== undefined) {       // 고르는 문제: 보기 이름이 같아야 정답
      if (text === item.choice) return {right: true, reason: "right", message: item.right};
      const named = mistakes.find(([, key]) => key === text);
      return named ? mistake(data, named[0]) : {right: false, reason: "wrong", message: item.wrong};
    }
    const x = read(text, item.unit);
    if (!x) return {right: false, reason: "unreadable", message: data.unreadable};
    if (x.far) return {right: false, reason: "unreadable", message: data.tooFar};
    const [[, p0, q0], ...rest] = item.targets;
    const big = ([name, p, q]) => [name, BigInt(p), BigInt(q)];
    const named = mistakes.map(big), units = rest.map(big);
    if (matches(x, BigInt(p0), BigInt(q0), digits, item.exact)) return {right: true, reason: "right", message: item.right};
    const unit = (name) => ({right: false, reason: "unit", message: item.units[name]});
    for (const [index, p, q] of named) if (same(x, p, q)) return mistake(data, index);
    for (const [name, p, q] of units) if (same(x, p, q)) return unit(name);
    if (near(x, BigInt(p0), BigInt(q0))) return {right: false, reason: "digits", message: item.digits[String(digits)]};
    for (const [index, p, q] of named) if (matches(x, p, q, digits, item.exact)) return mistake(data, index);
    for (const [name, p, q] of units) if (matches(x, p, q, data.unitDigits, false)) return unit(name);
    return {right: false, reason: "wrong", message: item.wrong};
  }

  /* 풀이: 라이브러리가 적은 줄들을 번호 목록으로, 마지막에 답 */
  function showSolution(root, box, item) {
    // 계산표의 칸은 좁아서, 풀이는 누른 칸의 줄 바로 아래에 표 폭의 줄 하나로 보인다(첫 줄에 어느 칸인지 적는다).
    const place = box.querySelector(".rl-solution") || root.querySelector(".rl-sheet-solution");
    const line = box.closest("tr");
    if (!box.contains(place) && line) {
      let row = root.querySelector("tr.rl-sol-row");
      if (!row) {
        row = document.createElement("tr");
        row.className = "rl-sol-row";
        row.appendChild(document.createElement("td"));
      }
      row.firstChild.colSpan = line.children.length;
      line.after(row);
      row.firstChild.appendChild(place);
    }
    place.textContent = "";
    if (place.classList.contains("rl-sheet-solution")) {
      const title = document.createElement("p");
      title.className = "rl-solution-title";
      title.textContent = box.querySelector("button.rl-show").getAttribute("aria-label");
      place.appendChild(title);
    }
    if (item.steps.length) {
      const list = document.createElement("ol");
      for (const line of item.steps) {
        const li = document.createElement("li");
        li.textContent = line;
        list.appendChild(li);
      }
      place.appendChild(list);
    }
    const answer = document.createElement("p");
    answer.className = "rl-solution-answer";
    answer.textContent = item.answer;
    place.appendChild(answer);
    place.hidden = false;
    box.dataset.solution = "shown";
  }

  function start(root) {
    const data = JSON.parse(root.querySelector("script.rl-quiz-data").textContent);
    const select = root.querySelector("[data-rl-digits]");
    const digits = () => (select ? Number(select.value) : data.digits);
    root.querySelectorAll(".rl-quiz-rule[hidden]").forEach((el) => { el.hidden = false; });
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

  function withProgress(fn) {
    if (window.rlProgress) fn(window.rlProgress);
    else document.addEventListener("rl-progress-ready", () => fn(window.rlProgress), {once: true});
  }

  const pageName = () => decodeURIComponent(location.pathname.split("/").pop() || "index").replace(/\.html$/, "");

  /* 판정한 답마다 독자의 기록(progress.js)에 한 줄: 그때의 학번은 기록이 적는다 */
  function record(root) {
    const last = new Map();   // a field judged on Enter and again on leaving it (change) is one try
    root.addEventListener("rl-verdict", (e) => {
      const v = e.detail, kind = v.mistake || v.kind, mark = `${root.dataset.student || ""}\n${v.typed}`;
      if (last.get(v.key) === mark) return;
      last.set(v.key, mark);
      withProgress((p) => p.answer({page: pageName(), exercise: v.key, typed: v.typed, right: v.right,
        reason: kind ? `mistake:${kind}` : v.reason}));
    });
  }

  /* 학번 칸(roofline.show.exercises.student_box): 처음 쓸 때, 또는 이 브라우저에 학번이 있을 때 variants.js를 받아
   * 그 학생의 변형을 보인다(첫 방문의 바이트는 그대로). */
  const SELF = document.currentScript ? document.currentScript.src : "";
  let variantsScript = null;

  function students(root, data, quiz) {
    const box = root.querySelector(".rl-student");
    if (!box || !root.dataset.rlVariants) return;
    box.hidden = false;
    let started = false, pending = false;
    const early = (e) => {   // Enter or a button before the script is here: done once it is
      if (window.rlVariants || !(e.type === "click" ? e.target.closest("button") : e.key === "Enter")) return;
      e.preventDefault();
      if (e.target.closest("[data-rl-student-clear]")) box.querySelector("[data-rl-student]").value = "";
      pending = true;
    };
    box.addEventListener("keydown", early);
    box.addEventListener("click", early);
    const go = () => {
      if (started) return;
      started = true;
      variantsScript = variantsScript || new Promise((ok, fail) => {
        const tag = document.createElement("script");
        tag.src = new URL("variants.js", SELF || location.href).href;
        tag.onload = ok;
        tag.onerror = fail;
        document.head.append(tag);
      });
      variantsScript.then(() => {
        const api = window.rlVariants.start(root, data, quiz, withProgress);
        if (pending) api.set();
      });
    };
    box.addEventListener("focusin", go);
    withProgress((p) => {
      if (p.student()) go();
      window.addEventListener("rl-progress", () => { if (p.student()) go(); });
    });
  }

  // the typed-number reader, for the explorers' predict mode (which reads a guess as an exercise reads an answer),
  // and the verdict, for tests/show/twins.js (which runs this file in Node)
  window.rlNumbers = {read, verdict};

  function startAll() { document.querySelectorAll("[data-rl-quiz]").forEach(start); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startAll);
  else startAll();
})();
