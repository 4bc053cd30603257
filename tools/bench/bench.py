"""`make bench`: the course site's timings and weights, printed as figures, never as pass/fail.

    python tools/bench/bench.py [--quick] [--runs N] [--json PATH]

Figures (medians over --runs runs where a run takes seconds, one run where it takes minutes):
- clean build: `make book` in a fresh copy of the repository (every chapter executed), wall and CPU;
- cached build: `make book` again in that copy (every chapter from the execution cache);
- refresh: `make refresh` after one parameter of course.toml is touched, and after it is put back;
- the test suite: `make test`'s pytest command in this checkout, wall and CPU;
- the explorer's response: in Chromium, from a key pressed on a control to the first frame after the update;
- the exercise judge's response: from Enter in a field to the first frame after the verdict is shown (the base
  questions, then a student's variant);
- the derivation panel ("이 값은 어떻게 나왔나"): from the press on a number to the first frame after its panel shows, first
  (fetching the panel's module and the page's records; with the ms until those files had come) and later, CPU slowed
  4× as Lighthouse's mobile profile;
- first-visit bytes per page: everything a cold load moves (HTML, CSS, scripts, fonts, images);
- offline (the service worker, tools/coursebook/offline.py), on the site served with `Cache-Control: no-store` (so
  only the worker can keep anything): what the offline work adds to a first visit of ② and of the landing page,
  counted as a caching server sends it (each file once: the page's, sw.js, and what the worker fetched that the
  page did not; before = no worker, no offline.js, without the head tags and the landing control), apart from it
  the explorer's files the worker keeps ahead; and the live mode from the press to the first result with
  _static/live.js's steps (performance marks): cold (a fresh profile), warm pressed as soon as the button is there,
  and warm pressed once the page has started Python ahead (a returning reader who reads before pressing);
- `import roofline`: CPU seconds in a fresh interpreter;
- `make grade` for a synthetic class of 300 (tests/tooling/test_grade.py's class, exported by _static/core.js
  under Node, one file per student in a zip): wall, CPU and the peak memory of its largest process;
- Lighthouse's mobile profile (performance, accessibility, best practices, SEO; LCP, TBT, CLS) on the first page and the
  first and last explorer pages when `lighthouse` (npm) is on PATH. The bench's server does not compress: a host that
  gzips (as static hosts do) scores higher, its render-blocking CSS and HTML being 4–5× smaller on the wire.
`--quick` leaves out the clean and cached builds, the refresh and the test suite.

CPU seconds are those of the command and every process it waited for (getrusage RUSAGE_CHILDREN); on a shared
machine the wall clock also counts the time other processes held the CPU, so both are printed with the load average.
The builds run in a copy (`make VENV=<this .venv>`), so this checkout and its _build stay as they are.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV = Path(sys.prefix)
HTML = Path(os.environ.get("ROOFLINE_HTML", ROOT / "_build" / "html"))
CHROMIUM = os.environ.get("ROOFLINE_CHROMIUM", "/usr/bin/chromium")
sys.path.insert(0, str(ROOT / "tests"))   # the browser set-up (server, flags) and course_copies, shared with the tests

RESULTS: dict = {}
FAILED: list[str] = []


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"


def report(name: str, value: str, data=None) -> None:
    print(f"  {name:<44} {value}", flush=True)
    RESULTS[name] = data if data is not None else value


def run(cmd: list[str], cwd: Path, env: dict | None = None) -> tuple[float, float]:
    """Wall and CPU seconds (user + system of every waited-for descendant) of one command; raises on failure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{(done.stdout + done.stderr)[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def timed(name: str, cmd, cwd, env=None, runs: int = 1) -> None:
    try:
        samples = [run(cmd, cwd, env) for _ in range(runs)]
    except Exception as err:          # a step that cannot run is reported; the other figures still come
        FAILED.append(f"{name}: {err}")
        report(name, "could not run (see the end)")
        return
    wall = statistics.median(s[0] for s in samples)
    cpu = statistics.median(s[1] for s in samples)
    many = f" (median of {runs})" if runs > 1 else ""
    report(name, f"{wall:7.1f} s wall, {cpu:7.1f} s CPU{many}  [load {load()}]",
           {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "runs": runs, "load": load()})


# ---- builds, in a copy ------------------------------------------------------------------------------------

def copy_repository(base: Path) -> Path:
    """A clone with the working tree's files, committed (a git checkout, as the build's record lists its files with git)."""
    from coursebook.built import checkout_files

    copy = base / "repo"
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(copy)], check=True, capture_output=True)
    for name in checkout_files():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, copy / name)
    git = ["git", "-C", str(copy), "-c", "user.name=bench", "-c", "user.email=bench@example.org"]
    subprocess.run(git + ["add", "-A"], check=True, capture_output=True)
    subprocess.run(git + ["commit", "-q", "--allow-empty", "-m", "bench"], check=True, capture_output=True)
    if (ROOT.parent / "shared").is_dir():
        (copy.parent / "shared").symlink_to(ROOT.parent / "shared")
    return copy


