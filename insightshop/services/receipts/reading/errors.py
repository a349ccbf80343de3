"""Why a document could not be read: stable codes, with the reason in details for the page to explain."""

from __future__ import annotations

from ...errors import ErrorCode, Invalid


class UnreadableDocument(Invalid):
    """The file is of a supported kind but cannot be read: empty, broken, encrypted or too large to decode."""

    status = 422
    default_code = ErrorCode.UNREADABLE_DOCUMENT

    def __init__(self, message: str, *, reason: str):
        super().__init__(message, details=[{"reason": reason}])
        self.reason = reason


class UnsupportedDocument(Invalid):
    """The file is not a kind of document receipts are read from (judged by its bytes, not its name)."""

    status = 415
    default_code = ErrorCode.UNSUPPORTED_MEDIA_TYPE

    def __init__(self, message: str, *, detected: str):
        super().__init__(message, details=[{"detected": detected}])
        self.detected = detected


class DocumentTooLarge(Invalid):
    status = 413
    default_code = ErrorCode.PAYLOAD_TOO_LARGE
