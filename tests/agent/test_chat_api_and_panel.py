"""POST /api/ai/chat and /api/ai/chat/confirm, and the browser panel's htmx fragments (scripted engine)."""

from insightshop.extensions import db
from insightshop.models.cart import CartItem
from tests.agent.test_chat_service import Call, script  # noqa: F401  (fixture)
from tests.api.test_products_api import assert_error
from tests.factories import csrf_token, guest_bearer
from tests.mcp.tool_cases import shop


def test_api_chat_contract_and_confirmation(client, script):  # noqa: F811
    shop()
    headers = guest_bearer(client)
    script(Call("cart_add_item", {"product_id": 1, "selected_size": "L", "quantity": 2}))
    first = client.post("/api/ai/chat", headers=headers, json={"message": "add two"}).get_json()
    script(Call("cart_clear", {}))
    second = client.post(
        "/api/ai/chat", headers=headers, json={"message": "empty it", "conversation_id": first["conversation_id"]}
    ).get_json()
    confirmation_id = second["tool_calls"][0]["confirmation_id"]
    approved = client.post("/api/ai/chat/confirm", headers=headers,
                           json={"conversation_id": first["conversation_id"], "confirmation_id": confirmation_id, "approve": True})  # fmt: skip

    assert set(first) == {"conversation_id", "reply", "tool_calls", "cards"}
    assert first["tool_calls"][0] | {"result": None} == {"name": "cart_add_item", "arguments": {"product_id": 1, "selected_size": "L", "quantity": 2},
                                                         "outcome": "executed", "result": None}  # fmt: skip
    assert second["tool_calls"][0]["outcome"] == "needs_confirmation"
    assert approved.get_json()["tool_calls"][0]["outcome"] == "executed"
    assert db.session.query(CartItem).count() == 0
    listed = client.get("/api/ai/conversations", headers=headers).get_json()["conversations"]
    assert [c["id"] for c in listed] == [first["conversation_id"]]


def test_api_chat_validation_and_privacy(client, script):  # noqa: F811
    script(reply="hi")
    alice = guest_bearer(client)
    turn = client.post("/api/ai/chat", headers=alice, json={"message": "hello"}).get_json()

    assert_error(client.post("/api/ai/chat", headers=alice, json={"message": ""}), 400, "validation_error", "message")
    assert_error(client.post("/api/ai/chat", headers=alice, json={"msg": "hi"}), 400, "validation_error")
    assert_error(client.post("/api/ai/chat", headers=guest_bearer(client), json={"message": "hi", "conversation_id": turn["conversation_id"]}),
                 404, "not_found")  # fmt: skip
    assert_error(
        client.get(f"/api/ai/conversations/{turn['conversation_id']}", headers=guest_bearer(client)), 404, "not_found"
    )


def test_panel_turn_swaps_bubbles_cards_and_the_badge(client, script):  # noqa: F811
    shop()
    script(
        Call(
            "cart_add_item", {"clothing_type": "shirt", "selected_color": "white", "selected_size": "L", "quantity": 2}
        )
    )

    response = client.post("/chat/message", data={"message": "add 2 large white shirts <b>now</b>", "csrf_token": csrf_token(client)},
                           headers={"HX-Request": "true"})  # fmt: skip
    html = response.get_data(as_text=True)

    assert '<div class="chat-msg chat-msg--user"><p>add 2 large white shirts &lt;b&gt;now&lt;/b&gt;</p></div>' in html
    assert "Your cart" in html and "2 × Oxford Shirt" in html
    assert '<span id="cart-count" class="cart-count" hx-swap-oob="true">2</span>' in html
    assert response.headers["HX-Trigger"] == "cart-changed"


def test_panel_confirmation_buttons_run_the_call(client, script):  # noqa: F811
    shop()
    script(Call("cart_add_item", {"product_id": 1, "selected_size": "L"}), Call("cart_clear", {}))
    html = client.post("/chat/message", data={"message": "add and clear", "csrf_token": csrf_token(client)},
                       headers={"HX-Request": "true"}).get_data(as_text=True)  # fmt: skip
    confirmation_id = html.split('id="confirm-')[1].split('"')[0]

    done = client.post(
        f"/chat/confirm/{confirmation_id}",
        data={"approve": "1", "csrf_token": csrf_token(client)},
        headers={"HX-Request": "true"},
    )

    assert "Please confirm" in html and html.count("Remove every item from your cart.") == 1  # the card's
    assert "Ready to empty your cart — approve it to go ahead." in html  # the reply names it, without repeating
    assert "Your cart is empty now." in done.get_data(as_text=True)
    assert db.session.query(CartItem).count() == 0


def test_panel_is_on_every_page_and_chat_works_without_javascript(client, script):  # noqa: F811
    script(reply="Hello there!")
    assert 'id="assistant-panel"' in client.get("/").get_data(as_text=True)

    response = client.post("/chat/message", data={"message": "hi", "csrf_token": csrf_token(client)})
    page = client.get("/chat").get_data(as_text=True)

    assert response.status_code == 303 and "Hello there!" in page and ">hi</p>" in page


HX = {"HX-Request": "true"}


