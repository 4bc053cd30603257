# 두 명령: `make book` (사이트), `make test` (모든 테스트). 나머지는 그 부품이다.
# The interpreter the environment is made from: the system's own /usr/bin/python3 when it is 3.11 or newer (a fresh
# Debian machine's, which Debian builds with profile-guided and link-time optimisation), else the first python3 on PATH.
# A default source build such as pyenv's (first on PATH where it is installed) has neither: on it, `.ci/run` took
# 395 s and 692 CPU-s, on Debian's 353 s and 607 CPU-s (2026-12-07, fresh clones, three interleaved pairs, medians).
# Another one: remove .venv, then `make book PYTHON=python3.12`.
SYSTEM_PYTHON := /usr/bin/python3
PYTHON ?= $(if $(filter True,$(shell $(SYSTEM_PYTHON) -c 'import sys; print(sys.version_info >= (3, 11))' 2>/dev/null)),$(SYSTEM_PYTHON),python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
JB     := $(BIN)/jupyter-book
# uv installs requirements.txt (the same exact pins) in seconds where pip takes minutes; it comes from PyPI at this
# version, with the machine's own pip, into .venv/tools (not into the course's environment).
UV_VERSION := 0.13.9
UV     := $(VENV)/tools/uv-$(UV_VERSION)/bin/uv
# 페이지는 매번 새로 쓴다(실행 결과는 _build/.jupyter_cache에 남아 장을 다시 실행하지 않으므로 몇 초면 된다): Sphinx의
# 증분 빌드는 검색 색인에 지운 낱말을 남기고 용어집 항목을 잃으며, 바뀐 _static 파일을 옮기지 않는다.
BUILD  := rm -rf _build/html _build/.doctrees && $(JB) build . --warningiserror --nitpick --keep-going --quiet

# Python's bytecode caches (__pycache__/, git-ignored) are written even where the environment says not to
# (PYTHONDONTWRITEBYTECODE, which some machines and containers set): `make test` starts some sixty Python processes
# (three workers, the chapter kernels, the builds, the copies' commands), and without the caches each of them compiles
# the library and the tooling again, and each worker rewrites the assertions of every test module (pytest keeps that
# in the same caches): about 6 of the 9 CPU-s a worker takes to collect the tests.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: answer-key grade new-term book test bench parameters figures notebooks editions refresh check serve clean system-deps pdf screenshots upgrade-check lint

$(UV):
	$(PYTHON) -m pip install -q --disable-pip-version-check --no-deps --only-binary=:all: --target $(VENV)/tools/uv-$(UV_VERSION) uv==$(UV_VERSION)

# The environment: a plain venv, then every pin of requirements.txt (and the two local packages, editable) by uv.
# Not compiled to bytecode as it installs (`--compile-bytecode`: 13 CPU-s and 21 s of a fresh clone's 25 s install, for
# every module of every package): Python compiles a module the first time it is imported and keeps it (__pycache__),
# about 3 CPU-s for all that the build, the kernels and the suite import.
# The stamp holds the checkout's path: a copied checkout (`cp -a`, .venv included) has an environment made for another
# path (the editable installs and the scripts' #! lines name the original), so it is made again here, from uv's cache.
ifneq ($(shell cat $(STAMP) 2>/dev/null),$(CURDIR))
.PHONY: $(STAMP)
endif
$(STAMP): requirements.txt pyproject.toml tools/pyproject.toml | $(UV)
	@if [ -f $(STAMP) ] && [ "$$(cat $(STAMP))" != "$(CURDIR)" ]; then \
	  echo ".venv was made for $$(cat $(STAMP) || echo 'another checkout'): made again for $(CURDIR)"; \
	  rm -rf $(VENV)/bin $(VENV)/lib $(VENV)/lib64 $(VENV)/include $(VENV)/pyvenv.cfg; fi
	$(PYTHON) -m venv --without-pip $(VENV)
	$(UV) pip install -q --python $(BIN)/python -r requirements.txt
	echo "$(CURDIR)" > $(STAMP)

# The site's JavaScript tools (ESLint, terser, acorn), exact versions and their whole tree (tools/js/package-lock.json),
# installed by npm into _build/tools/js (not beside package.json: Sphinx would read their README files as pages).
# (ROOFLINE_JS_TOOLS: another checkout's, as a test's copy of this one uses; coursebook.minify reads the same.)
JS_TOOLS := $(or $(ROOFLINE_JS_TOOLS),_build/tools/js)
$(JS_TOOLS)/.installed: tools/js/package.json tools/js/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "apt-get install npm"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; }
	mkdir -p $(JS_TOOLS) && cp tools/js/package.json tools/js/package-lock.json $(JS_TOOLS)/
	cd $(JS_TOOLS) && npm ci --no-audit --no-fund --silent
	touch $@

