/* 먼저 예측하기: 탐색기가 새 조건의 값을 보여 주기 전에 독자의 예측을 받는다.
 *
 * explorer.js가 "먼저 예측하기"를 켠 탐색기에만 이 ES 모듈을 가져와 붙인다(attach). 질문, 모델의 답(정확한
 * 분수 [분자, 분모] 문자열 또는 보기 이름), 페이지에 보일 모델 값, 이유 한 문장, 흔한 실수(그 실수가 주는 값)는 모두
 * 강의 라이브러리가 상태마다 써 두었다(roofline.show.predict). 이 스크립트는 모델을 계산하지 않는다: 적은 예측을
 * 연습 문제의 읽기(judge.js의 read)로 읽어 그 분수와 BigInt로 비교하고, 오차를 라이브러리의 error_text와 같은 규칙
 * (배수는 유효숫자 세 자리, %는 소수 한 자리, 0.5는 0에서 먼 쪽으로)으로 적을 뿐이다. 예측은 독자의 기록
 * (core.js의 store.predict)에만 남는다. 예측을 기다리는 동안에는 기다리는 값과 그 값을 한 단계로 만드는 값(q.inputs)을
 * 페이지의 다른 곳(표, 본문, 다른 탐색기, 레이블)에서도 "?"로 가리고, 확인하면 되돌린다. 판정(judgeGuess)은 라이브러리의
 * predict.guess와 같고, tests/show/test_judge_twins.py가 Node에서 이 파일로 둘을 견준다. 예측을 확인해 값을
 * 옮긴 뒤에는 탐색기에 "rl-predict" 이벤트(detail.ms)를 보낸다(make bench가 응답 시간을 잰다).
 */
import {el, json, store} from "./core.js";
import {abs, pow10, read} from "./judge.js";

// ---------------------------------------------------------------- exact arithmetic for the error's text

const roundInt = (p, q) => { const m = (abs(p) * 2n + q) / (2n * q); return p < 0n ? -m : m; };   // q > 0
const group = (digits) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/* r / 10^e (r ≥ 0) with max(0, e) decimals */
function fixed(r, e, grouping) {
  if (e <= 0) { const t = (r * pow10(-e)).toString(); return grouping ? group(t) : t; }
  const t = r.toString().padStart(e + 1, "0");
  return (grouping ? group(t.slice(0, -e)) : t.slice(0, -e)) + "." + t.slice(-e);
}

/* p/q > 0 with `digits` significant digits */
function significant(p, q, digits) {
  const lo = pow10(digits - 1), hi = pow10(digits);
  const scaled = (e) => (e >= 0 ? [p * pow10(e), q] : [p, q * pow10(-e)]);
  let e = 0;
  for (let [a, b] = scaled(e); a < lo * b; [a, b] = scaled(++e));
  for (let [a, b] = scaled(e); a >= hi * b; [a, b] = scaled(--e));
  let r = roundInt(...scaled(e));
  if (r >= hi) r = roundInt(...scaled(--e));
  return fixed(r, e, true);
}

/* the guess gp/gq against the model mp/mq (denominators > 0): [text, |%| as a number] */
export function errorText(gp, gq, mp, mq) {
  let fp = gp * mq, fq = gq * mp;
  if (fq < 0n) { fp = -fp; fq = -fq; }
  const r10 = roundInt((fp - fq) * 1000n, fq);
  const pct = (r10 > 0n ? "+" : r10 < 0n ? "−" : "") + fixed(abs(r10), 1, false) + "%";
  const off = Number(abs(r10)) / 10;
  if (fp === 0n) return [`0배 (${pct})`, off];
  if (fp < 0n) return [`부호가 반대 (${pct})`, off];
  return [`${significant(fp, fq, 3)}배 (${pct})`, off];
}

