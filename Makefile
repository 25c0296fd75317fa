# Every target makes .venv itself when it is missing, so a fresh clone needs only `make test`.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: demo test test-pi bench bench-ratios bench-twice lint typecheck clean debian-tools catalogs

# setuptools' "Editable installation" banner is a warning pip passes on even with
# --quiet (make demo's first run showed it): filtered by its message, others still show.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	PYTHONWARNINGS='ignore:Editable installation' $(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

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
# espeak-ng, sox and aplay (speech), mosquitto (the club's broker). Where one cannot be
# installed, tests/tools/debian-packages.sh says so and the tests that need it skip
# with a line saying why. Phony: looking for the programs costs nothing, and one
# removed since is installed again.
DEBIAN_TEST_PROGRAMS := /usr/bin/chromium:chromium espeak-ng:espeak-ng sox:sox \
                        aplay:alsa-utils /usr/sbin/mosquitto:mosquitto \
                        mosquitto_passwd:mosquitto
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

test: $(STAMP) debian-tools
	$(BIN)/ruff check companion tests benchmarks
	$(BIN)/mypy
	$(BIN)/python -m pytest

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
              benchmarks/club_load.py

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
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
