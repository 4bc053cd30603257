"""Lighthouse figures of the built site (a `make bench` figure, never a test assertion).

    python tools/bench/lighthouse.py [--gzip | --both] [--preset desktop] [--runs N] [--json DIR] [PAGE ...]

Serves _build/html on 127.0.0.1 (plain, or gzip-compressing text as GitHub Pages does), runs Lighthouse's
default mobile profile (simulated slow 4G, 4× CPU) on every page of the book (or the PAGEs given, paths under
_build/html) and prints per page: performance score, FCP, LCP, TBT, CLS, the other three category scores and
the render-blocking bytes of the page's <head> (stylesheets and scripts that are neither defer nor async,
uncompressed, as files on disk) and the page's own HTML. Lighthouse's simulated throttling still feels a busy
machine (TBT most), so each page runs `--runs` times (default 3) and every figure is the median of its runs;
the 1-minute load average before each page and Lighthouse's benchmarkIndex (the host's speed as it measured
it, median; lower on a busy machine) are printed beside it. `--json DIR` keeps every run's report (to
read its long tasks, bootup-time and main-thread breakdown).

Lighthouse is found as $LIGHTHOUSE, `lighthouse` on PATH or _build/tools/lighthouse/node_modules/.bin/lighthouse;
without it the script says how to install it and exits 0. Install it outside the repository's sources, e.g.
    npm install --prefix _build/tools/lighthouse -E lighthouse@12.2.3
(12.x runs on Node 20). Chromium: $CHROME_PATH, else /usr/bin/chromium.
"""
from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "_build" / "html"


def book_pages() -> list[str]:
    """The site's root, every page of _toc.yml in reading order, and the search page (paths under _build/html)."""
    import yaml

    from coursebook.built import toc_files

    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return ["index.html", *(f"{name}.html" for name in toc_files(toc)), "search.html"]


TEXT = (".html", ".css", ".js", ".svg", ".json", ".txt", ".xml")
FLAGS = "--headless=new --no-sandbox --disable-gpu"


def find_lighthouse() -> str | None:
    local = ROOT / "_build" / "tools" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
    for candidate in (os.environ.get("LIGHTHOUSE"), shutil.which("lighthouse"), str(local)):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


class Handler(http.server.SimpleHTTPRequestHandler):
    """The built site; with `compress`, text files gzip-compressed when the browser accepts it."""

    compress = False

    def log_message(self, *args):
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if not (self.compress and path.is_file() and path.suffix in TEXT
                and "gzip" in self.headers.get("Accept-Encoding", "")):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        import io
        return io.BytesIO(body)


def serve(compress: bool) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = type("SiteHandler", (Handler,), {"compress": compress})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(SITE)))
    server.handle_error = lambda request, address: None   # a browser that drops a connection is no error here
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


_TAG = re.compile(r"<(link|script)\b([^>]*)>")


def blocking_bytes(page: str) -> int:
    """Bytes on disk of the stylesheets and the scripts that are neither defer nor async in the page's <head>."""
    path = SITE / page
    head = path.read_text(encoding="utf-8").split("</head>")[0]
    total = 0
    for kind, attrs in _TAG.findall(head):
        if kind == "link" and 'rel="stylesheet"' not in attrs:
            continue
        if kind == "script" and (re.search(r"\b(defer|async)\b", attrs) or "src=" not in attrs):
            continue
        url = re.search(r'(?:href|src)="([^"]+)"', attrs)
        if url and not url.group(1).startswith(("http:", "https:", "data:")):
            target = (path.parent / url.group(1).split("?")[0]).resolve()
            total += target.stat().st_size if target.is_file() else 0
    return total


def run(lighthouse: str, url: str, preset: str | None, keep: Path | None = None) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "report.json"
        command = [lighthouse, url, "--output=json", f"--output-path={out}", "--quiet",
                   f"--chrome-flags={FLAGS}", "--only-categories=performance,accessibility,best-practices,seo"]
        if preset:
            command.append(f"--preset={preset}")
        env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
        if not out.is_file():
            raise RuntimeError(done.stderr[-2000:])
        if keep is not None:
            keep.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(out, keep)
        return json.loads(out.read_text(encoding="utf-8"))


