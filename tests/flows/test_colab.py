"""Colab, simulated: each .ipynb edition runs top to bottom in a Python that holds exactly what Colab ships
(Python 3.12, IPython 7.34.0, ipykernel 6.17.1, numpy 2.0.2, matplotlib 3.10.0), after installing the project
the way the edition's first cell does: its own pip arguments, the built site (`_build/html`, served on 127.0.0.1)
standing in for the published one, so pip fetches the wheel the build wrote and checks the sha256 the edition pins
(a pin of other bytes is refused). Installing it changes none of Colab's packages (google-colab pins IPython).

No error, no stderr, no "Glyph … missing" warning; the Hangul font is the project's NanumGothic and the
minus sign the ASCII one; every table, equation and value equals the built edition, whose first cell is the one
that installs the wheel the site publishes, pinned by its sha256; the first cell installs nothing outside Colab. The venv with Colab's packages is made once per machine and set of versions, in
the user's cache (coursebook.live.cache_home()/colab-venv/, keyed by them, as Pyodide is), and copied for each run,
so that the install never changes the cache.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from browser_helpers import html_dir, serve
from coursebook import editions
from coursebook.__main__ import chapter_sources
from coursebook.live import cache_home

pytestmark = pytest.mark.heavy(75)   # rough seconds, for the order of the run (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
SOURCES = chapter_sources()
KERNEL = "colab-sim"
COLAB_PYTHON = Path("/root/.pyenv/versions/3.12.1/bin/python3.12")   # Colab: Python 3.12
COLAB = {"ipython": "7.34.0", "ipykernel": "6.17.1", "numpy": "2.0.2", "matplotlib": "3.10.0"}   # what Colab ships

# Run after the edition's cells, in the same kernel: which font and minus sign did the figures get?
PROBE = """\
import importlib.util, json, matplotlib, roofline
from matplotlib import font_manager
from roofline.show import figures
title = figures.draw("week4-roofline", roofline.load()).axes[0].title
print(json.dumps({"family": list(matplotlib.rcParams["font.family"]), "figure_family": title.get_fontfamily(),
                  "book_tools": [m for m in ("myst_nb", "jupyter_book", "jupytext") if importlib.util.find_spec(m)],
                  "unicode_minus": matplotlib.rcParams["axes.unicode_minus"],
                  "registered": [f.fname for f in font_manager.fontManager.ttflist if f.name == "NanumGothic"],
                  "roofline": roofline.__file__}))"""


def clean_env(**extra) -> dict[str, str]:
    """The environment of a stranger's machine: no repository on the path, not the book build; Python writes its
    bytecode caches, as in Colab."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "MPLBACKEND", "ROOFLINE_COURSE",
                        "PYTHONDONTWRITEBYTECODE"}}
    env.update(extra)
    return env


def versions(python: Path) -> dict[str, str]:
    """name → version of every distribution the venv's Python sees."""
    listed = subprocess.run([str(python), "-m", "pip", "list", "--format=json", "--disable-pip-version-check"],
                            check=True, env=clean_env(), capture_output=True, text=True)
    return {d["name"].lower().replace("_", "-"): d["version"] for d in json.loads(listed.stdout)}


