"""Settings read from the environment when the app is created (never at import time)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

ENVIRONMENTS = ("development", "production", "testing")


class ConfigError(RuntimeError):
    """The environment does not describe a runnable configuration."""


def load_config(instance_path: str, overrides: dict | None = None) -> dict:
    """Build the Flask config mapping from the environment plus explicit overrides."""
    overrides = dict(overrides or {})
    env = overrides.get("APP_ENV") or os.environ.get("APP_ENV", "development")
    if env not in ENVIRONMENTS:
        raise ConfigError(f"APP_ENV must be one of {', '.join(ENVIRONMENTS)}, not {env!r}")
    production = env == "production"
    config = {
        "APP_ENV": env,
        "TESTING": env == "testing",
        "SQLALCHEMY_DATABASE_URI": os.environ.get("DATABASE_URL")
        or "sqlite:///" + str(Path(instance_path) / "insightshop.db"),
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
        "PORT": int(os.environ.get("PORT", "5000")),
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        # Secure cookies wherever the shop is served over https (set below from PUBLIC_BASE_URL's scheme).
        "SESSION_COOKIE_SECURE": production,
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        "REMEMBER_COOKIE_SECURE": production,
        "WTF_CSRF_TIME_LIMIT": None,
        # werkzeug's scrypt (N=2^15, r=8: ~0.1 s a hash). Tests hash thousands of passwords, so the testing
        # environment alone uses a lighter work factor of the same algorithm; stored hashes carry their parameters.
        "PASSWORD_HASH_METHOD": "scrypt:1024:8:1" if env == "testing" else "scrypt",
        "CATALOG_PAGE_SIZE": 24,
        "MAIL_SERVER": os.environ.get("MAIL_SERVER") or None,
        "MAIL_PORT": int(os.environ.get("MAIL_PORT", "587")),
        "MAIL_USE_TLS": os.environ.get("MAIL_USE_TLS", "1") not in ("0", "false", "no"),
        "MAIL_USERNAME": os.environ.get("MAIL_USERNAME") or None,
        "MAIL_PASSWORD": os.environ.get("MAIL_PASSWORD") or None,
        "MAIL_FROM": os.environ.get("MAIL_FROM", "InsightShop <no-reply@insightshop.example>"),
        "REDIS_URL": os.environ.get("REDIS_URL") or None,
        # A Redis that stopped answering costs a request at most this long before the memory stand-in takes over;
        # while it is down, one request per REDIS_RETRY_SECONDS checks whether it is back.
        "REDIS_TIMEOUT_SECONDS": float(os.environ.get("REDIS_TIMEOUT_SECONDS", "1.0")),
        "REDIS_RETRY_SECONDS": float(os.environ.get("REDIS_RETRY_SECONDS", "5.0")),
        # Anonymous visitors' pages are cached (Redis with REDIS_URL, else memory); tests turn it on when they test it.
        "PAGE_CACHE": env != "testing" and _flag(os.environ.get("PAGE_CACHE", "1")),
        # Data every visitor sees alike (facet counts, the home page's product rows) is not a page: it stays cached
        # when pages are not (PAGE_CACHE=0), in the same store, ended by the same catalog changes and sale boundaries.
        "DATA_CACHE": env != "testing" and _flag(os.environ.get("DATA_CACHE", "1")),
        "PAGE_CACHE_SECONDS": int(os.environ.get("PAGE_CACHE_SECONDS", "300")),
        "PAGE_CACHE_PREFIX": os.environ.get("PAGE_CACHE_PREFIX", "insightshop:page:"),
        "PAGE_CACHE_ENTRIES": int(os.environ.get("PAGE_CACHE_ENTRIES", "512")),  # per process, in memory
        # The shared cache's cap (entries, compressed pages of ~8 KB), and where it lives: REDIS_URL unless a Redis
        # of its own is given (one with maxmemory and allkeys-lru, apart from the limits and the receipt queue).
        "PAGE_CACHE_REDIS_ENTRIES": int(os.environ.get("PAGE_CACHE_REDIS_ENTRIES", "2000")),
        "PAGE_CACHE_REDIS_URL": os.environ.get("PAGE_CACHE_REDIS_URL") or None,
        "RATELIMIT_ENABLED": True,
        "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
        "RATELIMIT_HEADERS_ENABLED": True,
        "RATELIMIT_KEY_PREFIX": "insightshop",
        "REVIEW_LIMIT_PER_CLIENT": os.environ.get("REVIEW_LIMIT_PER_CLIENT", "5 per hour"),
        "REVIEW_LIMIT_PER_AUTHOR": os.environ.get("REVIEW_LIMIT_PER_AUTHOR", "10 per day"),
        "TAX_RATE": os.environ.get("TAX_RATE", "0.08"),
        "SHIPPING_STANDARD": os.environ.get("SHIPPING_STANDARD", "5.95"),
        "SHIPPING_EXPRESS": os.environ.get("SHIPPING_EXPRESS", "14.95"),
        "FREE_SHIPPING_FROM": os.environ.get("FREE_SHIPPING_FROM", "75.00"),
        "STRIPE_SECRET_KEY": os.environ.get("STRIPE_SECRET_KEY") or None,
        "STRIPE_PUBLISHABLE_KEY": os.environ.get("STRIPE_PUBLISHABLE_KEY") or None,
        "STRIPE_WEBHOOK_SECRET": os.environ.get("STRIPE_WEBHOOK_SECRET") or None,
        "STRIPE_HTTP_CLIENT": None,  # tests put a recorded-response client here
        # The offline test provider marks orders paid with test cards: production refuses it unless asked for.
        "ALLOW_OFFLINE_PAYMENTS": _flag(os.environ.get("ALLOW_OFFLINE_PAYMENTS")),
        # How long an unpaid order holds its stock: a guest's (ORDER_HOLD_MINUTES) and a signed-in customer's
        # (UNPAID_ORDER_MINUTES, who has one open order per account); then it expires and the units go back.
        "ORDER_HOLD_MINUTES": int(os.environ.get("ORDER_HOLD_MINUTES", "10")),
        "UNPAID_ORDER_MINUTES": int(os.environ.get("UNPAID_ORDER_MINUTES", "15")),
        # Every this many seconds, per process, one request first releases expired holds (web/hold_sweeper.py), so
        # pages show their units again without a cron job; 0: before every request, negative: off (cron only; and in
        # tests, which turn it on where they test it).
        "ORDER_HOLD_SWEEP_SECONDS": int(os.environ.get("ORDER_HOLD_SWEEP_SECONDS", "-1" if env == "testing" else "30")),
        # What unpaid orders of guests and unverified accounts may hold: per order, and at once per client address
        # and per guest identity (a verified customer is never capped).
        "GUEST_ORDER_MAX_LINES": int(os.environ.get("GUEST_ORDER_MAX_LINES", "10")),
        "GUEST_ORDER_MAX_UNITS": int(os.environ.get("GUEST_ORDER_MAX_UNITS", "20")),
        "GUEST_ORDER_MAX_VALUE": os.environ.get("GUEST_ORDER_MAX_VALUE", "1000.00"),
        "GUEST_HELD_UNITS_PER_CLIENT": int(os.environ.get("GUEST_HELD_UNITS_PER_CLIENT", "30")),
        "GUEST_HELD_VALUE_PER_CLIENT": os.environ.get("GUEST_HELD_VALUE_PER_CLIENT", "1500.00"),
        # Order lookups by number + email (page, API, tools): failed tries per client, per order number, per email.
        "ORDER_LOOKUP_LIMIT_PER_CLIENT": os.environ.get("ORDER_LOOKUP_LIMIT_PER_CLIENT", "10 per 10 minutes"),
        "ORDER_LOOKUP_LIMIT_PER_ORDER": os.environ.get("ORDER_LOOKUP_LIMIT_PER_ORDER", "10 per hour"),
        "ORDER_LOOKUP_LIMIT_PER_EMAIL": os.environ.get("ORDER_LOOKUP_LIMIT_PER_EMAIL", "20 per hour"),
        # A guest's lookup from another browser emails the order's address a signed link: at most this many per order.
        "ORDER_LINK_MAILS_PER_ORDER": os.environ.get("ORDER_LINK_MAILS_PER_ORDER", "3 per hour"),
        "ORDER_LINK_MINUTES": int(os.environ.get("ORDER_LINK_MINUTES", "60")),
        "CHECKOUT_LIMIT_PER_CLIENT": os.environ.get("CHECKOUT_LIMIT_PER_CLIENT", "10 per 10 minutes"),
        "CHECKOUT_LIMIT_PER_OWNER": os.environ.get("CHECKOUT_LIMIT_PER_OWNER", "10 per 10 minutes"),
        # Request bodies above this answer 413 (uploads that need more raise it for their own route).
        "MAX_CONTENT_LENGTH": int(os.environ.get("MAX_REQUEST_BYTES", str(1024 * 1024))),
        "RETURN_WINDOW_DAYS": 30,
        # Receipts: the largest file, how receipts are queued (rq, thread, inline; default by REDIS_URL), the engine.
        "RECEIPT_MAX_BYTES": int(os.environ.get("RECEIPT_MAX_BYTES", str(10 * 1024 * 1024))),
        "RECEIPT_QUEUE": os.environ.get("RECEIPT_QUEUE") or None,
        "RECEIPT_ENGINE": os.environ.get("RECEIPT_ENGINE") or None,
        "RECEIPT_STORAGE_DIR": os.environ.get("RECEIPT_STORAGE_DIR") or None,
        # Each reading runs in a child process: stopped after this many seconds, with this much address space.
        "RECEIPT_READ_TIMEOUT_SECONDS": float(os.environ.get("RECEIPT_READ_TIMEOUT_SECONDS", "180")),
        "RECEIPT_READ_MEMORY_MB": int(os.environ.get("RECEIPT_READ_MEMORY_MB", "3072")),
        "RECEIPT_READERS_PER_MACHINE": int(os.environ.get("RECEIPT_READERS_PER_MACHINE", "2")),
        "RECEIPT_READER_WAIT_SECONDS": float(os.environ.get("RECEIPT_READER_WAIT_SECONDS", "600")),
        "RECEIPT_READER_IDLE_SECONDS": float(os.environ.get("RECEIPT_READER_IDLE_SECONDS", "300")),
        "RECEIPT_UPLOAD_LIMIT": os.environ.get("RECEIPT_UPLOAD_LIMIT", "10 per minute"),
        "ANTHROPIC_API_KEY": os.environ.get("ANTHROPIC_API_KEY") or None,
        "ANTHROPIC_MODEL": os.environ.get("ANTHROPIC_MODEL", "claude-sonnet-5-5"),  # current Sonnet (Nov 2026)
        "ANTHROPIC_MCP_SERVERS": os.environ.get("ANTHROPIC_MCP_SERVERS")
        or None,  # JSON [{name, url, credential?: "caller"}]
        "ANTHROPIC_HTTP_CLIENT": None,  # tests put a recorded-response client here
        # Receipts: days taken off every shelf-life estimate (0 or negative), and the category agent's limits
        # (each call may go to Claude).
        "EXPIRY_SAFETY_MARGIN_DAYS": int(os.environ.get("EXPIRY_SAFETY_MARGIN_DAYS", "-1")),
        "CATEGORIZE_LIMIT_PER_USER": os.environ.get("CATEGORIZE_LIMIT_PER_USER", "30 per minute"),
        "CATEGORIZE_LIMIT_PER_CLIENT": os.environ.get("CATEGORIZE_LIMIT_PER_CLIENT", "60 per minute"),
        "API_TOKEN_HOURS": int(os.environ.get("API_TOKEN_HOURS", "168")),
        "GUEST_TOKEN_HOURS": int(os.environ.get("GUEST_TOKEN_HOURS", "720")),
        # Failed logins per account (normalised email) from one client address, per account from anywhere (a
        # slower ceiling) and per client address, across every door; current-password checks per user; guest tokens.
        "LOGIN_LIMIT_PER_ACCOUNT": os.environ.get("LOGIN_LIMIT_PER_ACCOUNT", "5 per minute"),
        "LOGIN_LIMIT_ACCOUNT_CEILING": os.environ.get("LOGIN_LIMIT_ACCOUNT_CEILING", "50 per hour"),
        "PASSWORD_CHECK_LIMIT_PER_USER": os.environ.get("PASSWORD_CHECK_LIMIT_PER_USER", "5 per 15 minutes"),
        "LOGIN_LIMIT_PER_CLIENT": os.environ.get("LOGIN_LIMIT_PER_CLIENT", "5 per minute"),
        "GUEST_LIMIT_PER_CLIENT": os.environ.get("GUEST_LIMIT_PER_CLIENT", "20 per hour"),
        # Every link in mail is built from this, never from the request's Host header.
        "PUBLIC_BASE_URL": os.environ.get("PUBLIC_BASE_URL") or None,
        "TRUSTED_HOSTS": _split(os.environ.get("TRUSTED_HOSTS")),
        # Proxies in front of the app (nginx: 1) whose X-Forwarded-For/-Proto are believed; 0 = none.
        "TRUSTED_PROXY_HOPS": int(os.environ.get("TRUSTED_PROXY_HOPS", "0")),
        # ... and only when the TCP peer is one of these (addresses or CIDR ranges): anyone else's are ignored.
        "TRUSTED_PROXIES": _split(os.environ.get("TRUSTED_PROXIES")) or ["127.0.0.1", "::1"],
        # /mcp in each worker process: requests in flight at once (in total and per client address; more answer
        # 503 / 429 with Retry-After) and seconds each may take, so the shop's pages always keep threads.
        "MCP_MAX_CONCURRENT": int(os.environ.get("MCP_MAX_CONCURRENT") or max(1, _web_threads() // 2)),
        "MCP_MAX_CONCURRENT_PER_CLIENT": int(os.environ.get("MCP_MAX_CONCURRENT_PER_CLIENT") or 2),
        "MCP_REQUEST_TIMEOUT_SECONDS": float(os.environ.get("MCP_REQUEST_TIMEOUT_SECONDS") or 30),
        "DEBUG": _flag(os.environ.get("FLASK_DEBUG")),
        # Several app servers behind one proxy: each may name itself; the name is sent as X-Served-By when set.
        "INSTANCE_NAME": os.environ.get("INSTANCE_NAME") or None,
        # Operations: log lines as JSON objects (one per line) for log shippers, plain text for people reading a
        # terminal; /metrics answers loopback callers, or others sending this bearer token.
        "LOG_FORMAT": os.environ.get("LOG_FORMAT") or ("json" if production else "text"),
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO").upper(),
        "METRICS_TOKEN": os.environ.get("METRICS_TOKEN") or None,
    }
    config.update(overrides)
    # Without Redis the database holds the counters (rate_limit_database): every worker of `make run` shares them.
    config.setdefault("RATELIMIT_STORAGE_URI", config["REDIS_URL"] or "database://")
    if config["RATELIMIT_STORAGE_URI"].startswith(("redis://", "rediss://", "unix://")):
        timeout = config["REDIS_TIMEOUT_SECONDS"]
        config.setdefault("RATELIMIT_STORAGE_OPTIONS", {"socket_connect_timeout": timeout, "socket_timeout": timeout})
    # Upload routes may take a receipt plus the multipart envelope around it; every other route keeps the limit.
    config.setdefault("UPLOAD_MAX_BYTES", config["RECEIPT_MAX_BYTES"] + 64 * 1024)
    if "SECRET_KEY" not in config:
        config["SECRET_KEY"] = _secret_key(instance_path, production)
    _public_base_url(config, production)
    _check_trusted_proxies(config)
    if production:
        _refuse_unsafe_production(config)
    config["SQLALCHEMY_DATABASE_URI"] = normalise_database_url(config["SQLALCHEMY_DATABASE_URI"])
    config["SQLALCHEMY_ENGINE_OPTIONS"] = _engine_options(config)
    return config


def _engine_options(config: dict) -> dict:
    """During a database outage requests must fail fast (and answer 503), not hang: PostgreSQL connection attempts
    give up after DATABASE_CONNECT_TIMEOUT seconds, a request waits at most DATABASE_POOL_TIMEOUT for a pooled
    connection. pool_pre_ping replaces connections the server dropped, so the app recovers without a restart."""
    options = dict(config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
    options.setdefault("pool_pre_ping", True)
    if config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        options.setdefault("pool_timeout", int(os.environ.get("DATABASE_POOL_TIMEOUT", "10")))
        connect_args = dict(options.get("connect_args") or {})
        connect_args.setdefault("connect_timeout", int(os.environ.get("DATABASE_CONNECT_TIMEOUT", "3")))
        options["connect_args"] = connect_args
    return options


def _refuse_unsafe_production(config: dict) -> None:
    """Production never runs the debugger, signs with a short key, nor takes orders with test cards unless a demo
    asks for it."""
    if len(str(config["SECRET_KEY"])) < MIN_SECRET_KEY_LENGTH:
        raise ConfigError(
            f"SECRET_KEY is {len(str(config['SECRET_KEY']))} characters; production needs at least "
            f"{MIN_SECRET_KEY_LENGTH} random ones, e.g. from: python3 -c 'import secrets; print(secrets.token_urlsafe(48))'"
        )
    if config.get("DEBUG"):
        raise ConfigError("Debug mode is refused in production (unset FLASK_DEBUG); use `make dev` to develop")
    if not config["STRIPE_SECRET_KEY"] and not config["ALLOW_OFFLINE_PAYMENTS"]:
        raise ConfigError(
            "STRIPE_SECRET_KEY must be set in production: without it the offline test provider would mark orders "
            "paid with test cards. Set ALLOW_OFFLINE_PAYMENTS=1 only for a demo shop that takes no real orders."
        )
    # A shop served over plain http (a demo on loopback) cannot keep Secure cookies; https always does.
    secure = config["PUBLIC_BASE_URL"].startswith("https://")
    config["SESSION_COOKIE_SECURE"] = config["SESSION_COOKIE_SECURE"] and secure
    config["REMEMBER_COOKIE_SECURE"] = config["REMEMBER_COOKIE_SECURE"] and secure


def _split(value: str | None) -> list[str] | None:
    items = [item.strip() for item in (value or "").split(",") if item.strip()]
    return items or None


def _public_base_url(config: dict, production: bool) -> None:
    """PUBLIC_BASE_URL (required in production) and the Host headers the app answers (Flask's TRUSTED_HOSTS)."""
    base = config.get("PUBLIC_BASE_URL")
    if not base:
        if production:
            raise ConfigError("PUBLIC_BASE_URL must be set in production (e.g. https://shop.example.com)")
        base = f"http://127.0.0.1:{config['PORT']}"
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"PUBLIC_BASE_URL must be an http(s) URL, not {base!r}")
    config["PUBLIC_BASE_URL"] = base.rstrip("/")
    if config.get("TRUSTED_HOSTS") is None:
        hosts = [parts.hostname]
        if not production:  # the development server, the test client (localhost) and the browser tests (127.0.0.1)
            hosts += ["localhost", "127.0.0.1"]
        config["TRUSTED_HOSTS"] = list(dict.fromkeys(hosts))


