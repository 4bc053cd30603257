"""The publishing workflows run as written: every file they name exists in the checkout (or is what a step of
theirs builds), every `make` target they call is one the Makefile has, and the tests they run before publishing
are among those `make test` runs. Nothing else runs them before a push, so a moved test file would stop the
deploy unseen."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
BUILT = ("_build/", "chapters/*.ipynb")   # what `make book` writes (the site, the editions): named by the steps
#                                          after it, absent in a fresh checkout


def make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return {name for line in text.splitlines() if (m := re.match(r"^([A-Za-z][\w.-]*)\s*:(?!=)", line))
            for name in [m[1]]}


def make_test_paths() -> list[str]:
    """The paths `make test` hands to pytest (its recipe's `pytest …` line)."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^test:.*?\n((?:\t.*\n)+)", text, re.M)[1]
    words = shlex.split(next(line for line in recipe.splitlines() if " pytest " in line))
    after = words[words.index("pytest") + 1:]
    return [w for w in after if not w.startswith("-") and (ROOT / w).exists()]


def steps(workflow: Path):
    for name, job in yaml.safe_load(workflow.read_text(encoding="utf-8"))["jobs"].items():
        for step in job.get("steps", []):
            yield name, step


def test_there_is_a_workflow():
    assert WORKFLOWS, "no .github/workflows/*.yml"


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_every_path_and_make_target_a_workflow_names_exists(workflow):
    targets, suite = make_targets(), make_test_paths()
    assert suite, "the Makefile's test recipe hands pytest no path"
    for job, step in steps(workflow):
        for key in ("path", "cache-dependency-path"):
            value = (step.get("with") or {}).get(key)
            if value and not value.startswith(BUILT):
                assert (ROOT / value).exists(), f"{workflow.name}, job {job}: {key} {value} does not exist"
        run = step.get("run")
        if not run:
            continue
        for line in run.splitlines():
            words = shlex.split(line, comments=True)
            if words[:1] == ["make"]:
                named = [w for w in words[1:] if "=" not in w and not w.startswith("-")]
                missing = set(named) - targets
                assert not missing, f"{workflow.name}, job {job}: make {' '.join(named)}: no such target {missing}"
            for word in words:
                if re.match(r"^[\w.-]+/[\w./-]*$", word) and not word.startswith(BUILT) and not word.startswith("/"):
                    assert (ROOT / word).exists(), f"{workflow.name}, job {job}: {word} does not exist"
            if "pytest" in words:
                tests = [w for w in words[words.index("pytest") + 1:] if w.endswith(".py") or w.startswith("tests")]
                assert tests, f"{workflow.name}, job {job}: pytest without a path"
                for test in tests:
                    assert any(Path(test).is_relative_to(p) for p in suite), \
                        f"{workflow.name}, job {job}: {test} is not among the tests `make test` runs ({suite})"