# Linters, in seconds (first in .ci/run, and the pre-commit hook): ruff (pyflakes and import order, pyproject.toml's
# [tool.ruff]) over the Python, ESLint (tools/js/eslint.config.mjs) over the site's scripts.
lint: $(STAMP) $(JS_TOOLS)/.installed
	$(BIN)/ruff check .
	$(JS_TOOLS)/node_modules/.bin/eslint --config tools/js/eslint.config.mjs _static tools/coursebook tools/js tests

# 사이트: 실행 캐시에 없는 장을 먼저 코어 수만큼 나란히 실행해 캐시에 넣고(빌드는 그 실행을 쓴다), 경고는 오류로 본다.
# 페이지가 만들어진 재료(저장소의 파일, 실행 캐시, 매개변수 파일, 환경)가 지난 빌드 뒤로 그대로이면 다시 빌드하지 않는다
# (`coursebook built`: 재료와 빌드된 파일을 빌드 뒤에 기록해 두고 비교한다). course.toml이 장의 매개변수 셀과 다르면
# (새 학기 값을 넣고 `make refresh`를 잊었으면) 지난 학기 값으로 빌드하지 않고 멈춘다. 한 체크아웃에서 한 번에 하나만
# 돈다(`make book`, `make refresh`, `make editions`: 둘째는 "이미 실행 중: …"으로 멈춘다).
book: $(STAMP) $(JS_TOOLS)/.installed
	@command -v npm >/dev/null 2>&1 || { echo "apt-get install npm (Pyodide for the live mode)"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; }
	$(BIN)/python -m coursebook book --build '$(BUILD)'

# course.toml의 값을 각 장의 매개변수 셀(chapters/*.md)에 써 넣는다.
parameters: $(STAMP)
	$(BIN)/python -m coursebook parameters

# 그림(figures/*.svg)을 라이브러리로 다시 그린다.
figures: $(STAMP)
	$(BIN)/python -m coursebook figures

# Colab·nbval용 .ipynb 판을 각 장 .md 옆에 쓴다: `make editions`와 같다(사이트의 실행에서, 캐시에 없는 장만 실행).
# 판은 빌드의 생성물이다(git이 무시한다, 커밋하지 않는다): `make book`도 페이지보다 먼저 쓰고, 게시 워크플로가
# _config.yml의 `repository.branch`(editions) 가지에 올려 Colab이 거기서 연다.
notebooks: $(STAMP)
	$(BIN)/python -m coursebook notebooks

# 각 장을 한 번만 실행한다(사이트의 실행 캐시에 없을 때만): 사이트도 .ipynb 판도 그 실행에서 나온다.
editions: $(STAMP)
	$(BIN)/python -m coursebook execute --editions

# 강의 매개변수(lib/roofline/course.toml)를 고친 뒤: 매개변수 셀, 그림, 노트북 판, 사이트를 모두 새로 만든다.
# 각 장은 한 번만 실행된다(모두 코어 수만큼 나란히, 그동안 그림을 그린다): 사이트와 노트북 판이 같은 실행을 쓴다.
# 모든 장을 이 값으로 먼저 실행해 보고(몇 초), 안 되는 값이면 키를 밝힌 한 줄로 멈추며 아무 파일도 바꾸지 않는다.
refresh: $(STAMP) $(JS_TOOLS)/.installed
	$(BIN)/python -m coursebook refresh --build '$(BUILD)'

