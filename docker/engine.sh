#!/bin/sh
# `make setup`'s Docker part: the packages a game in containers needs, and a running engine.
#
# * docker.io, docker-compose and debootstrap are installed with apt when missing
#   (as root on Debian/Ubuntu; anywhere else one line says what to install), by
#   `python -m bot.servers.apt install`: package lists that refresh only in part (a mirror
#   mid-sync, a foreign architecture's index) are noted in one line and the install goes on;
#   only a failed install stops it, said in one line;
# * a Docker engine that answers on the default socket is used as it is;
# * otherwise (as root) a dockerd is started with its own data root in .local/docker,
#   its log in .local/dockerd.log, listening on the default socket, so `docker` and
#   `docker compose` / `docker-compose` find it without settings.
# Never fails `make setup`: what cannot be done is said in one line (the compose
# tests then fail with the same reason).
set -u

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
LOCAL="${DAIDE_MCTS_LOCAL:-$ROOT/.local}"
DATA_ROOT="$LOCAL/docker"
LOG="$LOCAL/dockerd.log"
PIDFILE=/var/run/docker.pid
START_WAIT=60

say() { echo "docker: $*"; }

is_root() { [ "$(id -u)" = 0 ]; }

compose_present() {
    command -v docker-compose >/dev/null 2>&1 || docker compose version >/dev/null 2>&1
}

# The project's interpreter if it is set up, else $PYTHON or python3 (the apt step is
# standard library only).
python_cmd() {
    if [ -x "$ROOT/.venv/bin/python" ]; then
        echo "$ROOT/.venv/bin/python"
    else
        echo "${PYTHON:-python3}"
    fi
}

# --- the packages ----------------------------------------------------------------------------
missing=""
command -v dockerd >/dev/null 2>&1 || missing="$missing docker.io"
compose_present || missing="$missing docker-compose"
command -v debootstrap >/dev/null 2>&1 || missing="$missing debootstrap"
if [ -n "$missing" ]; then
    if is_root && command -v apt-get >/dev/null 2>&1; then
        say "installing$missing with apt-get"
        python="$(python_cmd)"
        # One line on standard output if the install fails; notes on standard error.
        if ! reason="$(PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}" \
            "$python" -m bot.servers.apt install $missing)"; then
            say "could not install$missing (games in containers need them): ${reason:-$python did not run}"
            exit 0
        fi
    else
        say "games in containers need$missing: install them (Debian/Ubuntu, as root: apt-get install -y$missing) and rerun make setup"
        exit 0
    fi
fi

# --- the engine ------------------------------------------------------------------------------
# An engine answers: use it, unless its data root has gone (a clone's .local deleted under
# a daemon this script started); such a daemon is stopped (by its pid) and started again.
if docker info >/dev/null 2>&1; then
    root="$(docker info --format '{{.DockerRootDir}}' 2>/dev/null)"
    if [ -d "$root" ]; then
        exit 0
    fi
    pid="$(cat "$PIDFILE" 2>/dev/null || true)"
    if is_root && [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null \
        | grep -q -- "--data-root $root "; then
        say "the running engine's data root $root is gone: restarting it (pid $pid)"
        kill "$pid"
        i=0
        while kill -0 "$pid" 2>/dev/null && [ $i -lt $START_WAIT ]; do sleep 1; i=$((i + 1)); done
    else
        say "the running Docker engine's data root $root is gone: restart that engine"
        exit 0
    fi
fi

if ! is_root; then
    say "no Docker engine answers and only root can start one: start dockerd (or join the docker group) and rerun make setup"
    exit 0
fi

mkdir -p "$DATA_ROOT"
say "starting dockerd (data root $DATA_ROOT, log $LOG)"
nohup dockerd --data-root "$DATA_ROOT" --pidfile "$PIDFILE" >"$LOG" 2>&1 </dev/null &
i=0
until docker info >/dev/null 2>&1; do
    i=$((i + 1))
    if [ $i -ge $START_WAIT ]; then
        say "dockerd did not answer within ${START_WAIT}s; see $LOG"
        exit 0
    fi
    sleep 1
done
say "engine ready: $(docker version --format '{{.Server.Version}}' 2>/dev/null)"
