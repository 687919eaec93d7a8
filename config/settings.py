"""Muster's settings: one module, every deployment choice read from the environment.

Variables: DATABASE_URL (default: SQLite under var/), REDIS_URL (default: none, and
Celery uses an embedded filesystem broker under var/), SECRET_KEY (required unless
DEBUG), DEBUG (off by default), ALLOWED_HOSTS, TIME_ZONE, CSRF_TRUSTED_ORIGINS,
SECURE_SSL_REDIRECT, MEDIA_ROOT, STATIC_ROOT, VAR_DIR.
"""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.env import database_from_url, env_bool, env_int, env_list, env_rate, env_str, redis_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("VAR_DIR") or BASE_DIR / "var")
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: set it to a long random string, or set DEBUG=1 on a development machine."
        )
    SECRET_KEY = "insecure-development-key-only-used-with-DEBUG"  # noqa: S105 - refused unless DEBUG
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
TIME_ZONE = env_str("TIME_ZONE") or "UTC"
try:
    import zoneinfo

    zoneinfo.ZoneInfo(TIME_ZONE)
except (zoneinfo.ZoneInfoNotFoundError, ValueError):
    raise ImproperlyConfigured(f"TIME_ZONE={TIME_ZONE!r} is not a known time zone, e.g. Europe/London.") from None
USE_TZ = True
USE_I18N = True
LANGUAGE_CODE = "en-gb"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "django_celery_beat",
    "campaign",
    "battles",
    "cardgames",
]

MIDDLEWARE = [
    "config.health.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "campaign.web.poll_tokens.UnchangedPollMiddleware",
    "campaign.web.middleware.NulRefusalMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "campaign.web.page_cache.PageCacheMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "campaign.web.idempotency.IdempotencyMiddleware",
    "campaign.web.installable.PageOwnerMiddleware",
    "campaign.web.middleware.NotAllowedMiddleware",
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
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "campaign.web.context_processors.current_campaign",
                "campaign.web.context_processors.live_push",
                "campaign.notifications.views.unread_count",
            ],
        },
    },
]

DATABASE_URL = env_str("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'muster.sqlite3'}"
DATABASES = {"default": database_from_url(DATABASE_URL, base_dir=BASE_DIR)}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # A file, not memory, so a Celery worker process can see what a test wrote.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-muster.sqlite3")}
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = ["campaign.web.user_backend.CachedUserBackend"]  # ModelBackend, the user kept in Redis

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "staticfiles")
if DEBUG:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise serves from finders in DEBUG; keep it quiet
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(env_str("MEDIA_ROOT") or VAR_DIR / "media")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# Security: production (DEBUG off) passes `manage.py check --deploy`.
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000, minimum=0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True

# How many reverse proxies stand in front of the server (each appends to X-Forwarded-For); 0 trusts no header.
PROXY_COUNT = env_int("PROXY_COUNT", 0, minimum=0)
REST_FRAMEWORK = {
    # Token first: DRF answers a request without credentials with the first class's challenge, so it is a
    # 401 with `WWW-Authenticate: Token` (session auth has no challenge and would make it a 403).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "campaign.web.api_input.ClampedLimitOffsetPagination",
    "DEFAULT_PARSER_CLASSES": [
        "campaign.web.api_input.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "campaign.web.api_errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_rate("API_THROTTLE_ANON", "60/minute"),
        "user": env_rate("API_THROTTLE_USER", "1200/minute"),
    },
    # Behind PROXY_COUNT reverse proxies the client is that many entries from the right of X-Forwarded-For;
    # with none (the default) it is REMOTE_ADDR and a forged header counts for nothing.
    "NUM_PROXIES": PROXY_COUNT,
}
# Brute force: failed sign-ins per user name and per address within the window, then 429 until it passes.
LOGIN_FAILURES_PER_NAME = env_int("LOGIN_FAILURES_PER_NAME", 5, minimum=1)
LOGIN_FAILURES_PER_ADDRESS = env_int("LOGIN_FAILURES_PER_ADDRESS", 20, minimum=1)
LOGIN_LIMIT_WINDOW_SECONDS = env_int("LOGIN_LIMIT_WINDOW_SECONDS", 900, minimum=1)
SIGN_UPS_PER_ADDRESS = env_int("SIGN_UPS_PER_ADDRESS", 10, minimum=1)

SPECTACULAR_SETTINGS = {
    "TITLE": "Muster API",
    "DESCRIPTION": "Campaigns, events, commanders, armies, battles and card-game encounters. Every POST, PUT, "
                   "PATCH and DELETE may carry an `Idempotency-Key` header (8 to 100 letters, digits, '-', '_', "
                   "'.' or ':'; a fresh UUID per action): a repeat with the same key is applied once and answered "
                   "with the first answer (header `Idempotent-Replayed: true`); the same key for another action "
                   "is a 422.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A Tactician's pick is the same choice set on a commander and on a Battle's start: one enum, one name.
    # A member's role is one choice set on memberships and invitations, named apart from a unit's role.
    "ENUM_NAME_OVERRIDES": {"TacticianChoiceEnum": "battles.engine.powers.TACTICIAN_CHOICES",
                            "RoleEnum": "campaign.models.campaigns.Role",
                            "AiPolicyEnum": "cardgames.models.AI_POLICIES",
                            "CardGameEnum": "cardgames.registry.CARD_GAME_CHOICES"},
}

