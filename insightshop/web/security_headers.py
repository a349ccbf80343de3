"""Security headers on every response."""

from __future__ import annotations

from flask import Flask, Response, current_app, request, session
from werkzeug.exceptions import SecurityError

from ..services.errors import ErrorCode
from .anonymous_session import holds_nothing_personal

# htmx runs from our own static file and needs no inline script or style, so nothing inline is allowed.
CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)


# The payment page alone also lets Stripe.js load, talk to Stripe and frame its Payment Element.
STRIPE_CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self' https://js.stripe.com",
        "style-src 'self'",
        "img-src 'self' data: https://*.stripe.com",
        "connect-src 'self' https://api.stripe.com",
        "frame-src https://js.stripe.com https://hooks.stripe.com",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)


CREDENTIAL_PATHS = ("/api/auth/", "/api/tools/auth_")
# Pages that are someone's own whoever asks (an order opened from a mailed link carries no login): never stored,
# whatever the view set (send_file marks files cacheable).
PERSONAL_BLUEPRINTS = frozenset({"auth", "orders", "receipts", "admin", "admin_api", "cart", "wishlist", "assistant"})
PRIVATE = "no-store, private"


def init_app(app: Flask) -> None:
    @app.errorhandler(SecurityError)
    def refuse_untrusted_host(_error: SecurityError):
        # A Host header outside TRUSTED_HOSTS: no URL can be built for it, so no page template either.
        message = "This host name is not served here."
        if request.path.startswith("/api/"):
            return {"error": {"code": ErrorCode.BAD_REQUEST.value, "message": message, "details": []}}, 400
        return Response(message, status=400, mimetype="text/plain")

    @app.after_request
    def add_security_headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "strict-origin-when-cross-origin")
        response.headers.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        if request.blueprint in PERSONAL_BLUEPRINTS or (response.is_json and _authenticated()):
            # Someone's own data (orders, receipts, tokens, profile, admin) must not sit in a shared or browser cache.
            response.headers["Cache-Control"] = PRIVATE
        elif "Cache-Control" not in response.headers and _personal_request():
            # Any other page seen by a signed-in shopper or a guest with a cart carries their name, badge or tray.
            response.headers["Cache-Control"] = PRIVATE
        if app.config["APP_ENV"] == "production":
            response.headers.setdefault("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
        if app.config.get("INSTANCE_NAME"):
            # Behind a load balancer: which app server answered (operators, and the several-servers test).
            response.headers["X-Served-By"] = app.config["INSTANCE_NAME"]
        return response


def _personal_request() -> bool:
    return _authenticated() or not holds_nothing_personal(session)


def _authenticated() -> bool:
    """Did the request come with credentials (a bearer token, a logged-in session or a remember cookie), or may
    the answer carry one (logins hand out tokens)?"""
    # An order token (a guest's order opened through the API) is a credential too: the answer is that whole order.
    if request.headers.get("Authorization") or request.headers.get("X-Order-Token"):
        return True
    if request.path.startswith(CREDENTIAL_PATHS):
        return True
    if request.cookies.get(current_app.config.get("REMEMBER_COOKIE_NAME", "remember_token")):
        return True
    return "_user_id" in session
