# The bot: python -m bot (long polling). Data (SQLite by default) lives in the /data volume.
#   docker build -t shengji-guandan-bot .
#   docker run -d --name shengji-bot -e TELEGRAM_BOT_TOKEN=... -v shengji-data:/data shengji-guandan-bot
# See docs/deploy.md (PostgreSQL with docker compose, every environment variable).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
COPY pyproject.toml ./
COPY bot ./bot
COPY engine ./engine
COPY storage ./storage
COPY scheduler ./scheduler
RUN pip install . \
    && rm -rf /src \
    && useradd --create-home --uid 10001 --shell /usr/sbin/nologin bot \
    && mkdir -p /data \
    && chown bot:bot /data

ENV DATABASE_URL=sqlite+aiosqlite:////data/bot.db \
    BOT_LANGUAGE=zh-CN

USER bot
WORKDIR /home/bot
VOLUME ["/data"]

ENTRYPOINT ["python", "-m", "bot"]
