"""Order emails (issue 12 item 13): HTML with a plain-text part through the mail service, for every moment of an
order, sent only when the change commits."""

from __future__ import annotations

import pytest

from insightshop.extensions import db
from insightshop.services import admin_orders, cart, orders, returns
from insightshop.services.actors import Actor
from insightshop.services.errors import DomainError
from insightshop.services.mail import list_outbox
from tests.factories import make_paid_order, make_product, make_user
from tests.services.test_orders import details


def _mail(subject_start: str):
    found = [m for m in list_outbox() if m.subject.startswith(subject_start)]
    assert len(found) == 1, [m.subject for m in list_outbox()]
    return found[0]


@pytest.fixture
def admin():
    return Actor(user=make_user("boss@example.com", admin=True))


def test_placing_and_paying_send_an_html_mail_with_a_text_part_and_the_receipt(app):
    buyer = Actor(user=make_user("buyer@example.com"))

    order = make_paid_order(buyer, make_product("Oxford Shirt", price="40.00"))

    placed, paid = _mail("We have your order"), _mail("Payment received")
    assert placed.to == "buyer@example.com" and f"order #{order.id}" in placed.subject
    assert "1 x Oxford Shirt" in placed.body and "Total: $" in placed.body
    assert "<h1" in placed.html and "1 × Oxford Shirt" in placed.html
    assert f"/orders/{order.id}" in placed.body and placed.body.count("http://127.0.0.1") >= 1
    assert paid.attachments == (f"insightshop-receipt-{order.id}.pdf",)


def test_shipping_mails_the_carrier_and_a_tracking_link_and_delivery_mentions_returns(app, admin):
    order = make_paid_order(Actor(user=make_user("buyer@example.com")), make_product())

    admin_orders.change_status(admin, order.id, "shipped", carrier="UPS", tracking_number="1Z999AA10123456784")
    admin_orders.change_status(admin, order.id, "delivered")

    shipped = _mail("Your order is on its way")
    assert "UPS" in shipped.body and "/orders/track?tracking_number=1Z999AA10123456784" in shipped.body
    assert "Returns are free within 30 days" in _mail("Delivered").body


def test_cancelling_a_paid_order_mails_the_refund(app, admin):
    order = make_paid_order(Actor(user=make_user("buyer@example.com")), make_product())

    admin_orders.change_status(admin, order.id, "cancelled")

    assert "refunded to your card" in _mail("Your order was cancelled").body


def test_returns_mail_the_request_and_the_decision(app, admin):
    buyer = Actor(user=make_user("buyer@example.com"))
    order = make_paid_order(buyer, make_product(price="40.00"))
    for status in ("shipped", "delivered"):
        admin_orders.change_status(admin, order.id, status, carrier="UPS", tracking_number="1ZRET")
    request = returns.request_return(buyer, order.id, [{"order_item_id": order.items[0].id, "quantity": 1,
                                                        "reason": "Too small"}])  # fmt: skip

    returns.decide_return(admin, request.id, approve=True)

    assert _mail("Return request received").to == "buyer@example.com"
    assert "is on its way back to your card" in _mail("Return approved").body


def test_a_checkout_that_fails_mails_nobody(app):
    guest = Actor(guest_id="g-1")
    product = make_product(sizes=("L",), stock=1)
    cart.add_item(guest, product.id, 1)
    product.variants[0].stock = 0
    db.session.commit()

    with pytest.raises(DomainError):
        orders.place_order(guest, details())

    assert list_outbox() == []


def test_a_guest_is_sent_to_the_lookup_page_not_a_private_link(app):
    guest = Actor(guest_id="g-2")
    product = make_product(sizes=("L",))
    cart.add_item(guest, product.id, 1)

    order = orders.place_order(guest, details())

    placed = _mail("We have your order")
    assert "/orders/lookup" in placed.body and order.guest_token not in placed.body + (placed.html or "")


def test_names_in_the_html_part_are_escaped(app):
    guest = Actor(guest_id="g-3")
    product = make_product("Tee <b>bold</b> & co", sizes=("L",))
    cart.add_item(guest, product.id, 1)

    orders.place_order(guest, details(shipping_name="<script>x</script> Lee"))

    placed = _mail("We have your order")
    assert "Tee &lt;b&gt;bold&lt;/b&gt; &amp; co" in placed.html and "<script>" not in placed.html