/* |g − v| ≤ (tp/tq)·|v| */
function within(gp, gq, [vp, vq], [tp, tq]) {
  vp = BigInt(vp); vq = BigInt(vq);
  return abs(gp * vq - vp * gq) * BigInt(tq) <= BigInt(tp) * abs(vp) * gq;
}

/* a typed guess in unit [name, p, q] → [gp, gq] in the base unit, or null */
function guessValue(text, unit) {
  const x = read(text, unit[0]);
  if (!x || x.far) return null;
  const up = BigInt(unit[1]), uq = BigInt(unit[2]);
  return x.e >= 0 ? [x.m * pow10(x.e) * up, uq] : [x.m * up, pow10(-x.e) * uq];
}

/* a guess of question q (a choice's key, or text typed in the unit named `unitName`) judged as the library's
 * predict.guess judges it (part: the state's predict part, its tolerance and near): {right, mistake (the mistake's
 * entry or null), error, off}, or {unreadable: true} */
export function judgeGuess(q, part, text, unitName) {
  if (q.kind === "choice") {
    const right = text === q.answer || (q.also || []).includes(text);
    const mistake = right ? null : q.mistakes.find((m) => m.value === text) || null;
    return {right, mistake, error: right ? "맞음" : "틀림"};
  }
  const value = guessValue(text, q.units.find((x) => x[0] === unitName) || q.units[0]);
  if (!value) return {unreadable: true};
  const [gp, gq] = value;
  const [ap, aq] = q.answer.map(BigInt);
  const [error, off] = errorText(gp, gq, ap, aq);
  const right = within(gp, gq, q.answer, part.tolerance);
  const mistake = right ? null : q.mistakes.find((m) => within(gp, gq, m.value, part.near)) || null;
  return {right, mistake, error, off};
}

// ---------------------------------------------------------------- the rest of the page, while a guess waits

/* The texts a pending part's number questions must not be read from elsewhere on the page: each value and the
 * values it is computed from in one step (q.inputs), as the library writes them ("8.657043 ms"), and the bare
 * number where it has four digits or more ("8.657043": a table writes the unit in its header). */
function leaks(parts) {
  const found = new Set();
  for (const part of parts) {
    for (const q of part.questions) {
      if (q.kind !== "number") continue;
      for (const text of [q.shown, ...(q.inputs || [])]) {
        found.add(text);
        const bare = text.split(/[ \u00a0]/)[0];
        if (bare.replace(/[^0-9]/g, "").length >= 4) found.add(bare);
      }
    }
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/* a masked number's why button waits, as the explorer's own waiting numbers do: disabled, its record taken off (it
 * would open the value's derivation); returns what puts both back, unless the page gave it a record anew since */
function hold(button) {
  if (!button) return () => {};
  const why = button.dataset.why, disabled = button.disabled;
  button.disabled = true;
  button.removeAttribute("data-why");
  return () => { if (!button.hasAttribute("data-why")) { button.dataset.why = why; button.disabled = disabled; } };
}

const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "[ \u00a0\u202f]");

/* "?" for each of `texts` (a whole number: no digit, and no point or comma before a digit, on either side) in the
 * page's text and labels outside `keep` (a masked number's why button is disabled and loses its record until
 * then); returns the undo, which puts back only what nobody changed since */
function mask(texts, keep) {
  if (!texts.length) return () => {};
  const pattern = new RegExp(`(?<![0-9]|[0-9][.,])(?:${texts.map(escape).join("|")})(?![0-9]|[.,][0-9])`, "g");
  const undo = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (keep.contains(node) || !pattern.test(node.nodeValue)) continue;
    pattern.lastIndex = 0;
    const was = node.nodeValue, now = was.replace(pattern, "?");
    node.nodeValue = now;
    const release = hold(node.parentElement && node.parentElement.closest("button[data-why]"));
    undo.push(() => {
      if (node.nodeValue !== now) return;   // placed anew since: nothing of ours to put back
      node.nodeValue = was;
      release();
    });
  }
  // a number whose unit stands outside its why button ("6" in the button, "개, …" after it): the button's text and
  // the start of the text after it, read together
  for (const button of document.body.querySelectorAll("button[data-why]")) {
    const next = button.nextSibling, own = button.firstChild;
    if (keep.contains(button) || !own || own.nodeType !== 3 || !next || next.nodeType !== 3) continue;
    pattern.lastIndex = 0;
    const m = pattern.exec(own.nodeValue + next.nodeValue);
    pattern.lastIndex = 0;
    if (!m || m.index !== 0 || m[0].length <= own.nodeValue.length) continue;
    const was = own.nodeValue, release = hold(button);
    own.nodeValue = "?";
    undo.push(() => {
      if (own.nodeValue !== "?") return;
      own.nodeValue = was;
      release();
    });
  }
  for (const element of document.body.querySelectorAll("[aria-label], [title]")) {
    if (keep.contains(element)) continue;
    for (const name of ["aria-label", "title"]) {
      const was = element.getAttribute(name);
      if (!was || !pattern.test(was)) continue;
      pattern.lastIndex = 0;
      const now = was.replace(pattern, "?");
      element.setAttribute(name, now);
      undo.push(() => { if (element.getAttribute(name) === now) element.setAttribute(name, was); });
    }
  }
  return () => undo.forEach((f) => f());
}

