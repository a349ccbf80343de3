"""Who is making this request: a bearer token (API), the login session (pages), or a session guest."""

from __future__ import annotations

import hashlib
import hmac

from flask import Flask, current_app, g, request, session
from flask_login import current_user, login_user, logout_user

from ..extensions import login_manager
from ..models.accounts import ApiToken, User
from ..services import accounts, api_tokens, cart
from ..services.actors import Actor
from .compare_tray import tray_on_this_page
from .forwarded import client_key_of

GUEST_KEY = "guest_id"


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def client_address() -> str:
    """Who is calling, for per-client rate limits: the client key web.forwarded decided (the proxy's forwarded
    address once trusted; an IPv6 client's /64). request.remote_addr stays the full address, for the logs."""
    return client_key_of(request.environ)


def current_actor() -> Actor:
    """The actor of this request (resolved once); an invalid bearer token is a 401."""
    if "actor" not in g:
        g.actor, g.api_token = _resolve()
    return g.actor


def current_api_token() -> ApiToken | None:
    current_actor()
    return g.api_token


def ensure_guest() -> Actor:
    """The actor, giving an anonymous browser visitor a guest identity for their cart."""
    actor = current_actor()
    if not actor.has_owner:
        session[GUEST_KEY] = _guest_id_of_this_browser()
        g.actor = Actor(guest_id=session[GUEST_KEY])
    return g.actor


def _guest_id_of_this_browser() -> str:
    """The same guest id for every request that carries this browser's session, however many arrive at once.

    A new browser's first adds race: each carries the session cookie the product page gave it (its CSRF secret, no
    guest id yet), and a random id per request would split them over several carts, the browser keeping one. The id
    is derived from that session's CSRF secret with the app's key, so it cannot be guessed from outside; login and
    logout clear the session, and with it the secret, so an id never outlives the session it was made for."""
    secret = session.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))
    if not isinstance(secret, str) or not secret:
        return api_tokens.new_guest_id()
    key = current_app.secret_key if isinstance(current_app.secret_key, bytes) else str(current_app.secret_key).encode()
    return hmac.new(key, b"insightshop guest id\0" + secret.encode(), hashlib.sha256).hexdigest()[:32]


def log_in(user: User, *, remember: bool = False) -> None:
    """Start a browser session for the user, moving the guest cart over."""
    guest_id = session.get(GUEST_KEY)
    order_tokens = session.get("order_tokens")
    session.clear()  # a fresh session at login: nothing set before it survives (session fixation)
    if order_tokens:
        session["order_tokens"] = order_tokens  # guest orders placed in this browser stay visible
    # A server-side record of this login: logout revokes it, so a copied session or remember cookie dies too.
    user.login_session_id = accounts.start_login_session(user)
    login_user(user, remember=remember)
    if guest_id:
        cart.merge_guest_cart(guest_id, user.id)
    g.actor = Actor(user=user)


def log_out() -> None:
    """End this browser's login: its login-session record is revoked, so copies of its cookies stop working."""
    if current_user.is_authenticated:
        accounts.end_login_session(current_user.login_session_id)
    logout_user()
    session.clear()
    g.actor = Actor()


def _resolve() -> tuple[Actor, ApiToken | None]:
    token = bearer_token()
    if token:
        return api_tokens.actor_for_token(token)
    if current_user.is_authenticated:
        return Actor(user=current_user._get_current_object()), None
    return Actor(guest_id=session.get(GUEST_KEY)), None


def init_app(app: Flask) -> None:
    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    login_manager.login_message = "Please log in to see that page."
    login_manager.login_message_category = "info"
    login_manager.session_protection = "strong"

    @app.before_request
    def forget_previous_identity() -> None:
        # g belongs to the app context, which a caller (tests, CLI) may keep open across
        # requests; who is asking must be worked out afresh for every request.
        for key in ("actor", "api_token", "_login_user", app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")):
            g.pop(key, None)

    @login_manager.user_loader
    def load_user(user_id: str) -> User | None:
        # "<user id>:<credential version>:<login session id>" (User.get_id): a stale version (password changed,
        # logged out everywhere, disabled) or a revoked login session (logged out) is nobody.
        user_part, _, rest = (user_id or "").partition(":")
        version, _, session_id = rest.partition(":")
        if not (user_part.isdigit() and version.isdigit() and session_id):
            return None
        return accounts.user_for_login_session(int(user_part), int(version), session_id)

    @app.context_processor
    def inject_actor():
        actor = current_actor() if not bearer_token() else Actor()
        return {"actor": actor, "cart_count": cart.item_count(actor), "compare_ids": tray_on_this_page()}