def test_a_size_button_adds_that_product_by_name_and_the_conversation_remembers_it(client):
    from insightshop.models.conversations import ChatMessage, Conversation

    white, _navy, _dress = shop()
    response = client.post("/chat/add", data={"product_id": white.id, "size": "L", "color": "white", "quantity": 1,
                                              "csrf_token": csrf_token(client)}, headers=HX)  # fmt: skip
    html = response.get_data(as_text=True)

    item = db.session.query(CartItem).one()
    assert (item.variant.product_id, item.variant.size, item.quantity) == (white.id, "L", 1)
    assert '<div class="chat-msg chat-msg--user"><p>Add 1 × Oxford Shirt (White / L)</p></div>' in html
    assert "Your cart" in html and response.headers["HX-Trigger"] == "cart-changed"
    conversation = db.session.query(Conversation).one()
    assert [m.content for m in db.session.query(ChatMessage).order_by(ChatMessage.id)][
        0
    ] == "Add 1 × Oxford Shirt (White / L)"
    assert conversation.context["last_product_id"] == white.id  # "make that 2" has something to point at
    assert conversation.context["last_action"] == "cart_add_item"
    assert "Add 1 × Oxford Shirt (White / L)" in client.get("/chat/log", headers=HX).get_data(as_text=True)


def test_a_product_button_without_a_size_asks_with_size_buttons_once(client):
    from insightshop.models.conversations import ChatMessage

    white, _navy, _dress = shop()
    html = client.post("/chat/add", data={"product_id": white.id, "quantity": 1, "csrf_token": csrf_token(client)},
                       headers=HX).get_data(as_text=True)  # fmt: skip

    assert db.session.query(CartItem).count() == 0
    assert [m.content for m in db.session.query(ChatMessage).order_by(ChatMessage.id)] == [
        "Add 1 × Oxford Shirt", "Which size of Oxford Shirt would you like?"]  # fmt: skip
    assert html.count("Which size of Oxford Shirt would you like?") == 1
    assert 'value="M">M</button>' in html and 'value="L">L</button>' in html
    assert "Choose a colour" not in html and "chat-error" not in html


def test_an_unknown_product_or_an_expired_token_adds_nothing(client):
    shop()
    unknown = client.post(
        "/chat/add", data={"product_id": 999, "size": "L", "csrf_token": csrf_token(client)}, headers=HX
    )
    expired = client.post("/chat/add", data={"product_id": 1, "size": "L", "csrf_token": "stale"}, headers=HX)

    assert unknown.status_code == 422 and "Product 999 does not exist" in unknown.get_data(as_text=True)
    assert expired.status_code == 400  # the panel's script shows "Your session has expired…" for it
    assert db.session.query(CartItem).count() == 0


def test_every_page_loads_the_current_conversation_into_the_panel(client, script):  # noqa: F811
    script(reply="Hello <there>!")
    assert 'hx-get="/chat/log"' not in client.get("/").get_data(as_text=True)  # nothing to load yet

    client.post("/chat/message", data={"message": "hi <b>", "csrf_token": csrf_token(client)}, headers=HX)
    page = client.get("/cart").get_data(as_text=True)
    log = client.get("/chat/log", headers=HX).get_data(as_text=True)

    assert 'hx-get="/chat/log" hx-trigger="load"' in page
    assert "<p>hi &lt;b&gt;</p>" in log and "Hello &lt;there&gt;!" in log and "<html" not in log


def test_approve_replaces_its_buttons_with_the_decision(client, script):  # noqa: F811
    shop()
    script(Call("cart_add_item", {"product_id": 1, "selected_size": "L"}), Call("cart_clear", {}))
    html = client.post("/chat/message", data={"message": "add and clear", "csrf_token": csrf_token(client)},
                       headers=HX).get_data(as_text=True)  # fmt: skip
    confirmation_id = html.split('id="confirm-')[1].split('"')[0]

    done = client.post(f"/chat/confirm/{confirmation_id}", data={"approve": "1", "csrf_token": csrf_token(client)},
                       headers=HX).get_data(as_text=True)  # fmt: skip
    again = client.post(f"/chat/confirm/{confirmation_id}", data={"approve": "1", "csrf_token": csrf_token(client)},
                        headers=HX)  # fmt: skip
    log = client.get("/chat/log", headers=HX).get_data(as_text=True)

    assert (
        f'<p class="chat-confirm-status" id="confirm-actions-{confirmation_id}" hx-swap-oob="true">✓ Approved</p>'
        in done
    )
    assert again.status_code == 422 and "already approved" in again.get_data(as_text=True)
    assert "✓ Approved" in log and f'hx-post="/chat/confirm/{confirmation_id}"' not in log


def test_log_me_out_in_chat_ends_the_browser_session(client, script):  # noqa: F811
    from insightshop.models.accounts import LoginSession
    from tests.factories import make_user

    make_user("sam@example.com")
    client.post("/login", data={"email": "sam@example.com", "password": "correct horse battery",
                                "csrf_token": csrf_token(client, "/login")})  # fmt: skip
    assert client.get("/account").status_code == 200
    script(Call("auth_logout", {}))

    response = client.post(
        "/chat/message", data={"message": "log me out", "csrf_token": csrf_token(client)}, headers=HX
    )

    assert response.headers["HX-Refresh"] == "true"
    assert db.session.query(LoginSession).one().revoked_at is not None
    assert client.get("/account").status_code == 302  # this browser is logged out
    assert "You are logged out." in client.get("/").get_data(as_text=True)


def test_every_confirmed_tool_has_a_short_name_for_the_reply():
    import json
    from pathlib import Path

    from insightshop.agent.replies import PENDING_ACTIONS

    folder = Path(__file__).resolve().parents[2] / "insightshop" / "mcp"
    confirmed = {tool["name"] for path in folder.glob("*.json") for tool in json.loads(path.read_text())["tools"]
                 if tool.get("confirm")}  # fmt: skip
    assert confirmed and confirmed <= set(PENDING_ACTIONS)
