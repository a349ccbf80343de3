"""Expired stock holds come back on their own, also where no cron job runs (`make run`) and for visitors who only
read pages: at most every ORDER_HOLD_SWEEP_SECONDS in each process, one request first releases the unpaid orders
past their hold time (one read; a write only when some are overdue). The release changes the variants' stock, so the
page cache's generation moves on and every process's cached pages show the units for sale again.

A WSGI layer outside the page cache's server, so that a hit (which never reaches Flask) can be the request that
sweeps. The due time is per process on purpose: it only spaces the sweeps out; what is released is decided in the
database (orders.release_expired_holds), so sweeps of several workers at once are harmless."""

from __future__ import annotations

import logging
import threading
import time

from flask import Flask

from ..extensions import db
from ..services import orders

log = logging.getLogger(__name__)


class HoldSweeper:
    def __init__(self, wsgi_app, app: Flask):
        self.wsgi_app = wsgi_app
        self.app = app
        self._due = 0.0  # the first request sweeps
        self._lock = threading.Lock()
        self.clock = time.monotonic

    def __call__(self, environ, start_response):
        if self.clock() >= self._due and int(self.app.config.get("ORDER_HOLD_SWEEP_SECONDS") or 0) >= 0:
            self.sweep_if_due()
        return self.wsgi_app(environ, start_response)

    def sweep_if_due(self) -> int:
        """Release expired holds when this process's next sweep is due (one thread of the process does it)."""
        if not self._lock.acquire(blocking=False):
            return 0  # another thread of this process is sweeping right now
        try:
            now = self.clock()
            if now < self._due:
                return 0
            self._due = now + max(0, int(self.app.config.get("ORDER_HOLD_SWEEP_SECONDS") or 0))
            with self.app.app_context():
                try:
                    return orders.release_expired_holds(None)
                except Exception:  # a chore: it must never fail the request it runs before
                    log.exception("Releasing expired stock holds failed; the next sweep tries again")
                    db.session.rollback()
                    return 0
        finally:
            self._lock.release()


def init_app(app: Flask) -> None:
    app.wsgi_app = HoldSweeper(app.wsgi_app, app)  # ORDER_HOLD_SWEEP_SECONDS < 0: it only passes requests on
