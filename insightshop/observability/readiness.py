"""Readiness: can this app server do its work right now? The database must answer; Redis, when configured, is
reported but does not decide: the shop keeps serving without it (limits and the page cache fall back, receipts wait),
so a load balancer probing /readyz must not pull every server during a Redis outage. It says "degraded" instead.

Each check runs on a small thread pool with a deadline, so a database host that drops packets makes the probe
answer "timeout" in about a second instead of hanging until the driver or the OS gives up. The pool is bounded:
checks stuck on a dead host queue behind each other instead of piling up threads.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

import sqlalchemy as sa

log = logging.getLogger(__name__)
TIMEOUT_SECONDS = 1.5
_checks = ThreadPoolExecutor(max_workers=2, thread_name_prefix="readiness")


def check_readiness(engine: sa.Engine, redis_url: str | None) -> dict[str, str]:
    """Every check's verdict: "ok", "not configured", "timeout" or "unavailable" (details go to the log only)."""
    return {
        "database": _within_deadline("database", lambda: _ping_database(engine)),
        "redis": _within_deadline("redis", lambda: _ping_redis(redis_url)) if redis_url else "not configured",
    }


REQUIRED_CHECKS = ("database",)


def is_ready(checks: dict[str, str]) -> bool:
    """Ready to take traffic: every required check passed (the optional ones only degrade the service)."""
    return all(checks.get(name) == "ok" for name in REQUIRED_CHECKS)


def status_of(checks: dict[str, str]) -> str:
    """ "ready", "degraded" (serving, with an optional dependency down) or "unavailable"."""
    if not is_ready(checks):
        return "unavailable"
    healthy = all(verdict in ("ok", "not configured") for verdict in checks.values())
    return "ready" if healthy else "degraded"


def _within_deadline(name: str, check) -> str:
    future = _checks.submit(check)
    try:
        future.result(timeout=TIMEOUT_SECONDS)
    except FutureTimeout:
        future.cancel()  # still queued behind a stuck check: never run it
        log.warning("Readiness check %s timed out after %ss", name, TIMEOUT_SECONDS)
        return "timeout"
    except Exception as error:  # the probe reports; it never fails with a stack trace
        log.warning("Readiness check %s failed: %s", name, error)
        return "unavailable"
    return "ok"


def _ping_database(engine: sa.Engine) -> None:
    with engine.connect() as connection:
        if connection.dialect.name == "postgresql":  # a server that accepts but does not answer
            connection.execute(sa.text(f"SET LOCAL statement_timeout = {int(TIMEOUT_SECONDS * 1000)}"))
        connection.execute(sa.text("SELECT 1"))


def _ping_redis(url: str) -> None:
    from redis import Redis

    client = Redis.from_url(url, socket_connect_timeout=TIMEOUT_SECONDS, socket_timeout=TIMEOUT_SECONDS)
    try:
        client.ping()
    finally:
        client.close()
