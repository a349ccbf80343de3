"""The HTTP side of observability: the access log line and request metrics per request, and /metrics."""

from __future__ import annotations

import hmac
import logging
import time

from flask import Blueprint, Flask, Response, abort, current_app, g, request

from ..extensions import limiter
from . import metrics
from .logging import ACCESS_LOGGER, loggable_path

access_log = logging.getLogger(ACCESS_LOGGER)
LOOPBACK = frozenset({"127.0.0.1", "::1"})
# Probes and scrapes every few seconds would drown the access log; they are still counted in the metrics.
QUIET_ENDPOINTS = frozenset({"shop.health", "shop.ready", "observability.show_metrics"})

observability = Blueprint("observability", __name__)


@observability.get("/metrics")
@limiter.exempt
def show_metrics():
    if not metrics_allowed():
        abort(404)  # not "forbidden": the endpoint's existence is nobody else's business
    body, content_type = metrics.exposition()
    response = Response(body, content_type=content_type)
    response.headers["Cache-Control"] = "no-store"
    return response


def metrics_allowed() -> bool:
    """Loopback callers (a Prometheus agent on the same machine), or anyone with the METRICS_TOKEN bearer token.

    A loopback request that carries X-Forwarded-For came through a reverse proxy on this machine: it is really
    from outside, so it needs the token too."""
    token = current_app.config.get("METRICS_TOKEN")
    if token:
        scheme, _, sent = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(sent.strip().encode(), token.encode()):
            return True
    return request.remote_addr in LOOPBACK and "X-Forwarded-For" not in request.headers


def init_app(app: Flask) -> None:
    app.register_blueprint(observability)

    @app.before_request
    def start_clock() -> None:
        g.request_started = time.perf_counter()

    @app.after_request
    def record_request(response: Response) -> Response:
        seconds = time.perf_counter() - g.get("request_started", time.perf_counter())
        rule = request.url_rule.rule if request.url_rule is not None else None
        record_answer(request.method, rule, request.endpoint, response.status_code, seconds)
        return response


def record_answer(method: str, rule: str | None, endpoint: str | None, status: int, seconds: float,
                  request_fields: dict | None = None) -> None:  # fmt: skip
    """Count an answered request and write its access line. Inside a Flask request the log filter adds the request
    id, method and path; an answer made outside one (the page cache's) passes them as request_fields."""
    metrics.observe_request(method, rule, status, seconds)
    level = logging.DEBUG if endpoint in QUIET_ENDPOINTS else logging.INFO
    if access_log.isEnabledFor(level):
        request_fields = request_fields or {}
        path = request_fields.get("path") or loggable_path()
        access_log.log(level, "%s %s %s", method, path, status,
                       extra={"status": status, "duration_ms": round(seconds * 1000, 1), "endpoint": endpoint,
                              **request_fields})  # fmt: skip
