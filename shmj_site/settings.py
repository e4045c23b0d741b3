"""Settings, driven by the environment.

With no environment variables set this is the embedded default: SQLite, the in-memory channel layer
and one process. `DATABASE_URL` (PostgreSQL, psycopg 3) and `REDIS_URL` (channels_redis) move the same
code beyond one machine; `DJANGO_DEBUG=0` with `DJANGO_SECRET_KEY` and `DJANGO_ALLOWED_HOSTS` is
production.
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)
# The development key is public (it is in this file): production refuses to start on it.
DEVELOPMENT_SECRET_KEY = "django-insecure-dev-only-key-change-me-in-production"
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "").strip()
if not SECRET_KEY and DEBUG:
    SECRET_KEY = DEVELOPMENT_SECRET_KEY
elif not DEBUG and SECRET_KEY in ("", DEVELOPMENT_SECRET_KEY):
    raise ImproperlyConfigured(
        "DJANGO_DEBUG=0 needs DJANGO_SECRET_KEY: set it to a long random value, for example the output of "
        "`python -c 'import secrets; print(secrets.token_urlsafe(50))'` (see README.md, How to deploy)."
    )
elif not DEBUG and (len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5):
    # Django's own check (security.W009) only warns, and only under `check --deploy`: a short key
    # signs every session and password-reset link, so production does not start on one.
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is too weak: it needs at least 50 characters, at least 5 of them different; "
        "for example the output of `python -c 'import secrets; print(secrets.token_urlsafe(50))'`."
    )
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    # The site's own system checks (shmj_site/checks.py).
    "shmj_site.apps.SiteConfig",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "template_partials",
    "accounts",
    "games",
    "ledger",
    "history",
    "calc",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: hands a log-in's profile language to the browser's language cookie.
    "accounts.language.ProfileLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a locked-out log-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "shmj_site.urls"
ASGI_APPLICATION = "shmj_site.asgi.application"
WSGI_APPLICATION = None

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
                "accounts.context_processors.user_display_name",
            ],
        },
    },
    {
        # The live table's regions (games/presentation/jinja.py says why they are Jinja2).
        "NAME": "jinja2",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {
            "environment": "games.presentation.jinja.environment",
            "keep_trailing_newline": True,
        },
    },
]

_sqlite_default = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
# conn_max_age=0 (the database's CONN_MAX_AGE): under ASGI persistent connections leak across threads.
DATABASES = {
    "default": dj_database_url.parse(os.environ.get("DATABASE_URL", _sqlite_default), conn_max_age=0),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file-backed test database: daphne's live server runs in another process and must see it.
    # One file per test run (several runs may share a checkout); DJANGO_TEST_DB pins the name.
    _test_db = os.environ.get("DJANGO_TEST_DB") or str(BASE_DIR / f"test-db-{os.getpid()}.sqlite3")
    DATABASES["default"]["TEST"] = {"NAME": _test_db}
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    # Take the write lock when a transaction begins, so two read-then-write services (a player's action
    # and the clock) queue up instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("DATABASE_POOL", True):
    # With CONN_MAX_AGE 0 every database_sync_to_async call opens a new PostgreSQL connection (a
    # backend process each); psycopg's pool turns that into a borrow and a return.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "10")),
        "timeout": 10,
    }

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py 8 defaults socket_timeout to 5 s, which cuts channels_redis's blocking read
                # and closes every socket idle for 5 s: restore "no client-side read timeout".
                "hosts": [{"address": REDIS_URL, "socket_timeout": None}],
                "capacity": 1000,
                "expiry": 30,
                # Several sites (or test runs) can share one Redis without hearing each other.
                "prefix": os.environ.get("CHANNEL_LAYER_PREFIX", "asgi"),
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

if REDIS_URL:
    # One cache for every process, so the sign-up throttle (games/throttle.py) counts them all.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CHANNEL_LAYER_PREFIX", "asgi"),
        }
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Log-in throttling (django-axes, accounts/lockout.py): within 15 minutes, 5 failed log-ins for one
# username from one address lock that username at that address (not elsewhere: else anyone could lock
# anyone out), and 20 from one address, whatever the usernames, lock that address, for 15 minutes
# (accounts/locked_out.html, HTTP 429).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_ADDRESS_FAILURE_LIMIT = int(os.environ.get("AXES_ADDRESS_FAILURE_LIMIT", "20"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_HANDLER = "accounts.lockout.PairAndAddressHandler"
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
# Further attempts during a lockout do not extend it: the owner of a username an attacker keeps
# trying can log in again 15 minutes after the lockout began.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# The client's address is REMOTE_ADDR (axes' default). Behind nginx, daphne --proxy-headers sets it
# from the FIRST X-Forwarded-For address, so nginx must overwrite that header with $remote_addr
# (deploy/nginx.conf), never append to it: else anyone could pick the address they are counted under.
# Sign-up answers whether a username is taken, so it is throttled per address too (games/throttle.py).
SIGNUP_ATTEMPTS_LIMIT = int(os.environ.get("SIGNUP_ATTEMPTS_LIMIT", "10"))
SIGNUP_WINDOW = AXES_COOLOFF_TIME
# A private table's invite link is its only key: one address, and one account, may open
# JOIN_ATTEMPTS_LIMIT invite links per JOIN_WINDOW (games/views.py).
JOIN_ATTEMPTS_LIMIT = int(os.environ.get("JOIN_ATTEMPTS_LIMIT", "10"))
JOIN_WINDOW = timedelta(minutes=1)

# Password-reset mail: printed on the console unless an SMTP host is configured.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "Shanghai Mahjong <noreply@localhost>")
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24

# Content-Security-Policy (django-csp): only this site's own scripts, styles, images and sockets.
# htmx runs without eval (the htmx-config meta in base.html) and keeps its indicator CSS in site.css.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Chinese is the source language (msgids) and the default; locale/en holds the English catalogue,
# compiled by `make setup`. The choice is kept in Django's language cookie and on the profile.
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Shanghai"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "games:lobby"
LOGOUT_REDIRECT_URL = "games:lobby"

# Seconds a server process has to stop after its shutdown begins; then it ends itself and writes its
# threads' stacks to stderr (shmj_site/stopping.py; 0: it waits for as long as its threads run).
SHUTDOWN_GRACE = float(os.environ.get("SHUTDOWN_GRACE", "10"))

# The game clock (games/clock.py) runs inside every server process unless switched off (tests drive it).
GAME_CLOCK_ENABLED = env_bool("GAME_CLOCK_ENABLED", True)
GAME_CLOCK_INTERVAL = float(os.environ.get("GAME_CLOCK_INTERVAL", "0.25"))
# Seconds between the clock's rounds of quick start's pairing and the other apps' steps (tournaments).
CLOCK_STEP_INTERVAL = float(os.environ.get("CLOCK_STEP_INTERVAL", "1"))
# Seconds a process trusts its read of which other processes have sockets at a table before reading
# it again (games/services/broadcast.py); a process joining a table's updates catches its sockets up
# after twice this (0: read on every update).
GROUP_MEMBERS_TTL = float(os.environ.get("GROUP_MEMBERS_TTL", "1"))
# Presence across processes (games/services/presence.py): each process's clock vouches every
# PRESENCE_HEARTBEAT seconds for the seats of its open sockets; a seat marked connected that nobody
# has vouched for in PRESENCE_STALE seconds (its process died) counts as disconnected from then on.
PRESENCE_HEARTBEAT = float(os.environ.get("PRESENCE_HEARTBEAT", "15"))
PRESENCE_STALE = float(os.environ.get("PRESENCE_STALE", "60"))
# Quick-start pools (games/services/pairing.py): a waiting person's entry lapses POOL_STALE seconds
# after their lobby socket last vouched for them (every PRESENCE_HEARTBEAT), and POOL_CLOSE_GRACE
# seconds after their last lobby socket closed (a reload keeps the place); "fill with bots after N s"
# offers POOL_FILL_AFTER seconds by default.
POOL_STALE = float(os.environ.get("POOL_STALE", "30"))
POOL_CLOSE_GRACE = float(os.environ.get("POOL_CLOSE_GRACE", "3"))
POOL_FILL_AFTER = int(os.environ.get("POOL_FILL_AFTER", "20"))
# A lobby socket renders the lobby at most once per LOBBY_PUSH_INTERVAL seconds (changes meanwhile are
# folded into the next push).
LOBBY_PUSH_INTERVAL = float(os.environ.get("LOBBY_PUSH_INTERVAL", "1"))
# Messages one table socket may send at once, and a second after that (games/live/limits.py).
TABLE_SOCKET_BURST = int(os.environ.get("TABLE_SOCKET_BURST", "30"))
TABLE_SOCKET_RATE = float(os.environ.get("TABLE_SOCKET_RATE", "10"))
# Seconds between two checks that every signed-in table socket's session still signs its person in
# (games/live/hub.py): a socket whose close message was lost closes within this; 0: no checks.
SOCKET_SESSION_SWEEP = float(os.environ.get("SOCKET_SESSION_SWEEP", "10"))
# Places for spectators (sockets of people who are not members of the table: seated, played there,
# invited to a private one; members are never refused): per address in one process, per address at
# one table, per table; 0 means no limit (games/live/limits.py).
SOCKETS_PER_ADDRESS = int(os.environ.get("SOCKETS_PER_ADDRESS", "32"))
SPECTATORS_PER_ADDRESS_PER_TABLE = int(os.environ.get("SPECTATORS_PER_ADDRESS_PER_TABLE", "5"))
SPECTATORS_PER_TABLE = int(os.environ.get("SPECTATORS_PER_TABLE", "200"))
# Hands a player needs to appear on a leaderboard (history/views.py).
HISTORY_LEADERBOARD_MIN_HANDS = int(os.environ.get("HISTORY_LEADERBOARD_MIN_HANDS", "10"))

# Whether the site runs behind a proxy that limits request bodies (deploy/nginx.conf,
# `client_max_body_size`): daphne reads a whole request body into memory before Django sees it, so
# without one, one request can take the memory. `check --deploy` warns while this is unset
# (shmj_site/checks.py, deploy/README.md).
BEHIND_PROXY = env_bool("DJANGO_BEHIND_PROXY", False)

if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
