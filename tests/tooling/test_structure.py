"""The library's three parts: the model a student imports is light and pure, the wheel Colab installs holds no
site tooling, and the chapters' execution cache follows what the chapters run (not the tooling)."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "lib" / "roofline"
TOOLING_IMPORTS = {"sphinx", "docutils", "playwright", "jupytext", "nbclient", "nbformat", "myst_nb", "jupyter_cache",
                   "pybtex", "yaml", "coursebook"}


def test_importing_the_model_loads_neither_matplotlib_nor_ipython():
    """What `import roofline` loads (its time is a figure of `make bench`, not a test)."""
    probe = ("import sys, json; import roofline; print(json.dumps(sorted(m for m in ('matplotlib', 'IPython', "
             "'numpy', 'roofline.show') if m in sys.modules)))")
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd="/")
    loaded = json.loads(run.stdout)
    assert loaded == [], f"`import roofline` loads {loaded}"


def imports_of(path: Path, whole: bool = False) -> set[str]:
    """Top-level package names `path` imports (`whole`: the full dotted module names)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name if whole else alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module if whole else node.module.split(".")[0])
    return found


@pytest.mark.parametrize("path", sorted(p for p in MODEL.rglob("*.py") if "show" not in p.parts),
                         ids=lambda p: p.relative_to(MODEL).as_posix())
def test_the_model_imports_only_itself_the_stdlib_and_numpy(path):
    outside = imports_of(path) - {"roofline", "numpy", "__future__"} - set(sys.stdlib_module_names)
    assert not outside, f"{path.name} imports {sorted(outside)}"
    upward = sorted(m for m in imports_of(path, whole=True) if m.startswith("roofline.show"))
    assert not upward, f"{path.name} reaches up into presentation: {upward}"


def test_the_wheel_holds_the_model_and_presentation_only(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w",
                    str(tmp_path), str(ROOT)], check=True, capture_output=True)
    wheel = next(tmp_path.glob("roofline_course-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        modules = [n for n in archive.namelist() if n.endswith(".py")]
        assert modules and all(n.startswith("roofline/") for n in modules), modules
        assert "roofline/course.toml" in archive.namelist()
        for name in modules:
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_bytes(archive.read(name))
            used = imports_of(tmp_path / name) & TOOLING_IMPORTS
            assert not used, f"{name} in the wheel imports site tooling: {sorted(used)}"


def test_the_chapter_cache_key_covers_the_library_not_the_tooling():
    """The key hashes lib/roofline (model, presentation, course.toml; see test_book for an edit changing it), and
    no site tooling lives there, so editing the search or the PDF code re-executes no chapter."""
    from coursebook import sphinx_ext

    assert sphinx_ext.LIB == MODEL
    tooling = sorted(p.name for p in (ROOT / "tools" / "coursebook").glob("*.py"))
    assert "sphinx_ext.py" in tooling and "editions.py" in tooling
    assert not [name for name in tooling if name != "__init__.py" and list(MODEL.rglob(name))], \
        "site tooling sits in the library, so editing it would re-execute every chapter"
