"""roofline.show.exercises: the judge and the sheets of every page that has exercises (`PAGES`, from
tests/exercise_answers.py: every page module with an `exercises` function). The guide's worksheet itself is tested in
tests/pages/test_week4_guide.py.

- The answers are the model's values: computed here from the course's formulas (F = 2N³, Q = 2sN³/T + sN², …)
  for the live parameters, and the seed documents' literal values for the frozen seed parameters.
- The judging rule, with the issue's own example (17.246978…: 17.247 and 17.246978 right, 17.2 only when the
  reader asks for three digits, 1 % off wrong, GiB for GB a unit mistake).
- The worked solutions: every exercise has one; its last value is the judged answer, its named values are the
  model's (kernels, Timing) and its arithmetic, evaluated from the printed numbers, gives each line's value.
- No exercise's answer, in any form the site prints numbers, is on its built page (folded answers and every
  explorer state included); the conditions are not the chapter's own.
- The common mistakes (roofline.show.mistakes): each a question keeps is named when typed, by its kind and its
  message, and the page's data carries the same value and message; the right answer, in any form the rule accepts
  or finds short of digits, is never named as a mistake; at least 40 (question, kind) over the course.
- In a real kernel, `check` on the ⑤ edition gives the verdicts and messages that the page gives
  (test_exercises_browser.py checks the page against the same expectations).
"""
from __future__ import annotations

import re
from fractions import Fraction

import nbformat
import pytest

from conftest import CHAPTERS, term_glued, term_path
from coursebook import editions
from exercise_answers import PAGES, PROBLEM, mistake_vectors, sig
from notation import evaluate
from roofline.errors import ParameterError
from roofline.show import exercises, fmt
from roofline.show.pages import w4_1_intensity, w4_2_roofline, w4_3_tiling, w4_4_tile_size, w4_5_matmul, week4_guide

BOTH_TERMS = True    # every test that takes `course` runs for the live term, the next one (tests/conftest.py) …
RANDOM_TERM = True   # … and one drawn at random from the valid range (seeded: the seed is in the test's id)