def _web_threads() -> int:
    # gunicorn's threads per worker (deploy/gunicorn.conf.py reads the same variable).
    try:
        return int(os.environ.get("WEB_THREADS") or 4)
    except ValueError:
        return 4


def _check_trusted_proxies(config: dict) -> None:
    from .web.forwarded import parse_networks

    try:
        parse_networks(config["TRUSTED_PROXIES"])
    except ValueError as error:
        raise ConfigError(f"TRUSTED_PROXIES must be IP addresses or CIDR ranges, comma-separated: {error}") from None


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


def normalise_database_url(url: str) -> str:
    """Use the psycopg 3 driver for plain postgres:// URLs (as Heroku-style hosts hand them out)."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


MIN_SECRET_KEY_LENGTH = 32  # it signs sessions, API tokens (HS256) and order links: a guessable key forges them


def _secret_key(instance_path: str, production: bool) -> str:
    key = os.environ.get("SECRET_KEY")
    if key:
        return key
    if production:
        raise ConfigError("SECRET_KEY must be set in production")
    # Development only: a random key kept under instance/ so sessions survive restarts.
    key_file = Path(instance_path) / "secret_key"
    if key_file.exists():
        return key_file.read_text().strip()
    key_file.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    key_file.write_text(key)
    key_file.chmod(0o600)
    return key
