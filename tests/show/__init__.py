"""Tests of the presentation, one file per module: tests/show/test_<module>.py tests lib/roofline/show/<module>.py."""
