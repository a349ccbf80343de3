"""Reading receipts off the request: an RQ queue on Redis when REDIS_URL is set, else a bounded local worker.

RECEIPT_QUEUE picks the mode: "rq", "thread" or "inline" (run at once, for tests and scripts); by default
"rq" with Redis and "thread" without. Each job calls processing.process_receipt, which claims the receipt
atomically, so a job delivered twice (a retry, two workers) reads it once.

The queue is fair per user: a queued job (rq or thread) is one turn of a worker, and the turn reads the waiting
receipt chosen by processing.next_fair_receipt_id from the database (the user with the fewest recent readings
first), not necessarily the job's own; every upload adds one turn, so every receipt is read. One account's ten
heavy photos delay another account's receipt by one reading at most. Inline mode reads its own receipt at once.

While Redis is down an upload is not refused: this app process reads the receipt on its local worker thread
instead (logged once per outage), and enqueues on Redis again as soon as Redis takes a job.
"""

from __future__ import annotations

import logging
import queue
import threading

from flask import Flask, current_app

from ..outages import Outage

log = logging.getLogger(__name__)
QUEUE_NAME = "insightshop-receipts"
LOCAL_QUEUE_SIZE = 200
LOCAL_WORKERS = 1  # OCR takes both cores already; more threads would only queue on the CPU
SWEEP_SECONDS = 30.0


def queue_mode(app: Flask | None = None) -> str:
    config = (app or current_app).config
    return config.get("RECEIPT_QUEUE") or ("rq" if config.get("REDIS_URL") else "thread")


def enqueue(receipt_id: int) -> None:
    """Queue a stored receipt for reading (after its row is committed)."""
    mode = queue_mode()
    if mode == "inline":
        run_job(receipt_id, fair=False)
    elif mode == "rq":
        enqueue_rq(receipt_id)
    else:
        local_worker(current_app._get_current_object()).submit(receipt_id)


def run_job(receipt_id: int, fair: bool = True) -> None:
    """One worker turn: the fairest waiting receipt (receipt_id when nothing else waits), or receipt_id itself."""
    from . import processing  # processing pulls in the OCR and extraction engines: load them in workers only

    if fair:
        processing.process_next(receipt_id)
    else:
        processing.process_receipt(receipt_id)


_rq_outage = Outage("Redis (receipt queue)", "receipts are read on the app server's local worker thread")


def enqueue_rq(receipt_id: int) -> None:
    """Put the job on the RQ queue; while Redis is down, read the receipt in this process instead."""
    from redis import RedisError

    try:
        rq_queue(timeout=current_app.config.get("REDIS_TIMEOUT_SECONDS", 1.0)).enqueue_call(
            "insightshop.services.receipts.jobs.run_job", args=(receipt_id,), timeout=300, failure_ttl=7 * 86400
        )
    except RedisError as error:
        _rq_outage.failed(error)
        local_worker(current_app._get_current_object()).submit(receipt_id)
    else:
        _rq_outage.recovered()


def rq_queue(timeout: float | None = None):
    """The queue on REDIS_URL; `timeout` bounds each Redis call (never for the worker, whose reads block)."""
    from redis import Redis
    from rq import Queue

    options = {"socket_connect_timeout": timeout, "socket_timeout": timeout} if timeout else {}
    return Queue(QUEUE_NAME, connection=Redis.from_url(current_app.config["REDIS_URL"], **options))


def run_rq_worker(app: Flask, *, burst: bool = False) -> None:
    """The `flask receipts worker` process: jobs run inside this app's context, in this process (no fork per
    job), so the OCR engine loads once and database connections are never shared with a child."""
    from rq import SimpleWorker

    with app.app_context():
        queue = rq_queue()
        worker = SimpleWorker([queue], connection=queue.connection)
        worker.work(burst=burst, with_scheduler=False)


class LocalWorker:
    """A bounded queue and one daemon thread per app; a full queue leaves receipts for the periodic sweep."""

    def __init__(self, app: Flask):
        self.app = app
        self.jobs: queue.Queue[int] = queue.Queue(maxsize=LOCAL_QUEUE_SIZE)
        self.threads = [threading.Thread(target=self._loop, name=f"receipts-{n}", daemon=True)
                        for n in range(LOCAL_WORKERS)]  # fmt: skip
        for thread in self.threads:
            thread.start()

    def submit(self, receipt_id: int) -> None:
        try:
            self.jobs.put_nowait(receipt_id)
        except queue.Full:
            log.warning("receipt queue full; receipt %s waits for the next sweep", receipt_id)

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until every queued job is done (tests and shutdown)."""
        done = threading.Event()

        def join() -> None:
            self.jobs.join()
            done.set()

        threading.Thread(target=join, daemon=True).start()
        return done.wait(timeout)

    def _loop(self) -> None:
        while True:
            try:
                receipt_id = self.jobs.get(timeout=SWEEP_SECONDS)
            except queue.Empty:
                self._sweep()
                continue
            try:
                with self.app.app_context():
                    run_job(receipt_id)
            except Exception:  # a job must never kill the worker; process_receipt records failures itself
                log.exception("receipt job %s crashed", receipt_id)
            finally:
                self.jobs.task_done()

    def _sweep(self) -> None:
        # Receipts left behind (a restart, a full queue) are picked up again; with a Redis queue its workers do
        # that, and this thread only stands in for them during an outage.
        from . import processing

        if queue_mode(self.app) != "thread":
            return
        try:
            with self.app.app_context():
                for receipt_id in processing.stale_receipt_ids():
                    self.submit(receipt_id)
        except Exception:
            log.exception("receipt sweep failed")


_workers: dict[int, LocalWorker] = {}
_workers_lock = threading.Lock()


def local_worker(app: Flask) -> LocalWorker:
    with _workers_lock:
        worker = _workers.get(id(app))
        if worker is None or worker.app is not app:
            worker = _workers[id(app)] = LocalWorker(app)
        return worker
