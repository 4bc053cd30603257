"""A checkout is its own (fuzz-2 F-12): a copy made with `cp -a`, .venv included, notices that its environment was
made for another path (the editable installs and the scripts' #! lines name the original) and makes it again, and
from then on reads and writes only itself: its own term, its own _build; the original's `git status` and _build
stay as they were.

The Makefile's rule is tried on a small folder of its own (`make -n`: what it would run); one real copy of this
checkout then runs it (uv installs from its cache, no network)."""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from course_copies import cell_of, set_key

ROOT = Path(__file__).resolve().parents[2]


def small_checkout(where: Path, stamp: str) -> Path:
    """The Makefile, its environment's inputs (older than the stamp) and an install stamp naming `stamp`."""
    where.mkdir()
    shutil.copy2(ROOT / "Makefile", where / "Makefile")
    for name in ("requirements.txt", "pyproject.toml", "tools/pyproject.toml"):
        (where / name).parent.mkdir(parents=True, exist_ok=True)
        (where / name).write_text("", encoding="utf-8")
        os.utime(where / name, (1, 1))
    uv = subprocess.run(["make", "-s", "-p", "-n", "-f", "Makefile", "nothing-at-all"], cwd=where, capture_output=True,
                        text=True).stdout
    uv_path = next(line.split(":=", 1)[1].strip() for line in uv.splitlines() if line.startswith("UV_VERSION"))
    binary = where / ".venv" / "tools" / f"uv-{uv_path}" / "bin" / "uv"
    binary.parent.mkdir(parents=True)
    binary.write_text("", encoding="utf-8")
    (where / ".venv" / ".installed").write_text(stamp + "\n", encoding="utf-8")
    return where


def planned(where: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "-n", ".venv/.installed"], cwd=where, capture_output=True, text=True)


def test_an_environment_made_for_another_path_is_made_again(tmp_path):
    copy = small_checkout(tmp_path / "copy", "/somewhere/else/course")
    said = planned(copy).stdout
    assert "rm -rf .venv/bin .venv/lib" in said and "pip install" in said, said
    assert f'echo "{copy}" > .venv/.installed' in said, said


def test_an_environment_made_here_is_kept(tmp_path):
    here = tmp_path / "here"
    small_checkout(here, str(here))
    run = planned(here)
    assert run.returncode == 0 and "pip install" not in run.stdout and "rm -rf" not in run.stdout, run.stdout


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")) if folder.is_dir() else []:
        if path.is_file() and not path.name.endswith(".lock"):
            h.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def git_status(repo: Path) -> str:
    return subprocess.run(["git", "status", "--porcelain"], cwd=repo, capture_output=True, text=True, check=True).stdout


@pytest.mark.heavy(60)
def test_a_cp_a_copy_changes_its_own_term_and_leaves_the_original_alone(tmp_path):
    venv = Path(sys.prefix)
    if venv != ROOT / ".venv" or not (ROOT / "_build" / "html").is_dir():
        pytest.skip("runs in a checkout with its own .venv and a built site")
    status, built = git_status(ROOT), digest(ROOT / "_build" / "html")
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-a", str(ROOT), str(copy)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ROOFLINE_", "PYTHONPATH", "VIRTUAL_ENV"))}
    made = subprocess.run(["make", ".venv/.installed"], cwd=copy, env=env, capture_output=True, text=True, timeout=900)
    assert made.returncode == 0 and "made again for" in made.stdout, (made.stdout + made.stderr)[-3000:]
    toml = copy / "lib" / "roofline" / "course.toml"
    import tomllib

    N = tomllib.loads(toml.read_text(encoding="utf-8"))["week4"]["N"]
    toml.write_text(set_key(toml.read_text(encoding="utf-8"), "week4.N", 2 * N), encoding="utf-8")
    where = subprocess.run([str(copy / ".venv" / "bin" / "python"), "-c",
                            "import roofline.params as p, coursebook.__main__ as c; print(p.DEFAULT_PATH, c.ROOT, "
                            "p.load().week4.N)"], cwd=copy, env=env, capture_output=True, text=True, check=True)
    assert where.stdout.split() == [str(toml), str(copy), str(2 * N)], where.stdout
    # the copy writes its new term into its own chapters (`make parameters`: the step of `make refresh` that writes
    # the term, through the tooling's own idea of the checkout, coursebook.__main__.ROOT), under its own _build's lock
    wrote = subprocess.run([str(copy / ".venv" / "bin" / "python"), "-m", "coursebook", "parameters"], cwd=copy,
                           env=env, capture_output=True, text=True, timeout=900)
    assert wrote.returncode == 0, (wrote.stdout + wrote.stderr)[-3000:]
    assert cell_of(copy / "chapters" / "w4_5_matmul.md")[2].get("N") == 2 * N, \
        "the copy's parameter cell does not hold the copy's new N"
    assert "chapters/w4_5_matmul.md" in git_status(copy)
    assert git_status(ROOT) == status and digest(ROOT / "_build" / "html") == built
