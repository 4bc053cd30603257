"""Every bad input is one Korean line naming it, and changes nothing: a table of bad course.toml files and bad
parameter-cell values (issue 37's cases and more).

- Bad files, in-process: `python -m coursebook check` (coursebook.__main__.main) with $ROOFLINE_COURSE naming the
  bad file: exit 2, one line on stderr that names the key (or the file) in Korean, no traceback, the checkout's
  files unchanged. The value a file case sets is made from the live course.toml (tests/course_copies.set_key), so
  the table holds for any valid term.
- The instructor's command on a copy of the repository: `coursebook refresh` (what `make refresh` runs) with a
  bad course.toml in place, or none: the same line, and every file of the copy as it was, byte for byte.
- Bad cell values: each chapter's code run in-process (editions.recompute) with the value typed into its parameter
  cell: a ParameterError whose message starts with the variable (in a kernel that is the error's one line:
  tests/flows/test_student.py runs one).
- Truncated or empty editions: `coursebook check` names the file and the command that writes it again.
"""
from __future__ import annotations

import hashlib
import itertools
import math
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from course_copies import copy_checkout, copy_editions, env_for, set_key
from coursebook import __main__ as coursebook
from coursebook import editions, paramcell
from coursebook.built import checkout_files
from roofline import params

ROOT = Path(__file__).resolve().parents[2]
COURSE = params.DEFAULT_PATH
LIVE = params.load(COURSE)
HANGUL = re.compile("[가-힣]")
LONG = "x" * 200_000


def tree_hash(root: Path, skip: tuple[str, ...] = (), under: tuple[str, ...] = ("",)) -> str:
    """A hash of every file of the checkout at `root` (its git-listed files, `skip` left out; only those `under` the
    given folders)."""
    digest = hashlib.sha256()
    for name in checkout_files(root):
        if name not in skip and name.startswith(under):
            digest.update(name.encode() + b"\0" + hashlib.sha256((root / name).read_bytes()).digest())
    return digest.hexdigest()


def keys(**changes) -> bytes:
    """The live course.toml with each dotted key (`week4__N` for week4.N) set to its value."""
    text = COURSE.read_text(encoding="utf-8")
    for dotted, value in changes.items():
        text = set_key(text, dotted.replace("__", "."), value)
    return text.encode()


def text_edit(pattern: str, replacement: str) -> bytes:
    text = COURSE.read_text(encoding="utf-8")
    new = re.sub(pattern, replacement, text, count=1, flags=re.M)
    assert new != text, f"course.toml has no line matching {pattern!r}"
    return new.encode()


def first_gpu_without_limits() -> str:
    return next(k for k, p in LIVE.presets.items() if p.sm is None)


