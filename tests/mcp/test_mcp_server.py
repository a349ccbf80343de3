"""The MCP server driven by the SDK's own ClientSession, over stdio and over Streamable HTTP."""

import os
import socket
import sys
import threading
import time
from pathlib import Path

import anyio
import httpx2
import pytest
import sqlalchemy as sa
import uvicorn
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from insightshop.extensions import db
from insightshop.mcp.server import asgi_app
from insightshop.models.cart import CartItem
from insightshop.services import api_tokens
from tests.conftest import TEST_SECRET
from tests.factories import make_user
from tests.mcp.tool_cases import shop

FLASK = str(Path(sys.executable).with_name("flask"))


@pytest.fixture
def shopper_token(app):
    shop()
    user = make_user("shopper@example.com")
    token, _ = api_tokens.issue_token(user)
    return token, user


async def exercise(session: ClientSession) -> dict:
    await session.initialize()
    listed = await session.list_tools()
    names = {tool.name for tool in listed.tools}
    add = next(t for t in listed.tools if t.name == "cart_add_item")
    added = await session.call_tool("cart_add_item", {"clothing_type": "shirt", "selected_color": "white",
                                                      "selected_size": "L", "quantity": 2})  # fmt: skip
    admin = await session.call_tool("admin_product_delete", {"product_id": 1})
    bad = await session.call_tool("cart_add_item", {"product_id": 1, "quantity": 11})
    return {"names": names, "add_tool": add, "added": added, "admin": admin, "bad": bad}


def check(result: dict) -> None:
    assert "cart_add_item" in result["names"] and not any(n.startswith("admin_") for n in result["names"])
    assert result["add_tool"].input_schema["properties"]["quantity"]["maximum"] == 10
    assert result["add_tool"].annotations.read_only_hint is False
    assert not result["added"].is_error
    assert result["added"].structured_content["cart"]["item_count"] == 2
    assert result["admin"].is_error and "admins only" in result["admin"].content[0].text
    assert result["bad"].is_error and "quantity: 11 is greater than the maximum of 10" in result["bad"].content[0].text


def test_stdio_client_lists_user_tools_adds_to_the_users_cart_and_cannot_use_admin_tools(
    app, database_url, shopper_token
):
    token, user = shopper_token
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": TEST_SECRET, "APP_ENV": "testing"}
    params = StdioServerParameters(
        command=FLASK, args=["--app", "insightshop", "mcp", "stdio", "--token", token], env=env
    )

    async def main():
        with anyio.fail_after(30):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                return await exercise(session)

    result = anyio.run(main)

    check(result)
    db.session.expire_all()
    assert db.session.query(CartItem).filter_by(user_id=user.id).one().quantity == 2


def test_stdio_without_a_token_offers_only_public_tools(app, database_url, shopper_token):
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": TEST_SECRET, "APP_ENV": "testing"}
    params = StdioServerParameters(command=FLASK, args=["--app", "insightshop", "mcp", "stdio"], env=env)

    async def main():
        with anyio.fail_after(30):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                names = {t.name for t in (await session.list_tools()).tools}
                refused = await session.call_tool("cart_show", {})
                return names, refused

    names, refused = anyio.run(main)

    assert names == {
        "auth_login",
        "auth_logout",
        "search_products",
        "search_shop_policies_and_faqs",
        "compare_products",
        "order_status",
        "order_track",
        "suggest_outfit",
    }
    assert refused.is_error and "unauthorized" in refused.content[0].text


