// "이 값은 어떻게 나왔나": a glued number's derivation (tools/coursebook/derivations.py marks the numbers, the library writes
// the records). Places the records' text; computes nothing. The page's records are fetched when a panel first opens.
(function () {
  "use strict";
  var src = document.querySelector("[data-rl-why]"), data = null, open = null;
  if (!src) return;
  function load() {
    data = data || fetch(src.getAttribute("data-rl-why")).then(function (r) {
      if (!r.ok) throw new Error(r.status); return r.json();
    }).catch(function (e) { data = null; throw e; });   // a failed fetch is tried again at the next press
    return data;
  }
  // an explorer's number: the records of the state it shows (explorer.js: precomputed, or the live mode's result)
  function records(button) {
    var holder = button.closest("[data-rl-explorer]");
    if (!holder) return load();
    if (holder.rlExplorer) return holder.rlExplorer.records();
    return new Promise(function (ok) { holder.addEventListener("rl-ready", ok, {once: true}); })
      .then(function () { return holder.rlExplorer.records(); });
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  var KIND = {toml: "course.toml의 ", cell: "매개변수 셀의 ", control: "조건 탐색기에서 고른 값 ", typed: "직접 계산하기에 적은 값 ", search: "모델이 찾은 값: ", measured: "이 기계에서 잰 값: ", simulated: "모델의 시뮬레이션: ", cite: "참고문헌 ", quoted: "출처 없이 흔히 인용되는 값: ", code: "이 쪽의 코드 셀(숨긴 셀은 노트북 판에서 보인다)이 정한 값: "};
  function unit(u) { return u ? " " + u : ""; }
  // a value as the library wrote it: readable ("약 6.871948 ms") beside the exact one (why.value_text)
  function value(x, exact) {
    return x.approx ? x.approx + " (정확한 값 " + exact + unit(x.unit) + ")" : exact + unit(x.unit);
  }
  function origin(o, d, show) {
    var i = o.indexOf(":"), kind = o.slice(0, i), what = o.slice(i + 1), a;
    if (kind === "derived") {
      var r = d.r[what];
      a = el("a", null, "유도 보기: " + r.symbol + " = " + r.formula);
      a.href = "#";
      a.addEventListener("click", function (ev) { ev.preventDefault(); show(what); });
      return a;
    }
    if (kind === "toml" || kind === "cell") {
      a = el("a", null, KIND[kind] + what);
      a.href = "#rl-params";
      return a;
    }
    return el("span", null, (KIND[kind] || "") + what);
  }
  function render(panel, d, g, id, path) {
    var r = d.r[id], top = id === g.of;
    panel.textContent = "";
    var head = el("span", "rl-why-head");
    head.appendChild(el("strong", null, "이 값은 어떻게 나왔나"));
    var x = el("button", "rl-why-close", "닫기");
    x.type = "button";
    x.addEventListener("click", function () { close(true); });
    head.appendChild(x);
    panel.appendChild(head);
    if (!top) {
      var back = el("a", "rl-why-back", "← 처음 값 " + d.r[g.of].symbol);
      back.href = "#";
      back.addEventListener("click", function (ev) { ev.preventDefault(); render(panel, d, g, g.of, []); place(open.button, panel); panel.focus({preventScroll: true}); });
      panel.appendChild(back);
    }
    var named = r.symbol + (r.name ? " (" + r.name + ")" : "");
    if (r.origin) panel.appendChild(el("span", "rl-why-line", named));   // an input: its value and where it comes from
    else {
      panel.appendChild(el("span", "rl-why-line", named + (r.formula !== r.symbol ? " = " + r.formula : "")));
      if (r.numbers !== r.formula) panel.appendChild(el("span", "rl-why-line", "= " + (r.said || r.numbers)));   // (times in ms: why.said_numbers)
    }
    var bare = /^[−-]?[\d,./]+/.exec(g.shown);   // the shown number without the words around it ("1배", "4,096×4,096")
    var same = g.shown === r.exact || (bare && bare[0].replace(/,/g, "") === r.exact.replace(/,/g, ""));
    var said = g.shown + unit(g.unit) + (g.rounding ? " — " + g.rounding : "");   // why.result_text
    var result = top ? said + (same ? "" : (g.rounding ? " (정확한 값 " : " (= ") + r.exact + unit(r.unit) + ")")
      : value(r, r.exact);
    panel.appendChild(el("span", "rl-why-line rl-why-result", "= " + result));
    function show(next) { render(panel, d, g, next, path.concat([id])); place(open.button, panel); panel.focus({preventScroll: true}); }
    if (r.origin) {
      var from = el("span", "rl-why-line", "출처: ");
      from.appendChild(origin(r.origin, d, show));
      panel.appendChild(from);
    }
    if (r.inputs.length) {
      panel.appendChild(el("span", "rl-why-sub", "넣은 값"));
      var ul = el("ul", "rl-why-inputs");
      r.inputs.forEach(function (x) {
        var li = el("li", null, x.symbol + " = " + value(x, x.value) + " ← ");
        li.appendChild(origin(x.origin, d, show));
        ul.appendChild(li);
      });
      panel.appendChild(ul);
    }
  }
  // fixed, beside its number (a table's scrolling box would clip an absolute panel); below it, or above when the
  // viewport has no room below; placed again when the page scrolls
  function place(button, panel) {
    var b = button.getBoundingClientRect(), vw = document.documentElement.clientWidth, w = Math.min(416, vw - 16);
    panel.style.width = w + "px";
    panel.style.left = Math.max(8, Math.min(b.left, vw - w - 8)) + "px";
    var h = panel.offsetHeight, top = b.bottom + 4;
    if (top + h > innerHeight && b.top - h - 4 >= 0) top = b.top - h - 4;
    panel.style.top = top + "px";
  }
  function close(focus) {
    if (!open) return;
    var b = open.button;
    open.panel.remove();
    b.setAttribute("aria-expanded", "false");
    b.removeAttribute("aria-controls");
    open = null;
    if (focus) b.focus();
  }
  function toggle(button) {
    if (open && open.button === button) { close(true); return; }
    close(false);
    var panel = el("span", "rl-why-panel");
    panel.id = "rl-why-panel";
    panel.setAttribute("role", "group");
    panel.setAttribute("aria-label", "이 값은 어떻게 나왔나");
    panel.tabIndex = -1;
    panel.textContent = "불러오는 중…";
    (document.querySelector("main") || document.body).appendChild(panel);   // in the main landmark, fixed to the viewport:
    // no section's containment or table's scroll box clips it
    button.setAttribute("aria-controls", panel.id);
    button.setAttribute("aria-expanded", "true");
    open = {button: button, panel: panel};
    place(button, panel);
    records(button).then(function (d) {
      if (!open || open.panel !== panel) return;
      var g = d.g[button.getAttribute("data-why")];
      render(panel, d, g, g.of, []);
      place(button, panel);
      panel.focus({preventScroll: true});   // the reader goes on inside the panel; Tab past its ends goes back to the number
    }, function () { panel.textContent = "유도를 불러오지 못했다."; });
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest && ev.target.closest("button.rl-why");
    if (b) toggle(b);
  });
  // a reader who points at or tabs to a number is about to press it: fetch the records then (still on demand)
  function soon(ev) {
    var b = ev.target.closest && ev.target.closest("button.rl-why");
    if (b) records(b).catch(function () {});
  }
  // the explorer shows another state: a panel open on one of its numbers is out of date
  document.addEventListener("rl-update", function (ev) { if (open && ev.target.contains(open.button)) close(false); }, true);   // (not a bubbling event: caught on its way down)
  document.addEventListener("pointerover", soon, {passive: true});
  document.addEventListener("focusin", soon);
  document.addEventListener("keydown", function (ev) {
    if (!open) return;
    if (ev.key === "Escape") { ev.preventDefault(); close(true); return; }
    if (ev.key !== "Tab" || !open.panel.contains(document.activeElement)) return;
    var f = open.panel.querySelectorAll("a, button"), a = document.activeElement;
    if ((ev.shiftKey && (a === open.panel || a === f[0])) || (!ev.shiftKey && a === f[f.length - 1])) {
      ev.preventDefault(); open.button.focus();
    }
  });
  addEventListener("resize", function () { if (open) place(open.button, open.panel); });
  addEventListener("scroll", function () { if (open) place(open.button, open.panel); }, {passive: true, capture: true});
})();
