"""Korean for the interface words that the Korean catalogs of Sphinx, pydata-sphinx-theme and
sphinx-book-theme lack (they showed in English: "Skip to main content", "Back to top", …).
The two sidebar buttons whose titles the theme hard-codes are overridden in _templates/.

The words are compiled into gettext catalogs under _build/locale at start-up and added as
fallbacks, so a word those catalogs do translate keeps their translation.
"""
from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

WORDS = {
    "sphinx": {   # Sphinx's and pydata-sphinx-theme's templates
        "Skip to main content": "본문으로 건너뛰기",
        "Back to top": "맨 위로",
        "Color mode": "색 모드",
        "Light": "밝은 모드",
        "Dark": "어두운 모드",
        "System Settings": "시스템 설정 따르기",
        "On this page": "이 페이지의 내용",
        "previous page": "이전 페이지",
        "next page": "다음 페이지",
        "Link to this heading": "이 제목으로 가는 링크",
        "Link to this image": "이 그림으로 가는 링크",
        "Link to this table": "이 표로 가는 링크",
        "Link to this code": "이 코드로 가는 링크",
        "Link to this equation": "이 수식으로 가는 링크",
        "Toggle primary sidebar": "왼쪽 목차 열기/닫기",
        "Toggle secondary sidebar": "오른쪽 목차 열기/닫기",
        "Site navigation": "사이트 목차",
        "Site home": "첫 페이지로",            # the sidebar's logo link (_templates/sidebar-logo.html)
        "Version warning": "버전 안내",
    },
    "booktheme": {   # sphinx-book-theme's buttons
        "Launch interactive content": "실행하기",
        "Launch on": "실행 환경:",
    },
}
SEARCH_BAR_TEXT = "이 책에서 검색…"


def compile_catalogs(folder: Path) -> Path:
    """Write ko/LC_MESSAGES/<domain>.mo for every domain of WORDS under `folder`."""
    messages = folder / "ko" / "LC_MESSAGES"
    messages.mkdir(parents=True, exist_ok=True)
    for domain, words in WORDS.items():
        catalog = Catalog(locale="ko", domain=domain)
        for english, korean in words.items():
            catalog.add(english, korean)
        with open(messages / f"{domain}.mo", "wb") as out:
            write_mo(out, catalog)
    return folder


def search_bar(app, config) -> None:
    options = dict(config.html_theme_options or {})
    options["search_bar_text"] = SEARCH_BAR_TEXT
    config.html_theme_options = options


def setup(app):
    folder = compile_catalogs(Path(app.doctreedir).parent / "locale")
    for domain in WORDS:
        app.add_message_catalog(domain, str(folder))
    app.connect("config-inited", search_bar)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
