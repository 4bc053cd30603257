# 두 명령: `make book` (사이트), `make test` (모든 테스트). 나머지는 그 부품이다.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JB     := $(BIN)/jupyter-book

.PHONY: book test figures notebooks refresh check serve clean

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

# 사이트: 모든 장을 빌드 중에 실행하고, 경고는 오류로 본다.
book: $(STAMP)
	$(JB) build . --warningiserror --nitpick --keep-going --quiet

# 그림(figures/*.svg)을 라이브러리로 다시 그린다.
figures: $(STAMP)
	$(BIN)/python -m roofline figures

# 각 장 .md를 실행해 Colab·nbval용 .ipynb 판을 옆에 쓴다.
notebooks: $(STAMP)
	$(BIN)/python -m roofline notebooks

# 강의 매개변수(lib/roofline/course.toml)를 고친 뒤: 그림, 노트북 판, 사이트를 모두 새로 만든다.
refresh: figures notebooks book

test: $(STAMP)
	$(BIN)/python -m pytest

serve: book
	$(BIN)/python -m http.server -d _build/html 8000

clean:
	rm -rf _build
