"""How this process sees a shared backend (Redis): up, or down with a local stand-in serving meanwhile.

Every app server notices an outage on its own and says so once (a warning when the backend first fails, a line
when it answers again), not once per request: a Redis outage under traffic must not bury the log.
"""

from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger("insightshop.outages")


class Outage:
    """One backend's state in this process; `stand_in` says what serves while it is down (for the log)."""

    def __init__(self, backend: str, stand_in: str):
        self.backend = backend
        self.stand_in = stand_in
        self.down_since: float | None = None
        self._lock = threading.Lock()

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def failed(self, error: BaseException) -> None:
        """The backend failed a call: the first failure of an outage is logged, later ones are not."""
        with self._lock:
            if self.down_since is not None:
                return
            self.down_since = time.monotonic()
        log.warning("%s is unreachable (%s: %s); %s until it answers again",
                    self.backend, type(error).__name__, error, self.stand_in)  # fmt: skip

    def recovered(self) -> None:
        """The backend answered again: the end of an outage is logged once."""
        with self._lock:
            if self.down_since is None:
                return
            seconds = time.monotonic() - self.down_since
            self.down_since = None
        log.warning("%s answers again after %.0f s; back to using it", self.backend, seconds)
