FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine engine
COPY render render
COPY bot bot
RUN pip install --no-cache-dir .
# No config file: the documented defaults (config.example.toml) plus these variables, which `docker run -e` can
# change; for any other setting mount a config file and set BOARDHOST_CONFIG to its path. The token comes only
# from DISCORD_TOKEN. The database lives on the /data volume so games survive new images:
#   docker run -v boardhost-data:/data -e DISCORD_TOKEN=... boardhost
ENV BOARDHOST_DATABASE=/data/boardhost.sqlite3 \
    BOARDHOST_LANGUAGE=en \
    BOARDHOST_RENDER_PROCESSES=2
RUN mkdir -p /data
# Declared last: with the classic builder, anything written into a volume after VOLUME is lost.
VOLUME /data
CMD ["python", "-m", "bot"]
