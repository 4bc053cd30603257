"""Tests of the model, one file per module: tests/model/test_<module>.py tests lib/roofline/<module>.py."""
