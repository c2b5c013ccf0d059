# Two commands for a newcomer: `make run` (the service and its web chat on SQLite) and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SHARED := ../shared

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
	$(BIN)/bwdoctor rules lint
	$(BIN)/bwdoctor rules test

test: lint
	$(BIN)/pytest -q
	@if [ -x $(SHARED)/tools/check-scenarios ]; then \
	  PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python $(SHARED)/tools/check-scenarios $(SHARED)/scenarios/*.yaml; \
	else echo "acceptance scenarios: $(SHARED)/tools/check-scenarios not found, skipped"; fi

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
