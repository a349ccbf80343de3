"""Issue 26 items 14, 15 and 16: personal pages never sit in a cache, mail files are the shop's own, and a new
browser's concurrent first adds land in one guest cart."""

import re
import stat
from http.cookies import SimpleCookie

import pytest

from insightshop.extensions import db
from insightshop.models.cart import CartItem
from insightshop.services.mail import outbox_folder, send_mail
from tests.factories import csrf_token, make_paid_order, make_product, make_user

PRIVATE = "no-store, private"


def log_in(client, email="shopper@example.com", password="correct horse battery"):
    token = csrf_token(client, "/login")
    response = client.post("/login", data={"email": email, "password": password, "csrf_token": token})
    assert response.status_code == 302


def cache_control(response) -> set[str]:
    return {part.strip() for part in response.headers.get("Cache-Control", "").split(",") if part.strip()}


@pytest.mark.parametrize("path", ["/account", "/cart", "/receipts", "/wishlist", "/catalog"])
def test_a_shoppers_own_pages_are_never_stored(client, path):
    make_user()
    log_in(client)

    response = client.get(path)

    assert response.status_code == 200, path
    assert {"no-store", "private"} <= cache_control(response)


def test_an_order_page_and_its_receipt_pdf_are_never_stored(app, client):
    from insightshop.services.actors import Actor

    user = make_user()
    order = make_paid_order(Actor(user=user), make_product())
    log_in(client)

    page = client.get(f"/orders/{order.id}")
    pdf = client.get(f"/orders/{order.id}/receipt.pdf")

    assert page.status_code == 200 and {"no-store", "private"} <= cache_control(page)
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert {"no-store", "private"} <= cache_control(pdf)
    assert "public" not in cache_control(pdf)


def test_admin_pages_are_never_stored(client):
    make_user("boss@example.com", admin=True)
    log_in(client, "boss@example.com")

    for path in ("/admin", "/admin/orders", "/admin/users"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert {"no-store", "private"} <= cache_control(response), path


def test_public_pages_for_anonymous_visitors_stay_cacheable(client):
    make_product()

    for path in ("/", "/catalog", "/illustrations/shirt/white.svg"):
        response = client.get(path)
        assert response.status_code == 200
        assert "no-store" not in cache_control(response), path


def test_outbox_messages_are_readable_by_the_shop_alone(app):
    outbox_folder().mkdir(parents=True, exist_ok=True)
    outbox_folder().chmod(0o755)  # as an earlier release left it

    send_mail("sam@example.com", "Reset your password", "https://shop.example.com/reset-password/secret")

    [message] = list(outbox_folder().glob("*.eml"))
    assert stat.S_IMODE(message.stat().st_mode) == 0o600
    assert stat.S_IMODE(outbox_folder().stat().st_mode) == 0o700


def test_concurrent_first_adds_of_a_new_browser_share_one_guest_cart(app, client):
    # A new browser opens the product page (which gives it a session and a CSRF token), then fires several adds
    # before any answer comes back: each carries the same first cookie, none carries the others' new cookie.
    product = make_product(stock=20)
    token = csrf_token(client, f"/products/{product.id}")
    first_cookie = client.get_cookie("session").value
    data = {"product_id": product.id, "color": "white", "size": "M", "quantity": 1, "csrf_token": token}

    answers = []
    for _ in range(4):
        tab = app.test_client()
        tab.set_cookie("session", first_cookie)
        answers.append(tab.post("/cart/add", data=data, headers={"HX-Request": "true"}))

    assert [answer.status_code for answer in answers] == [200] * 4
    [(guests, quantity)] = db.session.query(db.func.count(db.func.distinct(CartItem.guest_id)),
                                            db.func.sum(CartItem.quantity)).all()  # fmt: skip
    assert (guests, quantity) == (1, 4)
    # Whichever answer's cookie the browser keeps, it shows the cart with all four.
    last = app.test_client()
    last.set_cookie("session", SimpleCookie(answers[0].headers["Set-Cookie"])["session"].value)
    assert re.search(r"\b4\b", last.get("/cart").get_data(as_text=True))


def test_a_guest_order_read_with_its_order_token_is_never_stored(app, client):
    from insightshop.services.actors import Actor

    order = make_paid_order(Actor(guest_id="g" * 32), make_product())

    response = client.get(f"/api/orders/{order.id}", headers={"X-Order-Token": order.guest_token})

    assert response.status_code == 200 and response.get_json()["order"]["id"] == order.id
    assert {"no-store", "private"} <= cache_control(response)
