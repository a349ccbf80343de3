"""Anonymous visitors' pages from the page cache (services/page_cache.py): which answers may be stored, and the data
every visitor sees alike (remember). Stored pages are served by web/cached_pages.py before Flask runs.

A shared copy must never carry one shopper's cart badge, name, compare tray, flashes, chat or token to another, so
only requests that carry no per-person state are served from it or stored in it (web/anonymous_session.py), and
the CSRF token in every copy is a placeholder that each visitor's own token replaces."""

from __future__ import annotations

import hashlib
from datetime import datetime

from flask import Flask, Response, current_app, g, has_app_context, request, session

from ..models.base import utcnow
from ..schemas.catalog import BROWSE_PARAMS_SCHEMA, browse_params
from ..services import pricing
from ..services.errors import DomainError
from ..services.illustrations import VIEWS
from ..services.page_cache import PAGES, SEARCHES, PageCache, install_invalidation
from ..services.vocabulary import COLORS, SIZES
from .anonymous_session import holds_nothing_personal
from .cached_pages import LOOKUP, STORABLE, CachedPageServer, Storable
from .errors import DATABASE_UNAVAILABLE

CACHED_ENDPOINTS = frozenset({"shop.show_home", "shop.show_catalog", "shop.show_product"})
FREE_CATALOG_ARGUMENTS = ("q", "min_price", "max_price")
# The query parameters each cached page reads. A URL with any other (?utm=…, ?junk=1) is rendered but never stored:
# every distinct junk URL would otherwise be one more stored copy, and its links carry the junk along.
PAGE_ARGUMENTS = {
    "shop.show_home": frozenset(),
    "shop.show_catalog": frozenset(BROWSE_PARAMS_SCHEMA["properties"]),
    "shop.show_product": frozenset({"color", "size", "view"}),
}


def init_app(app: Flask) -> None:
    app.extensions["page_cache"] = new_cache(app)
    # Even with the cache off here, commits bump the generation: other processes (or this app's CLI) may cache.
    install_invalidation(_current_cache)
    if app.config["PAGE_CACHE"]:
        enable(app)


def new_cache(app: Flask) -> PageCache:
    """The app's page cache, empty, from its configuration."""
    return PageCache(
        app.instance_path,
        redis_url=app.config.get("PAGE_CACHE_REDIS_URL") or app.config["REDIS_URL"],
        prefix=app.config["PAGE_CACHE_PREFIX"],
        max_entries=app.config["PAGE_CACHE_ENTRIES"],
        redis_entries=app.config["PAGE_CACHE_REDIS_ENTRIES"],
        signing_key=app.secret_key if isinstance(app.secret_key, bytes) else str(app.secret_key or "").encode(),
        retry_seconds=float(app.config.get("REDIS_RETRY_SECONDS", 5.0)),
    )


def enable(app: Flask) -> None:
    """Serve stored pages in front of the app, and mark what the app answers for storing."""
    app.config["PAGE_CACHE"] = True
    app.wsgi_app = CachedPageServer(app.wsgi_app, app, CACHED_ENDPOINTS)
    app.after_request(mark_storable)


def _current_cache() -> PageCache | None:
    return current_app.extensions.get("page_cache") if has_app_context() else None


def mark_storable(response: Response) -> Response:
    """Tell the cached page server (which looked this page up and missed) that the answer may be shared.

    Decided afresh on every pass: when a later hook fails, Flask makes an error page and runs the hooks again, and
    that answer must not be stored under the first pass's verdict."""
    request.environ.pop(STORABLE, None)
    if LOOKUP not in request.environ or request.method != "GET" or request.endpoint not in CACHED_ENDPOINTS:
        return response
    if (
        response.status_code != 200
        or response.direct_passthrough
        or response.is_streamed
        or not holds_nothing_personal(session)
    ):
        return response  # e.g. the view flashed a message or gave the visitor a guest identity
    if not set(request.args) <= PAGE_ARGUMENTS[request.endpoint]:
        return response
    try:
        ttl = _seconds_to_keep(utcnow())
    except DATABASE_UNAVAILABLE:
        # The page was built (from cached data) but the database went away since: serve it, store nothing. The
        # request's teardown (errors.release_database_session) deals with the dead session.
        return response
    request.environ[STORABLE] = Storable(
        ttl=ttl,
        budget=budget_of(request.endpoint, request.args),
        token=g.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")),
        endpoint=request.endpoint,
        rule=request.url_rule.rule,
    )
    return response


def budget_of(endpoint: str, args) -> str:
    """PAGES for a page every shopper reaches by the shop's own links (a department, a colour, a size: bounded by
    the catalog), SEARCHES for one keyed by anything else a visitor can make up: words, prices, invalid values."""
    if endpoint == "shop.show_catalog":
        if any(args.get(name, "").strip() for name in FREE_CATALOG_ARGUMENTS):
            return SEARCHES
        try:
            browse_params(args, strict=True)
        except DomainError:
            return SEARCHES
        return PAGES
    if endpoint == "shop.show_product":
        known = {"color": COLORS, "size": SIZES, "view": VIEWS}
        return PAGES if all((args.get(name) or known[name][0]) in known[name] for name in known) else SEARCHES
    return PAGES


def remember(name: str, args: object, compute, *, typed: bool = False):
    """A value every visitor sees alike (facet counts, the home page's rows), computed once per catalog generation
    and sale boundary; the same for logged-in shoppers, since nothing in it is theirs. DATA_CACHE turns it off, not
    PAGE_CACHE. Values must pickle (the Redis backend stores them). typed: keyed by words a visitor typed (a
    search), kept in the searches' budget."""
    if not current_app.config["DATA_CACHE"]:
        return compute()
    cache = current_app.extensions["page_cache"]
    key = f"{name}:" + hashlib.sha256(repr(args).encode()).hexdigest()
    value, stamp = cache.lookup(key)
    if value is None:
        value = compute()
        cache.store(key, value, _seconds_to_keep(utcnow()), stamp, SEARCHES if typed else PAGES)
    return value


def _seconds_to_keep(now: datetime) -> int:
    """The configured lifetime, cut short by the next sale boundary (prices change then with no write)."""
    seconds = current_app.config["PAGE_CACHE_SECONDS"]
    change = pricing.next_price_change(now)
    if change is not None:
        seconds = min(seconds, int((change - now).total_seconds()))
    return max(0, seconds)
