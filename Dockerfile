# The daide-mcts bot: one container plays one seat with `daide-mcts play ...`
# (docker-compose.yml runs seven of them against a Parlance container).
#
# Nothing is fetched inside the build: the wheels of the dependencies (and of the
# build requirements) are made on the host into docker/wheelhouse/ (`make compose`
# does it) and installed with --no-index.  Two stages: the first compiles the
# project (Cython extensions) into a virtual environment, the second copies only
# that environment into the slim image; no source tree sits beside it.
FROM python:3.11 AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

COPY docker/wheelhouse /wheels
RUN python -m venv /opt/venv
COPY pyproject.toml setup.py MANIFEST.in README.md LICENSE /src/
COPY protocol /src/protocol
COPY adjudicator /src/adjudicator
COPY search /src/search
COPY bot /src/bot
RUN /opt/venv/bin/pip install --no-index --find-links /wheels /src \
    && /opt/venv/bin/pip uninstall -y pip \
    && find /opt/venv -name '*.pyx' -delete

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/venv/bin:$PATH

COPY --from=build /opt/venv /opt/venv
RUN useradd --create-home --uid 1000 bot \
    && mkdir /runs && chown bot /runs

USER bot
WORKDIR /home/bot
ENTRYPOINT ["daide-mcts"]
CMD ["--help"]
