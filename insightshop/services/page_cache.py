"""A cache of what every anonymous visitor sees alike (pages, fragments, facet counts), invalidated by the catalog.

Entries are stored with the catalog generation read when their lookup missed, before they were computed; any commit
that writes a product, variant, sale or review bumps the generation, so an entry computed before it is a miss, even
one stored after it (a change committed while a page was rendering). Sales also start and end at midnight without
any write: the caller bounds each entry's lifetime by the next such boundary (see pricing.next_price_change).

Backends: Redis when REDIS_URL is set (several machines share entries and generation), else this process's memory
(a bounded LRU). This module knows nothing of HTTP: keys are strings, values anything that pickles.

Values in Redis are pickled and signed (HMAC-SHA256 with the app's secret): a value that anyone else wrote into that
Redis is refused before it is unpickled, so write access to Redis is not a way to run code in the app."""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import pickle
import threading
import time
import uuid
import zlib
from collections import OrderedDict
from pathlib import Path

from sqlalchemy import event, inspect
from sqlalchemy.orm import Session

from ..models.cart import MAX_LINE_QUANTITY
from ..models.catalog import Product, ProductVariant
from ..models.reviews import Review
from ..models.sales import Sale
from .outages import Outage

log = logging.getLogger(__name__)

WATCHED_MODELS = (Product, ProductVariant, Sale, Review)
GENERATION_FILE = "catalog_generation"
CHANGED_FLAG = "page_cache_catalog_changed"
FORMAT_VERSION = 2  # of the Redis entries (see RedisBackend): 2 = compressed, indexed for the size cap
REDIS_ENTRIES = 2000  # the default cap on entries kept in Redis (pages are ~8 KB compressed: ~16 MB)
# Entries are kept in budgets of their own. Free-text searches (any words anyone types) get a quarter of the cap on
# top of it: a flood of made-up searches can only push out other searches, never the home, category and product
# pages, which are bounded by what the catalog holds.
PAGES, SEARCHES = "pages", "searches"
SEARCH_SHARE = 0.25


def budget_caps(max_entries: int) -> dict[str, int]:
    """How many entries each budget may keep: max_entries pages, a quarter of that for free-text searches."""
    return {PAGES: max(1, max_entries), SEARCHES: max(1, int(max_entries * SEARCH_SHARE))}


# Pages show a variant's exact stock only up to here: "Only 3 left", the quantity picker's options (at most a cart
# line's limit). Above it a page says "In stock", whatever the count, so every order taking one of fifty shirts
# need not end every cached page (web/display.py shows no count above it).
VISIBLE_STOCK = MAX_LINE_QUANTITY


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
        self.caps = budget_caps(max_entries)
        self._budgets: dict[str, OrderedDict[str, tuple[float, object]]] = {name: OrderedDict() for name in self.caps}
        self._lock = threading.Lock()

    def get(self, key: str) -> tuple[object | None, str]:
        """The value (None when missing or stale) and the generation it was looked up at."""
        generation = self.generation.read()
        with self._lock:
            for entries in self._budgets.values():
                found = entries.get(key)
                if found is None:
                    continue
                expires, (stored_generation, value) = found
                if stored_generation != generation or expires <= time.monotonic():
                    del entries[key]
                    return None, generation
                entries.move_to_end(key)
                return value, generation
            return None, generation

    def set(self, key: str, value: object, ttl: int, generation: str, budget: str = PAGES) -> None:
        entry = (time.monotonic() + ttl, (generation, value))
        with self._lock:
            entries = self._budgets[budget]
            entries[key] = entry
            entries.move_to_end(key)
            while len(entries) > self.caps[budget]:
                entries.popitem(last=False)

    def bump(self) -> None:
        self.generation.bump()
        with self._lock:
            for entries in self._budgets.values():
                entries.clear()


# Store one entry and keep at most ARGV[5] of them: an index (sorted by expiry) names every stored entry; entries
# past their expiry leave it, and when it is still over the cap the ones expiring soonest are deleted. One script, so
# that concurrent stores from every app server never push the count past the cap.
STORE_BOUNDED = """
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[2])
redis.call('ZADD', KEYS[1], ARGV[3], KEYS[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[5])
if over > 0 then
  local oldest = redis.call('ZPOPMIN', KEYS[1], over)
  for i = 1, #oldest, 2 do redis.call('DEL', oldest[i]) end
end
redis.call('EXPIRE', KEYS[1], ARGV[6])
"""


