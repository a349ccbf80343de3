"""Issue #10 item 8: one approval runs a confirmed tool once, however many requests approve it at once."""

from __future__ import annotations

import threading

import pytest

from insightshop.extensions import db
from insightshop.models.audit import AuditEntry
from insightshop.models.cart import CartItem
from insightshop.models.catalog import ProductVariant
from insightshop.models.conversations import Conversation, PendingConfirmation
from insightshop.models.orders import Order
from insightshop.services import cart
from insightshop.services.actors import Actor
from tests.factories import bearer, make_product, make_user

pytestmark = pytest.mark.commits  # concurrent approvals on threads of their own

ADDRESS = dict(email="shopper@example.com", shipping_name="Sam Shopper", shipping_address="1 Main St",
               shipping_city="Springfield", shipping_state="IL", shipping_zip="62701")  # fmt: skip
RACERS = 6


def _propose(user_id: int, tool: str, arguments: dict) -> tuple[str, str]:
    conversation = Conversation(user_id=user_id, context={})
    db.session.add(conversation)
    db.session.flush()
    pending = PendingConfirmation(conversation_id=conversation.id, tool=tool, arguments=arguments, summary=tool)
    db.session.add(pending)
    db.session.commit()
    return conversation.id, pending.id


def _approve_concurrently(app, headers: dict, conversation_id: str, confirmation_id: str, approve: bool = True):
    answers, barrier = [], threading.Barrier(RACERS)

    def approve_once():
        with app.app_context():
            client = app.test_client()
            barrier.wait()
            try:
                response = client.post("/api/ai/chat/confirm", headers=headers,
                                       json={"conversation_id": conversation_id, "confirmation_id": confirmation_id,
                                             "approve": approve})  # fmt: skip
                answers.append((response.status_code, response.get_json()))
            finally:
                db.session.remove()

    threads = [threading.Thread(target=approve_once) for _ in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    db.session.expire_all()
    return answers


@pytest.fixture
def buyer(app):
    user = make_user()
    shirt = make_product("Race Shirt", sizes=("L",), stock=5)
    cart.add_item(Actor(user=user), shirt.id, 1)
    return user, shirt, bearer(app.test_client())


def test_six_concurrent_approvals_of_one_checkout_place_one_order(app, buyer):
    user, shirt, headers = buyer
    conversation_id, confirmation_id = _propose(user.id, "checkout_proceed", dict(ADDRESS))

    answers = _approve_concurrently(app, headers, conversation_id, confirmation_id)

    assert len(answers) == RACERS
    winners = [body for status, body in answers if status == 200]
    losers = [(status, body) for status, body in answers if status != 200]
    assert len(winners) == 1 and winners[0]["tool_calls"][0]["outcome"] == "executed"
    assert all(status == 400 and body["error"]["code"] == "already_decided" for status, body in losers)
    assert db.session.query(Order).count() == 1
    assert db.session.query(AuditEntry).filter_by(action="tool.checkout_proceed").count() == 1
    assert db.session.get(ProductVariant, shirt.variants[0].id).stock == 4
    assert db.session.get(PendingConfirmation, confirmation_id).status == "approved"


def test_six_concurrent_approvals_of_cart_clear_run_it_once(app, buyer):
    user, _shirt, headers = buyer
    conversation_id, confirmation_id = _propose(user.id, "cart_clear", {})

    answers = _approve_concurrently(app, headers, conversation_id, confirmation_id)

    assert sorted(status for status, _ in answers) == [200] + [400] * (RACERS - 1)
    assert db.session.query(AuditEntry).filter_by(action="tool.cart_clear").count() == 1
    assert db.session.query(CartItem).count() == 0


def test_a_concurrent_decline_and_approvals_decide_once(app, buyer):
    user, _shirt, headers = buyer
    conversation_id, confirmation_id = _propose(user.id, "cart_clear", {})

    answers = _approve_concurrently(app, headers, conversation_id, confirmation_id, approve=False)

    assert sorted(status for status, _ in answers) == [200] + [400] * (RACERS - 1)
    assert db.session.get(PendingConfirmation, confirmation_id).status == "declined"
    assert db.session.query(AuditEntry).filter_by(action="tool.cart_clear").count() == 0
    assert db.session.query(CartItem).count() == 1
