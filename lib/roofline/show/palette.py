"""The colours of the week-4 cases, shared by the matplotlib figures (`style`) and the page's explorers
(`engine`, which runs in the reader's browser too and so imports no matplotlib)."""
from __future__ import annotations

from roofline.errors import ParameterError

# One colour per week-4 case, shared by every figure that shows the cases (roofline, tiling cache, …):
# index 0 = 재사용 없음, then the tiles in the order of course.toml (T = 32, 64, 128, …).
CASE_COLORS = ["#d62728", "#ff7f0e", "#2ca02c", "#1f77b4", "#9467bd", "#8c564b", "#e377c2"]


def case_color(index: int) -> str:
    """Colour of week-4 case number index (0 = 재사용 없음, 1.. = tiles in order): CASE_COLORS[index]."""
    if not 0 <= index < len(CASE_COLORS):
        raise ParameterError(f"tiles: 그림은 타일 한 변을 {len(CASE_COLORS) - 1}개까지 비교한다 (한 색씩). "
                             f"받은 값: {index}번째 타일")
    return CASE_COLORS[index]
