"""docs/authoring.md's recipe for an exercise, followed in a copy of the repository: one `ex.Question` more in a page
module (③'s), the page's golden file written again with the documented flag, and that page's tests and the exercise
tests of every page pass with no test file edited (the lists the tests keep are derived from the library).

The tests run in the copy are those that need no built site and no kernel (the rest read `make book`'s pages: the
copy has none): tests/show/test_exercises.py, tests/show/test_variants.py, tests/pages/test_w4_3_tiling.py and
test_every_page.py's checks of ③ — but not ③'s figures and its memory bound (the tests named so draw the chapter's
figures and run its cache simulation: an exercise is not read by them, and the suite runs them on the same code; without
them the copy's run takes 18 CPU-s instead of 34, 2026-12-07).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from course_copies import copy_checkout, env_for

pytestmark = pytest.mark.heavy(150)   # rough seconds, for the order of the run (tests/conftest.py)

VENV_PYTHON = Path(sys.executable)
STEM = "w4_3_tiling"
# what an author adds, as docs/authoring.md says: the key, the text with the question's numbers (fmt, ko), the model's
# exact value in base units, the unit asked, the hint, the worked steps ending in the answer, the numbers it is asked
# about (`given`), the common mistakes as the same model call with one term changed (ex.matmul_variants, ex.named)
ADDED = '''        ex.Question("③-4", f"{ex.shape(N1)} {ex.dtype_text(d2, s2)} 행렬곱을 T = {ex.number(T1)} 출력 타일로 나누면 "
                 "C에 쓰는 양은?", big.Q_write, ex.UNITS["GB"], "C 쓰기 = s·N², GB = 10⁹ Byte",
                 (ex.equation("C 쓰기", "s·N²", f"{s2}·{ex.number(N1)}²", big.Q_write, "Byte", "GB"),),
                 given=ex.given(N=N1, T=T1, s=s2, dtype=d2),
                 mistakes=ex.named(ex.matmul_variants(N1, T1, s2), ("output-per-k", "bits-bytes"), lambda c: c.Q_write,
                                   dtype=d2)),
    ))'''


def test_an_added_exercise_passes_the_pages_tests_with_no_test_file_edited(tmp_path):
    repo = copy_checkout(tmp_path / "repo")
    module = repo / "lib" / "roofline" / "show" / "pages" / f"{STEM}.py"
    source = module.read_text(encoding="utf-8")
    end = source.index("    ))", source.index("def exercises("))
    module.write_text(source[:end] + ADDED + source[end + len("    ))"):], encoding="utf-8")
    tests_before = {p: p.read_bytes() for p in (repo / "tests").rglob("*.py")}

    run = dict(cwd=repo, env=env_for(repo), capture_output=True, text=True, timeout=900)
    regen = subprocess.run([str(VENV_PYTHON), "tests/golden_values.py", "--force-regen", STEM], **run)
    assert regen.returncode == 0, regen.stdout + regen.stderr
    assert "③-4" in (repo / "tests" / "golden" / f"{STEM}.yaml").read_text(encoding="utf-8")

    selected = ["tests/show/test_exercises.py", "tests/show/test_variants.py", f"tests/pages/test_{STEM}.py",
                "tests/pages/test_every_page.py",
                "-k", f"({STEM} or not test_every_page) and not copying and not kernel and not page_file"
                      " and not figure and not bounded_memory"]
    # in one process (-n 0): a worker more would collect the four modules again, 5-10 CPU-s, and `make test` keeps the
    # machine's cores busy with its own workers meanwhile
    done = subprocess.run([str(VENV_PYTHON), "-m", "pytest", *selected, "-q", "-x", "-n", "0", "-p", "no:cacheprovider"],
                          **run)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout
    print(f"\nin the copy, with ③-4 added: {done.stdout.strip().splitlines()[-1]}")
    assert {p: p.read_bytes() for p in (repo / "tests").rglob("*.py")} == tests_before   # no test file edited
