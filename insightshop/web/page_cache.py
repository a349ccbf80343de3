"""Anonymous visitors' pages from the page cache (services/page_cache.py): who may be served a shared copy, and
the visitor's own CSRF token put back into every copy.

A shared copy must never carry one shopper's cart badge, name, compare tray, flashes, chat or token to another, so
only requests that carry no per-person state are served from it or stored in it: GET/HEAD, no Authorization
header, no remember-me cookie, and a session holding nothing but the CSRF secret (a guest cart, compare tray,
wishlist, chat, flash or login all add session keys)."""

from __future__ import annotations

import hashlib
from datetime import datetime

from flask import Flask, Response, current_app, g, has_app_context, request, session
from flask_wtf.csrf import generate_csrf

from ..models.base import utcnow
from ..services import pricing
from ..services.page_cache import PageCache, install_invalidation
from .rendering import is_fragment_request

CACHED_ENDPOINTS = frozenset({"shop.show_home", "shop.show_catalog", "shop.show_product"})
# The CSRF secret is per visitor, but the token it signs is substituted into every copy (below).
ANONYMOUS_SESSION_KEYS = frozenset({"csrf_token"})
CSRF_PLACEHOLDER = b"__insightshop_csrf_token__"
UNSTORED_HEADERS = frozenset({"set-cookie", "content-length", "x-cache"})
KEY = "page_cache_key"
HIT = "page_cache_hit"


def init_app(app: Flask) -> None:
    app.extensions["page_cache"] = PageCache(
        app.instance_path,
        redis_url=app.config["REDIS_URL"],
        prefix=app.config["PAGE_CACHE_PREFIX"],
        max_entries=app.config["PAGE_CACHE_ENTRIES"],
        retry_seconds=float(app.config.get("REDIS_RETRY_SECONDS", 5.0)),
    )
    # Even with the cache off here, commits bump the generation: other processes (or this app's CLI) may cache.
    install_invalidation(_current_cache)
    if app.config["PAGE_CACHE"]:
        app.before_request(serve_from_cache)  # registered last: the request guards run first
        app.after_request(store_in_cache)


def _current_cache() -> PageCache | None:
    return current_app.extensions.get("page_cache") if has_app_context() else None


def serve_from_cache() -> Response | None:
    """A stored copy of this page with a fresh CSRF token for this visitor, or None to render it."""
    g.pop(HIT, None)  # tests may keep one app context (and g) across requests
    g.pop(KEY, None)
    key = _cache_key()
    if key is None:
        return None
    setattr(g, KEY, key)
    stored = current_app.extensions["page_cache"].get(key)
    if stored is None:
        return None
    status, headers, body = stored
    response = current_app.response_class(body.replace(CSRF_PLACEHOLDER, generate_csrf().encode()), status, headers)
    response.headers["X-Cache"] = "hit"
    setattr(g, HIT, True)
    return response


def store_in_cache(response: Response) -> Response:
    """Keep an anonymous page just rendered, its CSRF token replaced by a placeholder."""
    key = g.pop(KEY, None)
    if key is None or g.pop(HIT, False):
        return response
    response.headers["X-Cache"] = "miss"
    if response.status_code != 200 or response.direct_passthrough or not _anonymous_session():
        return response  # e.g. the view flashed a message or gave the visitor a guest identity
    ttl = _seconds_to_keep(utcnow())
    body = response.get_data()
    token = g.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))
    if token:
        body = body.replace(token.encode(), CSRF_PLACEHOLDER)
    headers = [(name, value) for name, value in response.headers if name.lower() not in UNSTORED_HEADERS]
    current_app.extensions["page_cache"].set(key, (response.status_code, headers, body), ttl)
    return response


def remember(name: str, args: object, compute):
    """A value every visitor sees alike (facet counts, the home page's rows), computed once per catalog generation
    and sale boundary; the same for logged-in shoppers, since nothing in it is theirs. DATA_CACHE turns it off, not
    PAGE_CACHE. Values must pickle (the Redis backend stores them)."""
    if not current_app.config["DATA_CACHE"]:
        return compute()
    cache = current_app.extensions["page_cache"]
    key = f"{name}:" + hashlib.sha256(repr(args).encode()).hexdigest()
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, _seconds_to_keep(utcnow()))
    return value


def _cache_key() -> str | None:
    if request.method not in ("GET", "HEAD") or request.endpoint not in CACHED_ENDPOINTS:
        return None
    if request.headers.get("Authorization"):
        return None
    if request.cookies.get(current_app.config.get("REMEMBER_COOKIE_NAME", "remember_token")):
        return None  # Flask-Login would log this visitor in from the cookie
    if not _anonymous_session():
        return None
    kind = "fragment" if is_fragment_request() else "page"
    url = request.host_url + request.full_path.lstrip("/")
    return f"{kind}:" + hashlib.sha256(url.encode()).hexdigest()


def _anonymous_session() -> bool:
    # Flask-Login's strong session protection marks an anonymous session "_remember: clear" (drop any remember
    # cookie) when it looks for a user; its own after_request removes the mark again. Nobody's data either way.
    keys = set(session.keys())
    if session.get("_remember") == "clear":
        keys.discard("_remember")
    return keys <= ANONYMOUS_SESSION_KEYS


def _seconds_to_keep(now: datetime) -> int:
    """The configured lifetime, cut short by the next sale boundary (prices change then with no write)."""
    seconds = current_app.config["PAGE_CACHE_SECONDS"]
    change = pricing.next_price_change(now)
    if change is not None:
        seconds = min(seconds, int((change - now).total_seconds()))
    return max(0, seconds)
