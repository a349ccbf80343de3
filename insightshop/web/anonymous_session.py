"""An anonymous visitor's session cookie and CSRF token, made outside a Flask request the way Flask and Flask-WTF
make them inside one, so that the page cache can answer before Flask runs (web/cached_pages.py).

Anonymous means no per-person state at all: no Authorization header, no remember-me cookie, and a session holding
nothing but the CSRF secret (a guest cart, compare tray, wishlist, chat, flash or login all add session keys)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping

from flask import Flask
from itsdangerous import BadSignature, URLSafeTimedSerializer
from werkzeug.http import dump_cookie, parse_cookie

ANONYMOUS_SESSION_KEYS = frozenset({"csrf_token"})


def holds_nothing_personal(session: Mapping) -> bool:
    """A session with no per-person state. Flask-Login's "_remember: clear" mark (left by a logout until its
    after_request removes the remember cookie) is nobody's data either."""
    keys = set(session.keys())
    if session.get("_remember") == "clear":
        keys.discard("_remember")
    return keys <= ANONYMOUS_SESSION_KEYS


class AnonymousSessions:
    """Reads an anonymous visitor's session from the request's cookie; makes their CSRF token and, on a first visit,
    their session cookie. Flask-WTF validates the token as one of its own (the same secret, salt and session key)."""

    def __init__(self, app: Flask):
        interface = app.session_interface
        self.cookie_name = interface.get_cookie_name(app)
        self.remember_cookie = app.config.get("REMEMBER_COOKIE_NAME", "remember_token")
        self.token_field = app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
        self._sessions = interface.get_signing_serializer(app)
        self._max_age = int(app.permanent_session_lifetime.total_seconds())
        token_key = app.config.get("WTF_CSRF_SECRET_KEY")
        self._tokens = URLSafeTimedSerializer(app.secret_key if token_key is None else token_key,
                                              salt="wtf-csrf-token")  # fmt: skip
        self._cookie_options = {
            "domain": interface.get_cookie_domain(app),
            "path": interface.get_cookie_path(app),
            "secure": interface.get_cookie_secure(app),
            "httponly": interface.get_cookie_httponly(app),
            "samesite": interface.get_cookie_samesite(app),
            "partitioned": interface.get_cookie_partitioned(app),
        }

    def read(self, environ: dict) -> dict | None:
        """The visitor's session ({} on a first visit) when nothing in the request is personal, else None (also
        for a cookie that does not verify: Flask decides what to do with that)."""
        if environ.get("HTTP_AUTHORIZATION"):
            return None
        header = environ.get("HTTP_COOKIE")
        if not header:
            return {}
        cookies = parse_cookie(header)
        if cookies.get(self.remember_cookie):
            return None  # Flask-Login would log this visitor in from the cookie
        value = cookies.get(self.cookie_name)
        if not value:
            return {}
        try:
            session = self._sessions.loads(value, max_age=self._max_age)
        except BadSignature:
            return None
        return session if isinstance(session, dict) and holds_nothing_personal(session) else None

    def token(self, session: Mapping) -> tuple[str, str | None]:
        """The signed CSRF token for this session, and the Set-Cookie value of a new session when it had none."""
        secret = session.get(self.token_field)
        if isinstance(secret, str):
            return self._tokens.dumps(secret), None
        secret = hashlib.sha1(os.urandom(64)).hexdigest()  # as Flask-WTF's generate_csrf makes it
        cookie = dump_cookie(self.cookie_name, self._sessions.dumps({self.token_field: secret}), **self._cookie_options)
        return self._tokens.dumps(secret), cookie
