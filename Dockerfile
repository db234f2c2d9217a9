# Luzi web and Celery image. Build: docker build -t luzi .   (docker-compose.yml builds it for you.)
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

RUN apt-get update \
    && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY config ./config
COPY games ./games
COPY tournaments ./tournaments
RUN pip install -e .
COPY . .

# Translations and static files are built into the image; the settings need no services for this.
RUN python manage.py compilemessages --ignore=.venv --verbosity 0 \
    && SECRET_KEY=build-only python manage.py collectstatic --noinput --verbosity 0

RUN useradd --create-home --uid 10001 luzi && mkdir -p /app/var && chown -R luzi /app/var
USER luzi

EXPOSE 8000
# An ASGI server: the table pages push over WebSockets (/ws/), which a WSGI server cannot carry.
# uvicorn with WEB_CONCURRENCY worker processes (2 by default); uvloop and httptools come with it.
# --no-proxy-headers: uvicorn never rewrites the client's address or scheme from X-Forwarded-*
# (by default it believes them from 127.0.0.1, so anyone on the host could pick an address and
# escape the login throttles); Django reads them itself, only behind TRUSTED_PROXY_COUNT proxies.
CMD ["sh", "-c", "exec uvicorn config.asgi:application --host 0.0.0.0 --port 8000 --no-proxy-headers --workers ${WEB_CONCURRENCY:-2}"]
