"""Issue #10 item 13 (part): NaN/Infinity are refused in every JSON door; validation errors never echo megabytes."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from mcp import types

from insightshop.extensions import db
from insightshop.models.sales import Sale
from insightshop.schemas.validation import validate
from insightshop.services import pricing
from insightshop.services.actors import Actor
from insightshop.services.errors import Invalid
from insightshop.utils.agent_executor import run_tool
from tests.admin_helpers import make_admin
from tests.factories import bearer, guest_bearer

NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e999"]
MEGABYTE = "x" * 1_000_000


@pytest.fixture
def boss(client):
    make_admin()
    return bearer(client, "boss@example.com", "an admin password")


def _sale_body(discount: str) -> str:
    today = pricing.today()
    return (f'{{"name": "Bad maths", "discount_percentage": {discount}, "start_date": "{today.isoformat()}", '
            f'"end_date": "{(today + timedelta(days=3)).isoformat()}"}}')  # fmt: skip


@pytest.mark.parametrize("literal", NON_FINITE)
def test_an_admin_sale_with_a_non_finite_discount_is_refused_as_invalid_json(client, boss, literal):
    response = client.post("/api/admin/sales", headers={**boss, "Content-Type": "application/json"},
                           data=_sale_body(literal))  # fmt: skip

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid_json"
    assert db.session.query(Sale).count() == 0


@pytest.mark.parametrize("literal", NON_FINITE)
def test_the_tool_api_refuses_non_finite_numbers(client, boss, literal):
    response = client.post("/api/tools/admin_sale_create", headers={**boss, "Content-Type": "application/json"},
                           data=_sale_body(literal))  # fmt: skip

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "invalid_json"
    assert db.session.query(Sale).count() == 0


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_mcp_arguments_with_non_finite_numbers_are_refused_before_the_tool_runs(app, literal):
    admin = make_admin()
    raw = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "admin_sale_create", "arguments": {}}}).replace(
        '"arguments": {}', '"arguments": ' + _sale_body(literal))  # fmt: skip
    message = types.jsonrpc_message_adapter.validate_json(raw, by_name=False)  # the SDK's own parser takes NaN
    arguments = message.params["arguments"]

    result = run_tool("admin_sale_create", arguments, Actor(user=admin))

    assert result["ok"] is False and result["error"]["code"] == "invalid_arguments"
    assert "discount_percentage must be a finite number" in result["error"]["message"]
    assert db.session.query(Sale).count() == 0


def test_a_megabyte_in_a_validated_field_gives_a_small_error(client):
    response = client.post("/api/ai/chat", json={"message": MEGABYTE})

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "validation_error"
    assert len(response.get_data()) < 2_000
    assert "…" in response.get_json()["error"]["message"]


def test_a_megabyte_field_name_gives_a_small_error(client):
    response = client.post("/api/ai/chat", json={"message": "hi", MEGABYTE: 1})

    assert response.status_code == 400 and len(response.get_data()) < 2_000


def test_a_megabyte_tool_argument_gives_a_small_error(client):
    headers = guest_bearer(client)

    large = MEGABYTE[: 400 * 1024]  # two of them stay under the request size limit (bigger bodies answer 413)
    response = client.post("/api/tools/cart_add_item", headers=headers,
                           json={"product_id": large, "selected_size": large})  # fmt: skip

    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "validation_error"
    assert len(response.get_data()) < 2_000


def test_thousands_of_bad_items_give_a_bounded_list_of_details(app):
    schema = {"type": "array", "items": {"type": "integer"}}

    with pytest.raises(Invalid) as refused:
        validate(["bad"] * 5_000, schema)

    assert len(refused.value.details) == 21
    assert refused.value.details[-1]["message"] == "and 4980 more problems"
