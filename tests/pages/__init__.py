"""Tests of the pages, one file per page: tests/pages/test_<page>.py tests lib/roofline/show/pages/<page>.py and
chapters/<page>.md."""
