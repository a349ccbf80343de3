"""The shop's own receipt PDF read back: reading.read_document (the PDF's text layer) and the offline engine give
the order's merchant, paid date, subtotal, tax, total and exactly its items (issue 13)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from insightshop.extensions import db
from insightshop.models.sales import Sale
from insightshop.services import cart, orders, pricing
from insightshop.services.actors import Actor
from insightshop.services.payments import offline
from insightshop.services.receipts.extraction import extract
from insightshop.services.receipts.reading import read_document
from insightshop.web.receipt_pdf import render_receipt
from tests.factories import make_product, make_user


def _paid_order_with_a_sale():
    coat = make_product("Wool Overcoat", price="120.00", sizes=("M",))
    tee = make_product("Cotton Tee", clothing_type="t-shirt", price="20.00", color="navy-blue", sizes=("S",))
    socks = make_product("Merino Socks", clothing_type="socks", price="12.50", sizes=("M",))
    today = pricing.today()
    db.session.add(Sale(name="25% off coats", discount_percentage=Decimal(25), is_active=True,
                        start_date=today - timedelta(days=1), end_date=today + timedelta(days=1),
                        product_ids=[coat.id]))  # fmt: skip
    db.session.commit()
    actor = Actor(user=make_user("buyer@example.com"))
    for product, quantity in ((coat, 1), (tee, 2), (socks, 1)):
        cart.add_item(actor, product.id, quantity, size=product.variants[0].size)
    order = orders.place_order(actor, orders.ShippingDetails(
        email="buyer@example.com", shipping_name="Sam Buyer", shipping_address="12 Elm Street, Apt 4",
        shipping_city="Springfield", shipping_state="IL", shipping_zip="62701"))  # fmt: skip
    offline.create_intent(order)
    return offline.confirm(order, "4242 4242 4242 4242")


def test_the_order_receipt_pdf_extracts_back_to_the_order(app):
    order = _paid_order_with_a_sale()
    assert any(item.unit_price < item.list_price for item in order.items)  # one item is on sale

    document = read_document(render_receipt(order), "application/pdf", "receipt.pdf")
    result = extract(document, today=order.paid_at.date())

    assert document.source == "pdf_text"
    assert result.merchant_name.value == "InsightShop"
    assert result.purchase_date.value == order.paid_at.date().isoformat()
    assert result.currency.value == "USD"
    assert (result.subtotal.value, result.tax_amount.value, result.total_amount.value) == (
        order.items_subtotal,  # the lines at the prices paid, as the receipt prints it
        order.tax,
        order.total,
    )
    got = [(i.item_name, i.quantity, i.unit_price, i.total_price) for i in result.items]
    want = [(i.name, i.quantity, i.unit_price, i.line_total) for i in order.items]
    assert got == want
