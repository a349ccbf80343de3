"""After asking for a return the order page shows it and offers only what is left (issue 12 item 8)."""

from __future__ import annotations

import re

from insightshop.services import returns
from insightshop.services.errors import Invalid
from tests.factories import csrf_token
from tests.services.test_returns import delivered  # noqa: F401  (fixture)


def _log_in(client) -> None:
    token = csrf_token(client, "/login")
    client.post(
        "/login", data={"email": "shopper@example.com", "password": "correct horse battery", "csrf_token": token}
    )


def test_a_requested_return_is_listed_and_the_form_offers_the_rest(client, delivered):  # noqa: F811
    shopper, order, _ = delivered
    _log_in(client)
    item = order.items[0]
    token = csrf_token(client, f"/orders/{order.id}")

    response = client.post(f"/orders/{order.id}/returns", data={"order_item_id": item.id, "quantity": 1,
                                                                "reason": "Too small", "csrf_token": token})  # fmt: skip
    html = client.get(f"/orders/{order.id}").get_data(as_text=True)

    assert response.status_code == 303
    assert "Your returns" in html and "Waiting for review" in html and f"1 × {item.name}" in html
    assert re.search(r'name="quantity" min="1" max="1"', html)  # 2 bought, 1 asked back


def test_asking_for_too_many_reads_like_a_person_wrote_it(delivered):  # noqa: F811
    shopper, order, _ = delivered
    item = order.items[0]

    try:
        returns.request_return(shopper, order.id, [{"order_item_id": item.id, "quantity": 5, "reason": "nope"}])
    except Invalid as error:
        message, details = error.message, error.details
    assert message == f"You can return at most 2 of {item.name}"
    assert details == [{"field": "items.0.quantity", "message": "at most 2"}]


def test_a_fully_requested_item_offers_no_form(client, delivered):  # noqa: F811
    shopper, order, _ = delivered
    item = order.items[0]
    returns.request_return(shopper, order.id, [{"order_item_id": item.id, "quantity": 2, "reason": "Both too big"}])
    _log_in(client)

    html = client.get(f"/orders/{order.id}").get_data(as_text=True)

    assert "already returned or waiting for review" in html and 'name="quantity"' not in html
