import json

import pytest

from insightshop.mcp import tools_registry
from insightshop.mcp.tools_registry import (
    Registry,
    ToolDefinitionError,
    get_tool_definition,
    get_tools_for_llm,
    tool_names,
    validate_tool_call,
)  # fmt: skip
from tests.mcp.tool_cases import CASES, STATIC_VALID

SEED_TOOLS = [
    "auth_login", "auth_logout", "search_products", "cart_add_item", "cart_remove_item", "cart_show", "cart_clear",
    "compare_products", "review_create", "checkout_proceed", "order_status", "order_track", "admin_product_create",
    "admin_product_update", "admin_product_delete", "admin_orders_list", "admin_order_update_status", "admin_sale_create",
    "admin_sale_run_automation", "admin_cart_clear_user", "admin_review_delete",
]  # fmt: skip
# The assistant's own tools beyond the seed (insight_shop_assistant_tools.json).
ASSISTANT_TOOLS = ["suggest_outfit", "search_shop_policies_and_faqs", "orders_list_mine", "admin_dashboard"]
# Receipt tools (insight_shop_receipt_tools.json).
RECEIPT_TOOLS = ["categorize_item", "estimate_expiration_date", "receipts_list", "receipt_get",
                 "extract_receipt_metadata", "extract_line_items", "validate_extraction"]  # fmt: skip
# Citation tools (insight_shop_citation_tools.json, seed 004).
CITATION_TOOLS = ["search_documents", "get_field_provenance", "aggregate_with_citations"]
# Admin tools of issue 28 (insight_shop_admin_tools.json).
ADMIN_TOOLS = ["admin_stock_read", "admin_stock_change", "admin_stock_report", "admin_price_change", "admin_sales_report",
               "admin_products_find"]  # fmt: skip
# Shopper servicing tools (insight_shop_service_tools.json, issue 28).
SERVICE_TOOLS = ["receipts_spending", "receipts_extreme", "receipts_compare", "order_cancel_mine", "order_refund_status",
                 "order_return_eligibility"]  # fmt: skip


def test_all_21_seed_tools_are_defined_with_annotations_and_output_schemas():
    assert tool_names() == [
        *SEED_TOOLS,
        *ASSISTANT_TOOLS,
        *RECEIPT_TOOLS,
        *CITATION_TOOLS,
        *ADMIN_TOOLS,
        *SERVICE_TOOLS,
    ]
    for name in SEED_TOOLS:
        definition = get_tool_definition(name)
        assert definition["input_schema"]["additionalProperties"] is False
        assert set(definition["annotations"]) >= {"readOnlyHint", "destructiveHint", "idempotentHint"}
        assert definition["output_schema"]["type"] == "object"
    assert get_tool_definition("checkout_proceed")["confirm"] and get_tool_definition("cart_clear")["confirm"]
    assert all(
        get_tool_definition(n)["confirm"] for n in SEED_TOOLS if n.startswith("admin_") and n != "admin_orders_list"
    )


def test_input_schemas_keep_the_seeds_and_add_only_optional_properties():
    assert get_tool_definition("cart_add_item")["input_schema"]["properties"]["quantity"] == {
        "type": "integer", "minimum": 1, "maximum": 10, "default": 1}  # fmt: skip
    assert get_tool_definition("checkout_proceed")["input_schema"]["required"] == [
        "shipping_name", "shipping_address", "shipping_city", "shipping_state", "shipping_zip", "email"]  # fmt: skip


def test_users_never_see_admin_tools_and_anonymous_callers_see_public_ones():
    admin, user, anonymous = (get_tools_for_llm(role) for role in ("admin", "user", "anonymous"))

    assert len(admin) == len(tool_names()) == 47 and {t["name"] for t in admin} >= {
        "admin_review_delete",
        "suggest_outfit",
        "admin_dashboard",
    }
    assert not [t for t in user if t["name"].startswith("admin_")] and len(user) == 31
    assert {t["name"] for t in anonymous} == {
        "auth_login",
        "auth_logout",
        "search_products",
        "search_shop_policies_and_faqs",
        "compare_products",
        "order_status",
        "order_track",
        "suggest_outfit",
    }
    assert set(user[0]) == {"name", "description", "input_schema"}  # Anthropic's tool format


@pytest.mark.parametrize(
    "name",
    [
        *SEED_TOOLS,
        *(n for n in ASSISTANT_TOOLS + RECEIPT_TOOLS + CITATION_TOOLS + ADMIN_TOOLS + SERVICE_TOOLS if n in CASES),
    ],
)
def test_schema_violations_and_unknown_properties_are_refused_by_name(name):
    _, _, bad = CASES[name]

    valid, error = validate_tool_call(name, bad, is_admin=True)
    unknown_ok, unknown_error = validate_tool_call(name, {"surprise": 1}, is_admin=True)

    assert not valid and error.startswith("Invalid input: ")
    assert not unknown_ok and "surprise" in unknown_error


@pytest.mark.parametrize(
    "name",
    [
        *SEED_TOOLS,
        *(n for n in ASSISTANT_TOOLS + RECEIPT_TOOLS + CITATION_TOOLS + ADMIN_TOOLS + SERVICE_TOOLS if n in CASES),
    ],
)
def test_permission_matrix(name):
    permission, _, _ = CASES[name]
    arguments = STATIC_VALID.get(name, {})
    assert validate_tool_call(name, arguments, is_admin=True) == (True, None)
    allowed, error = validate_tool_call(name, arguments, is_admin=False)
    assert allowed == (permission != "admin")
    assert (error is None) == (permission != "admin")


def test_error_messages_name_the_field_and_the_rule():
    assert validate_tool_call("cart_add_item", {"product_id": 1, "quantity": 11}, False) == (
        False, "Invalid input: quantity: 11 is greater than the maximum of 10")  # fmt: skip
    assert validate_tool_call("no_such_tool", {}, True) == (False, "Unknown tool: no_such_tool")
    assert (
        validate_tool_call("cart_show", ["not", "an", "object"], False)[1]
        == "Invalid input: the arguments must be a JSON object"
    )
    assert validate_tool_call("admin_review_delete", {"review_id": 1}, False) == (
        False, "Tool not allowed: admin_review_delete is for admins only")  # fmt: skip


def test_a_broken_tool_file_fails_loudly(tmp_path):
    broken = tmp_path / "tools.json"
    broken.write_text(json.dumps({"tools": [{"name": "x", "description": "too short"}]}))
    with pytest.raises(ToolDefinitionError):
        Registry(files=(broken,))
    bad_schema = json.loads(tools_registry.TOOL_FILES[0].read_text())
    bad_schema["tools"][0]["input_schema"]["properties"]["email"]["type"] = "not-a-type"
    broken.write_text(json.dumps(bad_schema))
    with pytest.raises(ToolDefinitionError):
        Registry(files=(broken,))
