FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine engine
COPY render render
COPY bot bot
RUN pip install --no-cache-dir .
# The database lives on a volume so games survive new images.
VOLUME /data
ENV BOARDHOST_CONFIG=/data/config.toml
COPY config.example.toml /data/config.toml
RUN sed -i 's|^path = .*|path = "/data/boardhost.sqlite3"|' /data/config.toml
CMD ["python", "-m", "bot"]