# 테스트에 필요한 Debian 패키지: 브라우저 테스트의 chromium-headless-shell(Chromium의 헤드리스 셸)과 한글 글꼴,
# 독자의 브라우저로 재는 `make bench`·`make pdf`의 chromium, HTML 검사기(vnu-jar, npm)를 돌릴 Java,
# NVIDIA 점유율 계산기를 컴파일할 g++, 그리고 라틴 글자의 글꼴(fonts-liberation: 독자의 Arial·Helvetica와 글자 폭이
# 같다). 없을 때만 설치한다. 추천 패키지(--no-install-recommends: 프린터 설정, avahi, upower, xdg-utils의 Perl 등)는
# 테스트가 쓰지 않는다: 새 머신에서 118개 25 s → 53개 11 s(2026-12-08).
SYSTEM_DEBS := chromium-headless-shell chromium fonts-noto-cjk fonts-liberation default-jre-headless g++
system-deps:
	@if [ ! -x /usr/bin/chromium-headless-shell ] || [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -q "Noto Sans CJK" || ! fc-list 2>/dev/null | grep -q "Liberation Sans" || ! command -v java >/dev/null || ! command -v g++ >/dev/null; then \
	  echo "apt-get install $(SYSTEM_DEBS)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(SYSTEM_DEBS) >/dev/null; \
	fi

# 모든 테스트: 사이트와 .ipynb 판을 새로 빌드하고(경고 = 오류), 라이브러리·빌드된 판(nbval)·그림·본문·브라우저 테스트를 돌린다.
# `coursebook check` first: if a step of `make refresh` was forgotten it names each stale notebook and value (a stale
# figure is named by tests/show/test_figures.py, which draws each figure once for the whole run).
# No test asserts a time: see `make bench`. One worker per CPU, at least two and at most four: with Chromium's
# renderers the suite keeps every core busy from start to end, so a third worker on two cores no longer fills waits
# (2026-12-06, quiet: 3 workers 426 s and 2 workers 424 s of wall; 40 CPU-s less with two, each worker starting its own
# Chromium and shared fixtures), and more than four would hold four Chromiums' memory for little. Which tests go
# together, and in what order, is xdist's loadscope (XDIST, tests/conftest.py): a module per worker, one page's browser
# tests per worker, the heaviest first.
# ROOFLINE_UV: the same uv installs the simulated Colab's packages (tests/flows/test_colab.py), once per machine.
# xdist's public scheduler: a module, an nbval edition, a test class (a page of test_site_browser.py) per worker, handed
# out in the order collected (tests/conftest.py)
WORKERS := $(shell n=$$(nproc 2>/dev/null || echo 2); echo $$(( n < 2 ? 2 : (n > 4 ? 4 : n) )))
XDIST := -n $(WORKERS) --dist loadscope --no-loadscope-reorder
# `make test PAGE=w4_3_tiling`: one page's own tests (tests/pages/test_<page>.py and every test named for the page in
# tests/pages, tests/show, tests/book: its checks, its derivations, its browser checks) and its edition under nbval.
test: $(STAMP) system-deps book
	$(if $(PAGE),$(if $(wildcard chapters/$(PAGE).md),,$(error PAGE=$(PAGE): chapters/$(PAGE).md가 없다)))
	$(BIN)/python -m coursebook check --no-figures
	$(if $(PAGE),,ROOFLINE_UV=$(abspath $(UV)) $(BIN)/python -m pytest tests chapters --nbval --nbval-current-env $(XDIST) --durations=25)
	$(if $(PAGE),ROOFLINE_UV=$(abspath $(UV)) $(BIN)/python -m pytest tests/pages tests/show tests/book chapters/$(PAGE).ipynb -k '$(PAGE)' --nbval --nbval-current-env $(XDIST))

# Figures, never pass/fail: clean build, refresh after a parameter touch, the test suite (wall, CPU), the explorer's and
# the exercise judge's response in Chromium, each page's first-visit bytes, `import roofline`, and Lighthouse's mobile
# profile when `lighthouse` is installed. Medians over a few runs (one run where a run takes minutes); works on a copy
# of the repository, so nothing here changes. `make bench QUICK=1` leaves out the test suite and the clean builds.
bench: $(STAMP) system-deps book
	$(BIN)/python tools/bench/bench.py $(if $(QUICK),--quick)

# 눈으로 볼 스크린샷: 모든 페이지(밝은 모드, 어두운 모드, 390 px)와 탐색기, ④의 실행 모드를 _build/screenshots/에 남긴다
# (브라우저 테스트를 스크린샷과 함께 다시 돌린다. `make test`는 검사에 쓰는 것만 찍는다).
screenshots: $(STAMP) system-deps book
	ROOFLINE_SCREENSHOTS=1 $(BIN)/python -m pytest tests/book/test_site_browser.py tests/book/test_explorer.py \
	  tests/book/test_live_browser.py -q -n $(WORKERS) -p no:cacheprovider

# 무엇이 낡았는지(그림, 노트북 판, 빌드된 사이트: _toc.yml의 모든 페이지와 정적 파일이 온전한지, 빌드 기록이 지금과 맞는지)
# 알려 주고, 고칠 명령을 하나씩 말한다.
check: $(STAMP)
	$(BIN)/python -m coursebook check

# 강사의 답안: 명단(ROSTER=명단.csv, 한 줄에 학번 하나, 첫 줄은 머리글이어도 된다)의 학번마다 모든 장의 연습 문제를
# 그 학생의 페이지가 보이는 변형으로 풀어 $(CLASS)/answer-key.csv에 쓴다(조건, 답, 단위, 정밀도). 사이트(SITE, 기본
# _build/html)가 보이는 학기로만 만들고 그 학기를 밝힌다. 잘못된 명단은 줄을 밝힌 한 줄로 멈춘다.
# 학생의 자료(명단, 답안, 성적)는 저장소 밖 CLASS 폴더에 쓴다.
CLASS ?= $(HOME)/roofline-class
SITE  ?= _build/html
answer-key: $(STAMP)
	@test -n "$(ROSTER)" || { echo "명단을 주자: make answer-key ROSTER=명단.csv" >&2; exit 2; }
	$(BIN)/python -m coursebook answer-key "$(ROSTER)" --out "$(CLASS)/answer-key.csv" --site "$(SITE)"

# 채점: 학생들이 내보낸 진도 CSV(SUBMISSIONS=폴더 또는 LMS가 묶어 준 zip)를 명단(ROSTER)의 학번마다 그 학생의 고정된
# 변형으로 사이트의 판정 함수로 다시 판정해 $(CLASS)/성적.csv(LMS가 읽는 모양)와 문항 보고서(.csv, .html)를 쓴다.
grade: $(STAMP)
	@test -n "$(ROSTER)" -a -n "$(SUBMISSIONS)" || { echo "make grade SUBMISSIONS=폴더_또는.zip ROSTER=명단.csv" >&2; exit 2; }
	$(BIN)/python -m coursebook.grade "$(SUBMISSIONS)" "$(ROSTER)" --out "$(CLASS)" --site "$(SITE)"

# 새 학기를 일부러 시작한다: 라이브러리가 지금 뽑는 변형을 term-lock.json에 고정한다(모든 학생의 문제가 바뀐다).
# course.toml이 그대로인 커밋이 학생의 문제를 바꾸면 `make check`가 페이지를 밝히고 이 명령을 말한다.
new-term: $(STAMP)
	$(BIN)/python -m coursebook new-term

# 강의 전체를 PDF 하나로: 한 페이지짜리 빌드를 headless Chromium으로 인쇄한다 (_build/pdf/roofline-tiling.pdf).
# 장을 다시 실행하지 않는다: 사이트의 실행(_build의 캐시)을 그대로 쓰니, 로컬 사이트와 같은 값이 찍힌다.
pdf: $(STAMP) system-deps $(JS_TOOLS)/.installed
	$(BIN)/python -m coursebook.pdf

# 저자의 미리보기: _build/dev/html에 빌드해 http://127.0.0.1:$(PORT)/ 에 띄우고, 파일을 고치면 그것이 닿는 것만 다시
# 빌드한다(바뀐 장의 글은 그 페이지만, 페이지 모듈은 그것을 import하는 장만 다시 실행). 열린 페이지는 빌드가 끝나면
# 스스로 다시 읽는다. 게시하는 사이트가 아니다(tools/coursebook/serve.py): 게시본은 늘 통째로 새로 짓는 `make book`이다.
PORT ?= 8000
serve: $(STAMP) $(JS_TOOLS)/.installed
	$(BIN)/python -m coursebook.serve --port $(PORT)

clean:
	rm -rf _build

# The newest releases of the direct dependencies, tried in a throwaway venv and folder (never .venv): a table of
# pinned / tried / built / fast tests / what broke. A figure for the maintainer, never a gate (not in `make test`).
upgrade-check: $(STAMP)
	$(BIN)/python tools/upgrade_check.py
