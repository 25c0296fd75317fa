# Every target makes .venv itself when it is missing, so a fresh clone needs only `make test`.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: demo test test-latest lock test-pi bench bench-ratios bench-twice lint typecheck clean debian-tools catalogs

# The versions make test and make demo install are locked (issue 30): requirements/dev.lock
# pins every package of the dev extra (and pip itself) with its hashes, made from
# pyproject.toml's ranges by `make lock`, so a new release of anything cannot break a
# fresh clone. pip installs only what the lock names, checked by hash; then the project
# itself, editable, without its dependencies and with the locked setuptools (no build
# isolation: that would fetch the newest setuptools). The ranges in pyproject.toml stay
# what a Pi's install (systemd/install.sh) resolves; `make test-latest` tries the newest.
# setuptools' "Editable installation" banner is a warning pip passes on even with
# --quiet (make demo's first run showed it): filtered by its message, others still show.
LOCK := requirements/dev.lock
$(STAMP): pyproject.toml $(LOCK)
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK)
	PYTHONWARNINGS='ignore:Editable installation' $(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $(STAMP)

# Refreshes the lock from pyproject.toml's ranges (and requirements/installer.in: pip),
# for every platform the tests run on (--universal: the Pi's aarch64 too) and Python 3.11
# up. The tool is uv's `pip compile` at a pinned version, installed into .venv. Commit the
# lock with the change that needed it; `make test` then installs it.
UV := uv==0.13.9
lock: $(STAMP)
	$(BIN)/python -m pip install --quiet '$(UV)'
	$(BIN)/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes \
		--extra dev -o $(LOCK) pyproject.toml requirements/installer.in

# The tests against the newest versions pyproject.toml's ranges allow, in a venv of their
# own (.venv-latest, made anew each time): how a break from a new release is found on
# purpose, by whoever runs this, and not by CI by surprise. When it passes, `make lock`
# takes the new versions in.
LATEST := .venv-latest
test-latest: debian-tools
	rm -rf $(LATEST)
	$(PY) -m venv $(LATEST)
	$(LATEST)/bin/python -m pip install --quiet --upgrade pip
	PYTHONWARNINGS='ignore:Editable installation' $(LATEST)/bin/python -m pip install --quiet \
		--upgrade --upgrade-strategy eager -e '.[dev]'
	$(LATEST)/bin/python -m pip list --format=freeze > $(LATEST)/versions.txt
	$(call run-tests,$(LATEST)/bin)

# With a terminal: the companion itself (off a Pi: the OLED drawn in the terminal, keys
# for the buttons). Without one (CI, a pipe): a scripted whole game through the mock
# pins, its frames written as PNG files into frames/.
demo: $(STAMP)
	@if [ -t 0 ] && [ -t 1 ]; then \
		$(BIN)/companion run; \
	else \
		$(BIN)/companion demo --frames frames; \
	fi

# The Debian programs the tests drive, installed when missing and apt-get can be used
# (root), in one apt-get call: Chromium (the end-to-end test of `companion web`),
# espeak-ng, sox and aplay (speech), mosquitto (the club's broker), tmux (the terminal
# OLED), systemd-analyze (the units' checks), openssl (the club's TLS certificates) and ip
# (tests/club/test_club_doc.py's private network). Where one cannot be
# installed, tests/tools/debian-packages.sh says so and the tests that need it skip
# with a line saying why. Phony: looking for the programs costs nothing, and one
# removed since is installed again.
DEBIAN_TEST_PROGRAMS := /usr/bin/chromium:chromium espeak-ng:espeak-ng sox:sox \
                        aplay:alsa-utils /usr/sbin/mosquitto:mosquitto \
                        mosquitto_passwd:mosquitto tmux:tmux \
                        systemd-analyze:systemd openssl:openssl ip:iproute2
debian-tools:
	@bash tests/tools/debian-packages.sh $(DEBIAN_TEST_PROGRAMS)

# The message catalogues (companion/i18n.py): the words of the code and of the bundled
# deck file extracted with Babel (babel.cfg) into a template outside the tree, each
# language's .po brought up to date with it (new words untranslated, no fuzzy guesses),
# then compiled to the .mo the box loads. A new language: copy de's .po to
# companion/locale/<code>/LC_MESSAGES/, translate it, run this.
POT := $(VENV)/companion.pot
catalogs: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg --no-location --sort-output \
		--project=board-companion -c TRANSLATORS: -o $(POT) companion
	$(BIN)/pybabel -q update -i $(POT) -d companion/locale -D companion \
		--no-fuzzy-matching --ignore-obsolete --ignore-pot-creation-date
	$(BIN)/pybabel compile --statistics -d companion/locale -D companion

# The lint, the type check and every test, with the programs of the venv $(1). pytest
# names each skipped test and why (-rs) and the 15 slowest (--durations, in pyproject.toml),
# on every core (pytest-xdist, -n auto): pytest took 8:34 on 2 idle cores at dc4fe3e (make test 9:07 with its set-up), under the 10-minute aim.
define run-tests
	$(1)/ruff check companion tests benchmarks
	$(1)/mypy
	$(1)/python -m pytest -n auto
endef

test: $(STAMP) debian-tools
	$(call run-tests,$(BIN))

# The install on a Pi-like machine: an arm64 Debian bookworm root under qemu-user
# (built once, then reused from /var/cache/board-companion), systemd/install.sh into a
# fake Pi 5 and Pi 4, `companion doctor`, a demo game per game compared byte for byte
# with this machine's frames, and the device tests with the arm64 Python. Needs root;
# installs mmdebstrap, qemu-user-static, binfmt-support and arch-test with apt-get when
# missing; where arm64 programs cannot run it says why in one line and passes.
# What it proves and what it does not: systemd/README.md.
test-pi: $(STAMP)
	COMPANION=$(CURDIR)/$(BIN)/companion bash tests/pi/run.sh

# Every benchmark script that exists in this checkout, one after the other (the full
# figures; each also takes --quick, a few seconds, which tests/test_benchmarks_quick.py
# runs). How they measure and how to read them: benchmarks/README.md.
BENCHMARKS := benchmarks/rules_throughput.py benchmarks/service_latency.py \
              benchmarks/shaker_link_throughput.py benchmarks/oled_frame_cost.py \
              benchmarks/board_picture_cost.py benchmarks/ai_strength.py \
              benchmarks/web_footprint.py benchmarks/start_time.py \
              benchmarks/calibration.py benchmarks/review_speed.py benchmarks/gc_pauses.py \
              benchmarks/senet_sticks_playouts.py benchmarks/labyrinth_playouts.py \
              benchmarks/cretan_playouts.py benchmarks/speech_latency.py \
              benchmarks/club_load.py benchmarks/vision.py benchmarks/magic_key.py

bench: $(STAMP)
	@for script in $(BENCHMARKS); do \
		if [ -f "$$script" ]; then \
			echo "== $$script"; $(BIN)/python "$$script" || exit 1; \
		fi; \
	done

# The benchmarks whose figures are timing ratios to a floor (the rest count games,
# score chances or time a broker: ai_strength, calibration, review_speed, club_load and
# the playouts), which issue 25 asks to agree within 15% from one run to the next.
# `make bench-twice` runs them twice, one run after the other, into $(VENV)/bench-1.log
# and bench-2.log, and pairs every ratio with benchmarks/compare_runs.py (exit 1 when
# one moved by more; about 13 minutes on two busy cores: benchmarks/README.md).
RATIO_BENCHMARKS := benchmarks/rules_throughput.py benchmarks/service_latency.py \
                    benchmarks/shaker_link_throughput.py benchmarks/oled_frame_cost.py \
                    benchmarks/board_picture_cost.py benchmarks/web_footprint.py \
                    benchmarks/start_time.py benchmarks/gc_pauses.py \
                    benchmarks/speech_latency.py

bench-ratios: $(STAMP)
	@for script in $(RATIO_BENCHMARKS); do \
		echo "== $$script"; $(BIN)/python "$$script" || exit 1; \
	done
	@echo "== benchmarks/ai_strength.py"; $(BIN)/python benchmarks/ai_strength.py --part time

bench-twice: $(STAMP)
	$(MAKE) --no-print-directory bench-ratios > $(VENV)/bench-1.log
	$(MAKE) --no-print-directory bench-ratios > $(VENV)/bench-2.log
	$(BIN)/python benchmarks/compare_runs.py $(VENV)/bench-1.log $(VENV)/bench-2.log

clean:
	rm -rf $(VENV) $(LATEST) .pytest_cache .mypy_cache .ruff_cache
