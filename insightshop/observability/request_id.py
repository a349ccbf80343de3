"""A request id per request: the caller's X-Request-ID when it is sane, else a fresh one; echoed in the response.

A proxy or load balancer in front usually sets X-Request-ID, so the same id joins its log, ours and the audit log.
An id we did not make is only accepted when it cannot break a log line or a header (length, characters).
"""

from __future__ import annotations

import re
import uuid

from flask import Flask, Response, g, request

from .request_context import bind_request_id, reset_request_id

HEADER = "X-Request-ID"
SANE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def sane_request_id(raw: str | None) -> str | None:
    """The incoming id if it is safe to log and store as is, else None."""
    return raw if raw and SANE_ID.fullmatch(raw) else None


def new_request_id() -> str:
    return uuid.uuid4().hex


def current() -> str | None:
    """This request's id (None outside a request that went through init_app's hooks)."""
    return g.get("request_id")


def init_app(app: Flask) -> None:
    @app.before_request
    def assign_request_id() -> None:
        g.request_id = sane_request_id(request.headers.get(HEADER)) or new_request_id()
        g.request_id_token = bind_request_id(g.request_id)

    @app.after_request
    def echo_request_id(response: Response) -> Response:
        if g.get("request_id"):
            response.headers[HEADER] = g.request_id
        return response

    @app.teardown_request
    def forget_request_id(_error=None) -> None:
        token = g.pop("request_id_token", None)
        if token is not None:
            reset_request_id(token)
