"""Faults under the real server (issue 15 part 6): PostgreSQL stopped and started again under traffic. While it is
down every request answers 503 with Retry-After (the error envelope under /api, a friendly page elsewhere, never a
500 or a stack trace) without hanging; when it is back the same server answers again, not restarted."""

from __future__ import annotations

import threading
import time

import httpx2
import pytest

from tests.live.private_postgres import PrivatePostgres, make_products
from tests.live.servers import AppServer, flask_command

pytestmark = pytest.mark.live

OUTAGE_SECONDS = 4
RECOVERY_SECONDS = 10


@pytest.fixture(scope="module")
def stack():
    with PrivatePostgres() as postgres:
        url = postgres.create_database("shop")
        flask_command(url, "db", "upgrade")
        [product] = make_products(url, {"name": "Outage Oxford Shirt", "sizes": ("M", "L"), "stock": 5})
        with AppServer(database_url=url, workers=2, threads=4) as server:
            yield postgres, server, product


class Traffic:
    """Threads requesting pages, the API and /healthz in a loop; every answer kept with the time it came back."""

    def __init__(self, base_url: str, paths: list[tuple[str, dict]], threads: int = 4):
        self.base_url, self.paths = base_url, paths
        self.answers: list[dict] = []
        self.stopped = threading.Event()
        self.threads = [threading.Thread(target=self._loop, args=(n,), daemon=True) for n in range(threads)]
        self.lock = threading.Lock()

    def _loop(self, offset: int) -> None:
        with httpx2.Client(timeout=15) as http:
            index = offset
            while not self.stopped.is_set():
                path, headers = self.paths[index % len(self.paths)]
                index += 1
                started = time.monotonic()
                try:
                    response = http.get(self.base_url + path, headers=headers)
                    answer = {"status": response.status_code, "headers": response.headers, "body": response.text}
                except httpx2.HTTPError as error:
                    answer = {"status": None, "error": repr(error), "headers": {}, "body": ""}
                finished = time.monotonic()
                with self.lock:
                    self.answers.append(answer | {"path": path, "started": started, "finished": finished})
                time.sleep(0.02)

    def __enter__(self) -> Traffic:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopped.set()
        for thread in self.threads:
            thread.join(timeout=20)

    def between(self, start: float, end: float) -> list[dict]:
        with self.lock:
            return [a for a in self.answers if a["started"] >= start and a["finished"] <= end]


def test_postgresql_stopped_and_started_under_traffic(stack):
    postgres, server, product = stack
    json_headers = {"Accept": "application/json"}
    paths = [("/", {}), ("/catalog?q=shirt", {}), ("/api/products", {}), (f"/api/products/{product['id']}", {}),
             ("/healthz", {}), ("/healthz", json_headers)]  # fmt: skip
    pid = server.process.pid

    with Traffic(server.url, paths) as traffic:
        time.sleep(1)
        stopping = time.monotonic()
        postgres.stop()
        down = time.monotonic()
        time.sleep(OUTAGE_SECONDS)
        starting = time.monotonic()
        postgres.start()
        up = time.monotonic()
        recovered = _wait_until_all_answer_200(traffic, paths, after=up)

    everything = traffic.answers
    assert everything and not [a for a in everything if a["status"] is None], "a request failed at the HTTP level"
    failed = [a["path"] for a in everything if a["status"] == 500]
    if failed:
        print(_unhandled_errors(server.log()))  # pytest shows it with the failure; the server's folder is gone by then
    assert not failed, failed
    assert not [a for a in everything if "Traceback" in a["body"] or "psycopg" in a["body"]]
    before = traffic.between(0, stopping)
    assert before and all(a["status"] == 200 for a in before)

    outage = traffic.between(down, starting)
    assert len(outage) >= 20, "too little traffic during the outage to say anything"
    assert {a["status"] for a in outage} <= {200, 503}  # 200: an answer that needs no database (e.g. a cached one)
    for answer in (a for a in outage if a["status"] == 503):
        assert answer["headers"]["Retry-After"] == "5", answer
        if (
            answer["path"].startswith("/api/")
            or answer["path"] == "/healthz"
            and "json" in answer["headers"].get("content-type", "")
        ):
            assert answer["headers"]["content-type"].startswith("application/json")
            assert '"code":"service_unavailable"' in answer["body"].replace(" ", "")
        else:
            assert answer["headers"]["content-type"].startswith("text/html") and "briefly unavailable" in answer["body"]
    assert all(a["status"] == 503 for a in outage if a["path"] == "/healthz")
    assert max(a["finished"] - a["started"] for a in outage) < 5, "requests hung during the outage"

    assert recovered is not None and recovered - up < RECOVERY_SECONDS
    assert server.process.poll() is None and server.process.pid == pid  # the same server, never restarted


def _unhandled_errors(log: str) -> str:
    """The server log's lines about unhandled errors and what follows them, for a failure's message."""
    lines = log.splitlines()
    picked = [n for n, line in enumerate(lines) if "Unhandled error" in line or "Traceback" in line]
    return "\n".join("\n".join(lines[n : n + 40]) for n in picked[:3]) or log[-4000:]


def _wait_until_all_answer_200(traffic: Traffic, paths, *, after: float) -> float | None:
    """The time by which every path had answered 200 (each, after `after`), or None within RECOVERY_SECONDS."""
    wanted = {path for path, _ in paths}
    deadline = after + RECOVERY_SECONDS
    while time.monotonic() < deadline:
        seen = {a["path"]: a["finished"] for a in traffic.between(after, time.monotonic()) if a["status"] == 200}
        if wanted <= set(seen):
            return max(seen.values())
        time.sleep(0.1)
    return None
