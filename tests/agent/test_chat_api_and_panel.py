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
    assert (
        '<span id="cart-count" class="cart-count" hx-swap-oob="true" aria-label="2 items in your cart">2</span>' in html
    )
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

    assert "Please confirm" in html and "Remove every item from your cart." in html
    assert "Your cart is empty now." in done.get_data(as_text=True)
    assert db.session.query(CartItem).count() == 0


def test_panel_is_on_every_page_and_chat_works_without_javascript(client, script):  # noqa: F811
    script(reply="Hello there!")
    assert 'id="assistant-panel"' in client.get("/").get_data(as_text=True)

    response = client.post("/chat/message", data={"message": "hi", "csrf_token": csrf_token(client)})
    page = client.get("/chat").get_data(as_text=True)

    assert response.status_code == 303 and "Hello there!" in page and ">hi</p>" in page
