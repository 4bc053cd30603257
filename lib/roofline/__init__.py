"""roofline — the course library of "Roofline과 Tiling".

Every number, table and figure of the course site is computed here, exactly (int / Fraction),
from the parameters in `course.toml`:

    import roofline as rl
    course = rl.load()                      # parameters, validated
    cost = rl.kernels.matmul_tiled(4096, 64)
    t = rl.Timing(cost, course.week4.hardware)
    rl.fmt.ms(t.t_ideal)                    # "8.657043"
"""
from . import buffers, fmt, kernels, problems, style, tables
from .cost import COMPUTE, MEMORY, Cost, Timing, timing
from .glue import glue
from .hardware import Preset, Roofline
from .params import Course, load

__all__ = [
    "COMPUTE", "MEMORY", "Cost", "Course", "Preset", "Roofline", "Timing",
    "buffers", "fmt", "glue", "kernels", "load", "problems", "style", "tables", "timing",
]
