"""Customers read customer-facing history only (issue 12 item 9): the public tracking page and API show shipping
milestones, never card details, internal notes or who changed the order; the buyer's own page hides internal notes."""

from __future__ import annotations

from insightshop.extensions import db
from insightshop.services import admin_orders
from insightshop.services.actors import Actor
from tests.factories import csrf_token, make_paid_order, make_product, make_user

INTERNAL = ("4242", "Visa", "admin@", "Changed through", "re_offline")


def _shipped_order():
    buyer = Actor(user=make_user("buyer@example.com"))
    order = make_paid_order(buyer, make_product())
    admin = Actor(user=make_user("admin@example.com", admin=True))
    admin_orders.change_status(admin, order.id, "processing", note="Changed through the assistant")
    admin_orders.change_status(admin, order.id, "shipped", carrier="UPS", tracking_number="1Z999AA10123456784",
                               note="Changed through the assistant by admin@example.com")  # fmt: skip
    db.session.refresh(order)
    return order


def test_the_public_tracking_page_shows_milestones_in_customer_words(client):
    _shipped_order()

    html = client.get("/orders/track?tracking_number=1Z999AA10123456784").get_data(as_text=True)

    for text in ("Order placed", "Payment received (test payment", "Being prepared for shipping", "Shipped with UPS"):
        assert text in html
    assert not [secret for secret in INTERNAL if secret in html]


def test_the_tracking_api_and_tool_give_the_same_customer_text(client):
    _shipped_order()

    api = client.post("/api/orders/track", json={"tracking_number": "1Z999AA10123456784"}).get_json()
    tool = client.post("/api/tools/order_track", json={"tracking_number": "1Z999AA10123456784"}).get_json()

    notes = [e["note"] for e in api["shipment"]["events"]]
    assert notes == ["Order placed", "Payment received (test payment: no money moved)", "Being prepared for shipping",
                     "Shipped with UPS"]  # fmt: skip
    assert [e["note"] for e in tool["data"]["shipment"]["events"]] == notes


def test_the_buyers_own_order_page_hides_internal_notes(client):
    order = _shipped_order()
    _log_in(client, "buyer@example.com")

    html = client.get(f"/orders/{order.id}").get_data(as_text=True)

    assert "Shipped with UPS" in html and "Changed through" not in html and "admin@example.com" not in html


def test_the_admin_order_page_keeps_the_full_history(client):
    order = _shipped_order()
    _log_in(client, "admin@example.com")

    html = client.get(f"/admin/orders/{order.id}").get_data(as_text=True)

    assert "Changed through the assistant" in html


def _log_in(client, email: str) -> None:
    token = csrf_token(client, "/login")
    client.post("/login", data={"email": email, "password": "correct horse battery", "csrf_token": token})
