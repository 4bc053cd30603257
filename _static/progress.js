/* 독자의 기록: 연습 문제의 답, 탐색기의 예측, 학번, 페이지별 모드. 이 브라우저의 localStorage에만 있고,
 * 독자가 "내 진도"에서 CSV로 내보낼 때만 밖으로 나간다. 이 스크립트는 모델의 값을 계산하지 않는다: 라이브러리가
 * 쓴 값(판정, 모델 값, 오차)을 받아 적어 둘 뿐이다.
 *
 * 쓰는 쪽(exercises.js, explorer.js, 내 진도 페이지)은 스크립트의 순서(페이지마다 다르다)와 상관없이 이렇게 받는다:
 *   function withProgress(fn) {
 *     if (window.rlProgress) fn(window.rlProgress);
 *     else document.addEventListener("rl-progress-ready", () => fn(window.rlProgress), {once: true});
 *   }
 * 바뀔 때마다 window에 "rl-progress" 이벤트(detail: {kind})가 가고, 다른 탭의 변경도 같은 이벤트로 온다.
 *
 * 저장 형식(한 키, JSON; 사이트의 경로마다 따로: 한 도메인에 강의가 여럿이어도 섞이지 않는다):
 *   {v: 1, student: "",                                  학번(강사가 정한 아무 식별자), 없으면 ""
 *    modes: {"<page>": {"<name>": value}},               예: {"w4_2_roofline": {"predict": true}}
 *    answers: [{t, page, exercise, student, typed, right, reason}],
 *    predictions: [{t, page, explorer, state, quantity, student, guess, model, error, mistake,
 *                   right (the guess within the page's tolerance), off (|error| in %, for the page's mean)}]}
 * t는 ISO 시각, page는 장의 이름(chapters/ 아래 파일 이름, 확장자 없이), student는 그때의 학번("" = 기본 문제).
 */
(function () {
  "use strict";

  const VERSION = 1;
  const LIMIT = 5000;          // answers and predictions kept, each (the oldest go first)
  const script = document.currentScript || document.querySelector('script[src*="progress.js"]');
  const root = new URL("..", script ? script.src : location.href).pathname;   // the site's base path
  const KEY = `roofline.progress:${root}`;

  let memory = null;           // when the browser refuses storage (private mode, disabled): this page's visit only

  function empty() { return {v: VERSION, student: "", modes: {}, answers: [], predictions: []}; }

  function load() {
    if (memory) return memory;
    try {
      const data = JSON.parse(localStorage.getItem(KEY) || "null");
      if (data && data.v === VERSION) return Object.assign(empty(), data);
    } catch { /* unreadable or refused: start empty */ }
    return empty();
  }

  function save(data, kind) {
    for (const list of ["answers", "predictions"]) {
      if (data[list].length > LIMIT) data[list] = data[list].slice(-LIMIT);
    }
    try {
      localStorage.setItem(KEY, JSON.stringify(data));
      memory = null;
    } catch {
      memory = data;
    }
    window.dispatchEvent(new CustomEvent("rl-progress", {detail: {kind}}));
  }

  function update(kind, change) {
    const data = load();
    change(data);
    save(data, kind);
  }

  const text = (value) => (value === undefined || value === null ? "" : String(value));

  /* one CSV field: quoted when it holds a comma, a quote or a line break; a leading = + - @ made inert */
  function field(value) {
    let t = text(value);
    if (/^[=+\-@]/.test(t) && !/^-?\d/.test(t)) t = "'" + t;
    return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
  }

  const CSV_HEADER = ["종류", "시각", "페이지", "문항", "학번", "적은 값", "맞음", "판정", "모델 값", "오차", "실수"];

  const store = {
    key: KEY,
    student: () => load().student,
    setStudent(id) {
      const value = text(id).trim();
      update("student", (data) => { data.student = value; });
      return value;
    },
    mode: (page, name) => ((load().modes[page] || {})[name]),
    setMode(page, name, value) {
      update("mode", (data) => { (data.modes[page] = data.modes[page] || {})[name] = value; });
    },
    /* {page, exercise, student?, typed, right, reason}: one try at an exercise */
    answer(entry) {
      update("answer", (data) => {
        data.answers.push({t: new Date().toISOString(), student: data.student, ...entry, right: !!entry.right});
      });
    },
    /* {page, explorer, state, quantity, guess, model, error, mistake?}: one committed guess (texts from the library) */
    predict(entry) {
      update("prediction", (data) => {
        data.predictions.push({t: new Date().toISOString(), student: data.student, ...entry});
      });
    },
    answers: (page) => load().answers.filter((a) => page === undefined || a.page === page),
    predictions: (page) => load().predictions.filter((p) => page === undefined || p.page === page),
    csv() {
      const data = load();
      const rows = [CSV_HEADER];
      for (const a of data.answers) {
        rows.push(["답", a.t, a.page, a.exercise, a.student, a.typed, a.right ? "예" : "아니오", a.reason, "", "", ""]);
      }
      for (const p of data.predictions) {
        rows.push(["예측", p.t, p.page, `${text(p.explorer)} ${text(p.state)} ${text(p.quantity)}`.trim(), p.student,
          p.guess, "", "", p.model, p.error, p.mistake]);
      }
      return "\ufeff" + rows.map((row) => row.map(field).join(",")).join("\r\n") + "\r\n";
    },
    reset() { save(empty(), "reset"); },
  };

  window.addEventListener("storage", (event) => {
    if (event.key === KEY) window.dispatchEvent(new CustomEvent("rl-progress", {detail: {kind: "other-tab"}}));
  });

  window.rlProgress = store;
  document.dispatchEvent(new CustomEvent("rl-progress-ready"));
})();
