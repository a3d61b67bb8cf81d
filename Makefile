# daide-mcts — set-up, tests, the main job.  Every target sets up what it needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PARLANCE_STAMP := .local/parlance/site/.installed-1.4.1-1.4.1
MOSQUITTO_STAMP := .local/mosquitto/.installed
CHROMIUM_STAMP := .local/chromium/.installed
EXTRAS := test,view,charts,mapgen,cluster,ratings

.PHONY: setup docker-engine test game lint bench clean compose

setup: $(STAMP) $(PARLANCE_STAMP) $(MOSQUITTO_STAMP) $(CHROMIUM_STAMP) docker-engine

# Docker for games in containers: docker.io, docker-compose and debootstrap installed when
# missing (as root on Debian/Ubuntu), a dockerd started when none answers (data root .local/docker).
docker-engine:
	@sh docker/engine.sh

# The compiled extensions (Cython, setup.py) are rebuilt when their sources change.
$(STAMP): pyproject.toml setup.py adjudicator/_fastmove.pyx search/_fastbot.pyx
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "daide-mcts needs Python 3.11+ (found %s)" % sys.version.split()[0]'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)

$(PARLANCE_STAMP): $(STAMP)
	$(BIN)/python -m bot.servers.parlance

# Debian's mosquitto (the MQTT broker of the telemetry tests), unpacked into .local/mosquitto.
$(MOSQUITTO_STAMP): $(STAMP)
	$(BIN)/python -m bot.servers.mosquitto

# Debian's Chromium (headless shell) for the viewer's browser tests, unpacked into .local/chromium.
$(CHROMIUM_STAMP): $(STAMP)
	$(BIN)/python -m bot.servers.chromium

test: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -q

# The game provisions its own server: Parlance (installed on first use), or MILA's
# server when no Python 2.7 can be found, so it needs only the packages.
game: $(STAMP)
	$(BIN)/daide-mcts game

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) .local .pytest_cache .ruff_cache

# A seven-bot game in containers (docs/containers.md): builds the images (offline too),
# plays, prints the result table, writes runs/compose-<date>-<time>/ and tears down.
# Settings from the environment or make's command line: make compose FINAL_YEAR=1901 BOT2=random
compose: setup
	$(BIN)/python -m bot.local.compose