N = LIVE.week4.N
HW, DT = LIVE.week4.hardware, LIVE.week4.dtype   # the week-4 machine and dtype of the term in force (a unit slip in them)
# id → (the bad file's bytes, a regex the one line must match from its start or after "course.toml: ")
BAD_FILES = {
    "tiles-8-values": (lambda: keys(week4__N=4096, week4__tiles=[1, 2, 4, 8, 16, 32, 64, 128]),
                       r"week4\.tiles: .*6개까지"),
    "N-2**40": (lambda: keys(week4__N=2**40, week4__tiles=[32, 64]), r"week4\.N: 2 이상 65,536 이하"),
    "N/T-beyond-the-simulation": (lambda: keys(week4__N=2**16, week4__tiles=[16, 32]), r"week4\.tiles: .*N/T = 4,096"),
    "N-negative": (lambda: keys(week4__N=-N), r"week4\.N: 양의 정수"),
    "N-zero": (lambda: keys(week4__N=0), r"week4\.N: 양의 정수"),
    "N-string": (lambda: keys(week4__N=str(N)), r"week4\.N: 양의 정수"),
    "N-float": (lambda: keys(week4__N=float(N)), r"week4\.N: 양의 정수"),
    "tiles-not-dividing": (lambda: keys(week4__tiles=[N + 1, 2 * N + 2]), r"week4\.tiles: .*약수"),
    "tiles-empty": (lambda: keys(week4__tiles=[]), r"week4\.tiles: "),
    "tiles-unsorted": (lambda: keys(week4__N=4096, week4__tiles=[128, 64]), r"week4\.tiles: .*커져야"),
    "small_T-not-dividing": (lambda: keys(week4__small_N=4, week4__small_T=3), r"week4\.small_T: .*약수"),
    "dtype-unknown": (lambda: keys(week4__dtype="FP64"), r"week4\.dtype: 모르는 자료형"),
    "hardware-unknown": (lambda: keys(week4__hardware="no_such_machine"), r"week4\.hardware: 모르는 하드웨어 프리셋"),
    "hardware-200000-characters": (lambda: keys(week4__hardware=LONG), r"week4\.hardware: .*200,002자"),
    "gpu-without-limits": (lambda: keys(week4__gpu=first_gpu_without_limits()), r"week4\.gpu: "),
    "capacities-empty": (lambda: keys(week4__cache__capacities=[]), r"week4\.cache\.capacities: "),
    "L-zero": (lambda: keys(week3__L=0), r"week3\.L: 양의 정수"),
    "seq-zero": (lambda: keys(note__attention__seq=0), r"note\.attention\.seq: 양의 정수"),
    "BW-negative": (lambda: text_edit(r"^(BW\s*=\s*)[^#\n]+", r"\g<1>-1.0 "), r"presets\.\w+\.BW: 0보다"),
    "dtype-bytes-zero": (lambda: text_edit(r"^(FP32\s*=\s*)\d+", r"\g<1>0"), r"dtypes\.FP32: 양의 정수"),
    "unknown-key": (lambda: text_edit(r"^(N\s*=.*)$", r"\1\nNN = 1"), r"\[week4\]: 모르는 키 NN"),
    "missing-key": (lambda: text_edit(r"^N\s*=.*\n", ""), r"\[week4\]: 빠진 키 N"),
    "toml-syntax": (lambda: text_edit(r"^(N\s*=\s*)\d+", r"\g<1>4096 4096"), r"course\.toml: TOML 문법 오류: \d+번째 줄 .*'N = 4096 4096"),
    "empty-file": (lambda: b"", r"\[course\.toml\]: 빠진 키"),
    "bom": (lambda: b"\xef\xbb\xbf" + COURSE.read_bytes(), r"course\.toml.*BOM"),
    "invalid-utf-8": (lambda: COURSE.read_bytes().replace(b"\n", b"\n# \xff\xfe\n", 3), r"course\.toml.*UTF-8이 아니다"),
    # fuzz-2 (issue 57): values the dry run used to pass and a later step broke on, or that hung or crashed
    "t40-BW-in-TB/s": (lambda: keys(**{f"presets__{HW}__BW": 1.0}), rf"presets\.{HW}\.BW: .*Byte/s로 적는다"),
    "t39-BW-in-GB/s": (lambda: keys(**{f"presets__{HW}__BW": 2000}), rf"presets\.{HW}\.BW: .*Byte/s"),
    "t41-peak-20": (lambda: keys(**{f"presets__{HW}__peak__{DT}": 20}), rf"presets\.{HW}\.peak\.{DT}: .*FLOPs/s로 적는다"),
    "t108-name-with-quote": (lambda: keys(**{f"presets__{HW}__name": 'NVIDIA "SXM5"'}), rf'presets\.{HW}\.name: 글자 "'),
    "t84-name-with-markup": (lambda: keys(**{f"presets__{HW}__name": "<img src=x onerror=alert(1)>"}),
                             rf"presets\.{HW}\.name: 글자 < >"),
    "t72-naive_N-5000": (lambda: keys(note__measure__naive_N=5000), r"note\.measure\.naive_N: 1 이상 128 이하"),
    "t73-blas_N-100000": (lambda: keys(note__measure__blas_N=100_000), r"note\.measure\.blas_N: 1 이상 2,048 이하"),
    "t74-flash-N-200000": (lambda: keys(note__flash_check__N=[64, 100, 200_000]), r"note\.flash_check\.N: .*200,000"),
    "t88-N-2**62": (lambda: keys(week4__N=2**62, week4__tiles=[2**52, 2**62]), r"week4\.N: 2 이상 65,536 이하"),
    "t110-one-tile": (lambda: keys(week4__tiles=[64]), r"week4\.tiles: 타일 한 변을 2개 이상"),
    "t93-N-1": (lambda: keys(week4__N=1, week4__tiles=[1]), r"week4\.N: 2 이상"),
    "t66-small_N-100000": (lambda: keys(week4__small_N=100_000), r"week4\.small_N: 2 이상 32 이하"),
    "t71-capacity-1-Byte": (lambda: keys(week4__cache__capacities=[1]), r"week4\.cache\.capacities: .*Byte로 적는다"),
    "t69-extra-registers-300": (lambda: keys(week4__extra_registers=300), r"week4\.extra_registers: 1 이상 255 이하"),
    "t70-L-10**14": (lambda: keys(week3__L=10**14), r"week3\.L: "),
    "t96-group-10**9": (lambda: keys(week4__cache__group_size_M=10**9), r"week4\.cache\.group_size_M: "),
    "measure-T-1": (lambda: keys(note__measure__T=1), r"note\.measure\.T: 타일 루프는"),
    "flash-blocks-1": (lambda: keys(note__flash_check__blocks=[[1, 1]]), r"note\.flash_check\.blocks: 검산의 블록 반복"),
}


