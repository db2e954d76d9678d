# The bot: python -m bot (long polling). Data (SQLite by default) lives in the /data volume.
#   docker build -t shengji-guandan-bot .
#   docker run -d --name shengji-bot -e TELEGRAM_BOT_TOKEN=... -v shengji-data:/data shengji-guandan-bot
# With PostgreSQL: docker compose up -d --build (compose.yaml). See docs/deploy.md.
#
# Layers: the dependencies are installed from pyproject.toml alone, before any source is copied, so a
# code change rebuilds only the last layers; the base image is an exact Python release.
FROM python:3.11.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src

# 1. Dependencies: the [project] dependencies of pyproject.toml (cached until pyproject.toml changes).
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install --no-cache-dir -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# 2. The user the bot runs as, and its data folder.
RUN useradd --create-home --uid 10001 --user-group --shell /usr/sbin/nologin bot \
    && mkdir -p /data \
    && chown 10001:10001 /data

# 3. The project itself (no dependency is fetched again).
COPY bot ./bot
COPY engine ./engine
COPY storage ./storage
COPY scheduler ./scheduler
RUN pip install --no-cache-dir --no-deps . \
    && rm -rf /src

ENV DATABASE_URL=sqlite+aiosqlite:////data/bot.db \
    BOT_LANGUAGE=zh-CN \
    BOT_HEARTBEAT_FILE=/tmp/bot.heartbeat

USER 10001:10001
WORKDIR /home/bot
VOLUME ["/data"]

# Healthy while the bot's event loop writes its heartbeat (every 30 s) and the database answers.
HEALTHCHECK --interval=30s --timeout=15s --start-period=60s --retries=3 CMD ["python", "-m", "bot.boot.health"]

ENTRYPOINT ["python", "-m", "bot"]
