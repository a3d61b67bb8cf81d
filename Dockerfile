# The daide-mcts bot: one container plays one seat with `daide-mcts play ...`
# (docker-compose.yml runs seven of them against a Parlance container).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY protocol ./protocol
COPY adjudicator ./adjudicator
COPY search ./search
COPY bot ./bot
RUN pip install . \
    && useradd --create-home --uid 1000 bot \
    && mkdir /runs && chown bot /runs

USER bot
ENTRYPOINT ["daide-mcts"]
CMD ["--help"]