def figures(report: dict) -> dict:
    audits, cats = report["audits"], report["categories"]
    score = {k: round(100 * (cats[k]["score"] or 0)) for k in cats}
    return {"perf": score.get("performance"), "a11y": score.get("accessibility"),
            "bp": score.get("best-practices"), "seo": score.get("seo"),
            "fcp": audits["first-contentful-paint"]["numericValue"] / 1000,
            "lcp": audits["largest-contentful-paint"]["numericValue"] / 1000,
            "tbt": audits["total-blocking-time"]["numericValue"],
            "cls": audits["cumulative-layout-shift"]["numericValue"],
            "bytes": audits["total-byte-weight"]["numericValue"] / 1024,
            "bench": report.get("environment", {}).get("benchmarkIndex") or 0}


def median(runs: list[dict]) -> dict:
    """Every figure's median over the runs (each figure on its own)."""
    return {key: statistics.median(r[key] for r in runs) for key in runs[0]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages", nargs="*", default=None)
    parser.add_argument("--gzip", action="store_true", help="serve gzip-compressed text")
    parser.add_argument("--both", action="store_true", help="run without and with gzip")
    parser.add_argument("--preset", choices=["desktop"], help="Lighthouse's desktop profile instead of mobile")
    parser.add_argument("--site", type=Path, help="another built site (default _build/html), e.g. to compare")
    parser.add_argument("--runs", type=int, default=3, help="runs per page; figures are medians (default 3)")
    parser.add_argument("--json", type=Path, help="keep every run's Lighthouse report in this folder")
    args = parser.parse_args(argv)
    args.pages = args.pages or book_pages()
    global SITE
    SITE = (args.site or SITE).resolve()
    lighthouse = find_lighthouse()
    if lighthouse is None:
        print("lighthouse: not installed, skipped "
              "(npm install --prefix _build/tools/lighthouse -E lighthouse@12.2.3)")
        return 0
    if not SITE.is_dir():
        print("lighthouse: no _build/html (run make book first), skipped")
        return 0
    modes = [False, True] if args.both else [args.gzip]
    worst = []
    for compress in modes:
        server, base = serve(compress)
        label = "gzip" if compress else "plain"
        print(f"Lighthouse {args.preset or 'mobile'}, {label} server")
        print(f"{'page':36} {'perf':>4} {'FCP s':>6} {'LCP s':>6} {'TBT ms':>7} {'CLS':>6} "
              f"{'a11y':>4} {'bp':>4} {'seo':>4} {'KiB':>6} {'block KiB':>9} {'HTML KiB':>8} {'load':>5} {'bench':>5}")
        try:
            for page in args.pages:
                load = os.getloadavg()[0]
                runs = []
                for i in range(max(1, args.runs)):
                    keep = args.json / label / f"{page.replace('/', '_')}.{i + 1}.json" if args.json else None
                    try:
                        runs.append(figures(run(lighthouse, base + page, args.preset, keep)))
                    except Exception as error:   # one run's failure is reported, the others still count
                        print(f"{page:36} run {i + 1} failed: {str(error).strip().splitlines()[-1:]}")
                if not runs:
                    continue
                f = median(runs)
                worst.append((label, page, f["perf"], f["fcp"]))
                print(f"{page:36} {f['perf']:>4.0f} {f['fcp']:>6.2f} {f['lcp']:>6.2f} {f['tbt']:>7.0f} {f['cls']:>6.3f} "
                      f"{f['a11y']:>4.0f} {f['bp']:>4.0f} {f['seo']:>4.0f} {f['bytes']:>6.0f} "
                      f"{blocking_bytes(page) / 1024:>9.1f} {(SITE / page).stat().st_size / 1024:>8.1f} {load:>5.2f} {f['bench']:>5.0f}",
                      flush=True)
        finally:
            server.shutdown()
    if worst:
        low = min(worst, key=lambda w: w[2])
        slow = max(worst, key=lambda w: w[3])
        print(f"lowest performance {low[2]:.0f} ({low[1]}, {low[0]}); slowest FCP {slow[3]:.2f} s ({slow[1]}, {slow[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
