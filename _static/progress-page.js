/* 내 진도 (chapters/progress.md): 이 브라우저의 기록(core.js의 store)을 장마다 보인다. 장과 연습 문제의 목록(이름,
 * 주소, 문항)은 빌드할 때 라이브러리가 페이지에 넣었고(tools/coursebook/handout.py), 이 스크립트는 기록을 세어
 * 옮기기만 한다: 모델의 값을 계산하지 않는다. CSV로 내보내기(store.csv(목록): 장의 제목, 문항 이름, 실수의
 * 이름, 학기를 이 목록에서; 파일 이름에 학번)와 기록 지우기(확인한 뒤)가 있다. 저장된 기록에서 읽지 못해 따로 둔
 * 것이나 가득 찬 저장 공간은 한국어 한 줄로 알린다. 기록은 이 브라우저 밖으로 나가지 않는다. */
import {el, store} from "./core.js";

const who = (student) => (student ? `학번 ${student}` : "기본 문제");

function chapter(data) {
  const answers = store.answers(data.page);
  const section = el("section", {className: "rl-progress-chapter", "aria-labelledby": `rl-pg-${data.page}`});
  section.append(el("h2", {id: `rl-pg-${data.page}`}, el("a", {href: data.href}, data.title)));
  let right = 0;
  const body = el("tbody");
  for (const [key, label] of data.exercises) {
    const tries = answers.filter((a) => a.exercise === key);
    const solved = [...new Set(tries.filter((a) => a.right).map((a) => who(a.student)))];
    if (solved.length) right += 1;
    body.append(el("tr", {},
      el("th", {scope: "row"}, label),
      el("td", {}, solved.length ? `맞힘 (${solved.join(", ")})` : tries.length ? "아직" : "—"),
      el("td", {className: "rl-num"}, String(tries.length))));
  }
  const tried = answers.length;
  section.append(el("p", {className: "rl-progress-sum"}, `맞힌 문항 ${right} / ${data.exercises.length}, 시도 ${tried}번`));
  if (tried) {
    const table = el("table", {className: "rl-progress-table"},
      el("caption", {}, `${data.title}: 문항마다 맞힌 문제와 시도`),
      el("thead", {}, el("tr", {}, ...["문항", "맞힘", "시도"].map((name) => el("th", {scope: "col"}, name)))),
      body);
    section.append(el("div", {className: "rl-progress-wrap", tabindex: "0", role: "region",
      "aria-label": `${data.title} 기록`}, table));
  }
  return section;
}

function predictions() {
  const list = store.predictions();
  const section = el("section", {className: "rl-progress-chapter", "aria-labelledby": "rl-pg-predictions"});
  section.append(el("h2", {id: "rl-pg-predictions"}, "탐색기의 예측"));
  section.append(el("p", {className: "rl-progress-sum"}, list.length ? `예측 ${list.length}번` : "아직 예측한 값이 없다."));
  if (list.length) {
    const ul = el("ul", {className: "rl-progress-predictions"});
    for (const x of list.slice(-50)) {
      const what = [x.page, x.explorer, x.state, x.quantity].filter(Boolean).join(" · ");
      const parts = [`${what}: 예측 ${x.guess}`, x.model ? `모델 ${x.model}` : "", x.error ? `오차 ${x.error}` : "",
        x.mistake ? `실수: ${x.mistake}` : "", x.student ? who(x.student) : ""].filter(Boolean);
      ul.append(el("li", {}, parts.join(", ")));
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
  const tools = el("div", {className: "rl-progress-tools"});
  const status = el("p", {className: "rl-progress-who", "aria-live": "polite"});
  const exportButton = el("button", {type: "button", "data-rl-export": ""}, "CSV로 내보내기");
  const resetButton = el("button", {type: "button", "data-rl-reset": ""}, "기록 지우기");
  const said = el("p", {className: "rl-progress-said", "aria-live": "polite"});
  const problem = el("p", {className: "rl-progress-problem", role: "status"});
  tools.append(status, problem, el("p", {}, exportButton, " ", resetButton), said);
  const list = el("div", {className: "rl-progress-list"});
  root.append(tools, list);

  const draw = () => {
    const student = store.student();
    status.textContent = student ? `지금 학번: ${student}` : "지금 학번: 없음(기본 문제)";
    problem.textContent = store.problem();
    problem.hidden = !problem.textContent;
    list.replaceChildren(...data.chapters.map((c) => chapter(c)), predictions());
  };
  exportButton.addEventListener("click", () => {
    const blob = new Blob([store.csv(data)], {type: "text/csv;charset=utf-8"});
    const link = el("a", {href: URL.createObjectURL(blob), download: fileName(store.student())});
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    said.textContent = `${link.download} 파일로 내보냈다.`;
  });
  resetButton.addEventListener("click", () => {
    if (!window.confirm("이 브라우저에 남은 답, 예측, 학번을 모두 지울까? 되돌릴 수 없다.")) return;
    store.reset();
    said.textContent = "기록을 지웠다.";
  });
  store.listen(draw);
  draw();
}

document.querySelectorAll("[data-rl-progress]").forEach(start);