// ---------------------------------------------------------------- the predict box of one explorer

let count = 0;

class Predictor {
  constructor(explorer, page) {
    this.ex = explorer;
    this.page = page;
    this.pending = null;   // {parts, key}: the state whose values wait for a guess
    this.drawn = null;
    this.result = null;
    this.none = false;     // the shown state asks nothing (its values are in the page's tables)
    this.uid = `${explorer.root.id}-predict${++count}`;
    this.box = el("section", {className: "rl-predict"});
    this.box.setAttribute("aria-labelledby", `${this.uid}-title`);
    this.body = el("div", {className: "rl-predict-body"});
    this.record = el("p", {className: "rl-predict-record"});
    this.box.append(el("p", {className: "rl-predict-title", id: `${this.uid}-title`}, "먼저 예측하기"), this.body, this.record);
    explorer.root.querySelector(".rl-predict-bar").after(this.box);
    this.unlisten = store.listen(() => this.showRecord());
    this.showRecord();
  }

  remove() {
    this.unmask();
    this.unlisten();
    this.box.remove();
    this.pending = null;
  }

  /* explorer.js asks before it places a state: what stays hidden ({fields, tables, plots}) or null */
  before(states, moved) {
    const parts = states.map((s) => s.predict).filter(Boolean);
    const sig = JSON.stringify(parts);
    if (moved && sig !== this.sig) {   // the same state again (a live recompute of the same values) changes nothing
      this.sig = sig;
      this.pending = parts.length ? {parts, key: this.ex.stateKey()} : null;
      this.result = null;
      this.none = !parts.length;       // moved to a state that asks nothing: its values are all in the page's tables
    }
    if (!this.pending) return null;
    const hide = {fields: [], tables: {}, plots: [], widths: [], flags: []};
    for (const part of this.pending.parts) {
      for (const kind of ["fields", "plots", "widths", "flags"]) hide[kind].push(...(part.hide[kind] || []));
      for (const [name, cols] of Object.entries(part.hide.tables)) hide.tables[name] = (hide.tables[name] || []).concat(cols);
    }
    return hide;
  }

  unmask() {
    if (this.masked) this.masked();
    this.masked = null;
  }

