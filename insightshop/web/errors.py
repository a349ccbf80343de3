"""Error handlers: the JSON envelope under /api, friendly pages everywhere else."""

from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ..services.errors import DomainError, ErrorCode

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


def init_app(app: Flask) -> None:
    app.register_error_handler(DomainError, handle_domain_error)
    app.register_error_handler(CSRFError, handle_csrf_error)
    app.register_error_handler(HTTPException, handle_http_error)
    if not app.config.get("TESTING"):
        app.register_error_handler(Exception, handle_unexpected_error)
