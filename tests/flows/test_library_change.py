"""A maintainer's change of the library (a docstring of the model), in a copy of the repository as an instructor's
checkout is (tests/flows/test_instructor.py's, in a copy of its own so that the two flows run on two workers): the
check names each edition's pin of the old library, `make editions` writes them again, and one commit of both leaves
the check green (an edition pins the library by its wheel's sha256, not by a commit: no second commit "editions
pinned").

The copy reuses the main .venv (VENV=…, its install stamp marked old so `make` never reinstalls) and puts its own lib/
first on PYTHONPATH. Nothing is written to the repository or its _build.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from course_copies import commit_all, env_for, instructor_checkout, run_coursebook
from coursebook.__main__ import chapter_sources

pytestmark = pytest.mark.heavy(70)   # rough seconds, for the order of the run (tests/conftest.py)

VENV = Path(sys.prefix)


def test_a_library_change_and_its_editions_are_one_commit(tmp_path):
    """Change a docstring of the model, run `make editions`, commit once: `coursebook check` is green on that commit
    (before `make editions` it names each edition's pin of the old library). The docstring is one the matmul /
    FlashAttention note shows with its function's code, and the note's edition shows the new one."""
    repo = instructor_checkout(tmp_path / "repo")
    gemm = repo / "lib" / "roofline" / "gemm.py"
    text = gemm.read_text(encoding="utf-8")
    start = text.index('"""', text.index("def naive_matmul")) + 3
    gemm.write_text(text[:start] + "(설명을 다듬었다) " + text[start:], encoding="utf-8")
    stale = run_coursebook(repo, "check", "--no-site")
    assert stale.returncode == 1, stale.stdout + stale.stderr
    for md in chapter_sources():
        assert f"chapters/{md.stem}.ipynb: its setup cell installs the library's wheel of sha256" in stale.stderr, \
            f"the check does not name {md.stem}'s pin of the old library:\n{stale.stderr}"
    make = subprocess.run(["make", f"VENV={VENV}", "-o", str(VENV / ".installed"), "editions"], cwd=repo,
                          env=env_for(repo), capture_output=True, text=True, timeout=1800)
    assert make.returncode == 0, make.stdout[-3000:] + make.stderr[-3000:]
    assert "(설명을 다듬었다) " in (repo / "chapters" / "flashattention.ipynb").read_text(encoding="utf-8"), \
        "the note's edition shows the old docstring of naive_matmul"
    count = ["git", "-C", str(repo), "rev-list", "--count", "HEAD"]
    commits = int(subprocess.run(count, check=True, capture_output=True, text=True).stdout)
    commit_all(repo, "모델의 설명을 다듬었다")
    assert int(subprocess.run(count, check=True, capture_output=True, text=True).stdout) == commits + 1
    assert subprocess.run(["git", "-C", str(repo), "status", "--porcelain"], check=True, capture_output=True,
                          text=True).stdout == ""
    # (what a commit holds is up to date; the local build, never committed, is `make book`'s: not looked at here)
    after = run_coursebook(repo, "check", "--no-site")
    assert after.returncode == 0, after.stdout + after.stderr
