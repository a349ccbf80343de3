"""The shop's MCP server and the assistant's connector tokens: the same guard and the same confirmation rule as
a chat call; an ordinary client token keeps acting as its own principal."""

import json

import pytest

from insightshop.agent import chat
from insightshop.extensions import db
from insightshop.mcp.server import call_tool_as, tool_result
from insightshop.models.cart import CartItem
from insightshop.models.catalog import Product
from insightshop.models.conversations import PendingConfirmation
from insightshop.services import api_tokens
from insightshop.services.actors import Actor
from insightshop.services.errors import Invalid
from insightshop.utils import agent_executor
from tests.admin_helpers import make_admin
from tests.mcp.tool_cases import put_in_cart, shop


@pytest.fixture
def admin(app):
    shop()
    return make_admin()


def connector_token(user=None, guest_id=None):
    actor = Actor(user=user, guest_id=guest_id)
    conversation = chat.get_conversation(actor, None)
    db.session.commit()
    token, _ = api_tokens.issue_token(user, guest_id=guest_id, minutes=10, conversation_id=conversation.id)
    return token, conversation.id


def test_an_admin_tool_through_the_connector_waits_for_approval_in_that_conversation(admin):
    token, conversation_id = connector_token(admin)

    result = call_tool_as(token, "admin_product_delete", {"product_id": 1})
    answer = tool_result(result)

    assert result["needs_confirmation"] is True and db.session.get(Product, 1).is_active is True
    pending = db.session.get(PendingConfirmation, result["confirmation_id"])
    assert (
        pending.conversation_id == conversation_id
        and pending.tool == "admin_product_delete"
        and pending.status == "pending"
    )
    proposal = json.loads(answer.content[0].text)
    assert answer.is_error and proposal["needs_confirmation"] is True and "Approve" in proposal["message"]
    approved = chat.confirm(Actor(user=admin), conversation_id, result["confirmation_id"], True)
    assert approved["tool_calls"][0]["outcome"] == "executed" and db.session.get(Product, 1).is_active is False


def test_an_ordinary_token_is_its_own_principal_and_runs_directly(admin):
    token, _ = api_tokens.issue_token(admin)

    result = call_tool_as(token, "admin_product_delete", {"product_id": 1})

    assert result["ok"] is True and db.session.get(Product, 1).is_active is False
    assert db.session.query(PendingConfirmation).count() == 0


def test_reads_through_the_connector_run_at_once_and_guests_get_no_admin_tools(app):
    shop()
    token, _ = connector_token(guest_id="g-1")
    put_in_cart(Actor(guest_id="g-1"))

    shown = call_tool_as(token, "cart_show", {})
    refused = call_tool_as(token, "admin_product_delete", {"product_id": 1})
    cleared = call_tool_as(token, "cart_clear", {})

    assert shown["ok"] and shown["data"]["cart"]["item_count"] == 1
    assert refused["error"]["code"] == "forbidden" and db.session.get(Product, 1).is_active is True
    assert cleared["needs_confirmation"] and db.session.query(CartItem).count() == 1


def test_a_connector_token_cannot_propose_into_someone_elses_conversation(app):
    shop()
    _, theirs = connector_token(guest_id="owner")
    put_in_cart(Actor(guest_id="intruder"))
    token, _ = api_tokens.issue_token(None, guest_id="intruder", minutes=10, conversation_id=theirs)

    result = call_tool_as(token, "cart_clear", {})

    assert result["ok"] is False and result["error"]["code"] == "not_found"
    assert db.session.query(PendingConfirmation).count() == 0 and db.session.query(CartItem).count() == 1


def test_a_call_that_could_not_succeed_is_refused_before_any_confirmation(admin, monkeypatch):
    def no_such_transition(actor, arguments):
        raise Invalid("A pending order cannot be shipped", code="invalid_transition")

    monkeypatch.setitem(agent_executor.PRECONDITIONS, "admin_product_delete", no_such_transition)
    token, _ = connector_token(admin)

    result = call_tool_as(token, "admin_product_delete", {"product_id": 1})

    assert result["ok"] is False and result["error"]["code"] == "invalid_transition"
    assert db.session.query(PendingConfirmation).count() == 0 and db.session.get(Product, 1).is_active is True
