"""Settings for tablescore, driven by environment variables.

With no variables set the site runs on a SQLite file and executes Celery tasks
in-process, so ``make run`` needs no services. ``DATABASE_URL`` and
``REDIS_URL`` switch to PostgreSQL and a real broker and worker. Every variable
is parsed strictly (see ``config/env.py``); ``.env.example`` documents them.
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

from config.env import env_bool, env_int, env_list, env_str, env_url
from config.hall import HallHosts

BASE_DIR = Path(__file__).resolve().parent.parent
# The data folder: the SQLite database, backups, the generated secret key and the logs. A
# checkout keeps it in the checkout (``make run``); the installed ``tablescore`` command
# points it at a folder of the user's own (config/cli.py).
TABLESCORE_HOME = Path(env_str("TABLESCORE_HOME", str(BASE_DIR))).expanduser()
BACKUP_DIR = TABLESCORE_HOME / "backups"
# Automatic backups (ops.backup): one a day into BACKUP_DIR, keeping the newest of each of
# the last BACKUP_KEEP_DAILY days and of each of the last BACKUP_KEEP_WEEKLY weeks.
BACKUP_AUTOMATIC = env_bool("BACKUP_AUTOMATIC", True)
BACKUP_KEEP_DAILY = env_int("BACKUP_KEEP_DAILY", 7, minimum=1)
BACKUP_KEEP_WEEKLY = env_int("BACKUP_KEEP_WEEKLY", 8, minimum=0)
# The project-level templates, static files and catalogues: at the top of a checkout, and in
# config/resources/ once installed from the wheel (pyproject.toml's wheel build puts them
# there; a checkout has no such folder).
_INSTALLED_RESOURCES = Path(__file__).resolve().parent / "resources"
RESOURCES_DIR = _INSTALLED_RESOURCES if _INSTALLED_RESOURCES.is_dir() else BASE_DIR

INSECURE_DEFAULT_SECRET_KEY = "django-insecure-tablescore-development-key-do-not-use"

DEBUG = env_bool("DJANGO_DEBUG", True)
# Hall mode: plain HTTP on a club's LAN (no TLS certificate for a laptop in a hall), so no
# Secure cookies, no HSTS and no SSL redirect. Proxy headers are trusted only when a proxy is
# declared: otherwise any phone could claim to be on HTTPS with X-Forwarded-Proto.
HALL_HTTP = env_bool("DJANGO_HALL_HTTP", False)
BEHIND_PROXY = env_bool("DJANGO_BEHIND_PROXY", False)
SECRET_KEY = env_str("DJANGO_SECRET_KEY", INSECURE_DEFAULT_SECRET_KEY)
if not DEBUG and (SECRET_KEY == INSECURE_DEFAULT_SECRET_KEY or len(SECRET_KEY) < 50):
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be set to a random value of at least 50 characters "
        "when DJANGO_DEBUG=false"
    )

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else []
)
if HALL_HTTP and "DJANGO_ALLOWED_HOSTS" not in os.environ:
    # A hall's phones open the laptop's LAN address, which the volunteer does not know in
    # advance and which may change when the laptop wakes on another network: this machine's
    # names and its current LAN address (config.hall.HallHosts).
    ALLOWED_HOSTS = HallHosts()
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "config.apps.AdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",
    "django_htmx",
    "django_tables2",
    "corsheaders",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "ops",
    "clubs",
    "scoring",
    "tournaments",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before CommonMiddleware, as django-cors-headers asks; only /api/ (CORS_URLS_REGEX).
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "config.middleware.PermissionsPolicyMiddleware",
    "config.middleware.ServiceUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "config.middleware.BadInputMiddleware",
    "config.middleware.LoginLockoutMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "scoring.permissions.PhoneCookieMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

if not DEBUG:
    # Production serves collected static files itself (a club laptop has no nginx).
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

# The largest request a form may send (a scoresheet file is at most 2 MB): a larger one is
# refused before it is read (config.middleware.BadInputMiddleware).
UPLOAD_MAX_BYTES = 2_500_000

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [RESOURCES_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "clubs.context_processors.roles",
            ],
        },
    },
]

DATABASE_URL = env_url(
    "DATABASE_URL",
    f"sqlite:///{TABLESCORE_HOME / 'db.sqlite3'}",
    schemes=("sqlite", "postgres", "postgresql", "pgsql"),
)
# A kept connection is checked before each request reuses it: after a laptop's sleep the
# PostgreSQL server may have dropped it, and the first request must not fail for that.
DATABASES = {
    "default": dj_database_url.parse(DATABASE_URL or "", conn_max_age=60, conn_health_checks=True)
}
# The statements sent over and over (the public standings page's and its poll) are kept
# prepared on each PostgreSQL connection (tournaments.sql.prepared_cursor). Off behind a
# connection pooler that cannot keep prepared statements (PgBouncer before 1.21 in
# transaction mode).
DATABASE_PREPARED = env_bool("DJANGO_DB_PREPARED", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several writers (the server's threads, in-process tasks, a command) must not fail with
    # "database is locked": each write transaction takes the lock at its start and waits up
    # to 20 s for it. The write-ahead log lets pages be read while a deal is saved, and
    # synchronous=FULL makes every commit durable before the phone hears "saved" (a killed
    # server or a laptop losing power keeps it).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Axes first: a locked-out user name and address is refused before any password is hashed,
# so a login flood costs a database lookup, not a PBKDF2 run on a worker deal entry needs.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_MINUTES = env_int("AXES_COOLOFF_MINUTES", 15, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=AXES_COOLOFF_MINUTES)
# A user name from one address: a typo-prone scorer at one phone does not lock the director
# out at another, and a guesser at one address cannot lock everyone out.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# And an address whatever the user names: a flood that makes up a new name for every guess
# is new to each name's count above, and every guess would run the password hasher (Django
# hashes for unknown names too). After this many failures from one address within the
# cool-off, every login from it is refused before any hashing (config.security's
# AddressThrottledHandler). Far above AXES_FAILURE_LIMIT because a hall's phones share one
# address behind its router: ten scorers with a few typos each stay well under 30, and a
# successful login clears that name's failures (AXES_RESET_ON_SUCCESS), so only names
# that never got in add up. While the address is locked, no name gets through from it,
# not even an account's right password: letting real names try would tell a guesser
# which names exist. `manage.py axes_reset_ip ADDRESS` lifts it early.
AXES_ADDRESS_FAILURE_LIMIT = env_int("AXES_ADDRESS_FAILURE_LIMIT", 30, minimum=1)
AXES_HANDLER = "config.security.AddressThrottledHandler"
AXES_RESET_ON_SUCCESS = True
# A guess during the lockout does not write (nor extend it): a flood stays read-only.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "config.security.lockout_response"
AXES_CLIENT_IP_CALLABLE = "config.security.client_ip"
AXES_VERBOSE = False

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = env_str("DJANGO_LANGUAGE_CODE", "en")
# Russian and Estonian are named in their own language: the Vint players read them that way.
LANGUAGES = [("en", _("English")), ("pl", _("Polish")), ("ru", "Русский"), ("et", "Eesti")]
if LANGUAGE_CODE not in {code for code, _name in LANGUAGES}:
    raise ImproperlyConfigured(f"DJANGO_LANGUAGE_CODE={LANGUAGE_CODE!r} must be en, pl, ru or et")
LOCALE_PATHS = [RESOURCES_DIR / "locale"]
# Each language's own date and time formats where Django has none (Estonian date-times).
FORMAT_MODULE_PATH = ["config.formats"]
TIME_ZONE = env_str("DJANGO_TIME_ZONE", "Europe/Warsaw")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [RESOURCES_DIR / "static"]
# Collected (and compressed) for production: `make serve` and `tablescore hall` collect them.
STATIC_ROOT = TABLESCORE_HOME / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# --- Celery -----------------------------------------------------------------
# REDIS_URL unset: tasks run in-process (eager), so the app needs no services.
REDIS_URL = env_url("REDIS_URL", None, schemes=("redis", "rediss"))
CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_TIMEOUT = env_int("CELERY_BROKER_TIMEOUT", 3, minimum=1)
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task whose worker dies is not lost: acknowledged only once done (above), given back to
# the queue when a pool process is lost, and redelivered by Redis when unacknowledged for
# VISIBILITY_TIMEOUT seconds (longer than the longest task, a 4,000-player recompute or a
# backup, takes; kombu's default is an hour). A dead worker's standings recompute is
# queued again sooner, by the heartbeat of the worker that comes back (ops.signals).
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("VISIBILITY_TIMEOUT", 600, minimum=60)
}

# The worker records a heartbeat this often (celery beat, embedded in ``make serve``'s
# worker); /health calls the worker stale when the newest one is older than the limit.
HEARTBEAT_SECONDS = env_int("HEARTBEAT_SECONDS", 60, minimum=5)
HEARTBEAT_STALE_SECONDS = env_int("HEARTBEAT_STALE_SECONDS", 180, minimum=10)
# Without a worker (no REDIS_URL) the server beats itself after a response (ops.heartbeat).
HEARTBEAT_IN_PROCESS = env_bool("HEARTBEAT_IN_PROCESS", True)
CELERY_BEAT_SCHEDULE = {
    "worker-heartbeat": {
        "task": "ops.tasks.worker_heartbeat",
        "schedule": float(HEARTBEAT_SECONDS),
    },
    # Checks whether the automatic backup is due (a day after the last one): checking
    # often makes a laptop that slept through the night back up when it wakes.
    "backup": {"task": "ops.tasks.backup_scheduled", "schedule": 900.0},
}
# A publish to a dead broker gives up quickly: the task goes to the database outbox instead
# (ops.outbox) and the deal save that queued it does not wait.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.1,
    "interval_max": 0.1,
}

CACHES: dict[str, dict[str, object]]
if REDIS_URL:
    CACHES = {
        "default": {
            # django-redis, failing soft: with Redis down a read is a miss and a write is
            # dropped (logged), so the cache never turns a Redis outage into a 500.
            "BACKEND": "config.cache.FailSoftRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.5, "SOCKET_TIMEOUT": 0.5},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# This process's copies of pages drawn for every reader (``config.cache.page_copy``): read
# before the shared cache, so the hall's phones refreshing the standings cost no round
# trip to Redis. Bounded: at most this many pages, each at most 512 KB.
CACHES["pages"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "pages",
    "TIMEOUT": 600,
    "OPTIONS": {"MAX_ENTRIES": 64},
}

# Sessions live in the database only: a login must survive a Redis outage.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# A phone's grant from a table link ends at the latest this many hours after the link was
# opened (earlier when the link is reissued or the table locked: scoring/permissions.py).
TABLE_LINK_HOURS = env_int("TABLE_LINK_HOURS", 12, minimum=1)

# --- Security (production, DJANGO_DEBUG=false) ------------------------------
_SECURE_TRANSPORT = not DEBUG and not HALL_HTTP
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", _SECURE_TRANSPORT)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None
SESSION_COOKIE_SECURE = _SECURE_TRANSPORT
CSRF_COOKIE_SECURE = _SECURE_TRANSPORT
SECURE_HSTS_SECONDS = env_int(
    "DJANGO_HSTS_SECONDS", 31_536_000 if _SECURE_TRANSPORT else 0, minimum=0
)
SECURE_HSTS_INCLUDE_SUBDOMAINS = _SECURE_TRANSPORT
SECURE_HSTS_PRELOAD = _SECURE_TRANSPORT
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
if HALL_HTTP:
    # Hall mode turns these off on purpose (plain HTTP on a LAN); `check --deploy` would
    # otherwise report exactly what the mode is for. Everything else still applies.
    SILENCED_SYSTEM_CHECKS = [
        "security.W004",  # SECURE_HSTS_SECONDS not set
        "security.W008",  # SECURE_SSL_REDIRECT not True
        "security.W012",  # SESSION_COOKIE_SECURE not True
        "security.W016",  # CSRF_COOKIE_SECURE not True
    ]
    if not DEBUG and not os.environ.get("_TABLESCORE_HALL_WARNED"):
        os.environ["_TABLESCORE_HALL_WARNED"] = "1"  # once per process tree
        print(
            "WARNING: DJANGO_HALL_HTTP=true: serving plain HTTP (no Secure cookies, no HSTS, "
            "no SSL redirect). Passwords cross the network unencrypted: use this only on "
            "a hall's own LAN.",
            file=sys.stderr,
            flush=True,
        )

# No inline script anywhere: scripts come from static/ (htmx included). Inline styles stay
# allowed (a few style attributes, htmx's indicator style); they cannot run code.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF, CSP.UNSAFE_INLINE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    # The pad's service worker (/sw.js) and web manifest are served by this site only.
    "worker-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}
# Nothing here needs a camera, a microphone, a location or payments.
PERMISSIONS_POLICY = (
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), "
    "accelerometer=(), gyroscope=(), magnetometer=()"
)

# TABLESCORE_LOG_FILE (set by `tablescore hall` to the data folder's logs/): the log goes
# there too, kept to five files of 5 MB.
LOG_FILE = env_str("TABLESCORE_LOG_FILE", "")
_LOG_HANDLERS: dict[str, dict[str, object]] = {"console": {"class": "logging.StreamHandler"}}
if LOG_FILE:
    _LOG_HANDLERS["file"] = {
        "class": "logging.handlers.RotatingFileHandler",
        "filename": LOG_FILE,
        "maxBytes": 5_000_000,
        "backupCount": 5,
        "formatter": "stamped",
    }
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"stamped": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": _LOG_HANDLERS,
    "root": {"handlers": list(_LOG_HANDLERS), "level": env_str("DJANGO_LOG_LEVEL", "WARNING")},
}
if LOG_FILE:
    # The hall server's own messages (started, stopped, a worker replaced) too; gunicorn
    # adds its terminal handler to this logger and keeps it from propagating.
    LOGGING["loggers"] = {"gunicorn.error": {"handlers": ["file"], "level": "INFO"}}

DJANGO_TABLES2_TEMPLATE = "tables/htmx.html"
DJANGO_TABLES2_TABLE_ATTRS = {"class": "grid"}

# --- The read API (/api/v1/, the ``api`` app; docs/api.md) ------------------
# Off: every /api/ address answers 404.
API_ENABLED = env_bool("API_ENABLED", True)
# Requests a minute: per address for readers without a token, per token with one.
API_RATE_ANONYMOUS = env_int("API_RATE_ANONYMOUS", 120, minimum=1)
API_RATE_TOKEN = env_int("API_RATE_TOKEN", 600, minimum=1)
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["api.authentication.BearerTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.AddressThrottle", "api.throttling.TokenThrottle"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pages",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "tablescore API",
    "DESCRIPTION": "Read-only results of Kop, Baśka and Vint clubs: see docs/api.md.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.errors_documented",
    ],
}
# Cross-site reads of the API from any website; no cookies, and no Authorization header:
# a token is for a server (or a script), never for a page in someone's browser.
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_METHODS = ["GET", "HEAD", "OPTIONS"]
CORS_ALLOW_HEADERS = ["accept", "if-none-match", "if-modified-since"]
CORS_EXPOSE_HEADERS = ["etag", "last-modified", "retry-after", "link"]
