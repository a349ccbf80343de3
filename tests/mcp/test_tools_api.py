"""Every tool through POST /api/tools/<name>: a valid call, a schema violation, an unknown property, and who may call it."""

import pytest

from insightshop.extensions import db
from insightshop.models.audit import AuditEntry
from insightshop.models.cart import CartItem
from insightshop.models.catalog import Product
from insightshop.services.actors import Actor
from tests.admin_helpers import make_admin
from tests.api.test_products_api import assert_error
from tests.factories import bearer, guest_bearer, make_user
from tests.mcp.test_registry import SEED_TOOLS
from tests.mcp.tool_cases import CASES, put_in_cart, shop


@pytest.fixture
def callers(client):
    shop()
    make_admin()
    make_user("shopper@example.com")
    return {
        "anonymous": {},
        "guest": guest_bearer(client),
        "user": bearer(client, "shopper@example.com"),
        "admin": bearer(client, "boss@example.com", "an admin password"),
    }


def allowed(permission: str, caller: str) -> bool:
    return {"public": True, "user": caller != "anonymous", "admin": caller == "admin"}[permission]


@pytest.mark.parametrize("name", [*SEED_TOOLS, "suggest_outfit"])
def test_each_tool_valid_invalid_unknown_property_and_permissions(client, callers, name):
    permission, build, bad = CASES[name]
    caller = "admin" if permission == "admin" else "user"
    if name in ("cart_remove_item", "checkout_proceed", "cart_clear"):
        put_in_cart(
            Actor(
                user=db.session.query(__import__("insightshop.models.accounts", fromlist=["User"]).User)
                .filter_by(email="shopper@example.com")
                .one()
            )
        )
    arguments = build()

    invalid = client.post(f"/api/tools/{name}", headers=callers[caller], json=bad)
    unknown = client.post(f"/api/tools/{name}", headers=callers[caller], json={**arguments, "sneaky": True})
    ok = client.post(f"/api/tools/{name}", headers=callers[caller], json=arguments)

    assert ok.status_code == 200, ok.get_json()
    assert ok.get_json()["ok"] is True
    assert_error(invalid, 400, "validation_error")
    assert "sneaky" in assert_error(unknown, 400, "validation_error")["message"]
    for who in ("anonymous", "guest", "user"):
        if not allowed(permission, who) and name != "auth_logout":
            response = client.post(f"/api/tools/{name}", headers=callers[who], json=arguments)
            assert response.status_code in (401, 403), (name, who, response.status_code)


def test_the_seed_example_adds_two_large_white_shirts(client, callers):
    response = client.post("/api/tools/cart_add_item", headers=callers["user"],
                           json={"clothing_type": "shirts", "selected_color": "white", "selected_size": "large", "quantity": 2})  # fmt: skip

    data = response.get_json()["data"]
    assert data["added"][0]["name"] == "Oxford Shirt" and (data["added"][0]["color"], data["added"][0]["size"]) == (
        "white",
        "L",
    )
    assert data["cart"]["item_count"] == 2


def test_tool_list_follows_the_callers_role(client, callers):
    names = {
        who: {t["name"] for t in client.get("/api/tools", headers=h).get_json()["tools"]} for who, h in callers.items()
    }

    assert "admin_product_create" in names["admin"] and "admin_product_create" not in names["user"]
    assert "cart_add_item" in names["guest"] and "cart_add_item" not in names["anonymous"]
    tool = next(
        t for t in client.get("/api/tools", headers=callers["admin"]).get_json()["tools"] if t["name"] == "cart_clear"
    )
    assert tool["annotations"]["destructiveHint"] is True and tool["confirm"] is True


def test_unknown_tools_are_404(client, callers):
    assert_error(client.post("/api/tools/drop_tables", headers=callers["admin"], json={}), 404, "unknown_tool")


def test_a_malicious_llm_acting_for_a_user_changes_nothing(app, client, callers):
    from insightshop.utils.agent_executor import execute_action, parse_agent_response, run_tool

    user = (
        db.session.query(__import__("insightshop.models.accounts", fromlist=["User"]).User)
        .filter_by(email="shopper@example.com")
        .one()
    )
    actor = Actor(user=user)
    before = [(p.id, p.name, p.price, p.is_active) for p in db.session.query(Product).order_by(Product.id)]
    scripted = [
        ("admin_product_delete", {"product_id": 1}), ("admin_product_update", {"product_id": 2, "price": 0}),
        ("admin_product_create", {"name": "Free Shirt", "price": 0, "category": "men", "color": "white"}),
        ("admin_cart_clear_user", {"user_id": user.id}), ("admin_sale_create", {"name": "All free", "discount_percentage": 100,
         "start_date": "2026-01-01", "end_date": "2099-01-01"}), ("admin_review_delete", {"review_id": 1}),
        ("admin_order_update_status", {"order_id": 1, "status": "cancelled"}), ("admin_sale_run_automation", {}),
        ("admin_orders_list", {}),
    ]  # fmt: skip
    results = [run_tool(name, args, actor) for name, args in scripted]
    legacy = parse_agent_response('Sure! {"action": "clear_everything", "params": {"user_id": 1}}')

    assert all(not r["ok"] and r["error"]["code"] == "forbidden" for r in results)
    assert execute_action(legacy["action"], legacy["params"], actor)["ok"] is False
    assert [(p.id, p.name, p.price, p.is_active) for p in db.session.query(Product).order_by(Product.id)] == before
    refused = (
        db.session.query(AuditEntry).filter(AuditEntry.outcome == "refused", AuditEntry.actor_id == user.id).count()
    )
    assert refused == len(scripted), [(e.action, e.outcome) for e in db.session.query(AuditEntry)]


def test_legacy_actions_map_onto_the_tools(client, callers):
    from insightshop.utils.agent_executor import can_execute_action, execute_action, parse_agent_response

    actor = Actor(guest_id="legacy-guest")
    parsed = parse_agent_response(
        'I will add it. {"action": "add_item", "params": {"product_id": 1, "quantity": 2, "color": "white", "size": "L"}}'
    )

    assert parsed == {
        "type": "action",
        "action": "add_item",
        "params": {"product_id": 1, "quantity": 2, "color": "white", "size": "L"},
    }
    assert can_execute_action("add_item", actor, parsed["params"]) and not can_execute_action("drop", actor)
    added = execute_action("add_item", parsed["params"], actor)
    assert added["ok"], added
    assert execute_action("show_cart", {}, actor)["data"]["cart"]["item_count"] == 2
    assert execute_action("clear_cart", {}, actor)["data"]["removed_lines"] == 1
    assert parse_agent_response("Just chatting") == {"type": "message", "content": "Just chatting"}
    assert db.session.query(CartItem).filter_by(guest_id="legacy-guest").count() == 0


def test_passwords_never_reach_the_audit_log(client, callers):
    client.post("/api/tools/auth_login", json={"email": "shopper@example.com", "password": "correct horse battery"})

    entry = db.session.query(AuditEntry).filter_by(action="tool.auth_login").one()
    assert entry.after["arguments"]["password"] == "***"
