# daide-mcts — set-up, tests, the main job.  Every target sets up what it needs.
# `make help` lists the targets.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# One stamp per install set: `make game` installs the core and the charts only;
# `make setup` (and so `make test`) adds every other extra to the same environment.
VENV_STAMP := $(VENV)/.created
GAME_STAMP := $(VENV)/.installed-game
FULL_STAMP := $(VENV)/.installed-all
MUTATION_STAMP := $(VENV)/.installed-mutation
PARLANCE_STAMP := .local/parlance/site/.installed-1.4.1-1.4.1-1.4.1
MOSQUITTO_STAMP := .local/mosquitto/.installed
CHROMIUM_STAMP := .local/chromium/.installed
GAME_EXTRAS := charts
ALL_EXTRAS := test,view,charts,mapgen,cluster,ratings,mila

# The compiled extensions (Cython, setup.py) are rebuilt when their sources change: the .pyx
# files (and adjudicator/per_map.py, compiled in Cython's pure Python mode), and the .pxd files
# and C headers they are built with (adjudicator/compiled_sources.py).
SOURCES := pyproject.toml setup.py adjudicator/compiled_sources.py adjudicator/per_map.py \
	adjudicator/per_map.pxd adjudicator/_phaserules.pxd adjudicator/_fastmove.pyx \
	adjudicator/_movetables.pyx adjudicator/_movetables.pxd adjudicator/_resolver.pyx \
	adjudicator/_resolver.pxd adjudicator/_moveorders.pyx adjudicator/_moveorders.pxd \
	adjudicator/_fastlegal.pyx search/_maptables.pyx \
	search/_maptables.pxd search/_draws.pyx search/_draws.pxd search/_valuation.pyx \
	search/_valuation.pxd search/_dumbbot.pyx search/_dumbbot.pxd search/_policy.pyx \
	search/_policy.pxd search/_rollout.pyx search/_rollout.pxd search/_fastbot.pyx search/_fastbot.pxd \
	search/_fasttree.pyx search/db_lanes.h search/db_levels.h

.PHONY: help setup docker-engine test game lint bench clean compose pythons mutants

setup: $(FULL_STAMP) $(PARLANCE_STAMP) $(MOSQUITTO_STAMP) $(CHROMIUM_STAMP) docker-engine ## the venv with every extra, Parlance, mosquitto, Chromium and a Docker engine

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z][a-z-]*:.*## / {printf "  make %-8s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

# Docker for games in containers: docker.io, docker-compose and debootstrap installed when
# missing (as root on Debian/Ubuntu), a dockerd started when none answers (data root .local/docker).
docker-engine:
	@PYTHON=$(PYTHON) sh docker/engine.sh

$(VENV_STAMP):
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "daide-mcts needs Python 3.11+ (found %s)" % sys.version.split()[0]'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	touch $(VENV_STAMP)

$(GAME_STAMP): $(VENV_STAMP) $(SOURCES)
	$(BIN)/pip install --quiet -e '.[$(GAME_EXTRAS)]'
	touch $(GAME_STAMP)

# Everything the game has and more, so it counts as the game's install too.
$(FULL_STAMP): $(VENV_STAMP) $(SOURCES)
	$(BIN)/pip install --quiet -e '.[$(ALL_EXTRAS)]'
	touch $(FULL_STAMP) $(GAME_STAMP)

# The mutation tester on top of everything (its own extra: not needed by make test).
$(MUTATION_STAMP): $(FULL_STAMP)
	$(BIN)/pip install --quiet -e '.[$(ALL_EXTRAS),mutation]'
	touch $(MUTATION_STAMP)

$(PARLANCE_STAMP): $(FULL_STAMP)
	$(BIN)/python -m bot.servers.parlance_install

# Debian's mosquitto (the MQTT broker of the telemetry tests), unpacked into .local/mosquitto.
$(MOSQUITTO_STAMP): $(FULL_STAMP)
	$(BIN)/python -m bot.servers.mosquitto

# Debian's Chromium (headless shell) for the viewer's browser tests, unpacked into .local/chromium.
$(CHROMIUM_STAMP): $(FULL_STAMP)
	$(BIN)/python -m bot.servers.chromium

test: setup ## set up everything, then ruff, mypy and the whole test suite
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q

# The game provisions its own server: Parlance (installed on first use), or MILA's
# server when no Python 2.7 can be found (that needs the mila extra), so it needs only
# the packages.
game: $(GAME_STAMP) ## install the core and charts only, then play one local seven-bot game
	$(BIN)/daide-mcts game

lint: setup ## ruff's checks and formatting, mypy's types
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# Every benchmark of `daide-mcts bench`, each with short settings: a smoke run that shows
# the figures' shape in a few minutes.  The figures worth quoting come from longer runs
# on an idle machine (see `daide-mcts bench NAME --help`).
bench: setup ## run every benchmark once with short settings
	$(BIN)/daide-mcts bench protocol --runs 3 --repeat 3
	$(BIN)/daide-mcts bench adjudicator --size 100 --runs 2 --mila-size 20
	$(BIN)/daide-mcts bench search --seconds 1 --repeats 1
	$(BIN)/daide-mcts bench heuristics --calls 50
	$(BIN)/daide-mcts bench telemetry --events 1000 --repeat 2
	$(BIN)/daide-mcts bench cluster --games 2 --runs 1 --big 100

# The package installed (not editable, compiled) on each of Python 3.11, 3.12 and 3.13 found
# (pyenv's or on PATH), one after another, each in its venv in .local/pythons/3.X; the compiled
# paths checked in use and the pure layers' tests that need no server run against it from a copy
# of tests/ outside the source tree (tests/pythons.py).  Some only: make pythons VERSIONS=3.13
pythons: ## install the package and test protocol, adjudicator, search on Python 3.11-3.13
	$(PYTHON) tests/pythons.py $(VERSIONS)

# Mutation testing (tests/mutants.py): each package's mutants against its own fast tests (no
# server, browser or whole game), in mutants/PACKAGE/, then the score per package.  Long (hours
# on 2 cores), so not part of `make test`; a second run tests only what changed, AGAIN=1 the
# survivors after new tests.  Some only, or fewer workers: make mutants PACKAGES=bot/client/core JOBS=1
mutants: $(MUTATION_STAMP) ## mutation testing of bot/client/core, bot/human, adjudicator (long)
	$(BIN)/python tests/mutants.py $(if $(JOBS),--jobs $(JOBS)) $(if $(AGAIN),--again) $(PACKAGES)

clean: ## remove the venv, the local servers, the caches and the mutants' work folders
	rm -rf $(VENV) .local .pytest_cache .ruff_cache mutants

# A seven-bot game in containers (docs/containers.md): builds the images (offline too),
# plays, prints the result table, writes runs/compose-<date>-<time>/ and tears down.
# Settings from the environment or make's command line: make compose FINAL_YEAR=1901 BOT2=random
compose: setup ## play one seven-bot game in containers (settings: FINAL_YEAR, MTL, BOT1..BOT7 ...)
	$(BIN)/python -m bot.local.compose
