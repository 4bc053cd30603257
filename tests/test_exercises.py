"""Not a test module any more: the exercise tests are tests/show/test_exercises.py (the judge and every sheet) and
tests/pages/test_<page>.py. This name stays only because tests/test_exercises_browser.py imports its shared values
from it; they live in tests/exercise_answers.py. Remove this file once that import reads `from exercise_answers`.
"""
from exercise_answers import CONFUSED, PAGES, sig  # noqa: F401