def builds(runs: int) -> None:
    from course_copies import set_key

    print("builds (in a copy of the repository, with this .venv)", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        repo = copy_repository(Path(tmp))
        env = {k: v for k, v in os.environ.items() if k not in {"ROOFLINE_HTML"}}
        env["PYTHONPATH"] = f"{repo / 'lib'}:{repo / 'tools'}"   # the copy's library and tooling
        make = ["make", "-s", f"VENV={VENV}", "-o", str(VENV / ".installed")]
        timed("make book, clean (every chapter runs)", make + ["book"], repo, env)
        timed("make book, cached", make + ["book"], repo, env, runs=runs)
        toml = repo / "lib" / "roofline" / "course.toml"
        original = toml.read_text(encoding="utf-8")
        import tomllib
        L = tomllib.loads(original)["week3"]["L"]
        toml.write_text(set_key(original, "week3.L", 2 * L), encoding="utf-8")
        timed("make refresh, week3.L doubled", make + ["refresh"], repo, env)
        toml.write_text(original, encoding="utf-8")
        timed("make refresh, week3.L put back", make + ["refresh"], repo, env)


def test_suite() -> None:
    print("test suite (this checkout, as `make test` runs it after the build)", flush=True)
    # the Makefile's test line, with its number of workers (WORKERS: one per CPU, two to four)
    workers = subprocess.run(["make", "-s", "--no-print-directory", "--eval=workers: ; @echo $(WORKERS)", "workers"],
                             cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    timed(f"pytest tests chapters -n {workers}", [str(VENV / "bin" / "python"), "-m", "pytest", "tests", "chapters",
                                                  "--nbval", "--nbval-current-env", "-n", workers, "--dist", "loadscope",
                                                  "--no-loadscope-reorder", "-q"], ROOT)


def import_time(runs: int) -> None:
    probe = "import time; t = time.process_time(); import roofline; print(time.process_time() - t)"
    samples = []
    for _ in range(max(runs, 5)):
        out = subprocess.run([str(VENV / "bin" / "python"), "-c", probe], capture_output=True, text=True, cwd="/")
        samples.append(float(out.stdout))
    report("import roofline (CPU)", f"{statistics.median(samples) * 1000:7.1f} ms (median of {len(samples)})",
           {"cpu_ms": round(statistics.median(samples) * 1000, 2)})


# The peak resident memory of a command: the largest process it waited for (ru_maxrss of RUSAGE_CHILDREN, in KiB on
# Linux), read in a fresh interpreter so that no process the bench ran before (Chromium, Node) counts.
PEAK = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, capture_output=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")


def grade_class(runs: int, students: int = 300) -> None:
    """`make grade` on `students` students' progress files, made as tests/tooling/test_grade.py makes its class."""
    import zipfile

    from coursebook import handout
    from roofline import params
    from tooling.test_grade import export, make_records

    name = f"make grade, {students} students"
    print("make grade (a synthetic class, as tests/tooling/test_grade.py makes it)", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-grade-") as tmp:
        tmp = Path(tmp)
        try:
            records = make_records(handout.published_term(params.load(), HTML)[1], students)
            with zipfile.ZipFile(tmp / "submissions.zip", "w") as z:
                for record, text in zip(records, export(records, tmp)):
                    z.writestr(f"{record['student']}/내-진도-{record['student']}.csv", text)
            (tmp / "roster.csv").write_text("학번,이름\n" + "".join(f"{r['student']},학생{n}\n" for n, r in enumerate(records)),
                                           encoding="utf-8")
            cmd = ["make", "-s", f"VENV={VENV}", "-o", str(VENV / ".installed"), "grade", f"SUBMISSIONS={tmp / 'submissions.zip'}",
                   f"ROSTER={tmp / 'roster.csv'}", f"CLASS={tmp / 'out'}", f"SITE={HTML}"]
            samples = []
            for _ in range(runs):
                start = time.perf_counter()
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                done = subprocess.run([str(VENV / "bin" / "python"), "-c", PEAK, *cmd], cwd=ROOT, capture_output=True, text=True)
                wall = time.perf_counter() - start
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                if done.returncode != 0:
                    raise RuntimeError(f"{' '.join(cmd)} failed:\n{(done.stdout + done.stderr)[-2000:]}")
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                samples.append((wall, cpu, int(done.stdout.split()[-1]) / 1024))
        except Exception as err:          # reported; the other figures still come
            FAILED.append(f"{name}: {err}")
            report(name, "could not run (see the end)")
            return
    wall, cpu, peak = (statistics.median(s[i] for s in samples) for i in range(3))
    many = f" (median of {runs})" if runs > 1 else ""
    report(name, f"{wall:7.1f} s wall, {cpu:7.1f} s CPU, {peak:6.0f} MB peak{many}  [load {load()}]",
           {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "peak_mb": round(peak), "runs": runs, "load": load()})


# ---- in Chromium ------------------------------------------------------------------------------------------

# The explorer announces each update with an `rl-update` event: from the input event to the first frame after it.
PROBE = """() => {
  window.__bench = {pending: null, latency: [], work: []};
  for (const type of ["keydown", "pointerdown", "input", "change"]) {
    document.addEventListener(type, (e) => { if (window.__bench.pending === null) window.__bench.pending = e.timeStamp; }, true);
  }
  document.addEventListener("rl-update", (e) => {
    const t0 = window.__bench.pending;
    window.__bench.pending = null;
    if (e.detail && typeof e.detail.ms === "number") window.__bench.work.push(e.detail.ms);
    requestAnimationFrame(() => { if (t0 !== null) window.__bench.latency.push(performance.now() - t0); });
  }, true);
}"""

# A key that changes the focused range or <select> from where it stands.
MOVE = """(el) => el.type === "range" ? (el.value === el.min ? "End" : "Home")
                                     : (el.selectedIndex === el.options.length - 1 ? "ArrowUp" : "ArrowDown")"""

# From Enter in a field to the first frame after its verdict changed.
JUDGE_PROBE = """() => {
  window.__judge = {pending: null, latency: []};
  document.addEventListener("keydown", (e) => { if (e.key === "Enter") window.__judge.pending = e.timeStamp; }, true);
  new MutationObserver(() => {
    const t0 = window.__judge.pending;
    if (t0 === null) return;
    window.__judge.pending = null;
    requestAnimationFrame(() => window.__judge.latency.push(performance.now() - t0));
  }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""


# From Enter in a predict form (issue 39) to the first frame after the model's values, the error and the why are placed.
PREDICT_PROBE = """() => {
  window.__predict = {pending: null, latency: [], work: []};
  document.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && e.target.closest && e.target.closest(".rl-predict-form")) window.__predict.pending = e.timeStamp;
  }, true);
  document.addEventListener("rl-predict", (e) => {
    const t0 = window.__predict.pending;
    window.__predict.pending = null;
    window.__predict.work.push(e.detail.ms);
    requestAnimationFrame(() => { if (t0 !== null) window.__predict.latency.push(performance.now() - t0); });
  }, true);
}"""


def spread(ms: list[float]) -> str:
    ms = sorted(ms)
    p90 = ms[min(len(ms) - 1, round(0.9 * (len(ms) - 1)))]
    return f"median {statistics.median(ms):6.1f} ms, p90 {p90:6.1f} ms, max {ms[-1]:6.1f} ms ({len(ms)} changes)"


def in_browser(runs: int) -> None:
    from browser_helpers import chromium, html_dir, label_page, offline, page_file, serve, stop_shared, toc_pages

    print("in Chromium (the built site on 127.0.0.1)", flush=True)
    if not Path(CHROMIUM).is_file():
        report("browser figures", f"skipped: no Chromium at {CHROMIUM}")
        return
    root = html_dir()
    try:
        with serve(root) as base, chromium(CHROMIUM) as browser:   # the full browser, as a reader has (not the tests' shell)
            explorer_response(browser, base, runs, label_page, page_file, offline)
            predict_response(browser, base, runs, page_file, offline)
            judge_response(browser, base, runs, label_page, page_file, offline)
            why_panel_response(browser, base, runs, page_file, offline)
            first_visit_bytes(browser, base, toc_pages(), page_file, offline)
            offline_figures(browser, root, label_page, page_file, offline)
    except Exception as err:
        FAILED.append(f"browser figures: {err}")
        report("browser figures", "could not run (see the end)")
    finally:
        stop_shared()


def explorer_pages() -> list[str]:
    """Docnames of the built pages that carry an explorer."""
    from site_pages import toc_pages

    return [d for d in toc_pages() if "data-rl-explorer" in (HTML / f"{d}.html").read_text(encoding="utf-8")]


def open_explorer(browser, base, docname, page_file, offline, probe):
    """A desktop tab on `docname` with `probe` run in it and its first explorer started: (context, page, the
    explorer, its first visible range or select)."""
    from browser_helpers import start_explorer

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    offline(context, base, [])
    page = context.new_page()
    page.goto(base + page_file(docname), wait_until="load")
    page.wait_for_load_state("networkidle")
    page.evaluate(probe)
    root = start_explorer(page.locator("[data-rl-explorer]").first)
    return context, page, root, root.locator('input[type="range"]:visible, select:visible').first


def explorer_response(browser, base, runs, label_page, page_file, offline) -> None:
    for docname in explorer_pages():
        context, page, root, control = open_explorer(browser, base, docname, page_file, offline, PROBE)
        if control.count() == 0:
            report(f"explorer response, {docname}", "no range or select control found")
            context.close()
            continue
        control.focus()
        for i in range(10 * max(runs, 1)):
            page.keyboard.press(control.evaluate(MOVE))
            page.wait_for_function(f"() => window.__bench.latency.length >= {i + 1}", timeout=5000)
        found = page.evaluate("() => window.__bench")
        work = f"; the explorer's own work median {statistics.median(found['work']):.1f} ms" if found["work"] else ""
        report(f"explorer response, {docname.split('/')[-1]}", spread(found["latency"]) + work,
               {"latency_ms": found["latency"], "work_ms": found["work"]})
        context.close()


def predict_response(browser, base, runs, page_file, offline) -> None:
    """Predict first: the control moved, a guess typed, Enter; the time until the model's values are on the page."""
    for docname in explorer_pages():
        context, page, root, control = open_explorer(browser, base, docname, page_file, offline, PREDICT_PROBE)
        toggle = root.locator(".rl-predict-toggle")
        if control.count() == 0 or toggle.count() == 0:
            report(f"predict response, {docname}", "no control or no predict mode found")
            context.close()
            continue
        if toggle.get_attribute("aria-pressed") != "true":
            toggle.click()
        root.locator(".rl-predict").wait_for()
        for i in range(5 * max(runs, 1)):
            control.focus()
            page.keyboard.press(control.evaluate(MOVE))
            # a number is typed and Enter pressed; a page that asks only which choice (which level binds) is
            # answered by its first choice and Enter on the form's button
            root.locator(".rl-predict-form input").first.wait_for()
            field = root.locator(".rl-predict-form input[type=text]").first
            if field.count():
                field.fill("1")
                field.press("Enter")
            else:
                root.locator(".rl-predict-form input[type=radio]").first.check()
                root.locator(".rl-predict-check").first.press("Enter")
            page.wait_for_function(f"() => window.__predict.latency.length >= {i + 1}", timeout=5000)
        found = page.evaluate("() => window.__predict")
        page.evaluate("() => window.rlProgress && window.rlProgress.reset()")
        report(f"predict response, {docname.split('/')[-1]}",
               spread(found["latency"]) + f"; the guess's own work median {statistics.median(found['work']):.1f} ms",
               {"latency_ms": found["latency"], "work_ms": found["work"]})
        context.close()


