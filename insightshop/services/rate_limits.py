"""Rate limits that every door shares: the page, the JSON API, the tools and MCP count against the same keys.

A limit is taken *before* the guarded work runs, with one atomic increment per key (Redis INCR, or one
upsert statement in the database), so fifty concurrent attempts cannot all pass a check made before any of
them was counted. Work that should not count (a successful login) hands its units back afterwards.
The counters live in the rate limiter's storage, shared by every worker: Redis when REDIS_URL is set, the
database otherwise (rate_limit_database), with stand-ins while Redis is down (rate_limit_storage).
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass, field

from flask import current_app
from limits import RateLimitItem, parse

from .errors import DomainError, ErrorCode
from .rate_limit_storage import counters


class RateLimited(DomainError):
    """Too many attempts; `retry_after` is how many seconds until the window resets."""

    status = 429
    default_code = ErrorCode.RATE_LIMITED

    def __init__(self, message: str, *, retry_after: int, details: list | None = None):
        super().__init__(message, details=details)
        self.retry_after = max(1, int(retry_after))


@dataclass(frozen=True)
class Rule:
    """One named limit, e.g. Rule("login-account", "LOGIN_LIMIT_PER_ACCOUNT", "5 per minute").

    `setting` names the config key that may override the default (a `limits` string)."""

    name: str
    setting: str
    default: str
    message: str = "Too many attempts; try again later"

    def item(self) -> RateLimitItem:
        return parse(current_app.config.get(self.setting) or self.default)


@dataclass
class Reservation:
    """Units taken from one or more counters; `refund()` gives them back (idempotent)."""

    taken: list[tuple[str, float]] = field(default_factory=list)

    def refund(self) -> None:
        for key, expiry in self.taken:
            counters().run(lambda storage, key=key, expiry=expiry: _give_back(storage, key, expiry))
        self.taken = []


def _give_back(storage, key: str, expiry: float) -> None:
    if storage.get(key) > 0:  # the window may have ended meanwhile: never go below zero
        storage.incr(key, expiry, amount=-1)


def take(*limits: tuple[Rule, str | None]) -> Reservation:
    """Atomically count one attempt against every (rule, key); RateLimited (429) when any is exhausted.

    Keys that are None or empty are skipped. A refused attempt gives back what it took, so refusals
    do not push the window further away."""
    reservation = Reservation()
    if not current_app.config.get("RATELIMIT_ENABLED", True):
        return reservation
    for rule, raw_key in limits:
        if not raw_key:
            continue
        item = rule.item()
        key = _storage_key(rule, item, raw_key)
        expiry = item.get_expiry()
        count = counters().run(lambda storage, key=key, expiry=expiry: storage.incr(key, expiry, amount=1))
        reservation.taken.append((key, expiry))
        if count > item.amount:
            reservation.refund()
            seconds = counters().run(lambda storage, key=key, expiry=expiry: _seconds_left(storage, key, expiry))
            raise RateLimited(rule.message, retry_after=seconds,
                              details=[{"limit": str(item), "scope": rule.name}])  # fmt: skip
    return reservation


def reset(rule: Rule, raw_key: str) -> None:
    """Forget a counter (e.g. an admin unlocking an account)."""
    item = rule.item()
    key = _storage_key(rule, item, raw_key)
    counters().run(lambda storage: storage.clear(key))


def _storage_key(rule: Rule, item: RateLimitItem, raw_key: str) -> str:
    # Keys are hashed: emails and addresses never sit in Redis in clear, and any length fits.
    digest = hashlib.sha256(raw_key.strip().lower().encode("utf-8", "surrogatepass")).hexdigest()[:32]
    prefix = current_app.config.get("RATELIMIT_KEY_PREFIX", "insightshop")
    return f"{prefix}/shared/{rule.name}/{item.amount}/{item.get_expiry()}/{digest}"


def _seconds_left(storage, key: str, expiry: float) -> int:
    try:
        reset_at = storage.get_expiry(key)
    except Exception:  # a storage without expiry reads: the whole window is the honest upper bound
        return int(expiry)
    return max(1, math.ceil(reset_at - time.time()))
