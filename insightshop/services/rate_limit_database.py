"""Rate-limit counters in the shop's database: the shared store of every worker and app server without Redis.

`DatabaseStorage` is a `limits` storage (scheme `database://`), so the shared counters of `rate_limits.take` and
Flask-Limiter's `@limiter.limit` decorators both count in the `rate_limit_counters` table. Each operation runs on a
connection and in a transaction of its own, never in the request's session: a request that rolls back neither
loses nor repeats its counts. An increment is one atomic statement on SQLite and PostgreSQL alike
(INSERT … ON CONFLICT DO UPDATE … RETURNING); a window that has ended starts again from the increment, and ended
windows are deleted now and then, in a transaction of their own after the increment.
"""

from __future__ import annotations

import hashlib
import random
import time

from flask import has_app_context
from limits.storage import Storage
from sqlalchemy import case, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from ..extensions import db
from ..models.rate_limits import RateLimitCounter

SCHEME = "database"
MAX_KEY_LENGTH = 255
# Roughly one increment in CLEANUP_ODDS deletes the windows that ended more than CLEANUP_GRACE seconds ago.
CLEANUP_ODDS = 200
CLEANUP_GRACE = 60.0

_table = RateLimitCounter.__table__


class DatabaseStorage(Storage):
    """Fixed-window counters in the `rate_limit_counters` table of the current app's database."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self._engine: Engine | None = None

    def bind(self, engine: Engine) -> None:
        """The engine used outside an app context (inside one, the current app's engine is used)."""
        self._engine = engine

    @property
    def base_exceptions(self) -> tuple[type[Exception], ...]:
        return (DBAPIError, PoolTimeout)

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Add `amount` to the key's window (a new window of `expiry` seconds when there is none); the new count."""
        key, now = _stored(key), time.time()
        with self._connect() as connection:
            if amount < 0:  # a refund: only from a live window, never below zero
                row = connection.execute(
                    update(_table)
                    .where(_table.c.key == key, _table.c.expires_at > now, _table.c.count >= -amount)
                    .values(count=_table.c.count + amount)
                    .returning(_table.c.count)
                ).first()
                return row[0] if row else 0
            count = connection.execute(_upsert(connection.dialect.name, key, now, float(expiry), amount)).scalar_one()
        if random.randrange(CLEANUP_ODDS) == 0:
            self._delete_ended(now)
        return int(count)

    def _delete_ended(self, now: float) -> None:
        # In a transaction of its own, after the increment has committed: a DELETE of many rows inside the hot
        # upsert transaction (holding its row lock) could deadlock with another worker's upsert on PostgreSQL.
        # A failed cleanup costs nothing but stale rows; the next one deletes them.
        try:
            with self._connect() as connection:
                connection.execute(delete(_table).where(_table.c.expires_at < now - CLEANUP_GRACE))
        except self.base_exceptions:
            pass

    def get(self, key: str) -> int:
        with self._connect() as connection:
            count = connection.scalar(
                select(_table.c.count).where(_table.c.key == _stored(key), _table.c.expires_at > time.time())
            )
        return int(count or 0)

    def get_expiry(self, key: str) -> float:
        now = time.time()
        with self._connect() as connection:
            expires = connection.scalar(
                select(_table.c.expires_at).where(_table.c.key == _stored(key), _table.c.expires_at > now)
            )
        return float(expires) if expires is not None else now

    def check(self) -> bool:
        try:
            with self._connect() as connection:
                connection.scalar(select(_table.c.key).limit(1))
        except self.base_exceptions:
            return False
        return True

    def reset(self) -> int | None:
        with self._connect() as connection:
            return connection.execute(delete(_table)).rowcount

    def clear(self, key: str) -> None:
        with self._connect() as connection:
            connection.execute(delete(_table).where(_table.c.key == _stored(key)))

    def _connect(self):
        # A pooled connection of its own, committed at the end of the block: apart from the request's session.
        engine = db.engine if has_app_context() else self._engine
        if engine is None:
            raise RuntimeError("DatabaseStorage needs an app context or bind(engine)")
        return engine.begin()


def _upsert(dialect: str, key: str, now: float, expiry: float, amount: int):
    if dialect == "postgresql":
        insert = postgresql.insert
    elif dialect == "sqlite":
        insert = sqlite.insert
    else:
        raise NotImplementedError(f"rate-limit counters in the database need SQLite or PostgreSQL, not {dialect}")
    statement = insert(_table).values(key=key, count=amount, expires_at=now + expiry)
    ended = _table.c.expires_at <= now
    return statement.on_conflict_do_update(
        index_elements=[_table.c.key],
        set_={
            "count": case((ended, amount), else_=_table.c.count + amount),
            "expires_at": case((ended, now + expiry), else_=_table.c.expires_at),
        },
    ).returning(_table.c.count)


def _stored(key: str) -> str:
    # Flask-Limiter's keys hold the route and the client; a longer one than fits is stored as its digest.
    if len(key) <= MAX_KEY_LENGTH:
        return key
    return "sha256:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
