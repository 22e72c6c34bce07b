"""Settings for aceweb: one module, driven by environment variables.

Every variable has a safe local default (SQLite, in-process channel layer and
Celery), so a fresh clone runs with none set. docs/deploy.md lists them all.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

log = logging.getLogger("aceweb")

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def envbool(name: str, default: bool) -> bool:
    value = os.getenv(name, "").strip().lower()
    if not value:
        return default
    if value in _TRUE | _FALSE:
        return value in _TRUE
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use true/false, 1/0)")


def envint(name: str, default: int) -> int:
    value = os.getenv(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer") from None


def envlist(name: str, default: str) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


DEBUG = envbool("DEBUG", True)

_DEV_SECRET_KEY = "django-insecure-aceweb-local-development-only"
SECRET_KEY = os.getenv("SECRET_KEY") or _DEV_SECRET_KEY
if SECRET_KEY == _DEV_SECRET_KEY and not DEBUG:
    raise ImproperlyConfigured("Set SECRET_KEY: the built-in one is public and only fit for DEBUG")

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

# --- HTTPS ------------------------------------------------------------------
# Secure by default once DEBUG is off (`manage.py check --deploy` is clean with
# only DEBUG, SECRET_KEY and ALLOWED_HOSTS set); HTTPS=false serves plain http
# with DEBUG off, e.g. on a laptop. docs/deploy.md, "Deploying on one machine".


def proxy_ssl_header(value: str) -> tuple[str, str] | None:
    """``X-Forwarded-Proto: https`` as Django's ("HTTP_X_FORWARDED_PROTO", "https").

    The value after the colon defaults to ``https``; blank means no proxy header.
    """
    name, _, expected = value.partition(":")
    name = name.strip()
    if not name:
        if value.strip():
            raise ImproperlyConfigured(f"SECURE_PROXY_SSL_HEADER={value!r} names no header")
        return None
    return "HTTP_" + name.upper().replace("-", "_"), expected.strip() or "https"


HTTPS = envbool("HTTPS", not DEBUG)
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
# Behind a TLS-terminating proxy that sets this header, Django sees which requests
# came over https (and redirects only the others); a proxy that redirects http
# itself can take that over with SECURE_SSL_REDIRECT=false.
SECURE_PROXY_SSL_HEADER = proxy_ssl_header(os.getenv("SECURE_PROXY_SSL_HEADER", ""))
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", HTTPS)
# A year, the least the browsers' preload list accepts. Subdomains and preload
# as check --deploy asks (W005, W021); preload only lets the domain's owner submit
# it to hstspreload.org. Each can be turned off.
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31_536_000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", True)

INSTALLED_APPS = [
    "daphne",  # first, so that `manage.py runserver` is daphne's
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # intcomma: counts grouped in the reader's locale (1,234 / 1 234 / 1.234)
    "channels",
    "allauth",
    "allauth.account",
    "adminkit",  # lowest floor too: the admin lists' filters and CSV export, used by every app's admin.py
    "ids",  # lowest floor: the ``id`` path converter every route with an id uses (issue 35, 11)
    "preferences",  # lowest floor: a player's language, read by games, ladder and tasks
    "chat",  # lowest floor too: rooms named by strings (game:12), used by games, ladder and tournaments
    "notify",  # lowest floor too: notices keyed by strings (game:12), sent by games, ladder and tournaments
    "relation",  # lowest floor too: who follows whom (users only), read by the live list and profiles
    "games",
    "ladder",
    "tournaments",
    "moderation",
    "api",
    # django-ninja as an app: /api/docs then loads Swagger UI from its own static
    # files (ninja/swagger-ui-bundle.js...), not from a CDN a machine may not reach.
    "ninja",
]

MIDDLEWARE = [
    "aceweb.middleware.ApiShortcutMiddleware",  # /api/ (but its streams): API_MIDDLEWARE instead of what follows
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "aceweb.middleware.RefuseNulInUrlMiddleware",  # 400, not a 500 from PostgreSQL
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # after sessions, before common (Django's order)
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "preferences.middleware.LanguageMiddleware",  # a player's saved language wins over cookie and browser
    "api.middleware.ApiLanguageMiddleware",  # /api/: Accept-Language only, English without it
    "preferences.middleware.TimeZoneMiddleware",  # times in the viewer's zone (the tz cookie, static/js/zone.js)
    "django.contrib.messages.middleware.MessageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# The API's requests (its streams apart) skip the site's middleware for these:
# a token says who calls, not a session, a cookie or a CSRF token (aceweb/middleware.py).
API_MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "aceweb.middleware.RefuseNulInUrlMiddleware",
    "django.middleware.common.CommonMiddleware",
    "api.middleware.ApiLanguageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# Database sessions that never look up a key Django could not have issued (NUL in a cookie).
SESSION_ENGINE = "aceweb.sessions"

ROOT_URLCONF = "aceweb.urls"

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
                "django.template.context_processors.i18n",
                "notify.context_processors.bell",  # the bell's unread count and latest notices
                "games.context_processors.turns",  # the "Your turn" list
            ],
        },
    },
]

WSGI_APPLICATION = "aceweb.wsgi.application"
ASGI_APPLICATION = "aceweb.asgi.application"

# --- Database -------------------------------------------------------------

DATABASE_URL = os.getenv("DATABASE_URL", "")
SQLITE_PATH = Path(os.getenv("SQLITE_PATH", "") or BASE_DIR / "db.sqlite3")  # without DATABASE_URL
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL or f"sqlite:///{SQLITE_PATH}",
        conn_max_age=envint("DB_CONN_MAX_AGE", 0),
    )
}
# Threads for the websockets' database work (games.sockets.db_work). SQLite
# takes one writer at a time and has no row locks, so it gets a single thread.
DB_THREADS = envint("DB_THREADS", 4 if DATABASE_URL else 1)
# HTTP requests served at once by one daphne process, each with its own thread and
# database connection under ASGI; more wait their turn (aceweb/http_limit.py).
HTTP_CONCURRENCY = envint("HTTP_CONCURRENCY", 8)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    # Live play's statements (games/statements.py) are prepared once a connection
    # has run them this often; 0 turns that off (a pooler that cannot keep
    # prepared statements: PgBouncer before 1.21 in transaction mode). Django's
    # own cursors bind on the client and never prepare.
    _options["prepare_threshold"] = envint("DB_PREPARE_THRESHOLD", 5) or None
    # Each process keeps its PostgreSQL connections in a pool (Django's, on
    # psycopg_pool): a thread takes one for its work and gives it back after.
    # Under daphne every HTTP request ran on a new thread, so without it each
    # request (an API move) opened a connection of its own and closed it, and
    # its statements were never prepared. Enough for the sockets' threads and
    # the requests a process serves at once, and one more; a thread beyond
    # waits its turn (DB_POOL_TIMEOUT s, then an error) instead of opening one.
    # At least one stays open (DB_POOL_MIN_SIZE), the others close after 10
    # idle minutes. 0: no pool; then each thread keeps its own connection for
    # DB_CONN_MAX_AGE s, which the pool replaces.
    DB_POOL_SIZE = envint("DB_POOL_SIZE", DB_THREADS + HTTP_CONCURRENCY + 1)
    if DB_POOL_SIZE > 0:
        _options["pool"] = {"min_size": min(envint("DB_POOL_MIN_SIZE", 1), DB_POOL_SIZE), "max_size": DB_POOL_SIZE,
                            "timeout": float(os.getenv("DB_POOL_TIMEOUT", "30"))}
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps them (Django refuses both)
# How long a socket database thread (games.sockets.db_work) keeps the connection it
# took from the pool before giving it back (without a pool, CONN_MAX_AGE rules): those threads
# live as long as the process, and taking one again for every call cost a live move
# about 0.07 ms of CPU.
DB_THREAD_CONN_AGE = envint("DB_THREAD_CONN_AGE", 300)
# Every game socket is told the game's current ply this often, and a socket
# found still behind a ply committed a whole beat earlier is sent its view
# again (games/heartbeat.py, docs/protocol.md "Staying in step").
GAME_BEAT_SECONDS = float(os.environ.get("GAME_BEAT_SECONDS", "5"))
# `make run` (scripts/dev.py) says once which services it runs without and sets
# ACEWEB_SERVICES_TOLD for its children, which would each say it again.
SERVICES_TOLD = envbool("ACEWEB_SERVICES_TOLD", False)
if not DATABASE_URL and not SERVICES_TOLD:
    log.warning("aceweb: DATABASE_URL not set: using SQLite at %s", SQLITE_PATH)
# The ladder's covering indexes (INCLUDE) are PostgreSQL's; SQLite builds them
# without the extra columns, which is all a local database needs.
SILENCED_SYSTEM_CHECKS = ["models.W040"]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer and Celery --------------------------------------

REDIS_URL = os.getenv("REDIS_URL", "")
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The public API's rate limits (docs/api.md): requests per token, and per address
# whatever the token; over either, a 429 with Retry-After. Counted in Redis when
# REDIS_URL is set, so that every server counts together (api/auth.py).
API_RATE_PER_TOKEN = os.getenv("API_RATE_PER_TOKEN", "300/min")
API_RATE_PER_ADDRESS = os.getenv("API_RATE_PER_ADDRESS", "600/min")
API_STREAM_KEEPALIVE = float(os.getenv("API_STREAM_KEEPALIVE", "7"))  # seconds between keep-alive lines
NINJA_NUM_PROXIES = envint("NINJA_NUM_PROXIES", 0)  # proxies in front: which address is the client's
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "aceweb.layers.RedisChannelLayer",  # channels-redis, made safe (aceweb/layers.py)
            # redis-py 8 reads with a 5 s socket timeout by default, which kills the
            # layer's blocking BZPOPMIN and so every idle consumer every 5 s
            # (django/channels_redis#422): wait without a client-side timeout.
            # Its asyncio pool also refuses a 101st connection by default
            # (MaxConnectionsError), which a few hundred sockets closing at once
            # reach. And all sockets of a process receive through one Redis
            # queue, which `capacity` bounds as a whole (100 by default): past
            # it, group messages are dropped. tests/games/test_channel_layer.py.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": None,
                                  "max_connections": envint("REDIS_MAX_CONNECTIONS", 2000)}],
                       "capacity": envint("CHANNEL_CAPACITY", 10000)},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    # One process only: websocket groups reach the clients of this process, and
    # .delay() runs the task at once in the caller instead of on a worker.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # Eager tasks still take a producer from the broker pool, and kombu warns
    # "No hostname was supplied" for a URL without one.
    CELERY_BROKER_URL = "memory://localhost/"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
if not REDIS_URL and not SERVICES_TOLD:
    log.warning(
        "aceweb: REDIS_URL not set: in-memory channel layer (InMemoryChannelLayer) "
        "and Celery tasks run in-process (CELERY_TASK_ALWAYS_EAGER=True)"
    )

CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
# Bot moves (games.tasks.play_bot_move) are acknowledged only when done: a
# message whose worker died goes back to the queue once unacknowledged for the
# visibility timeout (Redis transport; default there is an hour). It must stay
# above any task's countdown and run time, or a live task is handed out twice.
_visibility_timeout = envint("CELERY_VISIBILITY_TIMEOUT", 60)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": _visibility_timeout,
    # Sweep for such messages every few seconds rather than every 100 s.
    "unacked_restore_interval": max(1, min(5, _visibility_timeout // 2)),
    "unacked_restore_throttle": 1,
}
# One message at a time per worker process: a worker busy thinking does not
# sit on bot moves another worker could take.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BEAT_SCHEDULE = {
    # Games end on time even with nobody connected (games.tasks.claim_timeouts).
    "games-claim-timeouts": {"task": "games.tasks.claim_timeouts", "schedule": 5.0},
    # Bot moves whose sending failed are sent again (games.botmoves.requeue_lost_moves).
    "games-requeue-bot-moves": {"task": "games.tasks.requeue_bot_moves", "schedule": 15.0},
}
# Ladder: lapsed challenges and long-abandoned real-time seeks (ladder/tasks.py).
# Merged into any schedule defined above, so each app's entries can be added on their own.
CELERY_BEAT_SCHEDULE = {
    **globals().get("CELERY_BEAT_SCHEDULE", {}),
    "ladder-expire-challenges": {"task": "ladder.tasks.expire_challenges", "schedule": 30.0},
    "ladder-expire-seeks": {"task": "ladder.tasks.expire_seeks", "schedule": 300.0},
    # The rated pool: windows widen every 10 s, so look again often (ladder/matchmaking.py).
    "ladder-match-pool": {"task": "ladder.tasks.match_pool", "schedule": 3.0},
    # The leaderboard's counts: the rows each rated game adds, folded together (ladder/rank_counts.py).
    "ladder-compact-rank-counts": {"task": "ladder.tasks.compact_rank_counts", "schedule": 60.0},
    # Tournaments start, pair their rounds and end on time (tournaments/tasks.py, which keeps
    # the task names it had under ladder/: queued messages name them so).
    "tournaments-advance-due": {"task": "ladder.tournaments.tasks.advance_due", "schedule": 5.0},
    # Entrants hear a tournament starts in 5 minutes, once (tournaments/notices.py).
    "tournaments-tell-starting-soon": {"task": "ladder.tournaments.tasks.tell_starting_soon", "schedule": 15.0},
}
# E-mail reminders (games/reminders.py): the daily correspondence digest, at most
# one a day per player, and the clock warnings (24 h and 1 h before a correspondence
# clock runs out), which need looking at every few minutes to come on time.
CELERY_BEAT_SCHEDULE = {
    **CELERY_BEAT_SCHEDULE,
    "games-turn-digests": {"task": "games.tasks.send_turn_digests", "schedule": 3600.0},
    "games-clock-warnings": {"task": "games.tasks.send_clock_warnings", "schedule": 300.0},
}

# --- Auth -----------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",  # the admin's login by username
    "allauth.account.auth_backends.AuthenticationBackend",  # allauth's: username or e-mail
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "/"

# Player accounts (django-allauth), as lichess has them: a username and a password,
# and an e-mail address kept for password recovery; sign in with either name or e-mail.
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*"]
# Issue 35, 14: anyone can type anyone's address, so allauth mails a link to
# confirm it ("optional": players sign in and play at once, unconfirmed), and
# no notification mail goes to an address until its link was followed
# (notify.mail.wants_email). The account page sends the link again.
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_EMAIL_CONFIRMATION_AUTHENTICATED_REDIRECT_URL = "/account/preferences/#notifications"
ACCOUNT_USERNAME_MIN_LENGTH = 2
ACCOUNT_USERNAME_BLACKLIST = ["admin", "accounts", "anonymous", "ladder", "static"]

# --- E-mail ---------------------------------------------------------------
# Printed to the console unless an SMTP server is set, by EMAIL_URL or by
# EMAIL_HOST and its companions (docs/deploy.md, Configuration).


EMAIL_BACKENDS = {
    "console": "django.core.mail.backends.console.EmailBackend",
    "locmem": "django.core.mail.backends.locmem.EmailBackend",
    "dummy": "django.core.mail.backends.dummy.EmailBackend",
}
SMTP_SCHEMES = {"smtp", "smtp+tls", "smtps", "smtp+ssl"}


def smtp_url(url: str) -> tuple[str, int, str, str, bool, bool]:
    """EMAIL_URL as (host, port, user, password, use_tls, use_ssl).

    smtp://user:password@host:25, smtp+tls://... for STARTTLS, smtps:// or
    smtp+ssl://... for SSL.
    """
    parts = urlsplit(url)
    if parts.scheme not in SMTP_SCHEMES:
        raise ImproperlyConfigured(f"EMAIL_URL scheme {parts.scheme!r} is not smtp, smtp+tls, smtps (smtp+ssl), "
                                   f"{', '.join(EMAIL_BACKENDS)}")
    if not parts.hostname:
        raise ImproperlyConfigured("EMAIL_URL names no host")
    ssl = parts.scheme in {"smtps", "smtp+ssl"}
    port = parts.port or (465 if ssl else 587 if parts.scheme == "smtp+tls" else 25)
    return (parts.hostname, port, unquote(parts.username or ""), unquote(parts.password or ""),
            parts.scheme == "smtp+tls", ssl)


EMAIL_HOST = os.getenv("EMAIL_HOST", "").strip()
EMAIL_PORT = envint("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.getenv("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.getenv("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = envbool("EMAIL_USE_SSL", False)
# Seconds an SMTP connection may block: a hung server must not hold a Celery worker.
EMAIL_TIMEOUT = envint("EMAIL_TIMEOUT", 20)
_email_url = os.getenv("EMAIL_URL", "").strip()
_email_scheme = urlsplit(_email_url).scheme
if _email_scheme in EMAIL_BACKENDS:  # console://, locmem://, dummy://: no server
    EMAIL_BACKEND = EMAIL_BACKENDS[_email_scheme]
elif _email_url:
    EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL = smtp_url(_email_url)
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
elif EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
else:
    EMAIL_BACKEND = EMAIL_BACKENDS["console"]
DEFAULT_FROM_EMAIL = os.getenv("DEFAULT_FROM_EMAIL", "aceweb <noreply@localhost>")
# Where the site is, for the links in e-mails and push notifications (no request to ask).
SITE_URL = os.getenv("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# --- Web push (notify/push.py, docs/notifications.md) -----------------------
# The VAPID key pair that signs our pushes (RFC 8292): `manage.py vapid_keys`
# makes one. Without them, push is off; `make run` writes a development pair to
# VAPID_DEV_FILE (git-ignored), read here only while DEBUG.
VAPID_DEV_FILE = BASE_DIR / ".vapid-dev-keys"


def vapid_dev_keys(path: Path) -> dict[str, str]:
    """The development pair `manage.py vapid_keys --dev` wrote: NAME=value lines."""
    if not path.is_file():
        return {}
    pairs = (line.partition("=") for line in path.read_text().splitlines())
    return {name.strip(): value.strip() for name, _, value in pairs if value.strip()}


_vapid_dev = vapid_dev_keys(VAPID_DEV_FILE) if DEBUG else {}
WEBPUSH_VAPID_PUBLIC_KEY = os.getenv("WEBPUSH_VAPID_PUBLIC_KEY", "") or _vapid_dev.get("WEBPUSH_VAPID_PUBLIC_KEY", "")
WEBPUSH_VAPID_PRIVATE_KEY = (os.getenv("WEBPUSH_VAPID_PRIVATE_KEY", "")
                             or _vapid_dev.get("WEBPUSH_VAPID_PRIVATE_KEY", ""))
# Who the push services may write to about our pushes: mailto: or https:.
WEBPUSH_SUBJECT = os.getenv("WEBPUSH_SUBJECT", "mailto:noreply@localhost")
# Subscriptions kept per player (browsers, devices); a new one replaces the oldest.
WEBPUSH_MAX_SUBSCRIPTIONS = envint("WEBPUSH_MAX_SUBSCRIPTIONS", 5)
# Push endpoints must be public https addresses, so that nobody can make the
# server post into its own network; these hosts are let through, on plain http
# too (a push receiver of one's own for local testing).
WEBPUSH_HTTP_HOSTS = envlist("WEBPUSH_HTTP_HOSTS", "")
# Seconds a push service may take to answer one push, and how long it keeps an
# undelivered push for a browser that is offline (a turn is stale after a day).
WEBPUSH_TIMEOUT = float(os.getenv("WEBPUSH_TIMEOUT", "10"))
WEBPUSH_TTL = envint("WEBPUSH_TTL", 86_400)

# The daily correspondence digest goes out from this hour (UTC) on, once a day
# per player who chose it (games/reminders.py).
TURN_DIGEST_HOUR = envint("TURN_DIGEST_HOUR", 7)

# --- Internationalisation -------------------------------------------------

# The four languages of the rules' texts (../shared/seeds/), each named in itself
# for the language menu. No prefix in URLs (lila#3416): LocaleMiddleware picks the
# language from the cookie, then the browser's Accept-Language.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("es", "Español"),
    ("ru", "Русский"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
# Dates go through Django's named formats per language (DATE_FORMAT and so on:
# Russian months in the genitive, lower case); aceweb/formats/ keeps the site's
# English ones, day first with a 24-hour clock.
FORMAT_MODULE_PATH = ["aceweb.formats"]
USE_I18N = True
USE_TZ = True

# --- Static files ---------------------------------------------------------

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# daphne serves no files itself; WhiteNoise serves /static/ from the app
# directories while DEBUG, and from STATIC_ROOT (after collectstatic) otherwise.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

# --- Logging --------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
        "mail_admins": {"class": "django.utils.log.AdminEmailHandler", "level": "ERROR",
                        "filters": ["require_debug_false"]},
    },
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "loggers": {
        # Django's own lines (a 403, a 500 and its traceback) once, through our handler:
        # its default config prints them while DEBUG and also hands them on to the root
        # logger, where daphne puts a handler of its own, so each came out twice.
        "django": {"handlers": ["console", "mail_admins"], "level": "INFO", "propagate": False},
        "aceweb": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "INFO"), "propagate": False},
        "games": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "INFO"), "propagate": False},
        "ladder": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "INFO"), "propagate": False},
    },
}