def one_line(said: str) -> str:
    lines = [line for line in said.splitlines() if line.strip()]
    assert len(lines) == 1, f"not one line:\n{said[-2000:]}"
    assert "Traceback" not in said and HANGUL.search(said), said[-2000:]
    return lines[0]


WRITTEN = ("chapters/", "figures/", "lib/")   # what the commands write (other tests may add files elsewhere meanwhile)


@pytest.fixture(scope="module")
def checkout_hash() -> str:
    return tree_hash(ROOT, under=WRITTEN)


@pytest.mark.parametrize("case", BAD_FILES)
def test_a_bad_course_toml_is_one_korean_line_naming_the_key(case, tmp_path, monkeypatch, capsys, checkout_hash):
    make, pattern = BAD_FILES[case]
    bad = tmp_path / "course.toml"
    bad.write_bytes(make())
    monkeypatch.setenv(params.ENVIRONMENT, str(bad))
    status = coursebook.main(["check", "--no-site", "--no-figures"])
    out, err = capsys.readouterr()
    line = one_line(err)
    assert status == 2 and not out, (status, out, err)
    named = line.replace(f" (${params.ENVIRONMENT}가 가리키는 파일)", "", 1)   # (the file's name says which file)
    assert re.match(rf"(course\.toml: )?{pattern}", named), line
    assert len(line) < 600, f"the message repeats a long value whole: {len(line)} characters"
    assert tree_hash(ROOT, under=WRITTEN) == checkout_hash, f"{case}: a bad course.toml changed the checkout"