  after() {
    if (!this.pending) this.unmask();
    if (this.pending) { if (this.drawn !== this.pending) { this.unmask(); this.form(); this.masked = mask(leaks(this.pending.parts), this.box); } }
    else if (this.result) { if (this.drawn !== this.result) this.results(); }
    else if (this.drawn !== (this.none ? "none" : "idle")) {
      this.body.replaceChildren(el("p", {className: "rl-predict-hint"}, this.none
        ? "이 조건에는 새로 물을 값이 없다: 이 쪽의 표에 이미 나온 값은 묻지 않는다. 조건을 다시 바꾸면 새 조건의 답은 가려진다."
        : "조건을 바꾸면 새 조건의 답은 가려진다. 먼저 예측을 적거나 고른 뒤 ‘예측 확인’을 누르면 모델의 값과 오차, 그 이유가 보인다."));
      this.drawn = this.none ? "none" : "idle";
    }
  }

  questions() {
    return this.pending.parts.flatMap((part) => part.questions.map((q) => ({q, part})));
  }

  form() {
    const pending = this.pending;
    const form = el("form", {className: "rl-predict-form", noValidate: true});
    form.addEventListener("submit", (e) => { e.preventDefault(); this.commit(form, pending); });
    this.fields = [];
    for (const {q, part} of this.questions()) {
      const id = `${this.uid}-${q.id}`;
      const set = el("fieldset", {className: "rl-predict-q"}, el("legend", {}, q.ask));
      let read;
      if (q.kind === "choice") {
        const radios = q.choices.map(([key, label]) => {
          const input = el("input", {type: "radio", name: id, value: key});
          set.append(el("label", {className: "rl-radio"}, input, " ", label));
          return input;
        });
        read = () => { const r = radios.find((x) => x.checked); return r ? {key: r.value, text: r.parentElement.textContent.trim()} : null; };
        this.fields.push({q, part, read, focus: () => radios[0].focus()});
      } else {
        const input = el("input", {type: "text", id, inputMode: "decimal", autocomplete: "off", spellcheck: false});
        const label = el("label", {htmlFor: id}, "내 예측");
        const unit = q.units.length > 1
          ? el("select", {}, ...q.units.map(([name]) => new Option(name, name)))
          : el("span", {className: "rl-predict-unit"}, q.unit);
        if (q.units.length > 1) unit.setAttribute("aria-label", "단위");
        set.append(el("span", {className: "rl-predict-field"}, label, " ", input, " ", unit));
        read = () => {
          const text = input.value.trim();
          if (!text) return null;
          const u = q.units.find((x) => x[0] === (unit.value || q.unit)) || q.units[0];
          return {text: `${text} ${u[0]}`, typed: text, unit: u[0]};
        };
        this.fields.push({q, part, read, focus: () => input.focus(), input});
      }
      form.append(set);
    }
    this.status = el("p", {className: "rl-predict-status", role: "status"});
    form.append(el("button", {type: "submit", className: "rl-predict-check"}, "예측 확인"), this.status);
    this.body.replaceChildren(el("p", {className: "rl-predict-hint"}, "새 조건의 답은 가려 두었다. 먼저 예측해 보자."), form);
    this.drawn = pending;
  }

  commit(form, pending) {
    if (pending !== this.pending) return;
    const started = performance.now();
    const guesses = [];
    for (const f of this.fields) {
      const g = f.read();
      if (!g) continue;
      g.verdict = judgeGuess(f.q, f.part, f.q.kind === "choice" ? g.key : g.typed, g.unit);
      if (g.verdict.unreadable) {
        this.status.textContent = `“${f.q.ask}” ${f.part.words.unreadable}`;
        f.input.setAttribute("aria-invalid", "true");
        f.focus();
        return;
      }
      guesses.push({...f, g});
    }
    if (!guesses.length) {
      this.status.textContent = "예측을 하나 이상 적거나 고르자.";
      this.fields[0].focus();
      return;
    }
    const judged = new Map();
    for (const {q, part, g} of guesses) {
      const {right, mistake, error, off} = g.verdict;
      const entry = {guess: g.text, right, mistake, error, ...(q.kind === "number" ? {off, words: part.words} : {})};
      judged.set(q, entry);
      store.predict({
        page: this.page, explorer: this.ex.prefix, state: pending.key, quantity: q.id, guess: entry.guess,
        model: q.shown, error: entry.error, mistake: entry.mistake ? entry.mistake.kind : "", right: entry.right,
        ...(entry.off !== undefined ? {off: entry.off} : {}),
      });
    }
    this.result = {questions: this.questions(), judged};
    this.pending = null;
    this.ex.render(false);   // the values the guess waited for
    const title = this.body.querySelector(".rl-predict-done");
    if (title) title.focus();
    // the time of the guess's work, for `make bench` (tools/bench/bench.py)
    this.ex.root.dispatchEvent(new CustomEvent("rl-predict", {detail: {ms: performance.now() - started}}));
  }

