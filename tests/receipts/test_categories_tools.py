"""categorize_item and estimate_expiration_date as registry tools: through run_tool (schema → permission →
service → audit) and through POST /api/tools/<name>."""

import pytest
from jsonschema import Draft202012Validator

from insightshop.extensions import db
from insightshop.mcp.tools_registry import get_tool_definition, get_tools_for_llm
from insightshop.models.audit import AuditEntry
from insightshop.services.actors import Actor
from insightshop.utils.agent_executor import run_tool
from tests.api.test_products_api import assert_error
from tests.factories import bearer, make_user
from tests.receipts.category_helpers import categories  # noqa: F401

TOOLS = ("categorize_item", "estimate_expiration_date")


def conforms(name: str, data: dict) -> bool:
    return not list(Draft202012Validator(get_tool_definition(name)["output_schema"]).iter_errors(data))


def test_both_tools_are_read_only_tools_for_users_and_guests_not_anonymous_callers():
    for name in TOOLS:
        definition = get_tool_definition(name)
        assert (definition["permission"], definition["public"], definition["confirm"]) == ("user", False, False)
        assert definition["annotations"]["readOnlyHint"] and not definition["annotations"]["destructiveHint"]
    assert set(TOOLS) <= {t["name"] for t in get_tools_for_llm("user")}
    assert not set(TOOLS) & {t["name"] for t in get_tools_for_llm("anonymous")}


def test_categorize_item_through_run_tool_is_audited(categories):  # noqa: F811
    user = make_user()

    result = run_tool("categorize_item", {"item_name": "TEH O AIS"}, Actor(user=user))

    assert (
        result["ok"] and result["data"]["category_name"] == "Beverages" and conforms("categorize_item", result["data"])
    )
    entry = db.session.query(AuditEntry).filter_by(action="tool.categorize_item").one()
    assert (entry.outcome, entry.actor_id) == ("ok", user.id)


def test_suggestions_conform_to_the_output_schema(categories):  # noqa: F811
    result = run_tool("categorize_item", {"item_name": "XQZT PLORB"}, Actor(guest_id="g"))

    assert result["data"]["match_method"] == "none" and len(result["data"]["suggestions"]) == 3
    assert conforms("categorize_item", result["data"])


def test_estimate_expiration_date_through_run_tool(categories):  # noqa: F811
    arguments = {"item_name": "Chicken Breast", "purchase_date": "2026-01-10", "category_id": categories["Poultry"].id}

    result = run_tool("estimate_expiration_date", arguments, Actor(guest_id="g"))

    assert result["ok"] and result["data"]["expiration_date"] == "2026-01-11"
    assert conforms("estimate_expiration_date", result["data"])
    clothing = run_tool("estimate_expiration_date", {"item_name": "Wool Sweater", "purchase_date": "2026-01-10"},
                        Actor(guest_id="g"))  # fmt: skip
    assert clothing["data"]["expiration_date"] is None and conforms("estimate_expiration_date", clothing["data"])


def test_an_anonymous_caller_is_refused(categories):  # noqa: F811
    for name, arguments in (("categorize_item", {"item_name": "MILO"}),
                            ("estimate_expiration_date", {"item_name": "MILO", "purchase_date": "2026-01-10"})):  # fmt: skip
        assert run_tool(name, arguments, Actor())["error"]["code"] == "unauthorized"


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("categorize_item", {}),
        ("categorize_item", {"item_name": ""}),
        ("categorize_item", {"item_name": "   "}),
        ("categorize_item", {"item_name": "x" * 201}),
        ("categorize_item", {"item_name": "MILO\nTEH"}),
        ("categorize_item", {"item_name": "MILO", "category": "Dairy"}),
        ("estimate_expiration_date", {"item_name": "Milk"}),
        ("estimate_expiration_date", {"item_name": "Milk", "purchase_date": "2026-13-01"}),
        ("estimate_expiration_date", {"item_name": "Milk", "purchase_date": "2026-01-10", "category_id": 0}),
    ],
)
def test_arguments_breaking_the_schema_are_refused_before_anything_runs(categories, name, arguments):  # noqa: F811
    result = run_tool(name, arguments, Actor(guest_id="g"))

    assert result["error"]["code"] == "invalid_arguments"


def test_the_tools_over_http(client, categories):  # noqa: F811
    make_user()
    headers = bearer(client)

    found = client.post("/api/tools/categorize_item", headers=headers, json={"item_name": "Organic Bananas"})
    estimated = client.post("/api/tools/estimate_expiration_date", headers=headers,
                            json={"item_name": "Organic Bananas", "purchase_date": "2026-01-10"})  # fmt: skip

    assert found.status_code == 200 and found.get_json()["data"]["category_name"] == "Fruits"
    assert estimated.get_json()["data"]["storage_recommendation"] == "counter"
    assert_error(client.post("/api/tools/categorize_item", json={"item_name": "MILO"}), 401, "unauthorized")
    assert_error(client.post("/api/tools/estimate_expiration_date", headers=headers,
                             json={"item_name": "Milk", "purchase_date": "10/01/2026"}), 400, "validation_error")  # fmt: skip
    assert_error(client.post("/api/tools/estimate_expiration_date", headers=headers,
                             json={"item_name": "Milk", "purchase_date": "2026-01-10", "category_id": 999}), 404,
                 "not_found")  # fmt: skip
