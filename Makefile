# Two commands for a newcomer: `make run` (the service and its web chat on SQLite) and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SHARED := $(or $(BWDOCTOR_SHARED_DIR),../shared)

.PHONY: run test lint venv clean

venv: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

run: venv
	$(BIN)/bwdoctor serve

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
	rm -rf $(VENV) .pytest_cache .ruff_cache
