"""Uploading and reading receipts through the JSON API: owner only, clear errors, nothing trusted from the client."""

import io
from decimal import Decimal

from insightshop.extensions import db
from insightshop.models.receipts import Receipt
from tests.api.test_products_api import assert_error
from tests.factories import bearer, guest_bearer, make_user

PNG_HEADER = b"\x89PNG\r\n\x1a\n"


def _upload(client, headers, data: bytes, name: str = "receipt.txt"):
    return client.post("/api/receipts", headers=headers, data={"file": (io.BytesIO(data), name)},
                       content_type="multipart/form-data")  # fmt: skip


def test_a_text_receipt_is_read_into_metadata_items_and_the_seed_result(client, receipts_app, receipt_text):
    make_user()
    headers = bearer(client)

    response = _upload(client, headers, receipt_text, "corner-market.txt")

    assert response.status_code == 201
    body = response.get_json()
    receipt = body["receipt"]
    assert receipt["merchant_name"].upper() == "CORNER MARKET"
    assert (receipt["purchase_date"], receipt["total_amount"], receipt["currency"]) == ("2026-10-14", "14.83", "USD")
    assert [item["total_price"] for item in receipt["items"]] == ["3.98", "4.50", "5.25"]
    assert body["result"]["status"] == "success" and body["result"]["validation"]["valid"] is True
    assert body["result"]["metadata"]["total_amount"] == "14.83"
    assert db.session.get(Receipt, receipt["id"]).total_amount == Decimal("14.83")


def test_another_users_receipt_and_its_file_are_404(client, receipts_app, receipt_text):
    make_user()
    make_user("other@example.com")
    receipt_id = _upload(client, bearer(client), receipt_text).get_json()["receipt"]["id"]
    other = bearer(client, "other@example.com")

    for path in (f"/api/receipts/{receipt_id}", f"/api/receipts/{receipt_id}/file"):
        assert_error(client.get(path, headers=other), 404, "not_found")
    assert_error(client.delete(f"/api/receipts/{receipt_id}", headers=other), 404, "not_found")
    assert db.session.get(Receipt, receipt_id) is not None


def test_uploads_need_a_signed_in_user(client, receipts_app, receipt_text):
    assert_error(_upload(client, {}, receipt_text), 401, "unauthorized")
    assert_error(_upload(client, guest_bearer(client), receipt_text), 401, "unauthorized")
    assert db.session.query(Receipt).count() == 0


def test_bad_files_are_refused_with_their_reason(client, receipts_app):
    make_user()
    headers = bearer(client)

    assert_error(_upload(client, headers, b""), 400, "validation_error")
    assert_error(_upload(client, headers, b"PK\x03\x04" + bytes(range(256)) * 4, "receipt.pdf"), 415,
                 "unsupported_media_type")  # fmt: skip
    assert_error(client.post("/api/receipts", headers=headers, json={"file": "x"}), 400, "validation_error")
    assert db.session.query(Receipt).count() == 0


def test_a_receipt_over_the_size_limit_is_413(client, receipts_app):
    make_user()
    receipts_app.config["RECEIPT_MAX_BYTES"] = 1000
    response = _upload(client, bearer(client), b"TOTAL 1.00\n" * 200)
    assert_error(response, 413, "payload_too_large")


def test_the_same_file_twice_is_a_conflict_naming_the_first(client, receipts_app, receipt_text):
    make_user()
    headers = bearer(client)
    first = _upload(client, headers, receipt_text).get_json()["receipt"]["id"]

    again = _upload(client, headers, receipt_text)

    assert_error(again, 409, "duplicate_receipt")
    assert again.get_json()["error"]["details"] == [{"receipt_id": first}]


def test_at_most_ten_uploads_a_minute(client, receipts_app):
    make_user()
    headers = bearer(client)
    answers = [_upload(client, headers, f"SHOP {n}\nTOTAL {n}.00\n".encode()).status_code for n in range(11)]
    assert answers[:10] == [201] * 10
    assert answers[10] == 429


