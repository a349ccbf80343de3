"""Where the shared rate-limit counters are kept: the limiter's storage — Redis when REDIS_URL is set, else the
shop's database (rate_limit_database) — so every worker and app server counts against the same keys.

A Redis outage must not turn every login into a 500: the limits keep holding in the database meanwhile (still
shared), in this process's memory only if the database cannot count either (a client spread over N processes may
then get up to N times the limit), and go back to Redis once it answers a ping again. A busy SQLite lock is not an
outage: that one operation is counted in memory (rate_limit_database.CountersBusy). Flask-Limiter's decorator
limits count through the same stand-ins (SharedCounters), so they too hold in the database while Redis is down."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from flask import Flask, current_app
from limits.storage import MemoryStorage, Storage

from ..extensions import db, limiter
from .outages import Outage
from .rate_limit_database import CountersBusy, DatabaseStorage

T = TypeVar("T")
EXTENSION_KEY = "insightshop.rate_limit_counters"


class CounterStorage:
    """The primary storage with stand-ins while it is down: `stand_in` (the database behind Redis), then this
    process's memory. The primary is pinged again at most every `retry_seconds`."""

    def __init__(self, primary: Storage, retry_seconds: float, stand_in: Storage | None = None):
        self.primary = primary
        self.stand_in = stand_in
        self.memory = MemoryStorage()
        self.retry_seconds = retry_seconds
        backend = "The database (rate limits)" if isinstance(primary, DatabaseStorage) else "Redis (rate limits)"
        where = "the database" if stand_in is not None else "this process's memory"
        self.outage = Outage(backend, f"rate limits are counted in {where}")
        self._next_probe = 0.0
        self._lock = threading.Lock()

    def run(self, operation: Callable[[Storage], T]) -> T:
        """operation(storage) on the primary, or on a stand-in while it is down (a failing call switches over)."""
        if isinstance(self.primary, MemoryStorage):
            return operation(self.primary)
        if not self._primary_usable():
            return self._standing_in(operation)
        try:
            return operation(self.primary)
        except CountersBusy:  # SQLite's write lock stayed taken: contention, not an outage
            return operation(self.memory)
        except self.primary.base_exceptions as error:
            self._went_down(error)
            return self._standing_in(operation)

    def _standing_in(self, operation: Callable[[Storage], T]) -> T:
        if self.stand_in is not None:
            try:
                return operation(self.stand_in)
            except (*self.stand_in.base_exceptions, CountersBusy):
                pass  # the database cannot count either: this process's memory is all that is left
        return operation(self.memory)

    def _went_down(self, error: BaseException) -> None:
        with self._lock:
            self._next_probe = time.monotonic() + self.retry_seconds
        self.outage.failed(error)

    def _primary_usable(self) -> bool:
        if not self.outage.down:
            return True
        # One request per interval probes the primary; the others go on with a stand-in without waiting on a timeout.
        with self._lock:
            now = time.monotonic()
            if now < self._next_probe:
                return False
            self._next_probe = now + self.retry_seconds
        if not self.primary.check():
            return False
        # Counts taken in memory during the outage stay behind (the database's end with their windows).
        self.memory.reset()
        self.outage.recovered()
        return True


class SharedCounters(Storage):
    """Flask-Limiter's decorator limits through the current app's CounterStorage: the same stand-ins as
    rate_limits.take (Redis, the database while it is down, memory only if that fails too). It never raises a
    storage error, so Flask-Limiter's own per-process memory fallback is never used."""

    STORAGE_SCHEME = None

    @property
    def base_exceptions(self) -> tuple[type[Exception], ...]:
        return ()

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        return counters().run(lambda storage: storage.incr(key, expiry, amount=amount))

    def get(self, key: str) -> int:
        return counters().run(lambda storage: storage.get(key))

    def get_expiry(self, key: str) -> float:
        return counters().run(lambda storage: storage.get_expiry(key))

    def check(self) -> bool:
        return True

    def reset(self) -> int | None:
        return counters().run(lambda storage: storage.reset())

    def clear(self, key: str) -> None:
        counters().run(lambda storage: storage.clear(key))


def init_app(app: Flask) -> None:
    """Wrap the storage the limiter was just initialised with (call after limiter.init_app)."""
    retry = float(app.config.get("REDIS_RETRY_SECONDS", 5.0))
    primary = limiter.storage
    with app.app_context():
        engine = db.engine
    if isinstance(primary, DatabaseStorage):
        primary.bind(engine)
        stand_in = None
    elif isinstance(primary, MemoryStorage):
        stand_in = None  # RATELIMIT_STORAGE_URI=memory:// on purpose (one process)
    else:
        stand_in = DatabaseStorage()
        stand_in.bind(engine)
    app.extensions[EXTENSION_KEY] = CounterStorage(primary, retry, stand_in)
    # The limiting strategy (public `Limiter.limiter`) counts through SharedCounters; `limiter.storage` stays the
    # primary. The limiter is one object for every app of a process: SharedCounters asks the current app.
    limiter.limiter.storage = SharedCounters()


def counters() -> CounterStorage:
    """This app's counter storage."""
    return current_app.extensions[EXTENSION_KEY]
