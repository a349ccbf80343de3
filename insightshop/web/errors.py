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
    return render_template("errors/error.html", status=status, title=title, message=message), status


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
        return error_response(status, code, error.description or error.name, headers=headers)
    titles = {404: "Page not found", 405: "Not allowed", 413: "That was too much at once", 500: "Something went wrong"}
    return _page(status, titles.get(status, error.name), error.description or "")


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
