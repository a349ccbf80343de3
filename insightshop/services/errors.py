"""Domain errors: every service failure carries a stable code, a message and details."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    """Stable error codes of the JSON API and the tools; clients may branch on them."""

    BAD_REQUEST = "bad_request"
    INVALID_JSON = "invalid_json"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    UNREADABLE_DOCUMENT = "unreadable_document"
    VALIDATION_ERROR = "validation_error"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    FORBIDDEN = "forbidden"
    UNAUTHORIZED = "unauthorized"
    CSRF_FAILED = "csrf_failed"
    CONFLICT = "conflict"
    OUT_OF_STOCK = "out_of_stock"
    QUANTITY_LIMIT = "quantity_limit"
    CART_EMPTY = "cart_empty"
    INVALID_TRANSITION = "invalid_transition"
    ALREADY_PAID = "already_paid"
    ORDER_EXPIRED = "order_expired"
    HOLD_LIMIT = "hold_limit"  # a guest's unpaid orders would hold more than allowed: sign in or pay the open one
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    PAYMENT_DECLINED = "payment_declined"
    PAYMENT_FAILED = "payment_failed"
    SIGNATURE_INVALID = "signature_invalid"
    RETURN_NOT_ALLOWED = "return_not_allowed"
    VARIANT_REQUIRED = "variant_required"
    DUPLICATE_RECEIPT = "duplicate_receipt"
    TOKEN_INVALID = "token_invalid"
    TOKEN_EXPIRED = "token_expired"
    TOKEN_REVOKED = "token_revoked"
    RATE_LIMITED = "rate_limited"
    UNAVAILABLE = "unavailable"
    SERVICE_UNAVAILABLE = "service_unavailable"  # the database is unreachable: retry after Retry-After seconds
    INTERNAL_ERROR = "internal_error"


class DomainError(Exception):
    """Base of all service errors; `status` is the HTTP status the API answers with."""

    status = 400
    default_code = ErrorCode.BAD_REQUEST

    def __init__(self, message: str, *, code: ErrorCode | str | None = None, details: list[Any] | None = None):
        super().__init__(message)
        self.code = str(code or self.default_code)
        self.message = message
        self.details = details or []

    def to_dict(self) -> dict:
        return {"error": {"code": self.code, "message": self.message, "details": self.details}}


class Invalid(DomainError):
    status = 400
    default_code = ErrorCode.VALIDATION_ERROR


class NotFound(DomainError):
    status = 404
    default_code = ErrorCode.NOT_FOUND


class Forbidden(DomainError):
    status = 403
    default_code = ErrorCode.FORBIDDEN


class Conflict(DomainError):
    status = 409
    default_code = ErrorCode.CONFLICT


class Unavailable(DomainError):
    """A service the shop depends on failed; `retry_after` (seconds), when known, says when to try again."""

    status = 503
    default_code = ErrorCode.UNAVAILABLE

    def __init__(self, message: str, *, code: ErrorCode | str | None = None, details: list[Any] | None = None,
                 retry_after: int | None = None):  # fmt: skip
        super().__init__(message, code=code, details=details)
        self.retry_after = retry_after


class TooLarge(DomainError):
    status = 413
    default_code = ErrorCode.PAYLOAD_TOO_LARGE


class UnsupportedType(DomainError):
    status = 415
    default_code = ErrorCode.UNSUPPORTED_MEDIA_TYPE
