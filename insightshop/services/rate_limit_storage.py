"""Where the shared rate-limit counters are kept: the limiter's storage (Redis when REDIS_URL is set, so every app
server counts against the same keys), or this process's memory while Redis cannot be reached.

A Redis outage must not turn every login into a 500: the limits keep holding, per process (a client spread over
N processes may then get up to N times the limit), and go back to Redis once it answers a ping again. The
decorator limits of Flask-Limiter fall back the same way (RATELIMIT_IN_MEMORY_FALLBACK_ENABLED)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from flask import Flask, current_app
from limits.storage import MemoryStorage, Storage

from ..extensions import limiter
from .outages import Outage

T = TypeVar("T")
EXTENSION_KEY = "insightshop.rate_limit_counters"


class CounterStorage:
    """The primary storage with a memory stand-in; Redis is pinged again at most every `retry_seconds`."""

    def __init__(self, primary: Storage, retry_seconds: float):
        self.primary = primary
        self.memory = MemoryStorage()
        self.retry_seconds = retry_seconds
        self.outage = Outage("Redis (rate limits)", "rate limits are counted in this process's memory")
        self._next_probe = 0.0
        self._lock = threading.Lock()

    def run(self, operation: Callable[[Storage], T]) -> T:
        """operation(storage) on Redis, or on memory while Redis is down (a failing call switches to memory)."""
        if isinstance(self.primary, MemoryStorage) or not self._primary_usable():
            return operation(self.memory)
        try:
            return operation(self.primary)
        except self.primary.base_exceptions as error:
            self._went_down(error)
            return operation(self.memory)

    def _went_down(self, error: BaseException) -> None:
        with self._lock:
            self._next_probe = time.monotonic() + self.retry_seconds
        self.outage.failed(error)

    def _primary_usable(self) -> bool:
        if not self.outage.down:
            return True
        # One request per interval probes Redis; the others go on with memory without waiting on a timeout.
        with self._lock:
            now = time.monotonic()
            if now < self._next_probe:
                return False
            self._next_probe = now + self.retry_seconds
        if not self.primary.check():
            return False
        # Counts taken during the outage stay behind: the next outage starts from empty windows.
        self.memory.reset()
        self.outage.recovered()
        return True


def init_app(app: Flask) -> None:
    """Wrap the storage the limiter was just initialised with (call after limiter.init_app)."""
    retry = float(app.config.get("REDIS_RETRY_SECONDS", 5.0))
    app.extensions[EXTENSION_KEY] = CounterStorage(limiter.storage, retry)


def counters() -> CounterStorage:
    """This app's counter storage."""
    return current_app.extensions[EXTENSION_KEY]
