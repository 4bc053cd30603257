"""coursebook — the site's own tooling, not part of the library a student installs.

Sphinx extension (`sphinx_ext`: cache key, Korean search `search_ko`, page descriptions `sitemeta`, interface
words `korean_ui`), the Colab/nbval editions (`editions`, `paramcell`), the PDF (`pdf`) and the command line
`python -m coursebook parameters | figures | notebooks | check`. It works from a checkout of the repository.
"""
