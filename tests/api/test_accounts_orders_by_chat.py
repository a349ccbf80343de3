"""Accounts and orders by chat: 'log me out' revokes the bearer token and the browser login, the shopper's own
orders are listed, and checkout's confirmation shows the items, the total and the address."""

from decimal import Decimal

from insightshop.extensions import db
from insightshop.models.accounts import ApiToken, LoginSession
from insightshop.services import cart, orders
from insightshop.services.actors import Actor
from insightshop.utils.agent_executor import run_tool
from tests.factories import bearer, csrf_token, make_paid_order, make_product, make_user


def test_logout_through_the_tool_revokes_the_bearer_token_used(client):
    make_user("sam@example.com")
    headers = bearer(client, "sam@example.com")

    before = client.get("/api/cart", headers=headers)
    logout = client.post("/api/tools/auth_logout", headers=headers, json={})
    after = client.get("/api/cart", headers=headers)

    assert before.status_code == 200
    assert logout.get_json()["data"]["logged_out"] is True
    assert logout.get_json()["data"]["end_browser_session"] is False
    assert after.status_code == 401 and after.get_json()["error"]["code"] == "token_revoked"


def test_log_me_out_in_an_api_chat_revokes_the_token_of_that_request(client):
    make_user("sam@example.com")
    headers = bearer(client, "sam@example.com")
    other = bearer(client, "sam@example.com")  # another device's token stays valid

    turn = client.post("/api/ai/chat", headers=headers, json={"message": "log me out"}).get_json()

    assert [c["name"] for c in turn["tool_calls"]] == ["auth_logout"]
    assert client.get("/api/cart", headers=headers).status_code == 401
    assert client.get("/api/cart", headers=other).status_code == 200
    assert db.session.query(ApiToken).filter(ApiToken.revoked_at.is_not(None)).count() == 1


def test_log_me_out_in_the_browser_chat_ends_the_browser_login(client):
    make_user("sam@example.com")
    client.post("/login", data={"email": "sam@example.com", "password": "correct horse battery",
                                "csrf_token": csrf_token(client, "/login")})  # fmt: skip
    assert client.get("/account").status_code == 200

    client.post("/chat/message", data={"message": "log me out", "csrf_token": csrf_token(client, "/")})

    assert client.get("/account").status_code == 302  # to the login page
    assert db.session.query(LoginSession).filter(LoginSession.revoked_at.is_(None)).count() == 0


def test_the_browser_logout_result_asks_the_route_to_end_the_session(app):
    from insightshop.services import accounts

    user = make_user("sam@example.com")
    user.login_session_id = accounts.start_login_session(user)

    with app.test_request_context("/chat/message"):
        result = run_tool("auth_logout", {}, Actor(user=user))

    assert result["data"] == {"logged_out": True, "end_browser_session": True, "message": "You are logged out."}
    assert db.session.get(LoginSession, user.login_session_id).revoked_at is not None
    assert accounts.end_current_login_session(Actor(user=make_user("nobody@example.com"))) is False


def test_orders_list_mine_lists_only_the_shoppers_own_orders_newest_first(app):
    sam, kim = Actor(user=make_user("sam@example.com")), Actor(user=make_user("kim@example.com"))
    first = make_paid_order(sam, make_product("Oxford Shirt", sizes=("M",), price="40.00"))
    second = make_paid_order(sam, make_product("Wrap Dress", clothing_type="dress", sizes=("S",), price="60.00"))
    make_paid_order(kim, make_product("Kim's Coat", clothing_type="coat", sizes=("M",)))
    second.carrier, second.tracking_number = "UPS", "1Z5"
    db.session.commit()

    mine = run_tool("orders_list_mine", {}, sam)["data"]["orders"]
    one = run_tool("orders_list_mine", {"limit": 1}, sam)["data"]["orders"]

    assert [o["id"] for o in mine] == [second.id, first.id]
    assert mine[0] == {"id": second.id, "status": "paid", "total": f"{second.total:.2f}", "currency": "USD",
                       "created_at": second.created_at.isoformat(), "item_count": 1, "carrier": "UPS",
                       "tracking_number": "1Z5", "url": f"/orders/{second.id}"}  # fmt: skip
    assert [o["id"] for o in one] == [second.id]


def test_a_guest_sees_the_orders_of_their_own_cart_with_a_link_that_opens(app, client):
    guest = Actor(guest_id="guest-orders")
    order = make_paid_order(guest, make_product(sizes=("M",)))
    make_paid_order(Actor(guest_id="someone-else"), make_product(sizes=("M",)))

    listed = run_tool("orders_list_mine", {}, guest)["data"]["orders"]
    nobody = run_tool("orders_list_mine", {}, Actor())

    assert [o["id"] for o in listed] == [order.id]
    assert client.get(listed[0]["url"], follow_redirects=True).status_code == 200
    assert nobody["ok"] is False and nobody["error"]["code"] == "unauthorized"


def test_the_checkout_confirmation_shows_items_total_and_the_address_with_the_name(app):
    from insightshop.agent import replies

    app.config.update(FREE_SHIPPING_FROM="75.00", SHIPPING_STANDARD="5.95", TAX_RATE="0.08")
    shopper = Actor(user=make_user("dana@example.com"))
    shirt = make_product("Oxford Shirt", sizes=("L",), price="30.00")
    cart.add_item(shopper, shirt.id, 2, "white", "L")
    arguments = {"email": "dana@example.com", "shipping_name": "Dana Lee", "shipping_address": "12 Elm St",
                 "shipping_city": "Portland", "shipping_state": "OR", "shipping_zip": "97201"}  # fmt: skip

    text = replies.summarise("checkout_proceed", arguments, shopper)
    quote = orders.quote(shopper)
    placed = run_tool("checkout_proceed", arguments, shopper)["data"]["order"]

    assert "2 × Oxford Shirt (White / L, $60.00)" in text
    assert f"Total ${quote.total:.2f}" in text and quote.shipping == Decimal("5.95")
    assert placed["total"] == f"{quote.total:.2f}"
    assert "Dana Lee, 12 Elm St, Portland, OR 97201, US" in text and "Standard (3–5 business days)" in text
    assert "dana@example.com" in text
