# The daide-mcts bot: one container plays one seat with `daide-mcts play ...`
# (docker-compose.yml runs seven of them against a Parlance container).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY protocol ./protocol
COPY adjudicator ./adjudicator
COPY search ./search
COPY bot ./bot
# gcc compiles the search's hot paths (setup.py: Cython extensions); it leaves again after.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && pip install . \
    && apt-get purge -y --auto-remove gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 1000 bot \
    && mkdir /runs && chown bot /runs

USER bot
ENTRYPOINT ["daide-mcts"]
CMD ["--help"]
