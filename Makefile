# Riverboat — the two commands of the README are `make run` and `make test`.
# Both bootstrap their own virtual environment in .venv (re-installing only when pyproject.toml changes).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest replay-all bench clean corpus protocol-doc

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	@touch $(STAMP)

# extra options for riverboat serve: make run ARGS="--port 8080"
ARGS ?=

run: $(STAMP)
	$(BIN)/riverboat serve $(ARGS)

test: $(STAMP) lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -n 2 -q

# docs/protocol.md's frame schema, regenerated from the protocol models (tests/server/test_server_protocol_doc.py
# fails when it is stale; the OpenAPI document needs no step: /openapi.json is built from the routes)
protocol-doc: $(STAMP)
	$(BIN)/python -m riverboat.server.protocol_doc

# The PHH corpus (the public PHH dataset, uoftcprg/phh-dataset) at a pinned commit, into corpus/phh (issue #32).
# The corpus tests read $$RIVERBOAT_PHH_DIR, else ../shared/phh when it exists, else corpus/phh; without any of
# them they skip and say to run `make corpus`.
PHH_REPO ?= https://github.com/uoftcprg/phh-dataset.git
PHH_COMMIT ?= a82bb6d545fecbeb9984238cfdd09d77f9881cd0
CORPUS := corpus/phh
PHH_DIR ?= $(or $(RIVERBOAT_PHH_DIR),$(if $(wildcard ../shared/phh),../shared/phh,$(CORPUS)))

corpus:
	@test -d $(CORPUS) && echo "$(CORPUS) is there (rm -rf corpus to fetch it again)" || { \
	  rm -rf corpus/.phh-dataset && mkdir -p corpus && \
	  git init -q corpus/.phh-dataset && \
	  git -C corpus/.phh-dataset fetch -q --depth 1 $(PHH_REPO) $(PHH_COMMIT) && \
	  git -C corpus/.phh-dataset checkout -q FETCH_HEAD && \
	  mv corpus/.phh-dataset/data $(CORPUS) && rm -rf corpus/.phh-dataset && \
	  echo "PHH dataset $(PHH_COMMIT) in $(CORPUS)"; }

replay-all: $(STAMP)
	$(BIN)/riverboat replay --summary $(PHH_DIR)

bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[bench]'
	$(BIN)/python bench/evaluators.py
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
