"""Checkout shows what payment will charge (issue 12 items 5 and 15): delivery options with their prices, a summary
that follows the chosen method, money formatted as money, and the last address offered again."""

from __future__ import annotations

import re

from insightshop.extensions import db
from insightshop.models.orders import Order
from tests.routes.test_checkout_pages import ADDRESS, checkout, fill_cart


def _summary_total(html: str) -> str:
    return re.search(r'summary-total"><span>Total</span><span>([^<]+)<', html).group(1)


def test_delivery_options_show_their_prices_and_the_threshold_as_money(client):
    fill_cart(client, price="30.00")

    html = client.get("/checkout").get_data(as_text=True)

    assert re.search(r"Standard.*?3–5 business days.*?\$5\.95", html, re.S)
    assert re.search(r"Express.*?1–2 business days.*?\$14\.95", html, re.S)
    assert "free on orders from $75.00" in html and "75.0 USD" not in html


def test_choosing_express_updates_the_summary_fragment(client):
    fill_cart(client, price="30.00")

    fragment = client.get("/checkout?shipping_method=express", headers={"HX-Request": "true"}).get_data(as_text=True)

    assert fragment.lstrip().startswith('<aside class="cart-summary panel" id="checkout-summary"')
    assert "$14.95" in fragment and _summary_total(fragment) == "$79.75"  # 60 + 14.95 + 4.80 tax
    assert "<html" not in fragment


def test_the_order_charges_exactly_what_the_summary_showed(client):
    fill_cart(client, price="30.00")
    shown = _summary_total(client.get("/checkout?shipping_method=express").get_data(as_text=True))

    response, _ = checkout(client, shipping_method="express")

    assert response.status_code == 303
    assert f"${db.session.query(Order).one().total:,.2f}" == shown == "$79.75"


def test_an_unknown_method_in_the_query_falls_back_to_standard(client):
    fill_cart(client, price="30.00")

    html = client.get("/checkout?shipping_method=teleport").get_data(as_text=True)

    assert _summary_total(html) == "$70.75"


def test_a_guest_coming_back_from_an_abandoned_payment_finds_the_form_filled(client):
    fill_cart(client, price="30.00")
    checkout(client)  # placed, never paid

    html = client.get("/checkout").get_data(as_text=True)

    for value in (ADDRESS["shipping_name"], ADDRESS["shipping_address"], ADDRESS["shipping_zip"], ADDRESS["email"]):
        assert f'value="{value}"' in html
