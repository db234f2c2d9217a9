"""Django settings for Luzi: one module, every deployment difference read from the environment.

See config/env.py for the variables (DATABASE_URL, CELERY_BROKER_URL, SECRET_KEY, DEBUG,
ALLOWED_HOSTS, ...).
Without any of them a fresh clone runs on a SQLite file and an embedded broker (another SQLite
file, config/broker.py) under var/.
"""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

from django.utils.translation import gettext_lazy as _
from kombu.entity import Exchange, Queue

from config.env import BASE_DIR, DEV_SECRET_KEY, VAR_DIR, Env

ENV = Env.from_environ()

DEBUG = ENV.debug
SECRET_KEY = ENV.secret_key
LUZI_DEV_SECRET_KEY = DEV_SECRET_KEY
ALLOWED_HOSTS = ENV.allowed_hosts
CSRF_TRUSTED_ORIGINS = ENV.csrf_trusted_origins

INSTALLED_APPS = [
    "daphne",  # first: its runserver serves ASGI, so WebSockets work in development too
    "whitenoise.runserver_nostatic",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "config",
    "games",
    "tournaments",
    "accounts",
    "ratings",
    "config.axes_app.AxesConfig",  # django-axes: password login throttling (config/auth.py)
]

MIDDLEWARE = [
    "config.middleware.RefuseNulMiddleware",  # first: no text with a NUL reaches any code
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "config.middleware.ChineseFirstLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.middleware.SecurityHeadersMiddleware",  # CSP; no-store for private answers
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out login into the lockout page
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------------
if ENV.database["ENGINE"].endswith("sqlite3") and ENV.database["NAME"] != ":memory:":
    VAR_DIR.mkdir(exist_ok=True)
DATABASES = {"default": ENV.database}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth -----------------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:me"
LOGOUT_REDIRECT_URL = "tournaments:home"
AUTHENTICATION_BACKENDS = [
    "config.auth.LoginThrottleBackend",  # first: refuses a locked-out account or address
    "django.contrib.auth.backends.ModelBackend",
]
# Password logins (/accounts/login/, /admin/login/) are throttled by django-axes, in the database
# (SQLite or PostgreSQL, shared by every process): after AXES_FAILURE_LIMIT wrong passwords for
# one account (from anywhere) or from one address (for any account), that account or address is
# refused, right password or not, for AXES_COOLOFF_TIME after its last failure. Failures during a
# lockout do not extend it, and a success resets nothing (else logging in to an account of one's
# own from the same address would wipe the count of a guessed one).
AXES_FAILURE_LIMIT = 10
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_RESET_ON_SUCCESS = False
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "config.auth.lockout_response"
# The address is config.auth.client_address: REMOTE_ADDR, which a client cannot forge, unless
# TRUSTED_PROXY_COUNT reverse proxies stand in front; then the address the outermost proxy put in
# X-Forwarded-For (as many hops from the right). The login-code guess limit counts the same one.
TRUSTED_PROXY_COUNT = ENV.trusted_proxy_count
AXES_CLIENT_IP_CALLABLE = "config.auth.client_address"
# (django-ipware, axes' other way of reading the address, is not installed; were it, the callable
# above still wins. Told the same count all the same, so both would agree.)
AXES_IPWARE_PROXY_COUNT = TRUSTED_PROXY_COUNT or None
AXES_IPWARE_META_PRECEDENCE_ORDER: tuple[str, ...] = (
    ("HTTP_X_FORWARDED_FOR", "REMOTE_ADDR") if TRUSTED_PROXY_COUNT else ("REMOTE_ADDR",)
)

# --- Internationalisation: Simplified Chinese first, English switchable ---------------------------
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [
    ("zh-hans", "简体中文"),
    ("en", "English"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Asia/Shanghai"
USE_TZ = True

# --- Static files, served by whitenoise (no CDN) --------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- Security (production values unless DEBUG; `manage.py check --deploy` passes with DEBUG=false)
SECURE_SSL_REDIRECT = ENV.secure_ssl_redirect
SECURE_REDIRECT_EXEMPT = [
    r"^healthz$"
]  # load balancers and container health checks speak plain HTTP
# X-Forwarded-Proto tells HTTPS only from a trusted proxy (TRUSTED_PROXY_COUNT), like the address.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if TRUSTED_PROXY_COUNT else None
SECURE_HSTS_SECONDS = ENV.hsts_seconds
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_SECURE = ENV.secure_cookies
CSRF_COOKIE_SECURE = ENV.secure_cookies
X_FRAME_OPTIONS = "DENY"

# --- Django REST framework ------------------------------------------------------------------------
REST_FRAMEWORK = {
    "EXCEPTION_HANDLER": "config.exceptions.api_exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.JSONParser",  # DRF's, refusing deep nesting and lone surrogates
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
# drf-spectacular's system check reports views whose schema it must guess as warnings, which would
# fail `check --deploy --fail-level WARNING`; `manage.py spectacular --validate` still lists them.
SILENCED_SYSTEM_CHECKS = ["drf_spectacular.W001", "drf_spectacular.W002"]
SPECTACULAR_SETTINGS = {
    "TITLE": "Luzi API",
    "DESCRIPTION": "Events, rounds, tables, results and standings; games and online play.",
    "VERSION": "1",
    # <id:...> (config/converters.py): a positive 64-bit integer
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}},
}

# --- Celery ---------------------------------------------------------------------------------------
CELERY_BROKER_URL = ENV.broker_url
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {}
if CELERY_BROKER_URL.startswith("sqlite://"):
    # The embedded broker (config/broker.py), a SQLite file of its own. `make test` gives the tests
    # (and the workers they start) a file of their own (LUZI_BROKER_DIR), so a demo worker running
    # beside them never takes their messages.
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "polling_interval": 0.1,  # a bot's turn is picked up at once, not up to 1 s late
        "timeout": 30,  # seconds a publish or a take waits for another process's write
    }
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_RESULT_BACKEND = ENV.result_backend
CELERY_TASK_IGNORE_RESULT = ENV.result_backend is None
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True  # at-least-once delivery: tasks are idempotent
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fix-up closes the database connection around every task unless this is set;
# config/celery.py closes only broken or old ones (CONN_MAX_AGE), as Django does per request.
CELERY_DB_REUSE_MAX = 1_000_000
# Every queue is declared here, so a plain `celery -A config worker` consumes all of them.
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_QUEUES = (
    Queue("default", Exchange("default"), routing_key="default"),
    Queue("games", Exchange("games"), routing_key="games"),
    Queue("bots", Exchange("bots"), routing_key="bots"),
)
# Game play runs on queues of its own, so it can get workers of its own (see README): `games` for
# tables with people (a bot's turn, a turn timer, the next deal), where someone waits for each
# task; `bots` for whole deals of all-bot tables (simulations, the demo), bulk work that nobody
# waits for turn by turn. A worker serving both takes from them in turn, so a backlog of bot
# deals delays a person's table by one task at most, never by the whole backlog.
CELERY_TASK_ROUTES: dict[str, dict[str, str]] = {
    "games.bot_deal": {"queue": "bots"},
    "games.*": {"queue": "games"},
}
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    # Queue again the work of any match that stalled (a lost message, a killed worker).
    "games-watchdog": {"task": "games.watchdog", "schedule": 5.0},
}