  results() {
    const {questions, judged} = this.result;
    const list = el("ul", {className: "rl-predict-results"});
    for (const {q} of questions) {
      const j = judged.get(q);
      const item = el("li", {className: "rl-predict-result"});
      item.dataset.quantity = q.id;
      item.append(el("strong", {}, q.ask), " ", el("span", {className: "rl-predict-model"}, `모델: ${q.shown}.`));
      if (j) {
        item.dataset.verdict = j.right ? "right" : "wrong";
        const verdict = q.kind === "choice" ? (j.right ? "맞았다." : "틀렸다.") : (j.right ? j.words.right : "");
        item.append(" ", el("span", {className: "rl-predict-guess"}, `내 예측: ${j.guess}`),
          ...(q.kind === "number" ? [" ", el("span", {className: "rl-predict-error"}, `오차 ${j.error}.`)] : [": "]),
          verdict ? " " + verdict : "");
        if (j.mistake) {
          const m = el("span", {className: "rl-predict-mistake"}, j.mistake.text);
          m.dataset.kind = j.mistake.kind;
          item.append(" ", m);
        }
      }
      item.append(" ", el("span", {className: "rl-predict-why"}, q.why));
      list.append(item);
    }
    const done = el("p", {className: "rl-predict-done", tabIndex: -1}, "예측을 확인했다. 위의 값이 새 조건의 값이다.");
    this.body.replaceChildren(done, list);
    this.drawn = this.result;
  }

  showRecord() {
    const all = store.predictions(this.page);
    const numbers = all.filter((p) => typeof p.off === "number");
    const choices = all.filter((p) => typeof p.off !== "number" && typeof p.right === "boolean");
    let text = `예측 ${all.length}번`;
    if (numbers.length) {
      const mean = numbers.reduce((s, p) => s + p.off, 0) / numbers.length;
      text += `, 평균 오차 ${mean.toFixed(1)}% (수 ${numbers.length}개)`;
    } else text += ", 평균 오차 없음 (아직 수를 예측하지 않았다)";
    if (choices.length) text += `, 고르기 ${choices.length}번 중 ${choices.filter((p) => p.right).length}번 맞음`;
    this.record.textContent = text + ". 이 기록은 이 브라우저에만 있다.";
  }
}

/* the predict box's style (predict.css, beside this module), asked for once, as soon as predict mode is on */
let styled = false;
function style() {
  if (styled) return;
  styled = true;
  document.head.append(el("link", {rel: "stylesheet", href: new URL("predict.css", import.meta.url).href}));
}

/* the predict parts of an explorer's states, from their own file (its data names it: "predict"), fetched once */
export function ready(data) {
  style();
  if (!data.predict) return Promise.resolve();
  data.predicting = data.predicting || json(new URL(data.predict, document.baseURI)).then((parts) => {
    parts.forEach((found, i) => {
      for (const [key, predict] of Object.entries(found)) data.parts[i].states[key].predict = predict;
    });
    delete data.predict;
  }, (error) => {
    data.predicting = null;
    console.warn(`조건 탐색기: 예측 자료를 받지 못했다 (${error.message})`);
    throw error;
  });
  return data.predicting;
}

/* the predict box of `explorer` (explorer.js) */
export function attach(explorer, page) {
  style();
  return new Predictor(explorer, page);
}