def judge_response(browser, base, runs, label_page, page_file, offline) -> None:
    try:
        docname = label_page("ch-guide")
    except BaseException:     # pytest.fail outside pytest: no such label any more
        report("exercise judge response", "skipped: no page labelled ch-guide")
        return
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    offline(context, base, [])
    page = context.new_page()
    page.goto(base + page_file(docname), wait_until="load")
    try:
        page.wait_for_selector(".rl-quiz.rl-live", timeout=15000)
    except Exception:
        report("exercise judge response", "skipped: no live exercise on the guide")
        context.close()
        return
    page.evaluate(JUDGE_PROBE)
    fields = page.locator(".rl-quiz [data-rl-q] input")
    count = min(fields.count(), 10 * max(runs, 1))
    for i in range(count):
        field = fields.nth(i)
        field.fill("1" if i % 2 else "2")
        field.press("Enter")
        page.wait_for_function(f"() => window.__judge.latency.length >= {i + 1}", timeout=5000)
    latency = page.evaluate("() => window.__judge.latency")
    report("exercise judge response, week-4 guide", spread(latency), {"latency_ms": latency})
    student = page.locator("[data-rl-student]")       # the same with a student's variant (issue 40)
    if student.count() and student.first.is_visible():
        student.first.fill("bench-1")
        student.first.press("Enter")
        page.wait_for_function("() => document.querySelector('.rl-quiz').dataset.student === 'bench-1'", timeout=15000)
        page.evaluate("() => { window.__judge.latency = []; window.__judge.pending = null; }")
        for i in range(count):
            field = fields.nth(i)
            field.fill("1" if i % 2 else "2")
            field.press("Enter")
            page.wait_for_function(f"() => window.__judge.latency.length >= {i + 1}", timeout=5000)
        latency = page.evaluate("() => window.__judge.latency")
        report("exercise judge response, week-4 guide, a student's variant", spread(latency), {"latency_ms": latency})
    context.close()


