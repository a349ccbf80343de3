"""Reading receipts off the request: the RQ queue on a real Redis with `flask receipts worker`, and the local worker."""

import io
import uuid

import pytest
import redis

from insightshop.extensions import db
from insightshop.models.receipts import Receipt
from insightshop.services.receipts import jobs
from tests.factories import bearer, make_user

REDIS_URL = "redis://127.0.0.1:6379/14"


def _upload(client, headers, data: bytes):
    return client.post("/api/receipts", headers=headers, data={"file": (io.BytesIO(data), "r.txt")},
                       content_type="multipart/form-data")  # fmt: skip


@pytest.fixture
def redis_queue(app, monkeypatch):
    try:
        redis.Redis.from_url(REDIS_URL).ping()
    except redis.ConnectionError:
        pytest.fail("Redis is not running at 127.0.0.1:6379 (the machine's service)")
    app.config.update(RECEIPT_QUEUE="rq", REDIS_URL=REDIS_URL)
    monkeypatch.setattr(jobs, "QUEUE_NAME", f"test-receipts-{uuid.uuid4().hex}")
    yield jobs.rq_queue()
    jobs.rq_queue().empty()


def test_an_upload_waits_in_redis_until_the_worker_reads_it(client, runner, redis_queue, receipt_text):
    make_user()
    response = _upload(client, bearer(client), receipt_text)
    receipt_id = response.get_json()["receipt"]["id"]

    assert response.status_code == 202 and response.get_json()["result"] is None
    assert redis_queue.count == 1 and db.session.get(Receipt, receipt_id).status == "uploaded"

    result = runner.invoke(args=["receipts", "worker", "--burst"])

    assert result.exit_code == 0, result.output
    receipt = db.session.get(Receipt, receipt_id, populate_existing=True)
    assert receipt.status == "completed" and f"{receipt.total_amount:.2f}" == "14.83"


def test_the_worker_command_needs_redis(runner, app):
    app.config["REDIS_URL"] = None
    result = runner.invoke(args=["receipts", "worker", "--burst"])
    assert result.exit_code != 0 and "REDIS_URL is not set" in result.output


@pytest.mark.commits
def test_the_local_worker_reads_in_the_background(client, app, receipt_text):
    make_user()
    app.config["RECEIPT_QUEUE"] = "thread"
    receipt_id = _upload(client, bearer(client), receipt_text).get_json()["receipt"]["id"]

    assert jobs.local_worker(app).wait_idle(60)
    assert db.session.get(Receipt, receipt_id, populate_existing=True).status == "completed"


def test_a_receipt_is_read_once_even_when_its_job_runs_twice(client, receipts_app, receipt_text):
    from insightshop.services.receipts import processing

    make_user()
    receipt_id = _upload(client, bearer(client), receipt_text).get_json()["receipt"]["id"]

    assert processing.process_receipt(receipt_id) is None  # already read: nobody claims it again
    assert db.session.get(Receipt, receipt_id).attempts == 1


@pytest.mark.commits
def test_while_redis_is_down_an_upload_is_read_on_the_local_worker(client, app, receipt_text):
    from tests.live.servers import free_port

    make_user()
    app.config.update(RECEIPT_QUEUE="rq", REDIS_URL=f"redis://127.0.0.1:{free_port()}/0")  # nobody listens there

    response = _upload(client, bearer(client), receipt_text)

    assert response.status_code == 202
    assert jobs.local_worker(app).wait_idle(60)
    receipt_id = response.get_json()["receipt"]["id"]
    assert db.session.get(Receipt, receipt_id, populate_existing=True).status == "completed"
