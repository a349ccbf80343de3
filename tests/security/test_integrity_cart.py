"""Issue #10 item 11: concurrent cart changes are exact and never answer 500."""

from __future__ import annotations

import threading

import pytest

from insightshop.extensions import db
from insightshop.models.cart import CartItem
from tests.factories import bearer, guest_bearer, make_product, make_user

pytestmark = pytest.mark.commits  # concurrent requests on threads of their own


def _race(app, requests: list[tuple[str, str, dict, dict]]) -> list[tuple[int, dict]]:
    """Send (method, path, headers, json) requests from one thread each, released together."""
    answers, barrier = [], threading.Barrier(len(requests))

    def send(method, path, headers, body):
        with app.app_context():
            client = app.test_client()
            barrier.wait()
            try:
                response = client.open(path, method=method, headers=headers, json=body)
                answers.append((response.status_code, response.get_json()))
            finally:
                db.session.remove()

    threads = [threading.Thread(target=send, args=request) for request in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    db.session.expire_all()
    assert len(answers) == len(requests)
    return answers


def _lines() -> list[tuple[int | None, str | None, int]]:
    return [(i.user_id, i.guest_id, i.quantity) for i in db.session.query(CartItem).order_by(CartItem.id)]


@pytest.fixture(params=["guest", "user"])
def owner_headers(request, app):
    client = app.test_client()
    if request.param == "guest":
        return guest_bearer(client)
    make_user()
    return bearer(client)


def _add(headers, product_id, quantity=1):
    return ("POST", "/api/cart", headers, {"product_id": product_id, "selected_size": "L", "quantity": quantity})


def test_ten_concurrent_adds_of_one_end_at_ten_on_one_line(app, owner_headers):
    shirt = make_product("Race Shirt", sizes=("L",), stock=50)

    answers = _race(app, [_add(owner_headers, shirt.id)] * 10)

    assert [status for status, _ in answers] == [201] * 10
    [(_user, _guest, quantity)] = _lines()
    assert quantity == 10


def test_concurrent_adds_past_the_line_limit_are_refused_as_quantity_limit(app, owner_headers):
    shirt = make_product("Race Shirt", sizes=("L",), stock=50)

    answers = _race(app, [_add(owner_headers, shirt.id)] * 14)

    assert sorted(status for status, _ in answers) == [201] * 10 + [400] * 4
    assert {body["error"]["code"] for status, body in answers if status != 201} == {"quantity_limit"}
    assert [quantity for *_owner, quantity in _lines()] == [10]


def test_concurrent_adds_past_the_stock_are_refused_as_out_of_stock(app, owner_headers):
    shirt = make_product("Race Shirt", sizes=("L",), stock=6)

    answers = _race(app, [_add(owner_headers, shirt.id)] * 10)

    assert sorted(status for status, _ in answers) == [201] * 6 + [409] * 4
    assert {body["error"]["code"] for status, body in answers if status != 201} == {"out_of_stock"}
    assert [quantity for *_owner, quantity in _lines()] == [6]


def test_five_concurrent_removals_of_one_from_ten_leave_five(app, owner_headers):
    shirt = make_product("Race Shirt", sizes=("L",), stock=50)
    client = app.test_client()
    assert client.post("/api/cart", headers=owner_headers, json=_add(owner_headers, shirt.id, 10)[3]).status_code == 201
    remove_one = ("POST", "/api/tools/cart_remove_item", owner_headers, {"product_id": shirt.id, "quantity": 1})

    answers = _race(app, [remove_one] * 5)

    assert [status for status, _ in answers] == [200] * 5
    assert all(body["ok"] for _, body in answers)
    assert [quantity for *_owner, quantity in _lines()] == [5]


def test_concurrent_removals_past_zero_delete_the_line_once_and_never_fail(app, owner_headers):
    shirt = make_product("Race Shirt", sizes=("L",), stock=50)
    client = app.test_client()
    assert client.post("/api/cart", headers=owner_headers, json=_add(owner_headers, shirt.id, 3)[3]).status_code == 201
    remove_one = ("POST", "/api/tools/cart_remove_item", owner_headers, {"product_id": shirt.id, "quantity": 1})

    answers = _race(app, [remove_one] * 6)

    outcomes = sorted((status, body.get("ok") or body["error"]["code"]) for status, body in answers)
    assert outcomes == [(200, True)] * 3 + [(404, "not_found")] * 3
    assert _lines() == []


def test_concurrent_adds_of_different_sizes_make_one_line_each(app, owner_headers):
    shirt = make_product("Race Shirt", sizes=("S", "M", "L"), stock=50)
    adds = [("POST", "/api/cart", owner_headers, {"product_id": shirt.id, "selected_size": size}) for size in "SML" * 3]

    answers = _race(app, adds)

    assert [status for status, _ in answers] == [201] * 9
    assert sorted(quantity for *_owner, quantity in _lines()) == [3, 3, 3]


def test_two_concurrent_logins_merge_a_guest_cart_once(app):
    make_user()
    shirt = make_product("Race Shirt", sizes=("L",), stock=50)
    client = app.test_client()
    guest = guest_bearer(client)
    assert client.post("/api/cart", headers=guest, json=_add(guest, shirt.id, 3)[3]).status_code == 201
    login = ("POST", "/api/auth/login", guest, {"email": "shopper@example.com", "password": "correct horse battery"})

    answers = _race(app, [login] * 2)

    assert [status for status, _ in answers] == [200, 200]
    [(user_id, guest_id, quantity)] = _lines()
    assert user_id is not None and guest_id is None and quantity == 3