def first_visit_bytes(browser, base, pages, page_file, offline) -> None:
    """A cold load of every page (routing on: the browser cache is off), every image forced to load."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    offline(context, base, [])
    sizes = {}
    for docname in pages:
        page = context.new_page()
        got: list[int] = []

        def size(response):
            try:
                got.append(len(response.body()))
            except Exception:
                pass

        page.on("response", size)
        page.goto(base + page_file(docname), wait_until="load")
        page.evaluate("""async () => { [...document.images].forEach((i) => { i.loading = "eager"; });
          await Promise.race([Promise.all([...document.images].map((i) => i.complete ? null : new Promise((ok) => {
            i.addEventListener("load", ok); i.addEventListener("error", ok); }))), new Promise((ok) => setTimeout(ok, 5000))]);
          await document.fonts.ready; }""")
        page.wait_for_load_state("networkidle")
        sizes[docname] = (sum(got), len(got))
        page.close()
    context.close()
    for docname, (total, count) in sizes.items():
        report(f"first visit, {docname}", f"{total:>10,} bytes in {count} requests", {"bytes": total, "requests": count})


# what the offline work put in a page's <head>: the manifest's link, the theme colours, an icon, the script tag
OFFLINE_HEAD = re.compile(r'<link rel="(?:manifest|apple-touch-icon)"[^>]*>\n?|<meta name="theme-color"[^>]*>\n?'
                          r'|<script [^>]*offline\.js[^>]*></script>\n?')

# The live mode's steps, as _static/live.js marks them (performance.mark "rl-live:<step>"), in ms from the press.
# (negative: before the press, where a returning reader's Python started ahead)
LIVE_STEPS = """() => { const marks = performance.getEntriesByType("mark").filter((m) => m.name.startsWith("rl-live:"));
  const t0 = window.__pressed; return Object.fromEntries(marks.map((m) => [m.name.slice(8), Math.round(m.startTime - t0)])); }"""


def _no_store_server(root: Path):
    """The built site on 127.0.0.1 with `Cache-Control: no-store` (only the worker can keep anything), logging
    every path it sends."""
    import functools
    import http.server
    import threading

    served: list[str] = []

    class NoStore(http.server.SimpleHTTPRequestHandler):
        def end_headers(self):
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

        def do_GET(self):
            served.append(self.path.split("?")[0].lstrip("/"))
            super().do_GET()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(NoStore, directory=str(root)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, served, f"http://127.0.0.1:{server.server_address[1]}/"


def offline_first_visit(browser, root: Path, base: str, served: list[str], name: str, docname: str, offline,
                        page_file) -> None:
    """What the offline work adds to a first visit of `docname`, counted as a server that allows caching would
    send it (each file once): before = the page's own files with no worker, no offline.js and without the head
    tags the offline work wrote; after = every file sent until the worker holds the page (the page's, sw.js, and
    what the worker fetched that the page did not load)."""
    from coursebook import offline as site_offline

    size = lambda paths: sum((root / p).stat().st_size for p in set(paths) if (root / p).is_file())
    html = (root / page_file(docname)).read_text(encoding="utf-8")
    head_tags = len("".join(OFFLINE_HEAD.findall(html.split("</head>")[0])).encode())
    control = re.search(r'<div class="rl-offline".*?</div>\n', html, re.S)    # the landing page's control
    control = len(control.group(0).encode()) if control else 0
    served.clear()
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    offline(context, base, [])
    context.route("**/offline.js*", lambda r: r.abort())
    context.new_page().goto(base + page_file(docname), wait_until="networkidle")
    context.close()
    page_own = set(served)
    before = size(page_own) - head_tags - control
    served.clear()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    offline(context, base, [])
    page = context.new_page()
    page.goto(base + page_file(docname), wait_until="networkidle")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60000)
    page.evaluate("""(url) => new Promise((ok) => { const c = new MessageChannel(); c.port1.onmessage = ok;
        navigator.serviceWorker.controller.postMessage({type: "keep-page", url}, [c.port2]); })""", page.url)
    context.close()
    sent = set(served)
    later = {f"_static/{n}" for n in __import__("coursebook.assets", fromlist=["x"]).LOADED_BY_SCRIPT}
    ahead = {p for p in sent - page_own if p.startswith("_static/states/") or p in later}
    new = sorted(sent - page_own - ahead - {site_offline.WORKER, "_static/offline.js"})
    after = size(sent - ahead)
    parts = {"offline.js": size(["_static/offline.js"]), "sw.js": size([site_offline.WORKER]), "head tags": head_tags,
             **({"the control": control} if control else {}), **{p: size([p]) for p in new}}
    without = "no worker, no offline.js, no head tags" + (", no control" if control else "")
    report(f"offline, first visit of {name}, before", f"{before:>10,} bytes ({without})", {"bytes": before})
    report(f"offline, first visit of {name}, after", f"{after:>10,} bytes (+{after - before:,}: "
           + ", ".join(f"{k} {v:,}" for k, v in parts.items()) + ")",
           {"bytes": after, "added": after - before, "parts": parts})
    if ahead:
        report(f"offline, {name}: the explorer's files kept ahead", f"{size(ahead):>10,} bytes "
               f"({', '.join(sorted(ahead))}; fetched by the page itself when its explorer starts)",
               {"bytes": size(ahead), "files": sorted(ahead)})


def offline_figures(browser, root: Path, label_page, page_file, offline) -> None:
    """The service worker's cost on a first visit and the live mode cold and warm, on a no-store server."""
    import gzip

    from coursebook import offline as site_offline

    for name in (site_offline.WORKER, "_static/offline.js", site_offline.UI, site_offline.MANIFEST):
        data = (root / name).read_bytes()
        report(f"offline, {name}", f"{len(data):>8,} bytes, gzip {len(gzip.compress(data, 6)):>7,}",
               {"bytes": len(data), "gzip": len(gzip.compress(data, 6))})
    server, served, base = _no_store_server(root)
    try:
        for name, label in (("②", "ch-roofline"), ("the landing page", "home")):
            offline_first_visit(browser, root, base, served, name, label_page(label), offline, page_file)
        live_cold_warm(browser, base, served, label_page, page_file, offline)
    finally:
        server.shutdown()
        server.server_close()