def expected_answer(q, course):
    """The course's own exercises' answers from the course's formulas and the question's own numbers (`given`),
    written here again as a second derivation; None for an exercise this table does not know (one an author added):
    its worked solution's arithmetic, evaluated from the printed numbers, is its check
    (test_the_solutions_intermediate_values_are_the_models_and_their_arithmetic_holds), as for every exercise."""
    g = q.params
    N, T, s = g.get("N"), g.get("T"), g.get("s")
    P, BW = g.get("P"), g.get("BW")

    def Q_tiled(N, T, s_in, s_out=None):
        return 2 * s_in * N**3 // T + (s_in if s_out is None else s_out) * N**2

    def bound(t_compute, t_memory):
        return "memory" if t_memory > t_compute else "compute"

    key = q.key
    if key == "①-1":
        return Fraction(2 * N**3, Q_tiled(N, T, s))
    if key == "①-2":
        n = g["n"]
        return Fraction(2 * n**2, s * (n**2 + 2 * n))
    if key == "①-3":
        return Fraction(2 * N**3, (2 * g["s_in"] + g["s_out"]) * N**2)
    if key == "①-4":
        return bound(2 * N**3 / P, Q_tiled(N, T, s) / BW)
    if key == "②-1":
        return min(P, BW * Fraction(2 * N**3, Q_tiled(N, T, s)))
    if key == "②-2":
        return 2 * N**3 / min(P, BW * Fraction(2 * N**3, Q_tiled(N, T, s)))
    if key in ("②-3", "⑤-4"):
        return "memory" if Fraction(2 * N**3, Q_tiled(N, T, s)) < P / BW else "compute"
    if key == "③-1":
        return Q_tiled(N, T, s)
    if key == "③-2":
        return 2 * s * N**3 // T
    if key == "③-3":
        ratio = Fraction(Q_tiled(N, g["T_b"], s), Q_tiled(N, g["T_a"], s))
        k = Fraction(g["T_a"], g["T_b"])
        return "exact" if ratio == k else "less" if ratio > k else "more"
    if key in ("④-1", "④-2", "④-3"):
        TM, TN, TK = g["T_M"], g["T_N"], g["T_K"]
        one = s * (TM * TK + TK * TN)
        if key == "④-1":
            return one
        if key == "④-2":
            return 2 * one + g["s_acc"] * TM * TN
        return "fits" if 2 * one <= course.presets[course.week4.gpus[0]].smem_per_SM else "no"
    if key == "④-4":
        return (N // g["T_M"]) * (N // g["T_N"]) * (N // g["T_K"]) * s * (g["T_M"] * g["T_K"] + g["T_K"] * g["T_N"])
    if key == "⑤-1":
        return max(2 * N**3 / P, Q_tiled(N, T, s) / BW)
    if key == "⑤-2":
        return (2 * s * N**3 + s * N**2) / BW
    if key == "⑤-3":
        ridge = P / BW
        if 2 * N > s * ridge:
            return 2 * s * N * ridge / (2 * N - s * ridge)
        return 2 * N**3 / P
    L = g.get("L")
    if key == "3주-1":
        return 3 * s * L / BW
    if key == "3주-2":
        return max(2 * L / P, 4 * s * L / BW)
    if key == "3주-3":
        return g["capacity"] // (3 * s)
    if key == "3주-4":
        return bound(g["f"] * L / P, 3 * s * L / BW)
    if key == "실측-1":
        return s * (g["TM"] + g["TN"])
    if key == "실측-2":   # f = P_FP32/(SMs·fp32_per_clock), BW_smem = smem_per_clock·f·SMs, the thread tile's Q_smem
        bw_smem = g["smem_per_clock"] * Fraction(g["P_FP32"]) / g["fp32_per_clock"]
        Q = Fraction(s * N**3 * (g["TM"] + g["TN"]), g["TM"] * g["TN"]) + s * (N**3 // g["BN"] + N**3 // g["BM"])
        return min(P, bw_smem * 2 * N**3 / Q)
    if key == "실측-3":   # the two levels of the block and thread tiles (roofline.hierarchy), the lower binds
        F, loads = 2 * N**3, N**3 // g["BN"] + N**3 // g["BM"]
        R_hbm = min(P, BW * Fraction(F, s * (loads + N**2)))
        R_smem = min(P, g["BW_smem"] * Fraction(F, s * Fraction(N**3 * (g["TM"] + g["TN"]), g["TM"] * g["TN"]) + s * loads))
        low = min(R_hbm, R_smem)
        return "연산" if low >= P else ("DRAM" if R_hbm <= R_smem else "Shared Memory")
    return None


def chapter_sets(course):
    return {label: make(course) for label, make in PAGES.items() if label != "ch-guide"}


def test_each_chapter_has_at_least_three_exercises_and_a_judgement_all_answered_by_the_model(course):
    for label, ex in chapter_sets(course).items():
        assert len(ex.questions) >= 3, label
        assert any(q.is_choice for q in ex.questions), f"{label}: no question asks for a judgement"
        for q in ex.questions:
            assert expected_answer(q, course) in (None, q.value), (label, q.key)
            if q.is_choice:
                assert q.value in dict(q.choices) and len(q.choices) >= 2, q.key
            else:
                assert "(단위: " in q.ask and (f"유효숫자 {exercises.DIGITS}자리" in q.ask or q.exact and "정확히" in q.ask), q.key


def test_every_exercise_names_its_data_type_or_its_element_size(course):
    names = set(course.dtypes)
    for label, ex in chapter_sets(course).items():
        for q in ex.questions:
            said = q.text + " ".join(prev.text for prev in ex.questions[: ex.questions.index(q)])
            assert any(name in said for name in names) or "Byte" in q.text, (label, q.key, q.text)


def own_conditions(course, label: str) -> dict:
    """What the page itself computes with: its problem's sizes, tiles, element size (and week 3's L and capacity)."""
    problem = getattr(course, PROBLEM[label])
    if PROBLEM[label] == "note":
        return {"s": {problem.s}}
    if PROBLEM[label] == "week4":
        return {"N": {problem.N, problem.small_N}, "T": {*problem.tiles, problem.small_T}, "s": {problem.s}}
    return {"L": {problem.L}, "s": {problem.s}, "capacity": {problem.capacity}}


def test_the_conditions_are_not_the_pages_own(course):
    """The exercises ask about another N, T or dtype than the chapter computes, derived from its parameters: at
    least one of a question's numbers is not the page's own, or it asks about another kernel or tile shape."""
    for label, ex in chapter_sets(course).items():
        own = own_conditions(course, label)
        for q in ex.questions:
            g = q.params
            new = [g[k] not in own.get(k, ()) for k in ("N", "T", "s", "L") if k in g]
            new += [k in g for k in ("f", "kernel", "s_in", "T_M", "TM")]   # TM: a thread tile
            assert any(new), (label, q.key, g, own)


def model_values(q) -> dict:
    """What the model gives for the named lines of a square-matmul question (kernels, Timing)."""
    import roofline as rl
    from roofline import kernels

    g = q.params
    if not {"N", "s"} <= set(g) or "T_M" in g or "s_in" in g or "T_a" in g:
        return {}
    N, T, s = g["N"], g.get("T"), g["s"]
    cost = kernels.matmul_no_reuse(N, s, s) if T is None else kernels.matmul_tiled(N, T, s, s)
    out = {"F": cost.F, "Q": cost.Q, "Q_T": cost.Q, "I": cost.I, "I_T": cost.I}
    if "P" in g and "BW" in g:
        t = rl.Timing(cost, rl.hardware.Roofline(g["P"], g["BW"]))
        out.update({"t_compute": t.t_compute, "t_memory": t.t_memory, "t_ideal": t.t_ideal, "R_roof": t.R_roof,
                    "I*": Fraction(g["P"]) / g["BW"]})
    return out


def all_questions(course):
    for label, make in PAGES.items():
        for q in make(course).questions:
            yield label, q


def test_every_exercise_has_a_worked_solution_ending_in_its_judged_answer(course):
    for label, q in all_questions(course):
        assert q.steps, (label, q.key, "no worked solution")
        assert q.steps[-1].value == q.value, (label, q.key, "the solution ends elsewhere than the answer")
        assert q.solution[-1] == f"답: {q.answer}"
        if not q.is_choice:
            assert exercises.number(q.in_unit) in q.steps[-1].text, (label, q.key)


def test_the_solutions_intermediate_values_are_the_models_and_their_arithmetic_holds(course):
    checked = 0
    for label, q in all_questions(course):
        model = model_values(q)
        for step in q.steps:
            if step.name in model and not isinstance(step.value, str):
                assert step.value == model[step.name], (label, q.key, step.name)
                checked += 1
            if step.numbers:
                got, want = evaluate(step.numbers), Fraction(step.value) / step.scale
                assert abs(got - want) <= abs(want) * Fraction(1, 10**5) + Fraction(1, 10**6), \
                    (label, q.key, step.text, float(got), float(want))
                checked += 1
    assert checked > 100


def test_check_show_gives_the_steps_in_a_notebook(course):
    ex = w4_5_matmul.exercises(course.week4)
    q = ex.questions[0]
    shown = ex.check(q.key, show=True).message.splitlines()
    assert shown[0] == "풀이" and shown[-1] == f"답: {q.answer}"
    assert [line.split(". ", 1)[1] for line in shown[1:-1]] == [s.text for s in q.steps]


def test_with_the_seed_parameters_the_answers_are_the_seed_documents_values(seed):
    sheet = week4_guide.exercises(seed.week4)
    assert fmt.giga(sheet.question("Q-없음").value) == "549.822923"          # GB, no reuse
    assert fmt.ms(sheet.question("t_ideal-없음").value) == "549.822923"
    assert fmt.ms(sheet.question("t_ideal-64").value) == "8.657043"
    assert fmt.integer(sheet.question("F-32").value) == "137,438,953,472"
    assert fmt.decimal(w4_5_matmul.exercises(seed.week4).question("⑤-1").value * 1000, 6) == "23.192823"   # N = 6,144, T = 96


def test_the_answers_follow_a_changed_parameter(course):
    w4 = course.week4.with_(N=course.week4.N * 2)
    before = week4_guide.exercises(course.week4).question("F-없음").value
    after = week4_guide.exercises(w4).question("F-없음").value
    assert after == 8 * before
    for make in (w4_1_intensity.exercises, w4_2_roofline.exercises, w4_3_tiling.exercises, w4_4_tile_size.exercises, w4_5_matmul.exercises):
        changed = make(w4)
        assert changed.digest() != make(course.week4).digest()
        for q in changed.questions:
            assert expected_answer(q, course) in (None, q.value), q.key


def a_question(value, unit="ms") -> exercises.Question:
    return exercises.Question("예-1", "시험", Fraction(value) * exercises.UNITS[unit].size, exercises.UNITS[unit], "식")


def test_the_rule_of_the_issue():
    q = a_question(Fraction("17.2469783"))
    assert exercises.judge(q, 17.247).right and exercises.judge(q, "17.246978").right
    assert exercises.judge(q, "17.24").right                                    # cut off at its last digit
    assert exercises.judge(q, "17.2").reason == "digits"
    assert exercises.judge(q, "17.2", digits=3).right                           # the reader asked for 3 digits
    assert exercises.judge(q, "17.42").reason == "wrong" and exercises.judge(q, "17.419").reason == "wrong"
    assert exercises.judge(q, "0.017247").reason == "unit"                      # seconds
    assert "ms는 10⁻³ s다" in exercises.judge(q, "0.017247").message
    assert exercises.judge(q, "0.017").reason == "unit" and exercises.judge(q, "0.02").reason == "wrong"   # a guess
    assert exercises.judge(q, "1.7247e1").right and exercises.judge(q, "1.7247×10¹").right
    assert exercises.judge(q, "17.247 ms").right
    assert exercises.judge(q, "열일곱").reason == "unreadable"


def test_units_of_bytes_are_named():
    gb = a_question(Fraction(549822922752, 10**9), "GB")
    verdict = exercises.judge(gb, sig(Fraction(549822922752, 2**30), 8))
    assert verdict.reason == "unit" and "GB는 10⁹ Byte다" in verdict.message and "GiB" in verdict.message
    assert exercises.judge(gb, "549,822,922,752").reason == "unit"              # Byte
    assert exercises.judge(gb, "549.8").right


def test_significant_digits_are_read_as_written():
    read = exercises.read
    assert (read("137400000000").digits, read("137400000000").last) == (4, 8)
    assert (read("17.20").digits, read("17.20").last) == (4, -2)
    assert read("1.374e11").value == 137_400_000_000 and read("1.374×10^11").value == 137_400_000_000
    assert read("1,024").value == 1024 and read("-0.5").value == Fraction(-1, 2) and read(".25").digits == 2
    assert exercises.typed_text(17.0) == "17" and exercises.typed_text(1.374e11) == "137400000000"
    exact = a_question(Fraction(1, 4), "FLOPs/Byte")
    assert exercises.judge(exact, "0.25").right                                 # exactly the answer


def test_check_in_a_notebook_names_the_question_and_refuses_a_bad_key(course):
    ex = w4_5_matmul.exercises(course.week4)
    assert ex.check("⑤-1").message.endswith(f"(단위: ms, 유효숫자 {exercises.DIGITS}자리 이상)")
    assert ex.check("5-1", show=True).message.endswith(f"답: {exercises.number(ex.questions[0].value * 1000)} ms")
    judged = next(q for q in ex.questions if q.is_choice)
    assert all(f'"{key}"' in ex.check(judged.key).message for key, _ in judged.choices)
    assert ex.check(judged.key, judged.value).right and ex.check(judged.key, judged.answer).right
    other = next(key for key, _ in judged.choices if key != judged.value)
    named = next((m.kind for m in judged.mistakes if m.value == other), "")     # the other choice may be a mistake's
    got = ex.check(judged.key, other)
    assert (got.reason, got.mistake) == (("mistake", named) if named else ("wrong", ""))
    assert ex.check(judged.key, "모름").reason == "unreadable"
    with pytest.raises(ParameterError, match="문제 번호: '⑤-9'"):
        ex.check("⑤-9", 1)
    with pytest.raises(ParameterError, match="digits"):
        ex.check("⑤-1", 1, digits=9)
    with pytest.raises(ParameterError, match="답"):
        ex.check("⑤-1", [1])


def test_the_answers_are_not_in_the_page_html_outside_the_data(course):
    """The page carries them only in its data for the script; no formatted answer sits in the section's HTML."""
    for label, make in PAGES.items():
        ex = make(course)
        page = ex._repr_html_()
        visible = re.sub(r"<script.*?</script>", "", page, flags=re.S)
        for q in ex.questions:
            assert f"답: {q.answer}" not in visible, (label, q.key)
            assert not any(step.text in visible for step in q.steps), (label, q.key)


def forms(value: Fraction) -> set[str]:
    """Every way the site prints a number, for an answer: fixed decimals 0–6 with and without thousands separators,
    the trimmed form, and 4 and 3 significant digits (6.871948, 6.872, 6.87, 6,872, 80.789, …); forms that say
    less than two significant digits are left out (they are everywhere and pin nothing)."""
    out = {fmt.number(value, 6), sig(value, 4), sig(value, 3)}
    for d in range(7):
        out |= {fmt.decimal(value, d), fmt.decimal(value, d, grouping=True)}
    return {f for f in out if len(re.sub(r"\D", "", f).lstrip("0")) >= 2 and "e" not in f and float(f.replace(",", "")) != 0}


def reachable_text(page) -> str:
    """What a reader can see on a built page without asking for an answer: the text (folded answers included) and
    every state of the page's explorers (a control away, in the page or in their own file), but not the
    exercises' data nor the boxes of values measured on the build machine."""
    return visible_text(page.read_text(encoding="utf-8"), page.parent)


def term_text(label: str, course_path) -> str:
    """What the page of `label` would show for the term in `course_path`, without building it: its Markdown
    outside the code cells, and everything the chapter glues for that term (text, tables, equations, the explorers'
    HTML and all their states), read as `reachable_text` reads a built page."""
    from browser_helpers import label_page

    stem = label_page(label).rsplit("/", 1)[-1]
    md = (CHAPTERS / f"{stem}.md").read_text(encoding="utf-8")
    parts = [re.sub(r"^```\{code-cell\}.*?^```", " ", md, flags=re.S | re.M)]
    for bundle in term_glued(stem, course_path).values():
        parts += [str(bundle[m]) for m in ("text/markdown", "text/latex", "text/html") if m in bundle]
        if not {"text/markdown", "text/latex", "text/html"} & set(bundle):
            parts.append(str(bundle.get("text/plain", "")))
    return visible_text(" ".join(parts), None)


def visible_text(html_text: str, folder) -> str:
    import html as html_lib

    from coursebook.assets import explorer_data

    states = []
    for data in explorer_data(html_text, folder):
        for part in data["parts"]:
            for state in part["states"].values():
                states.extend(state.get("fields", {}).values())
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", html_text, flags=re.S)
    body = re.sub(r'<section class="rl-quiz".*?</section>', " ", body, flags=re.S)
    # the boxes of values measured on the build machine (they differ on every build: a match there is chance)
    body = re.sub(r'<div class="admonition important">.*?</div>', " ", body, flags=re.S)
    text = html_lib.unescape(re.sub(r"<[^>]+>", " ", body))
    return re.sub(r"\s+", " ", text) + " " + " ".join(states)


# what, written right after a number, says which quantity it is: a unit the exercises know (the longest name first,
# "ms" before "s"; in an equation as "\ \text{ms}"), or a power of ten it is the mantissa of (1.44 × 10⁹)
QUALIFIED = re.compile(r"(?:\\ |\s)?(?:\\text\{)?(" + "|".join(sorted(map(re.escape, exercises.UNITS), key=len, reverse=True))
                       + r")(?![A-Za-z])|\s?(?:×|\\times)\s?10")


def copyable(q, text: str) -> list[str]:
    """The forms of q's answer that the judge accepts and that the page's text shows as a number. A whole number
    counts where the page writes it with the answer's unit (4,096 Byte, not the matrix side N = 4,096); a
    percentage (an occupancy of 12.5%) is no exercise's answer, whose units are none, and neither is a number the
    page writes with another unit or a power of ten (1.44 GB and 1.44 × 10⁹ Byte are not the answer 1.44 ms); an
    answer that is one of the question's own data (R_roof = P when compute-bound; R_roof ≈ BW·1 FLOPs/Byte for an
    INT8 matmul without reuse, to the digits written) is the question's, not the page's."""
    if q.is_choice or any(Fraction(q.params[k]) == Fraction(q.value) for k in ("P", "BW") if k in q.params):
        return []
    whole = q.in_unit.denominator == 1
    found = []
    own = [Fraction(q.params[k]) / q.unit.size for k in ("P", "BW") if k in q.params]
    for form in forms(q.in_unit):
        if not exercises.judge(q, form).right or any(exercises.near(exercises.read(form), x) for x in own):
            continue
        unit = rf"\s?(?:{re.escape(q.unit.name)}{'|B' if q.unit.name == 'Byte' else ''})(?![A-Za-z])" if whole else ""
        for m in re.finditer(rf"(?<![\d.,]){re.escape(form)}(?![\d%]|[.,]\d|\s%){unit}", text):
            after = QUALIFIED.match(text, m.end())
            if whole or after is None or after[1] == q.unit.name:   # (a whole number's unit is in the pattern)
                found.append(form)
                break
    return found


def test_no_exercise_can_be_answered_by_copying_a_number_from_its_page(course, request):
    """On the built page for the live term; for the next and the random term, on what the page would show (its
    prose and everything it glues for that term)."""
    from browser_helpers import html_dir, label_page, page_file

    term = request.node.callspec.params["course"]
    root = html_dir() if term == "live" else None
    found = []
    for label, make in PAGES.items():
        text = (reachable_text(root / page_file(label_page(label))) if root else term_text(label, term_path(term)))
        for q in make(course).questions:
            found += [f"{label} {q.key}: {form!r} is on the page" for form in copyable(q, text)]
    assert not found, "\n".join(found)


def test_the_copy_check_catches_an_answer_on_the_page(course):
    ex = w4_5_matmul.exercises(course.week4)
    q = ex.questions[0]
    shown = fmt.number(q.in_unit, 6)
    assert copyable(q, f"표의 이상적 시간은 {shown} ms다.") == [shown]
    assert copyable(q, f"표의 이상적 시간은 {sig(q.in_unit, 4)} ms다.") == [sig(q.in_unit, 4)]
    assert copyable(q, "다른 값 1.5 ms.") == []
    # an answer that is not whole (its unit is not looked for): bare it counts, with another unit or as a mantissa not
    q = next(q for make in PAGES.values() for q in make(course).questions
             if not q.is_choice and q.in_unit.denominator != 1 and q.unit.name not in {"GB", "Byte"})
    shown = fmt.number(q.in_unit, 6)
    assert copyable(q, f"| {shown} |") == [shown]                      # a table's cell: its unit is in the header
    assert copyable(q, f"두 행렬({shown} GB), 값 {shown} {q.unit.name}") == [shown]
    assert copyable(q, f"두 행렬({shown} GB)") == []                    # another quantity
    assert copyable(q, rf"$Q = {shown} \times 10^{{9}}\ \text{{Byte}}$, {shown} × 10⁹ Byte") == []
    assert copyable(q, rf"$x = {shown}\ \text{{{q.unit.name}}}$") == [shown]
    sheet = week4_guide.exercises(course.week4)
    acc = sheet.question(f"acc-{sheet.cases[1][0]}")
    number = fmt.integer(acc.value)
    assert copyable(acc, f"N = {number}") == [] and copyable(acc, f"중간 합 {number} Byte") == [number]
    assert copyable(acc, f"| {number} B |") == [number]


def test_check_in_a_kernel_gives_the_page_verdicts(live_course, tmp_path):
    """(the committed edition is the live term's)"""
    md = CHAPTERS / "w4_5_matmul.md"
    ex = w4_5_matmul.exercises(live_course.week4)
    q = ex.questions[0]
    value = Fraction(q.value) / q.unit.size
    tries = [sig(value, 12), sig(value, exercises.DIGITS), sig(value, exercises.DIGITS - 1),
             sig(value * Fraction(101, 100), 8), sig(Fraction(q.value), 8)]
    expected = [exercises.RIGHT, exercises.RIGHT, exercises.digits_message(exercises.DIGITS), f"다시. 힌트: {q.hint}",
                exercises.unit_message(q.unit, exercises.UNITS["s"])]
    for (typed, _), m in zip(mistake_vectors(q)[:1], q.mistakes):     # a common mistake, named in the kernel too
        tries.append(typed)
        expected.append(exercises.mistake_message(m))
    nb = nbformat.read(md.with_suffix(".ipynb"), as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    judged = next(j for j in ex.questions if j.is_choice)
    lines = [f'print(check("{q.key}", "{t}").message)' for t in tries] + [f'print(check("5-1", "{tries[0]}", digits=3).message)']
    lines += [f'print(check("{judged.key}", "{judged.value}").message)', f'print(check("{q.key}", show=True).message)']
    nb.cells.append(nbformat.v4.new_code_cell("\n".join(lines)))
    with editions.book_mode(False):
        editions.execute(nb, tmp_path, timeout=180)
    printed = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.output_type == "stream").splitlines()
    assert printed == expected + [exercises.RIGHT, exercises.RIGHT] + ex.check(q.key, show=True).message.splitlines()


def test_an_integer_answer_is_judged_exactly(course):
    """3주-3 asks for a whole number of elements, ③-1 for the Byte of a small example: only the exact count is right
    (a rounded 4-digit length would be one whose vectors do not fit); the page's script gets the same rule through
    the quiz data's `exact`, and the question says so instead of asking for 4 significant digits."""
    from roofline.show.pages import week3_vector_add

    ex = week3_vector_add.exercises(course.week3)
    q = next(q for q in ex.questions if q.key == "3주-3")
    assert q.exact and q.in_unit.denominator == 1 and ex.data()["questions"]["3주-3"]["exact"] is True
    L, s = int(q.in_unit), q.params["s"]
    assert 3 * s * L <= q.params["capacity"] < 3 * s * (L + 1)      # the longest length that fits, and only it
    assert exercises.judge(q, str(L)).right and exercises.judge(q, f"{L:,}").right
    for near in {f for f in (sig(L, exercises.DIGITS), sig(L + 1, 6), str(L + 1)) if exercises.read(f).value != L}:
        verdict = exercises.judge(q, near)
        assert not verdict.right, near
    rounded = exercises.judge(q, sig(L, exercises.DIGITS))
    if exercises.read(sig(L, exercises.DIGITS)).value != L:
        assert rounded.reason == "digits" and rounded.message == exercises.EXACT_MESSAGE
    assert "정확히" in q.ask and "유효숫자" not in q.ask
    exact = [o for page in chapter_sets(course).values() for o in page.questions if o.exact]
    assert {"3주-3", "③-1"} <= {o.key for o in exact}   # the counts: elements that fit, Byte of the small example's traffic
    for other in exact:
        assert other.in_unit.denominator == 1 and "정확히" in other.ask and "유효숫자" not in other.ask, other.key
        assert other.unit.name in ("원소", "Byte"), other.key   # a count: elements, or Byte of a small example


def test_the_tiling_question_says_c_is_written_once(course):
    """③-1 counts C's one write in Q, and says so, as ①-1 does (content review 4, finding 9)."""
    q = w4_3_tiling.exercises(course.week4).questions[0]
    assert q.key == "③-1" and "C는 한 번 쓴다" in q.text
    assert "C는 한 번 쓴다" in w4_1_intensity.exercises(course.week4).questions[0].text


# ---------------------------------------------------------------- the common mistakes

MISTAKES_WANTED = 40     # the issue's target: at least 40 (question, kind) over the course


def test_every_mistake_is_named_by_its_kind_in_python_and_in_the_page_data(course):
    from roofline.show.mistakes import KINDS

    for label, make in PAGES.items():
        ex = make(course)
        data = ex.data()
        for q in ex.questions:
            item = data["questions"][q.key]
            assert len(item.get("mistakes", [])) == len(q.mistakes), (label, q.key)
            for m, (typed, kind), coded in zip(q.mistakes, mistake_vectors(q), item.get("mistakes", [])):
                assert all(k in KINDS for k in m.kinds) and m.hint and m.hint.endswith("."), (label, q.key, m)
                verdict = exercises.judge(q, typed)
                assert (verdict.reason, verdict.mistake) == ("mistake", kind), (label, q.key, typed, verdict)
                assert verdict.message == exercises.mistake_message(m, q)
                if q.is_choice:        # what the answer rests on, then every mistake that leads there
                    assert verdict.message.startswith(f"다시. 답을 정하는 기준: {q.hint}.")
                    assert all(KINDS[k] in verdict.message for k in m.kinds)
                else:
                    assert verdict.message == f"다시: {m.name}. {m.hint}"
                    assert all(KINDS[k] in verdict.message for k in m.kinds)
                assert "\n" not in verdict.message
                assert data["mistakes"][coded[0]] == [kind, verdict.message], (label, q.key)
                if q.is_choice:
                    assert coded[1] == m.value and m.value in dict(q.choices)
                else:
                    assert Fraction(int(coded[1]), int(coded[2])) == Fraction(m.value) / q.unit.size, (label, q.key)


def test_the_right_answer_is_never_named_as_a_mistake(course):
    for label, make in PAGES.items():
        for q in make(course).questions:
            assert all(m.value != q.value for m in q.mistakes), (label, q.key)
            values = [m.value for m in q.mistakes]
            assert len(set(values)) == len(values), (label, q.key, "two mistakes give the same value, not joined")
            if q.is_choice:
                assert exercises.judge(q, q.value).right
                continue
            exactly = {Fraction(m.value) / q.unit.size for m in q.mistakes}
            elsewhere = {Fraction(q.value) / other.size for other in exercises.others(q.unit)}
            for digits in (exercises.DIGITS,) + exercises.FEWER:
                for k in {12, exercises.DIGITS, digits, digits - 1}:
                    typed = str(q.in_unit) if q.exact and k == 12 else sig(q.in_unit, k)
                    verdict = exercises.judge(q, typed, digits)
                    shown = max(n for n, _ in exercises.read(typed).readings)   # its digits as written (1.00: 3)
                    if exercises.read(typed).value == q.in_unit or (shown >= digits and not q.exact):
                        assert verdict.right, (label, q.key, typed, digits, verdict)
                    elif exercises.read(typed).value in exactly:   # a round number a mistake gives is that mistake
                        assert verdict.reason == "mistake", (label, q.key, typed, digits, verdict)
                    elif exercises.read(typed).value in elsewhere:   # … or the answer in another unit (1 GiB)
                        assert verdict.reason == "unit", (label, q.key, typed, digits, verdict)
                    else:
                        assert verdict.reason == "digits", (label, q.key, typed, digits, verdict)


def test_an_integer_mistake_that_reads_as_the_answer_cut_off_is_left_out():
    """1,200 typed for an integer answer of 1,234 is the answer to its last digit ("digits": write every digit), so a
    mistake that gives exactly 1,200 could never be named: it is left out; one that gives 617 is kept and named."""
    from roofline.show.mistakes import Mistake

    q = exercises.Question("예-2", "시험", Fraction(1234), exercises.UNITS["원소"], "식", exact=True,
                           mistakes=(Mistake("c-write", Fraction(1200), "잘린 값."), Mistake("fma-one", Fraction(617), "절반.")))
    assert [m.kind for m in q.mistakes] == ["fma-one"]
    assert exercises.judge(q, "1200").reason == "digits" and exercises.judge(q, "617").mistake == "fma-one"


def test_a_mistake_that_gives_the_right_answer_is_left_out_and_equal_ones_are_named_together():
    from roofline.show.mistakes import Mistake

    right = Fraction(3, 2)
    q = exercises.Question("예-1", "시험", right, exercises.UNITS["ms"], "식",
                           mistakes=(Mistake("c-write", right, "같은 값."), Mistake("fma-one", right / 2, "절반."),
                                     Mistake("c-read", right / 2, "같은 절반.")))
    assert [m.kind for m in q.mistakes] == ["fma-one+c-read"]   # the right one left out, two equal ones joined
    named = exercises.judge(q, sig(right / 2 * 1000, 4))
    assert named.mistake == "fma-one+c-read" and "두 실수" in named.message
    assert "(1) FMA(곱셈·덧셈)를 연산 하나로 셌다. 절반. (2) C를 읽기까지 셌다. 같은 절반." in named.message
    assert exercises.judge(q, sig(right * 1000, 4)).right


def test_at_least_forty_mistakes_are_named_over_the_course(course):
    named = {(label, q.key, m.kind) for label, make in PAGES.items() for q in make(course).questions for m in q.mistakes}
    print(f"\nnamed mistakes: {len(named)} (question, kind) over {len(PAGES)} pages")
    assert len(named) >= MISTAKES_WANTED
    bare = [(label, q.key) for label, make in PAGES.items() for q in make(course).questions
            if not q.is_choice and not q.mistakes]
    assert bare == [], f"numeric exercises naming no mistake: {bare}"     # every numeric exercise names some
