# The bot in a container: one container per shard range (README "Running at scale").
#   docker build -t troika-table .
#   docker run -d --env-file .env -e SHARD_IDS=0-3 -v troika-data:/app/data troika-table
# Dependencies come from requirements.lock only, every file checked against its sha256; the
# project itself runs from its source folder (no build step, so nothing unpinned is fetched).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The bot runs as this user, never as root; it owns only data/ (the SQLite database and its
# backups when no DATABASE_URL is given).
RUN useradd --system --create-home --home-dir /home/troika --uid 10001 troika

WORKDIR /app
COPY requirements.lock ./
RUN pip install --require-hashes --no-deps -r requirements.lock

COPY engine/ engine/
COPY bot/ bot/
COPY cogs/ cogs/
# The catalogs compiled once here (the bot user cannot write bot/locale; the bot would else
# compile them in memory at every start).
RUN python -m bot.i18n compile
RUN mkdir data && chown troika:troika data

USER troika
VOLUME ["/app/data"]
# /healthz and /metrics when METRICS_PORT=9100 (and METRICS_HOST=0.0.0.0, to reach them from
# outside the container).
EXPOSE 9100
ENTRYPOINT ["python", "-m", "bot"]