def live_cold_warm(browser, base, served, label_page, page_file, offline) -> None:
    """The live mode from the press to the first result, in one browser profile: cold (②, a fresh profile:
    everything from the server through the worker), warm (⑤: from the worker's cache, pressed as soon as the
    button is there) and warm after reading (④: pressed once the page has prepared Python, as a returning reader
    who reads before pressing finds it), with live.js's steps."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    offline(context, base, [])
    page = context.new_page()
    times = {}
    for label, uid, settle in (("ch-roofline", "rl-roofline", False), ("ch-matmul", "rl-matmul", False),
                               ("ch-tile-size", "rl-tile", True)):
        try:
            docname = label_page(label)
        except BaseException:
            continue
        page.goto(base + page_file(docname), wait_until="load")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60000)
        root_el = page.locator(f"#{uid}")
        if root_el.count() == 0:
            continue
        root_el.scroll_into_view_if_needed()
        root_el.locator(".rl-live-button").wait_for()
        if settle:
            page.wait_for_function("() => performance.getEntriesByName('rl-live:engine').length > 0", timeout=600000)
        page.evaluate("(uid) => { window.__live = 0; document.getElementById(uid).addEventListener('rl-live', "
                      "() => { window.__live += 1; }); document.addEventListener('click', () => { "
                      "window.__pressed = performance.now(); }, {capture: true, once: true}); }", uid)
        before = len(served)
        started = time.perf_counter()
        root_el.locator(".rl-live-button").click()
        page.wait_for_function("() => window.__live > 0", timeout=600000)
        times[label] = ((time.perf_counter() - started) * 1000, len(served) - before, page.evaluate(LIVE_STEPS))
    steps = lambda marks: ", ".join(f"{k} {v:+d}" for k, v in marks.items())
    cold, fetched, marks = times["ch-roofline"]
    report("offline, live mode cold (②, fresh profile)", f"{cold:8.0f} ms, {fetched} requests  [load {load()}]"
           f" (ms from the press: {steps(marks)})", {"ms": cold, "requests": fetched, "steps_ms": marks, "load": load()})
    for label, name in (("ch-matmul", "warm (⑤, same profile, pressed at once)"),
                        ("ch-tile-size", "warm (④, same profile, pressed once prepared)")):
        if label in times:
            warm, fetched, marks = times[label]
            report(f"offline, live mode {name}", f"{warm:8.0f} ms, {fetched} requests; warm/cold {warm / cold:.2f} "
                   f"(ms from the press: {steps(marks)})",
                   {"ms": warm, "requests": fetched, "ratio": warm / cold, "steps_ms": marks})
    context.close()


# ---- Lighthouse -------------------------------------------------------------------------------------------

# From the press on a number to the first frame after its panel shows its result ("이 값은 어떻게 나왔나"): the first
# press fetches the page's records, the later ones only place text. CPU slowed 4× as Lighthouse's mobile profile does.
PRESSED = """(b, done) => {
  const t0 = window.__whyPressed = performance.now();
  b.click();
  const wait = () => document.querySelector('#rl-why-panel .rl-why-result')
    ? requestAnimationFrame(() => { const ms = performance.now() - t0; b.click(); done(ms); })
    : requestAnimationFrame(wait);
  wait();
}"""
WHY_PROBE = f"""(i) => new Promise(done => ({PRESSED})(
  [...document.querySelectorAll('button.rl-why')].filter(b => b.checkVisibility() && !b.closest('[data-rl-explorer]'))[i],
  done))"""
# The same on an explorer's number (its state's record): the first press fetches the explorer's records file.
EXPLORER_WHY_PROBE = f"""(uid) => new Promise(done => {{
  const root = document.getElementById(uid);
  const go = () => ({PRESSED})([...root.querySelectorAll('button.rl-why[data-why]')].filter(b => b.checkVisibility())[0], done);
  if (root.rlExplorer) go(); else {{ root.addEventListener('rl-ready', go, {{once: true}}); root.scrollIntoView(); }}
}})"""


# Of a first open, the time until the files it fetched had come (why-panel.js, the records, core.js where the page had
# not loaded it): ms from the press to the last one's end; the rest is the page's own work (parse, write, lay out).
FETCHED = """() => Math.max(0, ...performance.getEntriesByType("resource").filter((e) => e.startTime >= window.__whyPressed)
  .map((e) => e.responseEnd - window.__whyPressed))"""


def first_open(page, probe, arg) -> tuple[float, float]:
    """A first open's ms and, of them, the ms until the files it fetched had come."""
    ms = page.evaluate(probe, arg)
    return ms, page.evaluate(FETCHED)


