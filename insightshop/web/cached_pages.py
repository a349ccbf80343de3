"""The page cache's server: a WSGI layer in front of the Flask app that answers an anonymous visitor's GET of a
cached page from the store, before Flask builds a request, a session, a limiter check or a template.

A hit costs a cookie check, one lookup, the visitor's CSRF token put into the stored copy, and the same access line
and metrics every answer gets. A miss goes to the app; when the app marks its answer shareable (web/page_cache.py
mark_storable), the final status, headers and body are stored here, headers added by every later hook included,
with the token replaced by a placeholder and the per-request headers left out."""

from __future__ import annotations

import hashlib
import logging
import time
from typing import NamedTuple
from urllib.parse import parse_qsl, urlencode

from flask import Flask
from werkzeug.exceptions import HTTPException
from werkzeug.wsgi import get_host

from ..observability.request_id import new_request_id, sane_request_id
from ..observability.web import record_answer
from .anonymous_session import AnonymousSessions
from .rendering import wants_fragment

log = logging.getLogger(__name__)

CSRF_PLACEHOLDER = b"__insightshop_csrf_token__"
# environ keys between this layer and the app: the lookup that missed, and the app's verdict that it may be stored.
LOOKUP = "insightshop.page_cache.lookup"
STORABLE = "insightshop.page_cache.storable"
# Every answer's own (or this server's: the copy may come from another app server through Redis), never stored.
PER_REQUEST_HEADERS = frozenset({"set-cookie", "content-length", "x-cache", "x-request-id", "x-served-by"})


class Storable(NamedTuple):
    ttl: int
    budget: str  # services.page_cache.PAGES or SEARCHES
    token: str | None  # the CSRF token this rendering carries, to replace by the placeholder
    endpoint: str
    rule: str


class StoredPage(NamedTuple):
    status: str
    headers: list[tuple[str, str]]
    body: bytes
    endpoint: str
    rule: str


class CachedPageServer:
    def __init__(self, wsgi_app, app: Flask, endpoints: frozenset[str]):
        self.wsgi_app = wsgi_app
        self.app = app
        self.endpoints = endpoints
        self.sessions = AnonymousSessions(app)
        # What web/security_headers.py adds per server, for the answers made here.
        self.server_headers = [("X-Served-By", app.config["INSTANCE_NAME"])] if app.config.get("INSTANCE_NAME") else []
        self._paths: tuple[frozenset[str], tuple[str, ...]] | None = None

    def __call__(self, environ, start_response):
        session = self._anonymous_session(environ)
        if session is None:
            return self.wsgi_app(environ, start_response)
        started = time.perf_counter()
        key = page_key(environ)
        try:
            page, stamp = self.app.extensions["page_cache"].lookup(key)
            if isinstance(page, StoredPage):
                return self._serve(page, session, environ, start_response, started)
        except Exception:  # the cache must never fail a page: the app renders it instead
            log.exception("The page cache failed to look up or serve a page; rendering it")
            return self.wsgi_app(environ, start_response)
        environ[LOOKUP] = key
        return self._render_and_store(key, stamp, environ, start_response)

    def _anonymous_session(self, environ) -> dict | None:
        """The visitor's session when this request is for a cached endpoint and carries nothing personal."""
        if environ["REQUEST_METHOD"] not in ("GET", "HEAD"):
            return None
        exact, prefixes = self._cached_paths()
        path = environ.get("PATH_INFO") or "/"
        if path not in exact and not (path.startswith(prefixes) and self._cached_endpoint(environ)):
            return None
        return self.sessions.read(environ)

    def _cached_endpoint(self, environ) -> bool:
        """The URL map's word on a path with arguments (/products/2 is a page, /products/2/image.svg is not)."""
        try:
            endpoint, _arguments = self.app.url_map.bind_to_environ(environ).match(method="GET")
        except HTTPException:  # not found, a redirect, a method not allowed, an untrusted host…
            return False
        return endpoint in self.endpoints

    def _cached_paths(self) -> tuple[frozenset[str], tuple[str, ...]]:
        """The cached endpoints' paths from the URL map: exact ones, and the fixed start of those with arguments
        (a cheap filter; the stored copy's key is the whole URL)."""
        if self._paths is None:
            rules = [rule for rule in self.app.url_map.iter_rules() if rule.endpoint in self.endpoints]
            exact = frozenset(rule.rule for rule in rules if not rule.arguments)
            prefixes = tuple(rule.rule.split("<", 1)[0] for rule in rules if rule.arguments)
            self._paths = (exact, prefixes)
        return self._paths

    def _serve(self, page: StoredPage, session: dict, environ, start_response, started: float):
        token, new_cookie = self.sessions.token(session)
        body = page.body.replace(CSRF_PLACEHOLDER, token.encode())
        request_id = sane_request_id(environ.get("HTTP_X_REQUEST_ID")) or new_request_id()
        headers = [*page.headers, *self.server_headers, ("Content-Length", str(len(body))),
                   ("X-Request-ID", request_id), ("X-Cache", "hit")]  # fmt: skip
        if new_cookie is not None:
            headers.append(("Set-Cookie", new_cookie))
        method = environ["REQUEST_METHOD"]
        path = environ.get("PATH_INFO", "/").encode("latin-1").decode("utf-8", "replace")
        record_answer(method, page.rule, page.endpoint, int(page.status[:3]), time.perf_counter() - started,
                      {"request_id": request_id, "method": method, "path": path})  # fmt: skip
        start_response(page.status, headers)  # last: anything above may fail, and the app then answers instead
        return [] if method == "HEAD" else [body]

    def _render_and_store(self, key: str, stamp, environ, start_response):
        answered: list = []

        def capture(status, headers, exc_info=None):
            answered[:] = [status, headers]
            return start_response(status, [*headers, ("X-Cache", "miss")], exc_info)

        body_parts = self.wsgi_app(environ, capture)
        storable: Storable | None = environ.get(STORABLE)
        if storable is None or not answered or not answered[0].startswith("200"):
            return body_parts
        try:
            body = b"".join(body_parts)
        finally:
            if hasattr(body_parts, "close"):
                body_parts.close()
        status, headers = answered
        shared = body.replace(storable.token.encode(), CSRF_PLACEHOLDER) if storable.token else body
        kept = [(name, value) for name, value in headers if name.lower() not in PER_REQUEST_HEADERS]
        page = StoredPage(status, kept, shared, storable.endpoint, storable.rule)
        try:
            self.app.extensions["page_cache"].store(key, page, storable.ttl, stamp, storable.budget)
        except Exception:  # the visitor has their page: a copy not kept is only a later miss
            log.exception("The page cache failed to store a page")
        return [body]


def page_key(environ) -> str:
    """The whole URL, its query parameters in one order (?a=1&b=2 and ?b=2&a=1 are one page), and whether htmx
    wants the page or a fragment, and which (the product page's buy box or its whole main block)."""
    kind = f"fragment:{environ.get('HTTP_HX_TARGET', '')}" if wants_fragment(environ) else "page"  # one per part
    query = urlencode(sorted(parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True)))
    url = "\0".join((environ["wsgi.url_scheme"], get_host(environ), environ.get("SCRIPT_NAME", ""),
                     environ.get("PATH_INFO", ""), query))  # fmt: skip
    return f"{kind}:" + hashlib.sha256(url.encode("utf-8", "surrogateescape")).hexdigest()