class RedisBackend:
    """Entries and the generation in Redis: one MGET reads both, so a lookup is a single round trip.

    The Redis that holds the cache also holds the rate limits and the receipt queue: however many distinct URLs
    anyone asks for, the cache keeps at most `max_entries` pages and a quarter of that of searches, compressed (see
    STORE_BOUNDED and budget_caps)."""

    def __init__(self, url: str, prefix: str, signing_key: bytes, *, max_entries: int = REDIS_ENTRIES):
        import redis

        self.client = redis.Redis.from_url(url, socket_connect_timeout=0.5, socket_timeout=0.5)
        # Apart from entries another release left behind (unsigned, or of another shape): bump the version with
        # any change to what is stored.
        self.entry_prefix = f"{prefix}v{FORMAT_VERSION}:"
        self.index_keys = {budget: f"{prefix}v{FORMAT_VERSION}-index:{budget}" for budget in (PAGES, SEARCHES)}
        self.generation_key = f"{prefix}generation"
        self.caps = budget_caps(max_entries)
        self._store = self.client.register_script(STORE_BOUNDED)
        if not signing_key:
            raise ValueError("the Redis page cache needs a signing key (the app's SECRET_KEY)")
        self.signing_key = hashlib.sha256(b"insightshop page cache\0" + signing_key).digest()

    def get(self, key: str) -> tuple[object | None, bytes]:
        generation, stored = self.client.mget(self.generation_key, self.entry_prefix + key)
        generation = generation or b"0"
        if stored is None:
            return None, generation
        payload = self._verified(key, stored)
        if payload is None:
            log.warning("A page cache entry in Redis has no valid signature; ignored (key %s)", key)
            return None, generation
        try:
            stored_generation, value = pickle.loads(zlib.decompress(payload))  # signed by this module (app's secret)
        except Exception:  # signed but unreadable here (a class another release had): a miss, never a failure
            log.warning("A page cache entry in Redis could not be read; ignored (key %s)", key, exc_info=True)
            return None, generation
        return (value if stored_generation == generation else None), generation

    def set(self, key: str, value: object, ttl: int, generation: bytes, budget: str = PAGES) -> None:
        payload = zlib.compress(pickle.dumps((generation, value), protocol=pickle.HIGHEST_PROTOCOL), 1)
        ttl = max(1, ttl)
        now = time.time()
        self._store(keys=[self.index_keys[budget], self.entry_prefix + key],
                    args=[self._signature(key, payload) + payload, ttl, now + ttl, now, self.caps[budget],
                          max(ttl, 3600)])  # fmt: skip

    def _signature(self, key: str, payload: bytes) -> bytes:
        # The key is signed too: a value cannot be moved to another key (one page served for another URL).
        signed = hmac.new(self.signing_key, key.encode() + b"\0", hashlib.sha256)
        signed.update(payload)
        return signed.digest()

    def _verified(self, key: str, stored: bytes) -> bytes | None:
        signature, payload = stored[:32], stored[32:]
        return payload if hmac.compare_digest(signature, self._signature(key, payload)) else None

    def bump(self) -> None:
        self.client.incr(self.generation_key)


# What PageCache._call answers for a bump that Redis did not take.
MISSED = object()

# Which backend a lookup used and the generation it read there (see PageCache.lookup).
Stamp = tuple[object, object]