def test_list_filters_by_merchant_date_and_amount(client, receipts_app, receipt_text):
    make_user()
    headers = bearer(client)
    _upload(client, headers, receipt_text)
    _upload(client, headers, b"BOOK NOOK\n2026-09-02\nNovel 12.00\nTOTAL 12.00\n")

    def merchants(query: str) -> list[str]:
        response = client.get(f"/api/receipts?{query}", headers=headers)
        assert response.status_code == 200, response.get_json()
        return [r["merchant_name"].upper() for r in response.get_json()["receipts"]]

    assert merchants("merchant=corner") == ["CORNER MARKET"]
    assert merchants("date_from=2026-10-01&date_to=2026-10-31") == ["CORNER MARKET"]
    assert merchants("min_amount=13") == ["CORNER MARKET"]
    assert merchants("max_amount=13") == ["BOOK NOOK"]
    assert_error(client.get("/api/receipts?min_amount=abc", headers=headers), 400, "validation_error")
    assert_error(client.get("/api/receipts?date_from=2026-13-01", headers=headers), 400, "validation_error")


def test_the_owner_gets_the_file_back_sandboxed_and_can_delete_it(client, receipts_app):
    make_user()
    headers = bearer(client)
    image = PNG_HEADER + b"\x00" * 64
    receipt_id = _upload(client, headers, image, "photo.png").get_json()["receipt"]["id"]

    served = client.get(f"/api/receipts/{receipt_id}/file", headers=headers)
    deleted = client.delete(f"/api/receipts/{receipt_id}", headers=headers)

    assert served.status_code == 200 and served.data == image and served.mimetype == "image/png"
    assert "sandbox" in served.headers["Content-Security-Policy"]
    assert served.headers["X-Content-Type-Options"] == "nosniff"
    assert deleted.status_code == 200 and db.session.get(Receipt, receipt_id) is None
    assert_error(client.get(f"/api/receipts/{receipt_id}/file", headers=headers), 404, "not_found")


def test_markup_dressed_as_a_photo_is_refused(client, receipts_app):
    make_user()
    headers = bearer(client)
    svg = b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"><text>TOTAL 9.00</text></svg>'
    html = b"<!DOCTYPE html><html><body><script>fetch('/api/auth/me')</script>TOTAL 9.00</body></html>"

    for data, name in ((svg, "receipt.png"), (html, "receipt.png"), (svg, "receipt.svg"), (html, "scan.jpg")):
        assert_error(_upload(client, headers, data, name), 415, "unsupported_media_type")
    assert db.session.query(Receipt).count() == 0


def test_a_receipt_uploaded_through_one_server_is_served_and_read_by_another(client, receipts_app, tmp_path,
                                                                             receipt_text):  # fmt: skip
    """The file lives in the database: another machine (another storage folder) serves and re-reads it."""
    from insightshop.models.receipts import ReceiptFile

    make_user()
    headers = bearer(client)
    receipts_app.config["RECEIPT_STORAGE_DIR"] = str(tmp_path / "machine-a")
    receipt_id = _upload(client, headers, receipt_text, "corner.txt").get_json()["receipt"]["id"]
    stored_name = db.session.get(Receipt, receipt_id).stored_name

    receipts_app.config["RECEIPT_STORAGE_DIR"] = str(tmp_path / "machine-b")
    served = client.get(f"/api/receipts/{receipt_id}/file", headers=headers)
    reread = client.post(f"/api/receipts/{receipt_id}/reprocess", headers=headers)
    copied = (tmp_path / "machine-b" / stored_name).read_bytes()
    deleted = client.delete(f"/api/receipts/{receipt_id}", headers=headers)

    assert served.status_code == 200 and served.data == receipt_text and copied == receipt_text
    assert not (tmp_path / "machine-a").exists()
    assert reread.status_code in (200, 202), reread.get_json()
    assert deleted.status_code == 200
    assert db.session.get(ReceiptFile, stored_name) is None
    assert not (tmp_path / "machine-b" / stored_name).exists()