# Celery: Redis when REDIS_URL is set, otherwise an embedded filesystem broker under var/.
REDIS_URL = redis_url("REDIS_URL")
CELERY_BROKER_DIR = Path(env_str("CELERY_BROKER_DIR") or VAR_DIR / "celery-broker")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict = {}
else:
    for sub in ("out", "processed", "control"):
        (CELERY_BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(CELERY_BROKER_DIR / "out"),
        "data_folder_out": str(CELERY_BROKER_DIR / "out"),
        "data_folder_processed": str(CELERY_BROKER_DIR / "processed"),
        "control_folder": str(CELERY_BROKER_DIR / "control"),
        "store_processed": False,
    }
    (CELERY_BROKER_DIR / "results").mkdir(parents=True, exist_ok=True)
    CELERY_RESULT_BACKEND = f"file://{CELERY_BROKER_DIR / 'results'}"
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# No request waits long on a broker that does not answer: one quick retry to publish or store a result, then
# the caller's fallback (config.celery.enqueue_on_commit logs it and a beat sweep does the work later).
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5}
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"retry_policy": {"max_retries": 1, "interval_start": 0,
                                                            "interval_step": 0.5, "interval_max": 0.5}}
# The default cache is each process's own memory; "limits" (sign-in counts) is shared by every server process:
# through Redis when there is one (short timeouts: the login limiter fails open rather than hold a sign-in on a
# Redis that is down), else in files under var/ beside the embedded broker. "shared" holds sessions, users'
# states and remembered pages (campaign.web.page_cache): Redis, tolerant of its being down
# (config.redis_cache), else the process's own memory (one process, as `make run` starts without Redis).
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "shared": ({"BACKEND": "config.redis_cache.TolerantRedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": "muster",
                "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1}} if REDIS_URL else
               {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "shared"}),
    "limits": ({"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL, "KEY_PREFIX": "muster",
                "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}} if REDIS_URL else
               {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(VAR_DIR / "limits")}),
}
# Pushed updates (campaign.live): sockets in every server process hear each other through Redis when REDIS_URL is
# set; without it the layer is the process's own memory (one web process, as `make run` starts without Redis).
# A Redis that is down fails a push within a second; reads may wait longer than the layer's 5-second blocking pops
# (redis-py's default read timeout of 5 s would cut them off and close the sockets).
_REDIS_LAYER = {"BACKEND": "channels_redis.core.RedisChannelLayer",
                "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_connect_timeout": 1, "socket_timeout": 10}],
                           "capacity": 200, "expiry": 30}}
CHANNEL_LAYERS = {"default": _REDIS_LAYER if REDIS_URL else {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
# Whether every process's changes reach the sockets (through Redis), so that a page with its socket open stops
# polling; without Redis the Celery worker's changes (the clock's hours, AI moves) reach pages only by their polls.
LIVE_PUSH_EVERYWHERE = env_bool("LIVE_PUSH_EVERYWHERE", bool(REDIS_URL))
# Sessions from the shared cache, kept in the database too (campaign.web.sessions); whole pages remembered per
# session (campaign.web.page_cache): off only to compare, as the benchmarks do.
SESSION_ENGINE = "campaign.web.sessions"
SESSION_CACHE_ALIAS = "shared"
PAGE_CACHE = env_bool("PAGE_CACHE", True)
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL") or "INFO"},
}

# Offline phones and their retries: how long an idempotency key is remembered (campaign.web.idempotency).
IDEMPOTENCY_KEY_HOURS = env_int("IDEMPOTENCY_KEY_HOURS", 72, minimum=1)

# Notifications (campaign.notifications): Web Push signed with these VAPID keys (`python manage.py vapid_keys`
# makes a pair; without them nothing is pushed), e-mail through Django's mail backends, links made absolute with
# SITE_URL.
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY") or ""
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY") or ""
VAPID_SUBJECT = env_str("VAPID_SUBJECT") or "mailto:muster@localhost"
if bool(VAPID_PUBLIC_KEY) != bool(VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured("Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (python manage.py vapid_keys), or "
                               "neither.")
SITE_URL = (env_str("SITE_URL") or "http://127.0.0.1:8000").rstrip("/")
EMAIL_BACKEND = env_str("EMAIL_BACKEND") or ("django.core.mail.backends.console.EmailBackend" if DEBUG else
                                             "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST") or "localhost"
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER") or ""
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD") or ""
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL") or "Muster <muster@localhost>"
