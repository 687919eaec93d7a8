# Muster for a real server: one image runs the web server, the Celery worker and beat.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    UV_PROJECT_ENVIRONMENT=/usr/local \
    UV_COMPILE_BYTECODE=1 \
    UV_NO_CACHE=1 \
    DJANGO_SETTINGS_MODULE=config.settings \
    VAR_DIR=/data/var \
    MEDIA_ROOT=/data/media \
    STATIC_ROOT=/app/staticfiles

WORKDIR /app
RUN useradd --create-home --uid 1000 muster
# The runtime dependencies exactly as uv.lock pins them (no dev tools), with the uv version the Makefile pins.
COPY pyproject.toml uv.lock README.md ./
RUN pip install "uv==0.13.9" && uv sync --locked --no-install-project && pip uninstall --yes uv
COPY . .
# collectstatic needs settings but no secrets or database.
RUN SECRET_KEY=build-only DEBUG=0 python manage.py collectstatic --noinput \
    && mkdir -p /data/var /data/media && chown -R muster:muster /data /app
USER muster
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --retries=3 \
    CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/healthz').status == 200 else 1)"
# uvicorn serves the pages and the pushed-update sockets (config.asgi); Redis joins the processes' sockets.
CMD ["uvicorn", "config.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--workers", "3", "--lifespan", "off", "--no-proxy-headers", "--timeout-graceful-shutdown", "10"]