def colab_stack() -> Path:
    """A venv with Colab's Python and exactly Colab's versions of the packages the chapters use, made once per
    machine (keyed by those versions) in the user's cache, beside Pyodide: not per checkout, so that a fresh clone's
    `make test` does not make it again. The installer is the uv that `make test` names in
    $ROOFLINE_UV (the same versions as pip picks, in 11 s where pip took 38-85 s on a fresh machine), else the venv's
    pip. Both compile the packages to bytecode, as Colab's are (clean_env leaves out PYTHONDONTWRITEBYTECODE, which
    would keep pip from it: then each kernel would compile NumPy, matplotlib and IPython again)."""
    key = hashlib.sha256(json.dumps([str(COLAB_PYTHON), COLAB, "bytecode"], sort_keys=True).encode()).hexdigest()[:12]
    venv = cache_home() / "colab-venv" / key
    if (venv / "complete").exists():
        return venv
    if not COLAB_PYTHON.exists():
        pytest.skip(f"no Python 3.12 at {COLAB_PYTHON}")
    making = venv.with_name(f"{key}.{os.getpid()}")
    shutil.rmtree(making, ignore_errors=True)
    subprocess.run([str(COLAB_PYTHON), "-m", "venv", str(making)], check=True, env=clean_env())   # with pip, as Colab
    pins = [f"{name}=={version}" for name, version in COLAB.items()]
    if os.environ.get("ROOFLINE_UV"):   # `make test` gives the uv that installs .venv: the same wheels, in seconds
        install = [os.environ["ROOFLINE_UV"], "pip", "install", "-q", "--compile-bytecode",
                   "--python", str(making / "bin" / "python"), *pins]
    else:
        install = [str(making / "bin" / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check", *pins]
    subprocess.run(install, check=True, env=clean_env(), capture_output=True)
    (making / "complete").write_text(json.dumps(COLAB), encoding="utf-8")
    try:
        making.rename(venv)                      # another worker may have made it meanwhile: keep theirs
    except OSError:
        shutil.rmtree(making, ignore_errors=True)
    return venv


@pytest.fixture(scope="module")
def colab(tmp_path_factory):
    """A copy of the cached Colab-stack venv (the install below must not change the cache) and a kernel spec."""
    base = tmp_path_factory.mktemp("colab")
    cached = colab_stack()
    venv = base / "venv"
    # cp -al: the cache's files hard-linked, as uv links a venv from its cache (0.3 CPU-s where a copy of the 300 MB
    # took 3-5): pip unlinks a file before it writes it and Python writes bytecode to a new file that it renames, so
    # nothing here writes into the cache's files (matplotlib's font cache goes to MPLCONFIGDIR, below; that the
    # install changes none of Colab's packages is asserted in `installed`). On another file system than the cache
    # (no hard links across): a plain copy, links and modes kept.
    if subprocess.run(["cp", "-al", str(cached), str(venv)], capture_output=True).returncode:
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run(["cp", "-a", str(cached), str(venv)], check=True)
    python = venv / "bin" / "python"
    kernels = base / "kernels" / KERNEL
    kernels.mkdir(parents=True)
    (kernels / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Colab (simulated)", "language": "python",
        "env": {"MPLCONFIGDIR": str(base / "mplconfig")},      # a matplotlib font cache of its own, as in Colab
    }), encoding="utf-8")
    run_dir = base / "content"                                # Colab's working folder is /content
    run_dir.mkdir()
    return {"base": base, "python": python, "kernels": base / "kernels", "run": run_dir}


def run_notebook(nb, colab, timeout: int = 120):
    return editions.execute(nb, colab["run"], timeout=timeout, kernel_name=KERNEL, kernel_dirs=[colab["kernels"]])


def imports_roofline(colab) -> bool:
    probe = subprocess.run([str(colab["python"]), "-c", "import roofline"], cwd=colab["run"], env=clean_env(),
                           capture_output=True)
    return probe.returncode == 0


