"""roofline — the model of the course "Roofline과 Tiling": pure Python, exact (int / Fraction).

    import roofline as rl
    course = rl.load()                            # course.toml, read once and validated
    w4 = course.week4.with_(N=4096, tiles=[64])   # a chapter's parameter cell, checked the same way
    t = rl.Timing(rl.kernels.matmul_tiled(w4.N, 64, w4.s, w4.s), w4.roofline)
    t.t_ideal                                     # Fraction(2164260864, 250000000000): rounding is presentation's job

Importing it loads neither matplotlib nor IPython (nor NumPy): formatting, Korean words, tables, figures and
glue are in `roofline.show`; the site's tooling is a separate package (tools/coursebook), not installed in Colab.

Each chapter's values, tables, sentences, explorer, exercises and figures are in its page module,
`roofline.show.pages.<chapter file name>`:

| chapter                 | model modules                                   | presentation (roofline.show)             |
| ----------------------- | ----------------------------------------------- | ---------------------------------------- |
| ① 산술 강도             | kernels, params                                 | pages.w4_1_intensity                     |
| ② Roofline              | hardware, cost, problems                        | pages.w4_2_roofline                      |
| ③ Tiling                | kernels, walk, cachesim                         | pages.w4_3_tiling                        |
| ④ 타일 크기             | buffers, kernels, cost, occupancy               | pages.w4_4_tile_size                     |
| ⑤ 행렬곱 손계산         | kernels, problems, buffers, cost                | pages.w4_5_matmul                        |
| 정리, 4주차 안내        | problems, hardware                              | pages.w4_summary, pages.week4_guide      |
| 3주차 Vector Add        | kernels, cost, measure                          | pages.week3_vector_add                   |
| 행렬곱·BLAS·FlashAttention | transformer, gemm, attention, measure        | pages.flashattention, claims             |
"""
from roofline import buffers, kernels, problems
from roofline.cost import COMPUTE, MEMORY, Cost, Timing
from roofline.errors import ParameterError
from roofline.hardware import Preset, Roofline
from roofline.params import Course, load

__all__ = [
    "COMPUTE", "MEMORY", "Cost", "Course", "ParameterError", "Preset", "Roofline", "Timing",
    "buffers", "kernels", "load", "problems",
]