class PageCache:
    """Redis when configured and reachable, else memory; a Redis outage is logged once and never fails a page."""

    def __init__(self, instance_path: str, *, redis_url: str | None, prefix: str, max_entries: int,
                 signing_key: bytes = b"", retry_seconds: float = 5.0, redis_entries: int = REDIS_ENTRIES):  # fmt: skip
        """signing_key (the app's secret) is required with redis_url: it signs every value stored there.
        max_entries bounds this process's memory cache, redis_entries the shared one."""
        self.memory = MemoryBackend(GenerationFile(instance_path), max_entries)
        self.redis = RedisBackend(redis_url, prefix, signing_key, max_entries=redis_entries) if redis_url else None
        self.outage = Outage("Redis (page cache)", "pages are cached in this process's memory")
        self.retry_seconds = retry_seconds
        self._next_try = 0.0

    def lookup(self, key: str) -> tuple[object | None, Stamp]:
        """The stored value (None on a miss) and a stamp to store a freshly computed value with.

        Compute the value only after the lookup: the stamp holds the generation read now, so a change committed
        while the value was being computed makes the stored copy stale at once."""
        return self._call("get", key)

    def get(self, key: str) -> object | None:
        return self.lookup(key)[0]

    def store(self, key: str, value: object, ttl: int, stamp: Stamp, budget: str = PAGES) -> None:
        """Keep the value for ttl seconds in its budget (SEARCHES for anything keyed by words a visitor typed)."""
        backend, generation = stamp
        if ttl <= 0 or backend is not self._backend():
            return  # Redis went down or came back since the lookup: this one value goes unstored
        if backend is self.memory:
            self.memory.set(key, value, ttl, generation, budget)
            return
        import redis

        try:
            self.redis.set(key, value, ttl, generation, budget)
        except redis.RedisError as error:
            self._redis_failed(error)

    def bump(self) -> bool:
        """The catalog changed: every entry made before now is stale, in every process and on every machine.

        False when Redis is configured but did not take the bump: pages other processes stored there may be
        served until they expire (or until a process that saw the outage finds Redis back, which bumps it)."""
        self.memory.bump()  # also when Redis is up: a worker that fell back to memory must not keep stale pages
        if self.redis is None:
            return True
        return self._call("bump") is not MISSED

    def _backend(self) -> MemoryBackend | RedisBackend:
        return self.redis if self.redis is not None and not self.outage.down else self.memory

    def _call(self, name: str, *args):
        import redis

        if self.redis is not None and self._redis_usable():
            try:
                if self.outage.down:
                    # Changes committed while it was down did not reach Redis: what it holds may be stale. It
                    # counts as back only once that is said, and this call then reads after the bump.
                    self.redis.bump()
                    self.outage.recovered()
                result = getattr(self.redis, name)(*args)
            except redis.RedisError as error:
                self._redis_failed(error)
            else:
                return (result[0], (self.redis, result[1])) if name == "get" else result
        if name == "bump":
            return MISSED  # the memory backend was bumped already; Redis was not
        result = getattr(self.memory, name)(*args)
        return (result[0], (self.memory, result[1])) if name == "get" else result

    def _redis_usable(self) -> bool:
        # While it is down, a call tries Redis again at most every retry_seconds; the others use memory at once.
        return not self.outage.down or time.monotonic() >= self._next_try

    def _redis_failed(self, error: Exception) -> None:
        self._next_try = time.monotonic() + self.retry_seconds
        self.outage.failed(error)


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
    if any(isinstance(obj, WATCHED_MODELS) for obj in (*session.new, *session.deleted)) or any(
        isinstance(obj, WATCHED_MODELS) and _changes_what_pages_show(obj) for obj in session.dirty
    ):
        session.info[CHANGED_FLAG] = True


def _changes_what_pages_show(obj) -> bool:
    """False only for a variant whose one change is its stock, between two counts that pages show alike."""
    if not isinstance(obj, ProductVariant):
        return True
    state = inspect(obj)
    changed = {attr.key for attr in state.attrs if attr.history.has_changes()}
    if changed != {"stock"}:
        return bool(changed)
    history = state.attrs.stock.history
    if not history.deleted or not history.added:
        return True  # the count before is unknown: assume it showed
    return shown_stock(history.deleted[0]) != shown_stock(history.added[0])


def shown_stock(stock: int | None) -> int | None:
    """What a page can show of a stock count: the count itself up to VISIBLE_STOCK, else only "plenty" (None)."""
    return stock if stock is not None and stock <= VISIBLE_STOCK else None


def _note_bulk_statement(state) -> None:
    mapper = state.bind_mapper if (state.is_update or state.is_delete) else None
    if mapper is not None and mapper.class_ in WATCHED_MODELS:
        state.session.info[CHANGED_FLAG] = True


def _bump_after_commit(session: Session) -> None:
    if session.info.pop(CHANGED_FLAG, False):
        catalog_replaced()


def catalog_replaced() -> bool:
    """End every cached page and data entry, in every process: for changes made outside the ORM (a restore).

    False when the shared cache (Redis) could not be reached, so other processes may still serve old pages."""
    cache = _current_cache() if _current_cache is not None else None
    return cache.bump() if cache is not None else True
