/* 내 진도 (chapters/progress.md): 이 브라우저의 기록(progress.js)을 장마다 보인다. 장과 연습 문제의 목록(이름,
 * 주소, 문항)은 빌드할 때 라이브러리가 페이지에 넣었고(tools/coursebook/handout.py), 이 스크립트는 기록을 세어
 * 옮기기만 한다: 모델의 값을 계산하지 않는다. CSV로 내보내기(rlProgress.csv(목록): 장의 제목, 문항 이름, 실수의
 * 이름, 학기를 이 목록에서; 파일 이름에 학번)와 기록 지우기(확인한 뒤)가 있다. 저장된 기록에서 읽지 못해 따로 둔
 * 것이나 가득 찬 저장 공간은 한국어 한 줄로 알린다. 기록은 이 브라우저 밖으로 나가지 않는다. */
(function () {
  "use strict";

  function withProgress(fn) {
    if (window.rlProgress) fn(window.rlProgress);
    else document.addEventListener("rl-progress-ready", () => fn(window.rlProgress), {once: true});
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value);
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  const who = (student) => (student ? `학번 ${student}` : "기본 문제");

  function chapter(data, p) {
    const answers = p.answers(data.page);
    const section = el("section", {class: "rl-progress-chapter", "aria-labelledby": `rl-pg-${data.page}`});
    section.append(el("h2", {id: `rl-pg-${data.page}`}, el("a", {href: data.href, text: data.title})));
    let right = 0;
    const body = el("tbody");
    for (const [key, label] of data.exercises) {
      const tries = answers.filter((a) => a.exercise === key);
      const solved = [...new Set(tries.filter((a) => a.right).map((a) => who(a.student)))];
      if (solved.length) right += 1;
      body.append(el("tr", {},
        el("th", {scope: "row", text: label}),
        el("td", {text: solved.length ? `맞힘 (${solved.join(", ")})` : tries.length ? "아직" : "—"}),
        el("td", {class: "rl-num", text: String(tries.length)})));
    }
    const tried = answers.length;
    section.append(el("p", {class: "rl-progress-sum",
      text: `맞힌 문항 ${right} / ${data.exercises.length}, 시도 ${tried}번`}));
    if (tried) {
      const table = el("table", {class: "rl-progress-table"},
        el("caption", {text: `${data.title}: 문항마다 맞힌 문제와 시도`}),
        el("thead", {}, el("tr", {}, el("th", {scope: "col", text: "문항"}), el("th", {scope: "col", text: "맞힘"}),
          el("th", {scope: "col", text: "시도"}))),
        body);
      section.append(el("div", {class: "rl-progress-wrap", tabindex: "0", role: "region",
        "aria-label": `${data.title} 기록`}, table));
    }
    return section;
  }

  function predictions(p) {
    const list = p.predictions();
    const section = el("section", {class: "rl-progress-chapter", "aria-labelledby": "rl-pg-predictions"});
    section.append(el("h2", {id: "rl-pg-predictions", text: "탐색기의 예측"}));
    section.append(el("p", {class: "rl-progress-sum", text: list.length ? `예측 ${list.length}번` : "아직 예측한 값이 없다."}));
    if (list.length) {
      const ul = el("ul", {class: "rl-progress-predictions"});
      for (const x of list.slice(-50)) {
        const what = [x.page, x.explorer, x.state, x.quantity].filter(Boolean).join(" · ");
        const parts = [`${what}: 예측 ${x.guess}`, x.model ? `모델 ${x.model}` : "", x.error ? `오차 ${x.error}` : "",
          x.mistake ? `실수: ${x.mistake}` : "", x.student ? who(x.student) : ""].filter(Boolean);
        ul.append(el("li", {text: parts.join(", ")}));
      }
      section.append(ul);
    }
    return section;
  }

  function fileName(student) {
    const safe = (student || "기본").replace(/[\\/:*?"<>|\s]+/g, "_");
    return `내-진도-${safe}.csv`;
  }

  function start(root) {
    const data = JSON.parse(root.querySelector("script.rl-progress-data").textContent);
    const tools = el("div", {class: "rl-progress-tools"});
    const status = el("p", {class: "rl-progress-who", "aria-live": "polite"});
    const exportButton = el("button", {type: "button", "data-rl-export": "", text: "CSV로 내보내기"});
    const resetButton = el("button", {type: "button", "data-rl-reset": "", text: "기록 지우기"});
    const said = el("p", {class: "rl-progress-said", "aria-live": "polite"});
    const problem = el("p", {class: "rl-progress-problem", role: "status"});
    tools.append(status, problem, el("p", {}, exportButton, " ", resetButton), said);
    const list = el("div", {class: "rl-progress-list"});
    root.append(tools, list);

    withProgress((p) => {
      const draw = () => {
        const student = p.student();
        status.textContent = student ? `지금 학번: ${student}` : "지금 학번: 없음(기본 문제)";
        problem.textContent = p.problem();
        problem.hidden = !problem.textContent;
        list.replaceChildren(...data.chapters.map((c) => chapter(c, p)), predictions(p));
      };
      exportButton.addEventListener("click", () => {
        const blob = new Blob([p.csv(data)], {type: "text/csv;charset=utf-8"});
        const link = el("a", {href: URL.createObjectURL(blob), download: fileName(p.student())});
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(link.href), 1000);
        said.textContent = `${link.download} 파일로 내보냈다.`;
      });
      resetButton.addEventListener("click", () => {
        if (!window.confirm("이 브라우저에 남은 답, 예측, 학번을 모두 지울까? 되돌릴 수 없다.")) return;
        p.reset();
        said.textContent = "기록을 지웠다.";
      });
      window.addEventListener("rl-progress", draw);
      draw();
    });
  }

  function startAll() { document.querySelectorAll("[data-rl-progress]").forEach(start); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startAll);
  else startAll();
})();
