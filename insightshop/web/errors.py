"""Error handlers: the JSON envelope under /api, friendly pages everywhere else."""

from __future__ import annotations

import psycopg
import sqlalchemy.exc
from flask import Flask, current_app, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ..extensions import db
from ..services.errors import DomainError, ErrorCode

# The database is unreachable (stopped, restarting, refusing connections, the pool exhausted, a connection cut):
# a passing condition the client should retry, not a bug. SQLAlchemy wraps the driver's errors; the bare psycopg
# ones are listed for code that talks to the driver directly.
DATABASE_UNAVAILABLE = (
    sqlalchemy.exc.OperationalError,
    sqlalchemy.exc.InterfaceError,
    sqlalchemy.exc.DisconnectionError,
    sqlalchemy.exc.TimeoutError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)
RETRY_AFTER_SECONDS = 5

HTTP_CODES = {
    400: ErrorCode.BAD_REQUEST,
    401: ErrorCode.UNAUTHORIZED,
    403: ErrorCode.FORBIDDEN,
    404: ErrorCode.NOT_FOUND,
    405: ErrorCode.METHOD_NOT_ALLOWED,
    409: ErrorCode.CONFLICT,
    413: ErrorCode.PAYLOAD_TOO_LARGE,
    415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    429: ErrorCode.RATE_LIMITED,
}


# What a shopper reads on an error page: plain words and a way on, never the framework's stock sentence.
PAGE_TEXT = {
    400: ("Something is not right", "That request could not be handled. Please go back and try again."),
    403: ("This page is not for you", "Your account cannot open this page."),
    404: ("Page not found", "We could not find that page. It may have moved, or the address may be mistyped."),
    405: ("Not allowed", "That page cannot be used this way."),
    413: ("That was too much at once", "What you sent is larger than we accept. Please send something smaller."),
    429: (
        "Slow down a little",
        "You have tried that several times in a short while. Please wait a minute and try again.",
    ),
    500: ("Something went wrong", "We have been notified. Please try again in a moment."),
    503: ("We'll be right back", "The shop is briefly unavailable. Please try again in a few seconds."),
}


def wants_json() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def error_response(status: int, code: str, message: str, details: list | None = None, headers=None):
    """The one error shape of the JSON API."""
    response = jsonify({"error": {"code": str(code), "message": message, "details": details or []}})
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _page(status: int, title: str, message: str):
    # compare_ids=[]: a product page's 404 is an error page, not a place to compare from.
    return render_template("errors/error.html", status=status, title=title, message=message, compare_ids=[]), status


def handle_domain_error(error: DomainError):
    headers = {}
    if error.status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="insightshop"'
    if getattr(error, "retry_after", None):
        headers["Retry-After"] = str(error.retry_after)
    if wants_json():
        return error_response(error.status, error.code, error.message, error.details, headers=headers)
    body, status = _page(error.status, "Something is not right", error.message)
    return body, status, headers


def handle_csrf_error(error: CSRFError):
    if wants_json():
        return error_response(400, ErrorCode.CSRF_FAILED, error.description)
    return _page(400, "Your session expired", "Please reload the page and try again.")


def handle_http_error(error: HTTPException):
    original = getattr(error, "original_exception", None)
    if isinstance(original, DATABASE_UNAVAILABLE):
        # Raised where Flask only looks for 500 handlers (an after_request hook): still an outage, not a bug.
        return handle_database_unavailable(original)
    status = error.code or 500
    if wants_json():
        code = HTTP_CODES.get(status, ErrorCode.BAD_REQUEST if status < 500 else ErrorCode.INTERNAL_ERROR)
        headers = {"Allow": ", ".join(error.valid_methods)} if getattr(error, "valid_methods", None) else None
        message = error.description or error.name
        if status == 429:  # Flask-Limiter describes the limit ("5 per 1 minute"), not what to do
            message = f"Too many requests ({message}); please wait and try again"
        return error_response(status, code, message, headers=headers)
    title, message = PAGE_TEXT.get(status, ("Something is not right", "That request could not be handled."))
    if error.description and error.description != type(error).description and status != 429:
        message = error.description  # a route's own explanation beats the generic sentence
    return _page(status, title, message)


def handle_unexpected_error(error: Exception):
    current_app.logger.exception("Unhandled error", exc_info=error)
    if wants_json():
        return error_response(500, ErrorCode.INTERNAL_ERROR, "An unexpected error occurred")
    return _page(500, "Something went wrong", "We have been notified. Please try again in a moment.")


def handle_database_unavailable(error: Exception):
    """503 with Retry-After while the database cannot be reached; the app recovers by itself when it is back."""
    current_app.logger.warning("Database unavailable (%s): %s", type(error).__name__, _first_line(error))
    try:
        # The transaction died with its connection; the pool (pool_pre_ping) hands the next request a fresh one.
        db.session.rollback()
    except Exception:  # the rollback itself may need the dead connection
        current_app.logger.debug("Rollback after a lost database connection failed", exc_info=True)
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    title, message = PAGE_TEXT[503]
    if wants_json() or _prefers_json():
        return error_response(503, ErrorCode.SERVICE_UNAVAILABLE, message, headers=headers)
    # Not the usual error page: its layout reads the cart badge and the signed-in user from the database. The
    # template is rendered without the context processors for the same reason.
    page = current_app.jinja_env.get_template("errors/unavailable.html").render(title=title, message=message)
    return page, 503, headers


def _prefers_json() -> bool:
    # Health checks and other programs outside /api that ask for JSON get the envelope too.
    return request.accept_mimetypes.best_match(["text/html", "application/json"]) == "application/json"


def release_database_session(_error: BaseException | None = None) -> None:
    """End the request's session, even when the database went away after the answer was made.

    Closing rolls the session's transaction back, which needs the connection; if PostgreSQL cut it in the meantime
    the ROLLBACK fails and, left to Flask-SQLAlchemy's own teardown, turns a finished answer into gunicorn's bare
    500. The connection is dead either way, so it is invalidated (the pool replaces it) and the answer stands."""
    try:
        db.session.remove()
    except DATABASE_UNAVAILABLE as error:
        current_app.logger.warning("Database connection lost while closing a session: %s", _first_line(error))
        try:
            db.session.registry().invalidate()  # drops the connection without the ROLLBACK that failed
        except Exception:  # nothing left to save: the answer must still go out
            current_app.logger.debug("Invalidating a lost database connection failed", exc_info=True)
        finally:
            db.session.registry.clear()


def _first_line(error: Exception) -> str:
    # The driver's message without its SQL and background link: enough for a log line, never a page.
    return (str(error).strip().splitlines() or [""])[0][:300]


def init_app(app: Flask) -> None:
    # Registered in every mode, testing included: an unreachable database is an answer, not a crash.
    for error_class in DATABASE_UNAVAILABLE:
        app.register_error_handler(error_class, handle_database_unavailable)
    app.register_error_handler(DomainError, handle_domain_error)
    app.register_error_handler(CSRFError, handle_csrf_error)
    app.register_error_handler(HTTPException, handle_http_error)
    if not app.config.get("TESTING"):
        app.register_error_handler(Exception, handle_unexpected_error)
    # Registered after Flask-SQLAlchemy's teardown, so it runs first (Flask runs them in reverse); theirs then finds
    # no session left to close.
    app.teardown_appcontext(release_database_session)
