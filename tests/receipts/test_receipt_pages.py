"""The receipt pages: upload in the browser, the receipt read live, low-confidence values flagged, owner only."""

import io
import re

import pytest

from insightshop.extensions import db
from insightshop.models.receipts import Receipt
from tests.factories import csrf_token, make_user


def _log_in(client, email="shopper@example.com"):
    make_user(email)
    token = csrf_token(client, "/login")
    response = client.post("/login", data={"email": email, "password": "correct horse battery", "csrf_token": token})
    assert response.status_code == 302


def _upload(client, data: bytes, name="receipt.txt"):
    token = csrf_token(client, "/receipts")
    return client.post("/receipts", data={"csrf_token": token, "file": (io.BytesIO(data), name)},
                       content_type="multipart/form-data")  # fmt: skip


def test_uploading_a_receipt_shows_what_was_read(client, receipts_app, receipt_text):
    _log_in(client)

    response = _upload(client, receipt_text, "corner.txt")
    page = client.get(response.location).get_data(as_text=True)

    assert response.status_code == 303 and re.fullmatch(r"/receipts/\d+", response.location)
    assert "CORNER MARKET" in page.upper() and "$14.83" in page and "14 October 2026" in page
    assert "Sourdough Bread" in page and "$4.50" in page
    assert "Dairy" in page  # the milk and the cheese are categorised
    listing = client.get("/receipts").get_data(as_text=True)
    assert "1 receipt" in listing and "$14.83" in listing


def test_a_file_that_is_not_a_receipt_re_renders_the_form_with_the_reason(client, receipts_app):
    _log_in(client)

    response = _upload(client, b"\x00\x01\x02binary" * 50, "virus.exe")

    assert response.status_code == 422
    assert "not a receipt the shop can read" in response.get_data(as_text=True)
    assert db.session.query(Receipt).count() == 0


@pytest.mark.commits
def test_a_pending_receipt_polls_and_the_fragment_swaps_in_the_result(client, receipts_app, receipt_text):
    _log_in(client)
    receipts_app.config["RECEIPT_QUEUE"] = "thread"
    from insightshop.services.receipts import jobs

    location = _upload(client, receipt_text).location
    first = client.get(location).get_data(as_text=True)
    jobs.local_worker(receipts_app).wait_idle(30)
    db.session.expire_all()  # the test's app context shares one session with its requests; the worker wrote elsewhere
    client.environ_base["HTTP_HX_REQUEST"] = "true"
    fragment = client.get(location).get_data(as_text=True)

    assert 'hx-trigger="load delay:1s"' in first or "$14.83" in first  # still reading, or already read
    assert fragment.lstrip().startswith('<div id="receipt_body"') and "<html" not in fragment
    assert "$14.83" in fragment and "hx-trigger" not in fragment


def test_another_users_receipt_page_and_file_are_404(client, receipts_app, receipt_text):
    _log_in(client)
    location = _upload(client, receipt_text).location
    client.post("/logout", data={"csrf_token": csrf_token(client, "/")})
    _log_in(client, "other@example.com")

    assert client.get(location).status_code == 404
    assert client.get(location + "/file").status_code == 404
    assert client.post(location + "/delete", data={"csrf_token": csrf_token(client, "/")}).status_code == 404


def test_low_confidence_values_are_flagged_for_review(client, receipts_app):
    _log_in(client)
    # A receipt without a clear merchant line or a labelled total: the engine is unsure.
    location = _upload(client, b"thanks for visiting\n12 apples 3.00\n4.20\n").location
    page = client.get(location).get_data(as_text=True)
    receipt = db.session.scalar(db.select(Receipt))

    assert receipt.status in ("needs_review", "failed")
    assert "Check this" in page or "Could not be read" in page or "Please check" in page
