"""Operations plumbing: request ids, JSON logs and Prometheus metrics, wired by one init_app call."""

from __future__ import annotations

from flask import Flask

from . import logging, request_id, web


def init_app(app: Flask) -> None:
    # Request ids first: every later hook, log line and audit entry of the request can use the id.
    request_id.init_app(app)
    logging.init_app(app)
    web.init_app(app)