def why_panel_response(browser, base, runs, page_file, offline) -> None:
    from site_pages import toc_pages

    for docname in toc_pages():
        if 'class="rl-why"' not in (HTML / f"{docname}.html").read_text(encoding="utf-8"):
            continue
        context = browser.new_context(viewport={"width": 412, "height": 823})
        offline(context, base, [])
        page = context.new_page()
        page.goto(base + page_file(docname), wait_until="load")
        page.wait_for_load_state("networkidle")
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        first, files = first_open(page, WHY_PROBE, 0)
        times = [first] + [page.evaluate(WHY_PROBE, i % 3) for i in range(1, 1 + 5 * max(runs, 1))]
        report(f"why panel, {docname.split('/')[-1]}", f"first open {first:.1f} ms (the files it fetched here after "
               f"{files:.0f} ms), then " + spread(times[1:]).replace("changes", "opens"),
               {"first_ms": first, "first_files_ms": files, "later_ms": times[1:]})
        for uid in page.evaluate("() => [...document.querySelectorAll('[data-rl-explorer]')].map(e => e.id)"):
            page.evaluate("(uid) => document.getElementById(uid).scrollIntoView()", uid)
            page.wait_for_function("(uid) => document.getElementById(uid).rlExplorer", arg=uid)
            first, files = first_open(page, EXPLORER_WHY_PROBE, uid)
            times = [first] + [page.evaluate(EXPLORER_WHY_PROBE, uid) for _ in range(5 * max(runs, 1))]
            report(f"why panel, {docname.split('/')[-1]} {uid}", f"first open {first:.1f} ms (the explorer's records "
                   f"here after {files:.0f} ms), then " + spread(times[1:]).replace("changes", "opens"),
                   {"first_ms": first, "first_files_ms": files, "later_ms": times[1:]})
        context.close()


