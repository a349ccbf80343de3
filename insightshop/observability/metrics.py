"""Prometheus metrics: HTTP requests, tool calls and chat turns, with the official prometheus_client.

Labels are bounded on purpose (a route's rule, not its path; a known tool's name, not whatever a client sent):
every distinct label value is a time series kept forever by Prometheus.

Under gunicorn every worker is its own process with its own counters. With PROMETHEUS_MULTIPROC_DIR set (a
directory of its own, set in the environment before the app is imported, emptied at each deploy: every *.db file
in it is read as metrics) prometheus_client keeps the values in files there and /metrics adds up every worker's.
The gunicorn config must then tell it when a worker goes away, or the dead worker's live gauges linger:

    from insightshop.observability.metrics import mark_process_dead

    def child_exit(server, worker):
        mark_process_dead(worker.pid)
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED = "<unmatched>"  # 404s and the like: any number of paths, one series
UNKNOWN_TOOL = "<unknown>"

HTTP_REQUESTS = Counter(
    "insightshop_http_requests_total",
    "HTTP requests answered, by method, route and status",
    ["method", "endpoint", "status"],
)
HTTP_LATENCY = Histogram(
    "insightshop_http_request_duration_seconds",
    "Time to answer an HTTP request, by method and route",
    ["method", "endpoint"],
)
TOOL_CALLS = Counter(
    "insightshop_tool_calls_total", "Tool calls through run_tool, by tool and outcome", ["tool", "outcome"]
)
CHAT_TURNS = Counter("insightshop_chat_turns_total", "Chat turns answered, by the engine that answered", ["engine"])


def observe_request(method: str, endpoint: str | None, status: int, seconds: float) -> None:
    """Count one answered request and its duration; endpoint is the matched URL rule (None when nothing matched)."""
    method = method if method in METHODS else "OTHER"
    endpoint = endpoint or UNMATCHED
    HTTP_REQUESTS.labels(method, endpoint, str(status)).inc()
    HTTP_LATENCY.labels(method, endpoint).observe(seconds)


def count_tool_call(tool: str | None, outcome: str) -> None:
    """Count one tool call; tool is None when the name is not a known tool (whatever a client made up)."""
    TOOL_CALLS.labels(tool or UNKNOWN_TOOL, outcome).inc()


def count_chat_turn(engine: str) -> None:
    CHAT_TURNS.labels(engine).inc()


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def exposition() -> tuple[bytes, str]:
    """The metrics in Prometheus' text format and its content type: every worker's when in multiprocess mode."""
    if multiprocess_dir():
        registry = CollectorRegistry()  # a fresh one per scrape, as prometheus_client's docs prescribe
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    return generate_latest(registry), CONTENT_TYPE_LATEST


def mark_process_dead(pid: int) -> None:
    """For gunicorn's child_exit hook: forget a dead worker's live gauges (nothing to do outside multiprocess mode)."""
    if multiprocess_dir():
        multiprocess.mark_process_dead(pid)
