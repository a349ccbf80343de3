"""A cache of what every anonymous visitor sees alike (pages, fragments, facet counts), invalidated by the catalog.

Entries are stored with the catalog generation they were made at; any commit that writes a product, variant, sale
or review bumps the generation, so an entry from before it is a miss. Sales also start and end at midnight without
any write: the caller bounds each entry's lifetime by the next such boundary (see pricing.next_price_change).

Backends: Redis when REDIS_URL is set (several machines share entries and generation), else this process's memory
(a bounded LRU). This module knows nothing of HTTP: keys and values are plain strings and bytes."""

from __future__ import annotations

import os
import pickle
import threading
import time
import uuid
from collections import OrderedDict
from pathlib import Path

from sqlalchemy import event
from sqlalchemy.orm import Session

from ..models.catalog import Product, ProductVariant
from ..models.reviews import Review
from ..models.sales import Sale
from .outages import Outage

WATCHED_MODELS = (Product, ProductVariant, Sale, Review)
GENERATION_FILE = "catalog_generation"
CHANGED_FLAG = "page_cache_catalog_changed"


class GenerationFile:
    """The memory backend's catalog generation, shared by every worker process of this machine.

    Gunicorn's workers each hold their own memory cache, so a change committed in one must reach the others. A file
    in the instance folder does that without a server: a bump writes a fresh random token and renames it into place
    (atomic, so a reader sees the old or the new token, never half of one); a read is one stat() per request, and
    the file is read again only when its inode or mtime changed. A database row would cost a query per request,
    which is what the cache is there to save."""

    def __init__(self, folder: str):
        self.path = Path(folder) / GENERATION_FILE
        self._seen: tuple[int, int] | None = None
        self._token = ""

    def read(self) -> str:
        try:
            stat = os.stat(self.path)
        except FileNotFoundError:
            return ""
        signature = (stat.st_ino, stat.st_mtime_ns)
        if signature != self._seen:
            try:
                self._token = self.path.read_text()
            except FileNotFoundError:  # replaced between stat and read: take the next one
                return self.read()
            self._seen = signature
        return self._token

    def bump(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_name(f"{GENERATION_FILE}.{uuid.uuid4().hex}")
        temporary.write_text(uuid.uuid4().hex)
        os.replace(temporary, self.path)


class MemoryBackend:
    """Entries in this process, least recently used dropped first; thread-safe for threaded workers."""

    def __init__(self, generation: GenerationFile, max_entries: int):
        self.generation = generation
        self.max_entries = max_entries
        self._entries: OrderedDict[str, tuple[float, object]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> object | None:
        generation = self.generation.read()
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            expires, (stored_generation, value) = found
            if stored_generation != generation or expires <= time.monotonic():
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return value

    def set(self, key: str, value: object, ttl: int) -> None:
        entry = (time.monotonic() + ttl, (self.generation.read(), value))
        with self._lock:
            self._entries[key] = entry
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def bump(self) -> None:
        self.generation.bump()
        with self._lock:
            self._entries.clear()


class RedisBackend:
    """Entries and the generation in Redis: one MGET reads both, so a lookup is a single round trip."""

    def __init__(self, url: str, prefix: str):
        import redis

        self.client = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
        self.prefix = prefix
        self.generation_key = f"{prefix}generation"

    def get(self, key: str) -> object | None:
        generation, stored = self.client.mget(self.generation_key, self.prefix + key)
        if stored is None:
            return None
        stored_generation, value = pickle.loads(stored)  # written only by this module, under our own prefix
        return value if stored_generation == (generation or b"0") else None

    def set(self, key: str, value: object, ttl: int) -> None:
        generation = self.client.get(self.generation_key) or b"0"
        self.client.set(self.prefix + key, pickle.dumps((generation, value)), ex=max(1, ttl))

    def bump(self) -> None:
        self.client.incr(self.generation_key)


class PageCache:
    """Redis when configured and reachable, else memory; a Redis outage is logged once and never fails a page."""

    def __init__(self, instance_path: str, *, redis_url: str | None, prefix: str, max_entries: int,
                 retry_seconds: float = 5.0):  # fmt: skip
        self.memory = MemoryBackend(GenerationFile(instance_path), max_entries)
        self.redis = RedisBackend(redis_url, prefix) if redis_url else None
        self.outage = Outage("Redis (page cache)", "pages are cached in this process's memory")
        self.retry_seconds = retry_seconds
        self._next_try = 0.0

    def get(self, key: str) -> object | None:
        return self._call("get", key)

    def set(self, key: str, value: object, ttl: int) -> None:
        if ttl > 0:
            self._call("set", key, value, ttl)

    def bump(self) -> None:
        """The catalog changed: every entry made before now is stale, in every process and on every machine."""
        self.memory.bump()  # also when Redis is up: a worker that fell back to memory must not keep stale pages
        if self.redis is not None:
            self._call("bump")

    def _call(self, name: str, *args):
        import redis

        if self.redis is not None and self._redis_usable():
            try:
                result = getattr(self.redis, name)(*args)
            except redis.RedisError as error:
                self._redis_failed(error)
            else:
                self._redis_recovered()
                return result
        if name == "bump":
            return None  # the memory backend was bumped already
        return getattr(self.memory, name)(*args)

    def _redis_usable(self) -> bool:
        # While it is down, a call tries Redis again at most every retry_seconds; the others use memory at once.
        return not self.outage.down or time.monotonic() >= self._next_try

    def _redis_failed(self, error: Exception) -> None:
        self._next_try = time.monotonic() + self.retry_seconds
        self.outage.failed(error)

    def _redis_recovered(self) -> None:
        if self.outage.down:
            self.outage.recovered()
            # Changes committed while it was down did not reach Redis: whatever it holds may be stale.
            self.redis.bump()


# Every commit that wrote a product, variant, sale or review bumps the generation, once, after it is durable. A
# rolled-back change leaves the flag set: the next commit then bumps once more than needed, which is harmless.
# The listeners find the cache through a callback so that this module stays free of Flask.
_current_cache = None


def install_invalidation(current_cache, session_class=Session) -> None:
    """Bump `current_cache()` (the app's PageCache, or None) after every commit that changed the catalog."""
    global _current_cache
    _current_cache = current_cache
    for name, listener in (
        ("after_flush", _note_flush),
        ("do_orm_execute", _note_bulk_statement),
        ("after_commit", _bump_after_commit),
    ):
        if not event.contains(session_class, name, listener):
            event.listen(session_class, name, listener)


def _note_flush(session: Session, _flush_context) -> None:
    if any(isinstance(obj, WATCHED_MODELS) for obj in (*session.new, *session.dirty, *session.deleted)):
        session.info[CHANGED_FLAG] = True


def _note_bulk_statement(state) -> None:
    mapper = state.bind_mapper if (state.is_update or state.is_delete) else None
    if mapper is not None and mapper.class_ in WATCHED_MODELS:
        state.session.info[CHANGED_FLAG] = True


def _bump_after_commit(session: Session) -> None:
    if session.info.pop(CHANGED_FLAG, False) and _current_cache is not None:
        cache = _current_cache()
        if cache is not None:
            cache.bump()