def lighthouse(pages: list[str]) -> None:
    print("Lighthouse, mobile profile", flush=True)
    tool = shutil.which("lighthouse")
    if not tool:
        report("lighthouse", "skipped: `lighthouse` is not installed (npm install -g lighthouse)")
        return
    from browser_helpers import html_dir, serve, stop_shared

    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as tmp, serve(html_dir()) as base:
        for docname in pages:
            out = Path(tmp) / "report.json"
            done = subprocess.run([tool, base + f"{docname}.html", "--quiet", "--output=json", f"--output-path={out}",
                                   "--only-categories=performance,accessibility,best-practices,seo",
                                   "--chrome-flags=--headless=new --no-sandbox --disable-gpu"],
                                  env=env, capture_output=True, text=True)
            if done.returncode != 0 or not out.exists():
                FAILED.append(f"lighthouse {docname}: {done.stderr[-1000:]}")
                report(f"lighthouse, {docname}", "could not run (see the end)")
                continue
            lh = json.loads(out.read_text(encoding="utf-8"))
            score = {k: round(100 * (v["score"] or 0)) for k, v in lh["categories"].items()}
            audit = lh["audits"]
            metrics = {k: audit[k]["displayValue"] for k in ("largest-contentful-paint", "total-blocking-time",
                                                            "cumulative-layout-shift", "first-contentful-paint")
                       if k in audit and "displayValue" in audit[k]}
            report(f"lighthouse, {docname}", " ".join(f"{k} {v}" for k, v in score.items()) + "; " +
                   ", ".join(f"{k.replace('-', ' ')} {v}" for k, v in metrics.items()), {"scores": score, **metrics})
    stop_shared()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="leave out the builds, the refresh and the test suite")
    parser.add_argument("--runs", type=int, default=3, help="runs of each short measurement (the median is shown)")
    parser.add_argument("--json", type=Path, default=ROOT / "_build" / "bench.json", help="where to write the figures")
    args = parser.parse_args(argv)
    if not (HTML / "index.html").is_file():
        print(f"no built site in {HTML}: run `make book` first", file=sys.stderr)
        return 1
    print(f"make bench: {time.strftime('%Y-%m-%d %H:%M:%S')}, {os.cpu_count()} cores, load {load()}", flush=True)
    import_time(args.runs)
    grade_class(args.runs)
    in_browser(args.runs)
    from site_pages import toc_pages

    explorers = explorer_pages()   # the first and the last (the newest page, "모델과 실측": issue 58's target)
    lighthouse([toc_pages()[0], *dict.fromkeys(explorers[:1] + explorers[-1:])])
    if not args.quick:
        builds(args.runs)
        test_suite()
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(RESULTS, indent=1, ensure_ascii=False), encoding="utf-8")
    print(f"figures written to {args.json.relative_to(ROOT) if args.json.is_relative_to(ROOT) else args.json}")
    for line in FAILED:
        print(f"\ncould not measure: {line}", file=sys.stderr)
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
