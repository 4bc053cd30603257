"""roofline.machine: the description of the machine a measurement ran on (CPU name, BLAS library).
"""
from __future__ import annotations


def test_machine_description_reads_cpu_and_blas():
    from roofline import machine
    assert machine.cpu_name("processor : 0\nmodel name\t: AMD EPYC 7B13 64-Core Processor\n") == \
        "AMD EPYC 7B13 64-Core Processor"
    assert machine.blas_name({"Build Dependencies": {"blas": {"name": "scipy-openblas", "version": "0.3.27"}}}) == \
        "scipy-openblas 0.3.27"
    assert machine.blas_name({}) == "알 수 없음"
    here = machine.describe()
    assert here.cores >= 1 and here.cpu and here.numpy == __import__("numpy").__version__
