# Hall of Thoth: `make run` serves the app, `make test` runs every check. Both set up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
LANGS := uk ru be cs hy
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: run serve test setup check lint messages translations-check pytest clean

# setup.py builds the engine's C kernel (blackjack/maths/kernel.c) in place: a changed kernel
# installs again.  Without a C compiler the install goes on and the engine computes in numpy.
$(VENV)/.installed: pyproject.toml setup.py blackjack/maths/kernel.c
	@$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 11), "Python 3.11 is needed"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@touch $@

setup: $(VENV)/.installed
	$(PY) manage.py translations compile
	$(PY) manage.py migrate --noinput --verbosity 0
	$(PY) manage.py bootstrap

# The web server and one task worker (the charts of new rule sets), both under honcho:
# Ctrl-C ends both. Procfile.dev names the processes; the Procfile is a deployment's.
HONCHO = PATH="$(abspath $(BIN)):$$PATH" $(BIN)/honcho -f Procfile.dev
run: setup
	$(HONCHO) start web worker

# Production settings under gunicorn on loopback, over plain HTTP (DJANGO_HTTPS=false): to try
# what a deployment runs. A deployment itself: the Procfile and README's "Running in production".
SERVE_BIND ?= 127.0.0.1:8001
SERVE_WORKERS ?= 2
SERVE_ENV = DJANGO_SETTINGS_MODULE=config.settings.prod DJANGO_HTTPS=false \
	DJANGO_SECRET_KEY="$${DJANGO_SECRET_KEY:-$$(cat var/serve-secret-key)}"
serve: setup
	@mkdir -p var; test -s var/serve-secret-key || $(PY) -c 'import secrets; print(secrets.token_urlsafe(50))' > var/serve-secret-key
	$(SERVE_ENV) $(PY) manage.py collectstatic --noinput --verbosity 0
	$(SERVE_ENV) $(PY) manage.py check --deploy --fail-level ERROR
	$(SERVE_ENV) SERVE_BIND=$(SERVE_BIND) SERVE_WORKERS=$(SERVE_WORKERS) $(HONCHO) start serve worker

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

translations-check: $(VENV)/.installed
	$(PY) manage.py translations check
	@command -v msgfmt >/dev/null || exit 0; status=0; for lang in $(LANGS); do \
	  po=locale/$$lang/LC_MESSAGES/django.po; \
	  stats=$$(msgfmt --check --statistics -o /dev/null $$po 2>&1) || status=1; \
	  echo "$$lang: $$stats"; \
	  case "$$stats" in *untranslated*|*fuzzy*) status=1;; esac; \
	done; exit $$status

check: setup lint translations-check
	$(PY) manage.py makemigrations --check --dry-run --verbosity 1

pytest: setup
	$(BIN)/pytest -m "not slow"

test: check pytest

# Regenerate the catalogues after changing translatable text; then translate the new entries.
messages: $(VENV)/.installed
	$(PY) manage.py makemessages --no-obsolete --ignore '.venv/*' --ignore 'staticfiles/*' --ignore 'tests/*' $(foreach l,$(LANGS),-l $(l))

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles test-artifacts