def test_roofline_course_naming_a_missing_file(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv(params.ENVIRONMENT, str(tmp_path / "next-term.toml"))
    assert coursebook.main(["check", "--no-site", "--no-figures"]) == 2
    line = one_line(capsys.readouterr().err)
    assert "next-term.toml" in line and "파일이 없다" in line and params.ENVIRONMENT in line, line


# ---------------------------------------------------------------- the instructor's command on a copy

@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    """A copy of the checkout's files and its built editions (no build, no execution cache: nothing here may run a
    chapter's kernel), the in-process chapter runs of the live term and the variants the site build drew, both kept
    by what they are made from (editions.recompute's memo: this test run's, which starts from the checkout's
    coursebook.__main__.RECOMPUTED; handout.memo): `check` in the copy reads them instead of running every chapter
    and drawing every page again. The live term's runs are made here, in-process, if this run has not made them yet
    (the tests of the pages read the same ones), and so are the draws (variants._FOUND: this process's other tests
    read them)."""
    import shutil

    from conftest import chapter_memo
    from coursebook import handout

    copy = tmp_path_factory.mktemp("bad-inputs") / "repo"
    copy_editions(copy_checkout(copy))
    live = params.load()
    memo = chapter_memo(live.path)
    coursebook.validate_term(live, memo=memo)   # (what `check` in the copy runs first)
    kept = memo or coursebook.RECOMPUTED
    if kept.is_dir():
        shutil.copytree(kept, copy / "_build" / coursebook.RECOMPUTED.name)
    if handout.memo(ROOT / "_build").is_dir():
        shutil.copytree(handout.memo(ROOT / "_build"), handout.memo(copy / "_build"))
    handout.page_digests(live, memo=handout.memo(copy / "_build"))   # (kept if the build's hold, else drawn here)
    subprocess.run(["git", "init", "-q"], cwd=copy, check=True)
    return copy


REFRESHED = {"tiles-8-values", "N-2**40", "bom", "invalid-utf-8", "hardware-200000-characters", "t40-BW-in-TB/s",
             "t73-blas_N-100000", "t88-N-2**62"}


@pytest.mark.parametrize("case", [*sorted(REFRESHED), "missing"])
def test_a_failed_refresh_changes_no_file(repo, case):
    toml = repo / "lib" / "roofline" / "course.toml"
    good = toml.read_bytes()
    before = tree_hash(repo, skip=("lib/roofline/course.toml",))
    try:
        if case == "missing":
            toml.unlink()
        else:
            toml.write_bytes(BAD_FILES[case][0]())
        run = subprocess.run([sys.executable, "-m", "coursebook", "refresh", "--build", "true"], cwd=repo,
                             env=env_for(repo), capture_output=True, text=True, timeout=600)
    finally:
        toml.write_bytes(good)
    line = one_line(run.stderr)
    assert run.returncode == 2, run.stdout + run.stderr
    if case == "missing":
        assert "course.toml" in line and "파일이 없다" in line and "git checkout" in line, line
    else:
        assert re.search(BAD_FILES[case][1], line), line
    assert tree_hash(repo, skip=("lib/roofline/course.toml",)) == before, f"{case}: the failed refresh changed files"


@pytest.mark.parametrize("how", ["empty", "truncated"])
def test_a_broken_edition_is_named_with_the_command_that_writes_it(repo, how):
    edition = repo / "chapters" / "w4_1_intensity.ipynb"
    good = edition.read_bytes()
    try:
        edition.write_bytes(b"" if how == "empty" else good[: len(good) // 2])
        run = subprocess.run([sys.executable, "-m", "coursebook", "check", "--no-site", "--no-figures"], cwd=repo,
                             env=env_for(repo), capture_output=True, text=True, timeout=600)
    finally:
        edition.write_bytes(good)
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr[-3000:]
    named = [line for line in run.stderr.splitlines() if line.startswith("chapters/w4_1_intensity.ipynb")]
    assert named and "cannot be read" in named[0] and "make book" in named[0], run.stderr[-3000:]
    # (fuzz-2 FD12b, FD13) the fixes converge in the order printed: the edition's line before the site's
    lines = run.stderr.splitlines()
    site = [i for i, line in enumerate(lines) if line.startswith("_build/")]
    assert not site or lines.index(named[0]) < min(site), run.stderr[-3000:]


# ---------------------------------------------------------------- bad values typed into a parameter cell

W4 = [1, 2, 4, 8, 16, 32, 64, 128]
TERM = params.load().week4   # the term in force (a value that is bad in one term can be another term's own)


def not_dividing(n: int) -> int:
    """The smallest whole number above 1 that does not divide n: a tile side no term with this n can take."""
    return next(t for t in itertools.count(2) if n % t)


# (chapter, variable, what the student types): each must stop with a ParameterError naming the variable
BAD_CELLS = [
    ("w4_3_tiling", "N", f"2**40 * {math.lcm(*TERM.tiles)}"),   # far beyond the cache simulation, and every tile divides it
    ("w4_3_tiling", "tiles", repr(W4)),   # (T = 1: N/T beyond the cache simulation, which names N and T)
    ("w4_5_matmul", "tiles", repr(W4)),
    ("week4_guide", "tiles", repr(W4)),
    ("w4_2_roofline", "tiles", repr(W4)),
    ("w4_1_intensity", "N", "-1"),
    ("w4_1_intensity", "N", "4096.0"),
    ("w4_2_roofline", "N", '"4096"'),
    ("w4_4_tile_size", "tiles", "[]"),
    ("w4_5_matmul", "tiles", f"[{not_dividing(TERM.N)}]"),
    ("week4_guide", "small_T", str(not_dividing(TERM.small_N))),
    ("w4_summary", "dtype", '"FP64"'),
    ("w4_4_tile_size", "threads", "0"),
    ("w4_4_tile_size", "gpu", repr(first_gpu_without_limits())),
    ("week3_vector_add", "hardware", repr(LONG)),
    ("week3_vector_add", "L", "0"),
    ("flashattention", "seq", "-4096"),
    ("flashattention", "hardware", '"no_such_machine"'),
    # fuzz-2 (issue 57): one tile in ⑤ (a raw TypeError), small_N named as N, the student's own N hanging
    ("w4_5_matmul", "tiles", f"[{TERM.tiles[-1]}]"),
    ("w4_3_tiling", "small_N", "100"),
    ("w4_3_tiling", "N", "2**62"),
    ("w4_1_intensity", "N", "True"),
]


def typed(md: Path, name: str, value: str) -> str:
    """The chapter's parameter cell with `name = value` typed in (the comment kept)."""
    source = editions.parameter_cell(editions.read_source(md)).source
    new = re.sub(rf"^{name} = [^\n]*?(\s+#[^\n]*)?$", lambda m: f"{name} = {value}{m[1] or ''}", source, count=1,
                 flags=re.M)
    assert new != source, f"{md.name}'s parameter cell has no {name}"
    return new


@pytest.mark.parametrize("chapter, name, value", BAD_CELLS,
                         ids=[f"{c}-{n}={v[:12]}" for c, n, v in BAD_CELLS])
def test_a_bad_cell_value_is_one_korean_line_naming_the_variable(chapter, name, value):
    md = ROOT / "chapters" / f"{chapter}.md"
    with pytest.raises(editions.ChapterError) as caught:
        editions.recompute(md, typed(md, name, value))
    cause = caught.value.__cause__
    assert isinstance(cause, params.ParameterError), f"{chapter}: `{name} = {value[:40]}` gave {caught.value}"
    said = str(cause)
    named = ("N", "tiles") if name == "tiles" and chapter == "w4_3_tiling" else (name,)
    assert said.startswith(tuple(f"{n}: " for n in named)) and HANGUL.search(said) and "\n" not in said, said
    assert len(said) < 600, f"the message repeats a long value whole: {len(said)} characters"


def test_the_course_compares_as_many_tiles_as_the_figures_have_colours():
    from roofline.show.palette import CASE_COLORS

    assert len(CASE_COLORS) == params.MAX_TILES + 1   # (case 0 is 재사용 없음)


def test_a_parameter_cell_is_written_the_same_way_whatever_was_written_before():
    """A value written wide (a long N) and then the file's value again: the same text as before, no padding left."""
    for md in coursebook.chapter_sources():
        text = md.read_text(encoding="utf-8")
        cell, problem = paramcell.find(text)
        if cell is None:
            continue
        name = next(iter(paramcell.assignments(cell["body"])))
        wide = {name: ("x" * 40 if isinstance(paramcell.assignments(cell["body"])[name], str) else None)}
        body = typed_body(cell["body"], name, paramcell.literal(wide[name]) if wide[name] else "1_099_511_627_776")
        widened = text[:cell.start("body")] + body + text[cell.end("body"):]
        assert paramcell.write(widened, LIVE) == paramcell.write(text, LIVE), f"{md.name}: padding drifts"


def typed_body(body: str, name: str, value: str) -> str:
    return re.sub(rf"^{name} = [^\n]*?(\s+#[^\n]*)?$", lambda m: f"{name} = {value}  " + (m[1] or "").lstrip(),
                  body, count=1, flags=re.M)


def test_the_live_file_passes():   # (the table's cases fail because of what they change, not of the term)
    assert tomllib.loads(COURSE.read_text(encoding="utf-8")) and params.load(COURSE)


# ---------------------------------------------------------------- a chapter's .md cell as a student writes it (F-5)

@pytest.mark.parametrize("source, values", [
    ("N = 2**12", {"N": 4096}),
    ("tiles = list(range(32, 129, 32))", {"tiles": [32, 64, 96, 128]}),
    ("small_N = 4\nN = small_N * 1024", {"small_N": 4, "N": 4096}),
    ("N = 4096.0\nflag = True\nnothing = None", {"N": 4096.0, "flag": True, "nothing": None}),
    ("tiles = (32, 64)", {"tiles": [32, 64]}),
])
def test_a_parameter_cell_is_read_as_python_computes_it(source, values):
    assert paramcell.assignments(source) == values


@pytest.mark.parametrize("source, named", [
    ("N = 4096)", "매개변수 셀 1번째 줄: 파이썬 문법 오류"),
    ("N = small_N", "N: 매개변수 셀에서 읽을 수 없는 식 'small_N'"),
    ("N = 2**10**10", "N: 매개변수 셀에서 읽을 수 없는 식 '2**10**10'"),
    ("tiles = list(range(10**9))", "tiles: 매개변수 셀에서 읽을 수 없는 식"),
    ("N = open('x').read()", "N: 매개변수 셀에서 읽을 수 없는 식"),
    ("N = 4096 / 0", "N: 매개변수 셀에서 읽을 수 없는 식"),
])
def test_a_parameter_cell_the_build_cannot_read_is_one_korean_line(source, named):
    with pytest.raises(params.ParameterError) as refused:
        paramcell.assignments(source)
    said = str(refused.value)
    assert said.startswith(named) and "\n" not in said and len(said) < 600, said


def test_a_float_or_a_bool_in_a_cell_is_not_the_file_s_whole_number():
    """N = 4096.0 (m05) or N = True is a value the chapter refuses: the staleness check names it (make book stops with
    exit 4 and keeps the site) instead of letting the build run the chapter into the error."""
    md = ROOT / "chapters" / "w4_1_intensity.md"
    text = md.read_text(encoding="utf-8")
    for typed in (f"{float(LIVE.week4.N)!r}", "True"):
        changed = re.sub(r"^N = \d[\d_]*", f"N = {typed}", text, count=1, flags=re.M)
        assert changed != text
        assert any(line.startswith(f"parameter cell: N = {typed} but") for line in paramcell.disagreements(changed, LIVE))


def test_ctrl_c_during_the_dry_run_is_an_interruption_not_a_bad_value(repo):
    """F-3: Ctrl-C while `make refresh` tries the new term (or runs its chapters) is reported as an interruption,
    exit 130, never as a bad course.toml value; nothing is changed."""
    import signal
    import time

    from coursebook import lock

    toml = repo / "lib" / "roofline" / "course.toml"
    good = toml.read_bytes()
    toml.write_bytes(keys(week4__N=2 * N if 2 * N <= 65_536 else N // 2))
    before = tree_hash(repo, skip=("lib/roofline/course.toml",))
    run = subprocess.Popen([sys.executable, "-m", "coursebook", "refresh", "--build", "true"], cwd=repo,
                           env=env_for(repo), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        while (lock.holder(repo / "_build") or {}).get("pid") != run.pid and run.poll() is None:
            time.sleep(0.05)   # (the lock is taken once the command has read course.toml: the dry run follows)
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=600)
    finally:
        toml.write_bytes(good)
    assert run.returncode == 130 and "Traceback" not in err, err[-3000:]
    assert "중단했다" in err and "course.toml:" not in err, err[-3000:]
    assert tree_hash(repo, skip=("lib/roofline/course.toml",)) == before


def test_a_full_disk_is_one_line_naming_the_build_folder(tmp_path):
    """fuzz-2 FE1: a full disk under _build ended `make book` in three tracebacks. The error as it reaches the command
    line (ENOSPC from a write, or SQLite's "disk is full" inside the execution cache, which jupyter-cache re-raises as
    a RuntimeError from SQLAlchemy's error) is said in one Korean line naming the folder; another error is not."""
    import errno
    import sqlite3

    class Wrapped(Exception):   # the shape of SQLAlchemy's OperationalError: the driver's error as `.orig`
        def __init__(self, orig):
            super().__init__("(sqlite3.OperationalError) …")
            self.orig = orig

    try:
        try:
            raise Wrapped(sqlite3.OperationalError("database or disk is full"))
        except Wrapped as exc:
            raise RuntimeError("Unexpected error accessing jupyter cache, it may need to be cleared.") from exc
    except RuntimeError as err:
        cache_full = err
    for err in (OSError(errno.ENOSPC, "No space left on device"), cache_full):
        said = coursebook.out_of_room(err, tmp_path)
        assert said and said.startswith(f"{tmp_path}: 디스크에 빈 자리가 없다") and "\n" not in said, said
    assert coursebook.out_of_room(RuntimeError("something else"), tmp_path) is None
    assert coursebook.out_of_room(OSError(errno.EACCES, "Permission denied"), tmp_path) is None
