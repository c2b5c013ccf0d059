# Two commands for a newcomer: `make run` (the service and its web chat on SQLite) and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SHARED := $(or $(BWDOCTOR_SHARED_DIR),../shared)

.PHONY: run test lint venv clean

HOST   ?= 127.0.0.1
PORT   ?= 8000

venv: $(VENV)/.installed

# Two stamps: `make run` needs only the runtime; the dev tools (pytest, playwright, mypy…) come
# with `make test`/`make lint`.
$(VENV)/.runtime: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed: $(VENV)/.runtime
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# `make run HOST=0.0.0.0 PORT=8123`; it prints the URL it serves and the database it uses.
run: $(VENV)/.runtime
	$(BIN)/bwdoctor serve --host $(HOST) --port $(PORT)

lint: venv
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/bwdoctor rules lint
	$(BIN)/bwdoctor rules test

test: lint
	$(BIN)/pytest -q
	@# In CI (CI=true, as .ci/run sets it) the acceptance scenarios must run: missing is a failure, not a skip.
	@if [ -x $(SHARED)/tools/check-scenarios ]; then \
	  PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python $(SHARED)/tools/check-scenarios $(SHARED)/scenarios/*.yaml; \
	else case "$${CI:-}" in \
	  ""|0|false|no|off) echo "acceptance scenarios: $(SHARED)/tools/check-scenarios not found, skipped;" \
	    "to enable: put the shared folder beside the checkout (or set BWDOCTOR_SHARED_DIR)";; \
	  *) echo "acceptance scenarios: $(SHARED)/tools/check-scenarios not found, and CI must run them" >&2; exit 1;; \
	esac; fi

clean:
	rm -rf $(VENV) .editable .pytest_cache .ruff_cache
