"""Reviewing a read receipt in the browser: a value points at its line (?field=), the owner verifies or corrects
it, the history keeps every value, and a verified value survives reading the receipt again."""

import io
import re
from decimal import Decimal

from insightshop.extensions import db
from insightshop.models.accounts import User
from insightshop.models.citations import ExtractedField
from insightshop.models.receipts import Receipt
from tests.factories import csrf_token, make_user


def _log_in(client, email="shopper@example.com"):
    make_user(email)
    token = csrf_token(client, "/login")
    client.post("/login", data={"email": email, "password": "correct horse battery", "csrf_token": token})


def _uploaded(client, receipt_text) -> str:
    token = csrf_token(client, "/receipts")
    response = client.post("/receipts", data={"csrf_token": token, "file": (io.BytesIO(receipt_text), "corner.txt")},
                           content_type="multipart/form-data")  # fmt: skip
    return response.location


def _stored(name: str) -> ExtractedField:
    db.session.expire_all()
    return db.session.scalar(db.select(ExtractedField).where(ExtractedField.field_name == name))


def _post(client, url: str, **data):
    return client.post(url, data={"csrf_token": csrf_token(client, "/receipts"), **data})


def test_a_field_in_the_address_is_marked_with_its_line_and_characters(client, receipts_app, receipt_text):
    _log_in(client)
    location = _uploaded(client, receipt_text)
    total = _stored("total_amount")

    page = client.get(f"{location}?field=total_amount").get_data(as_text=True)

    row = re.search(r'<details class="receipt-field[^"]*field--cited[^"]*"[^>]*>', page).group(0)
    assert 'data-field="total_amount"' in row and 'id="cited"' in row and " open" in row
    block = total.source_block_ids[0]
    line = re.search(rf'<div class="receipt-line block--cited" data-block="{block}">.*?</div>', page).group(0)
    assert "<mark>14.83</mark>" in line and "TOTAL USD" in line
    assert page.count("block--cited") == 1 and page.count('id="cited"') == 1
    assert 'src="/static/js/receipt-citations.js"' in page


def test_an_item_cell_is_marked_and_its_review_opens_under_the_table(client, receipts_app, receipt_text):
    _log_in(client)
    location = _uploaded(client, receipt_text)

    page = client.get(f"{location}?field=items.2.total_price").get_data(as_text=True)

    cell = re.search(r'<a class="cite-link field--cited[^>]*>', page).group(0)
    assert 'data-field="items.2.total_price"' in cell and 'id="cited"' in cell
    assert re.search(r'class="receipt-line block--cited"[^>]*>.*Sourdough Bread.*<mark>4.50</mark>', page)
    assert "Item 2 · Total: $4.50" in page


def test_an_unknown_field_in_the_address_is_ignored(client, receipts_app, receipt_text):
    _log_in(client)
    location = _uploaded(client, receipt_text)

    response = client.get(f"{location}?field=nonsense.<b>")

    assert response.status_code == 200 and "field--cited" not in response.get_data(as_text=True)


def test_verifying_records_who_and_when_and_says_so(client, receipts_app, receipt_text):
    _log_in(client)
    location = _uploaded(client, receipt_text)

    response = _post(client, f"{location}/fields/total_amount/verify")
    page = client.get(response.location).get_data(as_text=True)

    stored = _stored("total_amount")
    user = db.session.scalar(db.select(User))
    assert response.status_code == 303 and response.location.endswith("?field=total_amount#cited")
    assert stored.verified and stored.verified_by_id == user.id and stored.verified_at is not None
    assert f"Verified by you on {stored.verified_at.strftime('%-d %b %Y')}" in page
    assert "Verified by you: <strong>$14.83</strong>" in page  # the history


def test_verifying_with_htmx_swaps_the_receipt_body(client, receipts_app, receipt_text):
    _log_in(client)
    location = _uploaded(client, receipt_text)

    token = csrf_token(client, "/receipts")
    response = client.post(f"{location}/fields/merchant_name/verify", data={"csrf_token": token},
                           headers={"HX-Request": "true"})  # fmt: skip

    body = response.get_data(as_text=True)
    assert response.status_code == 200 and body.lstrip().startswith('<div id="receipt_body"')
    assert "<html" not in body and "Verified by you on" in body and "field--cited" in body


def test_a_correction_is_a_manual_revision_and_the_old_value_stays_in_the_history(client, receipts_app, receipt_text):
    _log_in(client)
    location = _uploaded(client, receipt_text)

    response = _post(client, f"{location}/fields/total_amount", value="15.10", note="Smudged on the paper")
    page = client.get(response.location).get_data(as_text=True)

    stored = _stored("total_amount")
    assert response.status_code == 303
    assert db.session.scalar(db.select(Receipt.total_amount)) == Decimal("15.10")
    assert [(r.method, r.value) for r in stored.revisions] == [("ocr_rules", "14.83"), ("manual", "15.10")]
    assert stored.revisions[-1].note == "Smudged on the paper" and stored.source_block_ids == []
    assert "Entered by hand — no source" in page and "Entered by you: <strong>$15.10</strong>" in page
    assert "Read by the offline rules: <strong>$14.83</strong>" in page and "Smudged on the paper" in page


def test_bad_input_is_422_with_the_message_and_changes_nothing(client, receipts_app, receipt_text):
    _log_in(client)
    location = _uploaded(client, receipt_text)

    response = _post(client, f"{location}/fields/total_amount", value="about fifteen")

    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(r'<p class="field-error"[^>]*role="alert">Enter an amount such as 12.50</p>', page)
    assert 'value="about fifteen"' in page and 'aria-invalid="true"' in page
    assert db.session.scalar(db.select(Receipt.total_amount)) == Decimal("14.83")
    assert len(_stored("total_amount").revisions) == 1


def test_another_users_receipt_cannot_be_seen_verified_or_corrected(client, receipts_app, receipt_text):
    _log_in(client)
    location = _uploaded(client, receipt_text)
    client.post("/logout", data={"csrf_token": csrf_token(client, "/")})
    _log_in(client, "other@example.com")

    assert client.get(f"{location}?field=total_amount").status_code == 404
    assert _post(client, f"{location}/fields/total_amount/verify").status_code == 404
    assert _post(client, f"{location}/fields/total_amount", value="1.00").status_code == 404
    assert not _stored("total_amount").verified and _stored("total_amount").value == "14.83"


def test_a_verified_value_survives_reading_the_receipt_again(client, receipts_app, receipt_text):
    _log_in(client)
    location = _uploaded(client, receipt_text)
    _post(client, f"{location}/fields/total_amount", value="15.10")
    _post(client, f"{location}/fields/total_amount/verify")

    _post(client, f"{location}/reprocess")
    page = client.get(f"{location}?field=total_amount").get_data(as_text=True)

    stored = _stored("total_amount")
    assert stored.value == "15.10" and stored.verified
    assert db.session.scalar(db.select(Receipt.total_amount)) == Decimal("15.10")
    assert stored.revisions[-1].note == "Not applied: the value was verified" and stored.revisions[-1].value == "14.83"
    assert "Not applied: the value was verified" in page and _stored("subtotal").value == "13.73"