class LiveASGI:
    def __init__(self, application):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.server = uvicorn.Server(
            uvicorn.Config(application, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on")
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "uvicorn did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(timeout=5)
        if self.thread.is_alive():
            self.server.force_exit = True
            self.thread.join(timeout=3)


@pytest.mark.commits
def test_streamable_http_at_mcp_next_to_the_shop(app, shopper_token):
    token, user = shopper_token

    with LiveASGI(asgi_app(app)) as live:
        base = f"http://127.0.0.1:{live.port}"

        async def main():
            async with httpx2.AsyncClient() as http:
                page = await http.get(base + "/catalog?q=shirt")
            with anyio.fail_after(30):
                async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(20.0)) as http, \
                        streamable_http_client(base + "/mcp", http_client=http) as (read, write), \
                        ClientSession(read, write) as session:  # fmt: skip
                    return page, await exercise(session)

        page, result = anyio.run(main)

    assert page.status_code == 200 and "Oxford Shirt" in page.text
    check(result)
    db.session.expire_all()
    assert db.session.query(CartItem).filter_by(user_id=user.id).one().quantity == 2


@pytest.mark.commits
def test_every_tool_over_mcp_valid_invalid_unknown_property_and_role_matrix(app):
    from insightshop.mcp.tools_registry import tool_names
    from insightshop.services.actors import Actor
    from tests.admin_helpers import make_admin
    from tests.mcp.tool_cases import CASES, put_in_cart

    shop()
    admin = make_admin()
    admin_token, _ = api_tokens.issue_token(admin)
    user_token, _ = api_tokens.issue_token(make_user("shopper@example.com"))
    guest_token, _ = api_tokens.issue_token(None)
    arguments = {name: CASES[name][1]() for name in tool_names() if name in CASES}
    own = _own_paid_order(Actor(user=admin))  # the servicing tools act only on the caller's own orders
    arguments["order_cancel_mine"] = arguments["order_return_eligibility"] = {"order_id": own}

    async def session_for(token, base, work):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(20.0)) as http,
            streamable_http_client(base + "/mcp", http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await work(session)

    async def as_admin(session):
        outcomes = {}
        # auth_logout revokes the session's token, so it goes last.
        for name in sorted(arguments, key=lambda n: n == "auth_logout"):
            if name in ("cart_remove_item", "checkout_proceed", "cart_clear"):
                put_in_cart(Actor(user=admin))
            invalid = await session.call_tool(name, CASES[name][2])
            unknown = await session.call_tool(name, {**arguments[name], "sneaky": 1})
            valid = await session.call_tool(name, arguments[name])
            outcomes[name] = (invalid, unknown, valid)
        return outcomes

    async def refusals(session):
        names = {t.name for t in (await session.list_tools()).tools}
        calls = {name: await session.call_tool(name, arguments[name]) for name in arguments if name not in names}
        return names, calls

    with LiveASGI(asgi_app(app)) as live:
        base = f"http://127.0.0.1:{live.port}"

        async def main():
            with anyio.fail_after(90):
                return (await session_for(admin_token, base, as_admin), await session_for(user_token, base, refusals),
                        await session_for(guest_token, base, refusals), await session_for(None, base, refusals))  # fmt: skip

        admin_outcomes, user_view, guest_view, anonymous_view = anyio.run(main)

    for name, (invalid, unknown, valid) in admin_outcomes.items():
        assert invalid.is_error and "Invalid input" in invalid.content[0].text, name
        assert unknown.is_error and "sneaky" in unknown.content[0].text, name
        assert not valid.is_error, (name, valid.content[0].text)
    for (names, refused), expected in ((user_view, "user"), (guest_view, "user"), (anonymous_view, "public")):
        allowed = {n for n in tool_names() if _level(n) == "public" or (expected == "user" and _level(n) == "user")}
        assert names == allowed
        assert all(result.is_error for result in refused.values()) and len(refused) == len(arguments) - len(
            allowed & set(arguments)
        )


def _own_paid_order(actor) -> int:
    """An order the actor placed and paid, not shipped: order_cancel_mine cancels only the caller's own orders."""
    from insightshop.models.catalog import Product
    from insightshop.services import cart, orders
    from insightshop.services.payments import offline

    product = next(p for p in db.session.scalars(sa.select(Product)) if any(v.stock > 0 for v in p.variants))
    variant = next(v for v in product.variants if v.stock > 0)
    cart.add_item(actor, product.id, 1, variant.color, variant.size)
    order = orders.place_order(actor, orders.ShippingDetails(
        email=actor.user.email, shipping_name="Boss Buyer", shipping_address="1 Main St", shipping_city="Springfield",
        shipping_state="IL", shipping_zip="62701"))  # fmt: skip
    offline.create_intent(order)
    offline.confirm(order, "4242 4242 4242 4242")  # paid: the cart is emptied, the order can still be cancelled
    return order.id


def _level(name: str) -> str:
    """public (anyone), user (a user or guest) or admin: as the registry defines the tool."""
    from insightshop.mcp.tools_registry import get_tool_definition

    definition = get_tool_definition(name)
    return "public" if definition["public"] else definition["permission"]
