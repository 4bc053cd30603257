"""`make upgrade-check`: how the course fares on the newest releases of its direct dependencies.

A figure for the maintainer, never a gate (`make test` does not run it). In a throwaway folder outside the checkout
(never the checkout's .venv), it makes a venv with the exact pins of requirements.txt, then upgrades the direct
dependencies to their newest releases (jupyter-book within 1.x), builds the site into the throwaway folder, runs the
fast tests, and prints one row per dependency: the version pinned, the version tried, whether the site built and the
fast tests passed, and what broke (the first error line that names the dependency's module). Pyodide and Lighthouse
come from npm: their newest version is looked up (`npm view`) and shown beside the pinned one.

    python tools/upgrade_check.py [--keep]      # --keep leaves the throwaway folder for a look
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UV_GLOB = ".venv/tools/uv-*/bin/uv"

# distribution, its module (to find what broke in the logs), the specifier tried (the newest within it)
DIRECT = [
    ("jupyter-book", "jupyter_book", "jupyter-book<2"),
    ("myst-nb", "myst_nb", "myst-nb"),
    ("jupyter-cache", "jupyter_cache", "jupyter-cache"),
    ("sphinx", "sphinx", "sphinx"),
    ("sphinx-book-theme", "sphinx_book_theme", "sphinx-book-theme"),
    ("pydata-sphinx-theme", "pydata_sphinx_theme", "pydata-sphinx-theme"),
    ("nbval", "nbval", "nbval"),
    ("pytest", "_pytest", "pytest"),
    ("pytest-xdist", "xdist", "pytest-xdist"),
    ("playwright", "playwright", "playwright"),
]
NPM = [("pyodide", "tools/coursebook/live.py", r'PYODIDE_VERSION = "([^"]+)"'), ("lighthouse", None, None)]
FAST_TESTS = ["tests/model", "tests/show", "tests/tooling/test_site_tooling.py"]


def pins() -> dict[str, str]:
    found = {}
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        m = re.match(r"([A-Za-z0-9_.\-]+)==([^\s;#]+)", line)
        if m:
            found[m[1].lower().replace("_", "-")] = m[2]
    return found


def run(cmd: list[str], log: Path, cwd: Path = ROOT, timeout: int = 3600, env: dict | None = None) -> bool:
    with log.open("a", encoding="utf-8") as out:
        out.write(f"\n$ {' '.join(cmd)}\n")
        out.flush()
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, timeout=timeout,
                                  env=None if env is None else {**os.environ, **env}).returncode == 0
        except (OSError, subprocess.TimeoutExpired) as err:
            out.write(f"{err}\n")
            return False


def installed(python: Path) -> dict[str, str]:
    code = "import importlib.metadata as m, json; print(json.dumps({d.metadata['Name'].lower().replace('_','-'): d.version for d in m.distributions()}))"
    result = subprocess.run([str(python), "-c", code], capture_output=True, text=True)
    import json
    return json.loads(result.stdout) if result.returncode == 0 else {}


def broke(module: str, *logs: Path) -> str:
    """The first error-looking line of the logs that names `module`."""
    pattern = re.compile(rf"(Error|error|WARNING|Warning|FAILED|Exception).*\b{re.escape(module)}\b|\b{re.escape(module)}\b.*(Error|FAILED)")
    for log in logs:
        if log.exists():
            for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
                if pattern.search(line):
                    return line.strip()[:90]
    return ""


def npm_latest(name: str) -> str:
    npm = shutil.which("npm")
    if not npm:
        return "no npm"
    result = subprocess.run([npm, "view", name, "version"], capture_output=True, text=True, timeout=120)
    return result.stdout.strip() or "?"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="leave the throwaway folder")
    args = parser.parse_args(argv)
    uv = sorted(ROOT.glob(UV_GLOB))
    if not uv:
        print("make .venv first (its uv installs the throwaway venv)", file=sys.stderr)
        return 2
    uv = uv[-1]
    tmp = Path(tempfile.mkdtemp(prefix="upgrade-check-"))
    venv, out = tmp / "venv", tmp / "build"
    python = venv / "bin" / "python"
    install_log, build_log, test_log = tmp / "install.log", tmp / "build.log", tmp / "tests.log"
    try:
        ok = run([sys.executable, "-m", "venv", "--without-pip", str(venv)], install_log)
        ok = ok and run([str(uv), "pip", "install", "-q", "--python", str(python), "-r", "requirements.txt"], install_log)
        ok = ok and run([str(uv), "pip", "install", "-q", "--python", str(python), "--upgrade",
                         *[spec for _, _, spec in DIRECT]], install_log)
        versions = installed(python) if ok else {}
        built = ok and run([str(venv / "bin" / "jupyter-book"), "build", ".", "--path-output", str(out),
                            "--warningiserror", "--nitpick", "--keep-going", "--quiet"], build_log)
        tested = ok and run([str(python), "-m", "pytest", *FAST_TESTS, "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                             "-n", "2", "--dist", "loadscope", "--no-loadscope-reorder"], test_log,
                             env={"ROOFLINE_HTML": str(out / "_build" / "html")})   # the throwaway build's pages
        pinned = pins()
        rows = [("dependency", "pinned", "tried", "built", "fast tests", "what broke")]
        for name, module, _ in DIRECT:
            rows.append((name, pinned.get(name, "-"), versions.get(name, "not installed"),
                         "yes" if built else "no", "yes" if tested else "no",
                         broke(module, install_log, build_log, test_log)))
        for name, source, pattern in NPM:
            pin = "-"
            if source:
                m = re.search(pattern, (ROOT / source).read_text(encoding="utf-8"))
                pin = m[1] if m else "?"
            rows.append((name, pin, npm_latest(name), "not tried", "not tried", "(npm: version looked up only)"))
        widths = [max(len(str(row[i])) for row in rows) for i in range(5)]
        for row in rows:
            print("  ".join(str(cell).ljust(w) for cell, w in zip(row[:5], widths)) + "  " + row[5])
        failed = [line for line in test_log.read_text(encoding="utf-8", errors="replace").splitlines()
                  if line.startswith(("FAILED", "ERROR"))] if test_log.exists() else []
        for line in failed[:10]:
            print(f"  {line[:110]}")
        kept = args.keep or not (ok and built and tested)
        print(f"\ninstall {'ok' if ok else 'FAILED'}" + (f"; logs kept in {tmp}" if kept else ""))
        return 0       # a figure, never a gate
    finally:
        if not (args.keep or not (locals().get("built") and locals().get("tested"))):
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
