"""Order lookup by number + email opens the guest's full order page in that browser (issue 12 item 14)."""

from __future__ import annotations

from insightshop.extensions import db
from insightshop.models.orders import Order
from insightshop.services.actors import Actor
from tests.factories import csrf_token, make_paid_order, make_product, make_user
from tests.routes.test_checkout_pages import checkout, fill_cart


def _look_up(client, order_id, email):
    token = csrf_token(client, "/orders/lookup")
    return client.post("/orders/lookup", data={"order_id": order_id, "email": email, "csrf_token": token})


def test_another_browser_with_number_and_email_sees_the_whole_guest_order(app, client):
    fill_cart(client)
    checkout(client)
    order = db.session.query(Order).one()
    elsewhere = app.test_client()

    assert elsewhere.get(f"/orders/{order.id}").status_code == 404
    found = _look_up(elsewhere, order.id, "Sam@Example.com")
    page = elsewhere.get(found.headers["Location"])

    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Oxford Shirt" in html and "1 Main St" in html
    assert "token" not in found.headers["Location"] and "link=" not in found.headers["Location"]


def test_a_wrong_email_opens_nothing(app, client):
    fill_cart(client)
    checkout(client)
    order = db.session.query(Order).one()
    elsewhere = app.test_client()

    response = _look_up(elsewhere, order.id, "eve@example.com")

    assert response.status_code == 404 and elsewhere.get(f"/orders/{order.id}").status_code == 404


def test_a_registered_customers_order_shows_its_status_and_asks_to_log_in(app, client):
    buyer = make_user("member@example.com")
    order = make_paid_order(Actor(user=buyer), make_product())

    response = _look_up(client, order.id, "member@example.com")

    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "<strong>Paid</strong>" in html and "Log in to see the whole order" in html
    assert client.get(f"/orders/{order.id}").status_code == 404
