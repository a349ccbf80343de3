"""The receipt PDF (issue 12 item 17): a designed receipt whose text layer says who sold what, when, for how much,
and how it was paid (card brand and last four digits only); long orders flow onto more pages."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from decimal import Decimal
from email import message_from_bytes
from email.policy import default as default_policy

import pytest
from pypdf import PdfReader

from insightshop.extensions import db
from insightshop.models.orders import PaymentLog
from insightshop.models.sales import Sale
from insightshop.services import cart, orders, pricing
from insightshop.services.actors import Actor
from insightshop.services.mail import outbox_folder
from insightshop.services.payments import offline
from insightshop.web import receipt_pdf
from insightshop.web.receipt_pdf import render_receipt
from tests.factories import make_product, make_user

pytestmark = pytest.mark.usefixtures("app")

LONG_NAME = "Heritage Merino Wool Blend Double-Breasted Overcoat with Detachable Hood and Quilted Lining"


def sale(percent: int, **scope) -> Sale:
    today = pricing.today()
    running = Sale(name=f"{percent}% off", discount_percentage=Decimal(percent), is_active=True,
                   start_date=today - timedelta(days=1), end_date=today + timedelta(days=1), **scope)  # fmt: skip
    db.session.add(running)
    db.session.commit()
    return running


def paid_order(products, *, name="Sam Buyer", card="4242 4242 4242 4242", quantity=1):
    """A buyer puts one line per product in the cart, checks out and pays with an offline test card."""
    actor = Actor(user=make_user("buyer@example.com"))
    for product in products:
        cart.add_item(actor, product.id, quantity, size=product.variants[0].size)
    order = orders.place_order(actor, orders.ShippingDetails(
        email="buyer@example.com", shipping_name=name, shipping_address="12 Elm Street, Apt 4",
        shipping_city="Springfield", shipping_state="IL", shipping_zip="62701"))  # fmt: skip
    offline.create_intent(order)
    return offline.confirm(order, card)


def text_of(pdf: bytes) -> list[str]:
    """Each page's text as pypdf extracts it (what the receipt reader sees)."""
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def test_the_receipt_names_the_shop_the_order_its_dates_items_and_totals():
    coat = make_product("Wool Overcoat", price="120.00", sizes=("M",))
    tee = make_product("Cotton Tee", clothing_type="t-shirt", price="20.00", color="navy-blue", sizes=("S",))
    order = paid_order([coat, tee])

    pages = text_of(render_receipt(order))

    text = flat(" ".join(pages))
    assert len(pages) == 1
    assert "InsightShop" in text and "Receipt" in text and f"Order #{order.id}" in text
    assert f"PAID ON {order.paid_at:%d %b %Y %H:%M} UTC" in text and f"ORDER DATE {order.created_at:%d %b %Y}" in text
    assert "Wool Overcoat" in text and "Cotton Tee" in text and "Navy blue / S" in text
    assert f"SKU {order.items[0].sku}" in text
    assert "Subtotal $140.00" in text and f"Total (USD) ${order.total:,.2f}" in text
    assert "12 Elm Street, Apt 4" in text and "Springfield, IL 62701" in text and "buyer@example.com" in text
    assert "Standard" in text and "help@insightshop.example" in text and "within 30 days" in text
    assert "Thank you for shopping with InsightShop!" in text


def test_a_sale_shows_the_price_it_replaced_and_the_saving_once():
    shirt = make_product("Oxford Shirt", price="50.00", sizes=("L",))
    sale(20)
    order = paid_order([shirt], quantity=2)

    text = flat(text_of(render_receipt(order))[0])

    assert "Oxford Shirt White / L · SKU" in text and "2 $40.00 $80.00 was $50.00" in text
    assert "Subtotal $80.00" in text and "Sale discount" not in text  # the lines' sum, at the prices paid
    assert "You saved $20.00" in text


def test_the_card_shows_its_brand_and_last_four_digits_only():
    order = paid_order([make_product(price="30.00")], card="5555 5555 5555 4444")

    text = flat(text_of(render_receipt(order))[0])

    assert "Mastercard ending in 4444" in text and "Test payment (no money moved)" in text
    assert "5555" not in text and not re.search(r"\d{4}[ -]?\d{4}[ -]?\d{4}", text)


def test_an_order_without_a_card_on_record_never_prints_more_than_the_last_four_digits():
    order = paid_order([make_product(price="30.00")])
    db.session.query(PaymentLog).filter_by(order_id=order.id).delete()
    order.payment_method = "Visa 4242 4242 4242 4242"
    db.session.commit()

    text = flat(text_of(render_receipt(order))[0])

    assert "Visa ending in 4242" in text and "4242 4242" not in text


def test_names_outside_latin_1_print_as_written():
    order = paid_order([make_product("Façade Tee", clothing_type="t-shirt", price="25.00")], name="Zoë Łukasz-Żak")

    text = text_of(render_receipt(order))[0]

    assert "Zoë Łukasz-Żak" in text and "Façade Tee" in text


def test_forty_items_flow_onto_more_pages_with_the_table_header_and_page_numbers():
    products = [make_product(f"{LONG_NAME} No. {n}" if n % 7 == 0 else f"Linen Shirt No. {n}", price="19.00",
                             sizes=("M",), stock=3) for n in range(1, 41)]  # fmt: skip
    order = paid_order(products)

    pages = text_of(render_receipt(order))

    assert len(pages) > 1
    for number, page in enumerate(pages, start=1):
        assert "ITEM" in page and "UNIT PRICE" in page and "AMOUNT" in page
        assert f"Page {number} of {len(pages)}" in page
    text = flat(" ".join(pages))
    assert all(product.name in text for product in products)  # long names wrap, never cut
    assert f"Receipt for order #{order.id} (continued)" in pages[1]
    assert f"Total (USD) ${order.total:,.2f}" in flat(pages[-1])


def test_without_the_shipped_fonts_the_receipt_still_prints_in_plain_latin(monkeypatch, tmp_path):
    monkeypatch.setattr(receipt_pdf, "FONT_DIR", tmp_path)
    order = paid_order([make_product("Façade Tee", price="25.00")], name="Zoë Łukasz")

    text = flat(text_of(render_receipt(order))[0])

    assert "Zoë Lukasz" in text and "Façade Tee" in text and f"Total (USD) ${order.total:,.2f}" in text


def test_the_payment_mail_attaches_the_same_receipt():
    order = paid_order([make_product("Oxford Shirt", price="40.00")])

    mails = [message_from_bytes(path.read_bytes(), policy=default_policy) for path in outbox_folder().glob("*.eml")]
    paid = next(mail for mail in mails if str(mail["Subject"]).startswith("Payment received"))
    attachment = next(paid.iter_attachments())

    assert attachment.get_content_type() == "application/pdf"
    assert attachment.get_content() == render_receipt(order)