HEALTHZ_BROKER_TIMEOUT = ENV.healthz_broker_timeout
# /healthz: live matches with no progress for this long mean a stalled worker (config/health.py).
LUZI_WORKER_STALL_SECONDS = 120.0

# --- Tables against bots (games/tables/limits.py) -------------------------------------------------
# Practice matches a person may have going on at once, in all games together (one per game: 练习
# again goes back to it), and same-deal challenges still being played; one more is a 409 naming
# the open ones. Opening them (练习, 挑战这副牌; going back counts too) is throttled per person by
# DRF's throttles, in the default cache: a 429 past either rate (None: no limit).
LUZI_PRACTICE_OPEN_MAX = 3
LUZI_CHALLENGES_OPEN_MAX = 3
LUZI_TABLE_OPEN_RATES: dict[str, str | None] = {"burst": "20/min", "sustained": "300/day"}

# --- Live tables: Django Channels -----------------------------------------------------------------
# The Celery workers that play the bots must reach the browsers, so whenever Redis is at hand
# (CHANNEL_LAYER_URL, else a redis:// CELERY_BROKER_URL) the channel layer is Redis. Without it
# (a fresh clone, `make demo`, `make test`) the layer is in-process, and each connection re-reads
# its table every LUZI_PUSH_RESYNC_SECONDS instead, which also catches changes made by a worker.
_CHANNEL_LAYER_URL = os.environ.get("CHANNEL_LAYER_URL", "").strip() or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else ""
)
# Django's cache holds what every web process and worker must agree on: who is at a table
# (presence: whether a seat is away, 离线) and rendered standings. With Redis at hand (CACHE_URL,
# else the channel layer's Redis) it is shared; without, each process has its own (one process:
# runserver, `make demo`, the tests).
_CACHE_URL = os.environ.get("CACHE_URL", "").strip() or _CHANNEL_LAYER_URL
# Connections each Redis pool of a process may open (the channel layer's, the cache's). redis-py's
# default is 100: a process holding 200+ sockets ran out at their handshakes (MaxConnectionsError,
# issue 31). Env REDIS_MAX_CONNECTIONS, default 1000, at least 10. A socket that Redis refuses
# anyway is tried again, then closes with 1013 (try again), see games/live/consumers.py.
# PostgreSQL's connections are bounded per process by DATABASE_POOL_SIZE (config/env.py; README,
# "PostgreSQL connections").
LUZI_REDIS_MAX_CONNECTIONS = ENV.redis_max_connections
# "presence" is the same store, strict: see config/cache.py.
if _CACHE_URL:
    _REDIS_CACHE = {
        "LOCATION": _CACHE_URL,
        "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "luzi"),
        "OPTIONS": {  # fail fast, never hang
            "socket_connect_timeout": 2,
            "socket_timeout": 2,
            "max_connections": LUZI_REDIS_MAX_CONNECTIONS,
        },
    }
    CACHES = {
        "default": {"BACKEND": "config.cache.TolerantRedisCache", **_REDIS_CACHE},
        "presence": {"BACKEND": "config.cache.SharedRedisCache", **_REDIS_CACHE},
        # Counts that must not be guessed when Redis is away (login attempts): errors raise.
        "strict": {"BACKEND": "config.cache.SharedRedisCache", **_REDIS_CACHE},
    }
    # Sessions are read from the shared cache (written through to the database): one query
    # less on every request. Never with per-process caches, where a logout in one process would
    # leave the session alive in another's.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    _LOCAL_CACHE: dict[str, Any] = {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "luzi",
    }
    CACHES = {"default": _LOCAL_CACHE, "presence": _LOCAL_CACHE, "strict": _LOCAL_CACHE}
if _CHANNEL_LAYER_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # redis-py 8 reads with a 5 s socket timeout, as long as the layer's blocking pop
            # waits (5 s): a quiet connection would then fail ("Timeout reading"); allow more.
            "CONFIG": {
                "hosts": [
                    {
                        "address": _CHANNEL_LAYER_URL,
                        "socket_timeout": 30,
                        "max_connections": LUZI_REDIS_MAX_CONNECTIONS,
                    }
                ],
                "prefix": "luzi:ws:",
            },
        }
    }
    # Every change is pushed; the resync only makes good a lost push (rare) and tells that a
    # seat's page is still open. One query per connection each time: with 100 connections a
    # 3 s resync was a third of all the reads behind pushes.
    LUZI_PUSH_RESYNC_SECONDS = 10.0
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    LUZI_PUSH_RESYNC_SECONDS = 1.0

# --- Logging: to stderr, the container's log ------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": ENV.log_level},
    "loggers": {
        "django": {"handlers": ["console"], "level": ENV.log_level, "propagate": False},
        # Lockouts are warnings; axes' start-up banner and per-attempt lines are not worth a line.
        "axes": {"level": "WARNING"},
    },
}

LUZI_SITE_NAME = _("Luzi")
