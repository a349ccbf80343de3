"""The JSON API under /api: same services as the pages, one error envelope."""

from __future__ import annotations

from flask import Blueprint, request

from ...extensions import csrf
from ...schemas.validation import MAX_JSON_DEPTH, NonFiniteNumber, TooDeep, parse_strict_json
from ...services.errors import DomainError, ErrorCode

api = Blueprint("api", __name__, url_prefix="/api")
# API clients authenticate with bearer tokens, which browsers never send by themselves, so
# CSRF protection applies only to requests riding on the browser session cookie.
csrf.exempt(api)


class BadRequestBody(DomainError):
    status = 400
    default_code = ErrorCode.INVALID_JSON


class UnsupportedMediaType(DomainError):
    status = 415
    default_code = ErrorCode.UNSUPPORTED_MEDIA_TYPE


@api.before_request
def protect_cookie_sessions():
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    if request.headers.get("Authorization", "").startswith("Bearer "):
        return
    if request.cookies:
        csrf.protect()


def json_body() -> dict:
    """The request's JSON object body, or a clear 4xx error."""
    if not request.is_json:
        raise UnsupportedMediaType("Send the body as JSON with Content-Type: application/json")
    try:
        body = parse_strict_json(request.get_data(cache=True))
    except NonFiniteNumber:
        raise BadRequestBody("The body contains NaN or Infinity, which are not JSON numbers") from None
    except TooDeep:
        raise BadRequestBody(f"The body is nested deeper than {MAX_JSON_DEPTH} levels") from None
    except ValueError:  # JSONDecodeError and UnicodeDecodeError
        raise BadRequestBody("The body is not valid JSON") from None
    if not isinstance(body, dict):
        raise BadRequestBody("The body must be a JSON object")
    return body


from . import agents, ai, auth, cart, citations, openapi, orders, products, receipts, reviews, tools, wishlist  # noqa: E402,F401  (routes register on the blueprint)
