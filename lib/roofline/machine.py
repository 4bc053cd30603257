"""The computer that runs a measurement (3주차 노트, 행렬곱 노트): CPU model, logical cores, and the BLAS
that NumPy calls. Measured numbers are shown with these conditions, read when the page is built."""
from __future__ import annotations

import os
import platform
from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass(frozen=True)
class Machine:
    cpu: str        # CPU model name ("AMD EPYC 7B13", …) or the architecture when the OS does not say
    cores: int      # logical cores the OS reports (os.cpu_count)
    blas: str       # the BLAS NumPy was built with, with its version ("scipy-openblas 0.3.27", …)
    numpy: str      # NumPy's version


def cpu_name(cpuinfo: str | None = None) -> str:
    """The CPU model from /proc/cpuinfo ("model name"), else `platform.processor()`, else the architecture."""
    if cpuinfo is None:
        path = Path("/proc/cpuinfo")
        cpuinfo = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("model name", "Model", "Hardware") and value.strip():
            return " ".join(value.split())
    return platform.processor() or platform.machine() or "알 수 없음"


def blas_name(config: dict | None = None) -> str:
    """NumPy's BLAS as "name version" from `np.show_config(mode="dicts")` (NumPy ≥ 1.26)."""
    if config is None:
        try:
            config = np.show_config(mode="dicts")
        except TypeError:                    # older NumPy: no dict mode
            return "알 수 없음"
    blas = (config or {}).get("Build Dependencies", {}).get("blas", {})
    name, version = blas.get("name", ""), blas.get("version", "")
    return " ".join(part for part in (name, version) if part and part != "unknown") or "알 수 없음"


def describe() -> Machine:
    """This computer, now."""
    return Machine(cpu=cpu_name(), cores=os.cpu_count() or 1, blas=blas_name(), numpy=np.__version__)
