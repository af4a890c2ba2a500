FROM python:3.11-slim
# The bot runs as this user, who may write only the database volume (/data) and its heartbeat (/tmp): not the code.
# uid 1000 is the first user of most Linux machines, so a bind-mounted folder of theirs is writable as it is.
RUN useradd --uid 1000 --user-group --create-home --shell /usr/sbin/nologin boardhost
WORKDIR /src
# The build context is only what these lines copy (.dockerignore keeps out the rest: .venv, .git, tests, docs...).
COPY pyproject.toml README.md ./
COPY engine engine
COPY render render
COPY bot bot
RUN pip install --no-cache-dir .
# Run from the installed package (compiled by pip), not from the sources above.
WORKDIR /home/boardhost
# No config file: the documented defaults (config.example.toml) plus these variables, which `docker run -e` can
# change; for any other setting mount a config file and set BOARDHOST_CONFIG to its path. The token comes only
# from DISCORD_TOKEN. The database lives on the /data volume so games survive new images:
#   docker run -d --name boardhost -v boardhost-data:/data -e DISCORD_TOKEN=... boardhost
ENV BOARDHOST_DATABASE=/data/boardhost.sqlite3 \
    BOARDHOST_LANGUAGE=en \
    BOARDHOST_RENDER_PROCESSES=2 \
    BOARDHOST_HEARTBEAT=/tmp/boardhost.heartbeat
# Healthy means connected to Discord's gateway with a database that answers: the bot writes a heartbeat saying so
# every 10 seconds (bot/core/heartbeat.py) and `python -m bot health` reads it; the first minute is for starting.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "health"]
RUN mkdir -p /data && chown boardhost:boardhost /data
USER boardhost
# Declared last: with the classic builder, anything written into a volume after VOLUME is lost.
VOLUME /data
CMD ["python", "-m", "bot"]
