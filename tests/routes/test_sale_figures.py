"""Issue 29, item 4: one subtotal rule everywhere. During a sale the lines show the prices paid (and what they
replaced); the subtotal is the lines' sum at those prices, the saving is said once and never taken off again, and the
cart, checkout, order page, order email, PDF receipt, text receipt and JSON API all show the same figures."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from decimal import Decimal

from pypdf import PdfReader

from insightshop.extensions import db
from insightshop.models.orders import Order
from insightshop.models.sales import Sale
from insightshop.services import pricing
from insightshop.services.mail import list_outbox
from tests.factories import bearer, csrf_token, make_product, make_user

ADDRESS = {"email": "shopper@example.com", "shipping_name": "Sam Shopper", "shipping_address": "1 Main St",
           "shipping_city": "Springfield", "shipping_state": "IL", "shipping_zip": "62701", "shipping_country": "US"}  # fmt: skip


def running_sale(percent: int) -> None:
    today = pricing.today()
    db.session.add(Sale(name=f"{percent}% off", discount_percentage=Decimal(percent), is_active=True,
                        start_date=today - timedelta(days=1), end_date=today + timedelta(days=1)))  # fmt: skip
    db.session.commit()


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_a_sale_orders_subtotal_discount_and_total_agree_in_every_place(app, client):
    make_user("shopper@example.com")
    shirt = make_product("Oxford Shirt", price="27.00", sizes=("L",), stock=5)
    running_sale(20)  # 2 × $27.00 → 2 × $21.60
    client.post("/login", data={"email": "shopper@example.com", "password": "correct horse battery",
                                "csrf_token": csrf_token(client, "/login")})  # fmt: skip
    client.post("/cart/add", data={"product_id": shirt.id, "quantity": 2, "size": "L",
                                   "csrf_token": csrf_token(client, f"/products/{shirt.id}")})  # fmt: skip
    subtotal, saving = "$43.20", "$10.80"

    cart_page = flat(client.get("/cart").get_data(as_text=True))
    assert "$21.60 each" in cart_page and "was <s>$27.00</s>" in cart_page and f"<span>{subtotal}</span>" in cart_page

    checkout_page = flat(client.get("/checkout").get_data(as_text=True))
    key = re.search(r'name="idempotency_key" type="hidden" value="([0-9a-f]+)"', checkout_page).group(1)
    placed = client.post("/checkout", data={**ADDRESS, "shipping_method": "standard", "idempotency_key": key,
                                            "csrf_token": csrf_token(client, "/checkout")})  # fmt: skip
    client.post(placed.location, data={"card_number": "4242 4242 4242 4242",
                                       "csrf_token": csrf_token(client, placed.location)})  # fmt: skip
    order = db.session.query(Order).one()
    total = f"${order.total:.2f}"
    assert order.total == Decimal("43.20") + order.shipping + order.tax

    def shows_the_figures(text: str, where: str) -> None:
        assert re.search(r"Subtotal(?:\W|<[^>]+>)*" + re.escape(subtotal), text), where
        assert "Sale discount" not in text and f"−{saving}" not in text and "-10.80" not in text, where
        assert total in text or f"{order.total:.2f}" in text, where

    shows_the_figures(checkout_page, "checkout")
    assert f"Sale savings, in the prices above</span><span>{saving}" in checkout_page
    order_page = flat(client.get(f"/orders/{order.id}").get_data(as_text=True))
    shows_the_figures(order_page, "order page")
    assert "was <s>$27.00</s>" in order_page
    mail = next(m for m in list_outbox() if f"order #{order.id}" in m.subject and "Subtotal" in m.body)
    shows_the_figures(flat(mail.body), "email")
    pdf = client.get(f"/orders/{order.id}/receipt.pdf").data
    pdf_text = flat(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages))
    assert (
        f"Subtotal {subtotal}" in pdf_text and f"You saved {saving}" in pdf_text and f"Total (USD) {total}" in pdf_text
    )
    text_receipt = flat(client.get(f"/orders/{order.id}/receipt").get_data(as_text=True))
    assert re.search(r"SUBTOTAL\s+43\.20", text_receipt) and "DISCOUNT" not in text_receipt

    program = app.test_client()  # the API as a program calls it: a bearer token, no browser session
    api = program.get(f"/api/orders/{order.id}", headers=bearer(program)).get_json()
    api_order = api.get("order", api)
    assert (api_order["subtotal"], api_order["discount"], api_order["total"]) == (
        "43.20",
        "10.80",
        f"{order.total:.2f}",
    )