@pytest.fixture(scope="module")
def installed(colab, monkeypatch_module):
    """The first cell, outside Colab, installs nothing; then the project is installed as it would do in Colab."""
    for key in ("PYTHONPATH", "VIRTUAL_ENV", "MPLBACKEND"):
        monkeypatch_module.delenv(key, raising=False)
    assert not imports_roofline(colab)
    setup = nbformat.v4.new_notebook(cells=[editions.setup_cell()], metadata={"kernelspec": {"name": KERNEL, "display_name": "Colab (simulated)", "language": "python"}})
    run_notebook(setup, colab)
    assert setup.cells[0].outputs == [], f"the setup cell printed outside Colab: {setup.cells[0].outputs}"
    assert not imports_roofline(colab), "the setup cell installed the project outside Colab"

    # the setup cell's own command and arguments, with the built site on 127.0.0.1 in place of the published one
    setup_args = ["-m", "pip", "install", "-q", "--disable-pip-version-check"]
    source = editions.setup_cell().source
    assert ", ".join(f'"{arg}"' for arg in setup_args) in source
    published = editions.pip_arguments()
    assert all(repr(arg) in source for arg in published)
    before = versions(colab["python"])
    with serve(html_dir()) as site:
        arguments = editions.pip_arguments(site=site.rstrip("/"))
        assert arguments[1:] == published[1:] and arguments[0].endswith(published[0].split("/_static/")[1])
        other = arguments[0].rsplit("#sha256=", 1)[0] + "#sha256=" + "0" * 64    # a pin of other bytes
        refused = subprocess.run([str(colab["python"]), *setup_args, "--no-deps", other], env=clean_env(),
                                 capture_output=True, text=True)
        assert refused.returncode != 0 and "hash" in refused.stderr.lower(), refused.stdout + refused.stderr
        assert not imports_roofline(colab)
        done = subprocess.run([str(colab["python"]), *setup_args, *arguments], env=clean_env(), capture_output=True,
                              text=True)
    assert done.returncode == 0, f"pip could not install the edition's pinned wheel from the built site (make book?):" \
        f"\n{done.stderr}"
    after = versions(colab["python"])
    changed = {name: (before[name], after.get(name)) for name in before if after.get(name) != before[name]}
    assert not changed, f"installing the project changed Colab's packages (was, now): {changed}"
    assert {name: after[name] for name in COLAB} == COLAB
    print(f"\ninstalling the project into Colab's stack added {sorted(set(after) - set(before))}, changed nothing")
    assert imports_roofline(colab)
    return arguments[0]


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def texts(nb):
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if output["output_type"] == "stream":
                yield cell, output["name"], output["text"]
            elif output["output_type"] == "error":
                yield cell, "error", "\n".join(output.get("traceback", []))
            else:
                for mime, value in output.get("data", {}).items():
                    if mime.endswith(("text/plain", "text/markdown", "text/latex", "text/html")):
                        yield cell, "data", str(value)


@pytest.mark.parametrize("md", SOURCES, ids=[md.stem for md in SOURCES])
def test_edition_runs_in_a_fresh_colab_like_python(md, colab, installed):
    built = nbformat.read(md.with_suffix(".ipynb"), as_version=4)   # (`make book` writes it; it is not committed)
    first = built.cells[0].source
    assert first.endswith(editions.setup_cell().source) and installed.split(" @ ")[1].split("/_static/")[1] in first, \
        f"{md.stem}: its first cell does not install the wheel the site publishes, pinned by its sha256"
    nb = nbformat.read(md.with_suffix(".ipynb"), as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nb.cells.append(nbformat.v4.new_code_cell(PROBE))
    (colab["run"] / md.with_suffix(".ipynb").name).write_text(nbformat.writes(nb), encoding="utf-8")
    run_notebook(nb, colab)        # raises CellExecutionError, naming the cell, on any error

    for cell, kind, text in texts(nb):
        assert kind != "stderr", f"{md.stem}: stderr in cell {cell.source[:60]!r}: {text[:300]}"
        assert kind != "error", f"{md.stem}: error in cell {cell.source[:60]!r}"
        assert "Glyph" not in text and "missing from" not in text, f"{md.stem}: missing glyph: {text[:300]}"
    assert nb.cells[0].outputs == [], "the setup cell did something outside Colab"

    probe = json.loads(nb.cells[-1].outputs[0]["text"])
    assert str(colab["base"]) in probe["roofline"], f"ran the repository's library, not the installed one: {probe}"
    assert probe["book_tools"] == [], f"the simulated Colab has book tools it should not need: {probe['book_tools']}"
    have, now = editions.glued_of(built), editions.glued_of(nb)
    if any("image/png" in bundle for bundle in have.values()):
        # the figures' font is the project's own NanumGothic file (this machine also has a system copy; Colab has none);
        # the student's own matplotlib settings are left as they were (the style is per figure)
        assert probe["figure_family"] == ["NanumGothic"], probe
        assert probe["family"] == ["sans-serif"] and probe["unicode_minus"] is True, probe
        assert any("koreanize_matplotlib" in f and str(colab["base"]) in f for f in probe["registered"]), probe

    changes = editions.value_changes(have, now)
    assert not changes, f"{md.stem} in Colab differs from the built edition:\n" + "\n".join(changes)
    for name, bundle in now.items():
        if "image/png" in have.get(name, {}):
            assert bundle.get("image/png"), f"{md.stem}: figure {name!r} not reproduced"
