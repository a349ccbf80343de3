"""The compare tray stays out of checkout, payment, receipts and error pages, and can be dismissed (issue 12 item 6)."""

from __future__ import annotations

from tests.factories import csrf_token, make_product
from tests.routes.test_checkout_pages import fill_cart


def _tray_has_items(html: str) -> bool:
    return 'id="compare-tray" class="compare-tray"' in html and "to compare" in html


def _add_to_tray(client, product_id: int) -> None:
    token = csrf_token(client, f"/products/{product_id}")
    client.post(f"/compare/{product_id}", data={"csrf_token": token})


def test_the_tray_shows_while_browsing_and_not_at_checkout_or_on_error_pages(client):
    product = fill_cart(client)
    _add_to_tray(client, product.id)

    assert _tray_has_items(client.get("/catalog").get_data(as_text=True))
    assert _tray_has_items(client.get(f"/products/{product.id}").get_data(as_text=True))
    for path in ("/checkout", "/cart", "/orders/lookup", "/products/999999", "/no-such-page"):
        assert not _tray_has_items(client.get(path).get_data(as_text=True)), path


def test_the_tray_can_be_dismissed_in_place(client):
    product = make_product()
    _add_to_tray(client, product.id)
    token = csrf_token(client, "/catalog")

    fragment = client.post("/compare/clear", data={"csrf_token": token}, headers={"HX-Request": "true"})

    html = fragment.get_data(as_text=True)
    assert fragment.status_code == 200 and "compare-tray--empty" in html and "<html" not in html
    assert not _tray_has_items(client.get("/catalog").get_data(as_text=True))
