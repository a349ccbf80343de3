"""The Anthropic API failing mid-conversation (issue 15 part 6), with the real SDK and the real offline engine:
before any tool ran, the offline engine answers the turn; once a tool ran, the turn ends saying what was done and
nothing runs twice (the cart holds 2 shirts, not 4)."""

from __future__ import annotations

import anthropic
import httpx2
import pytest

from insightshop.agent import chat
from insightshop.extensions import db
from insightshop.models.cart import CartItem
from insightshop.services.actors import Actor
from tests.anthropic_scripted import install as scripted
from tests.anthropic_scripted import message, text, tool_use
from tests.mcp.tool_cases import shop

OVERLOADED = (529, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
SERVER_ERROR = (500, {"type": "error", "error": {"type": "api_error", "message": "Internal server error"}})
ADD_TWO = (200, message([tool_use("tu_1", "cart_add_item", {"product_id": 1, "selected_color": "white",
                                                           "selected_size": "L", "quantity": 2})], "tool_use"))  # fmt: skip
ASK = "add 2 white oxford shirts in size L to my cart"


def unreachable(request):
    raise httpx2.ConnectError("connection refused", request=request)


def timed_out(request):
    raise httpx2.ReadTimeout("read timed out", request=request)


FAILURES = {"overloaded 529": OVERLOADED, "server error 500": SERVER_ERROR, "connection refused": unreachable,
            "timeout": timed_out}  # fmt: skip


@pytest.fixture
def claude(app, monkeypatch):
    # The SDK retries once after a pause; the retry still happens, without the wait.
    monkeypatch.setattr(anthropic.Anthropic, "_calculate_retry_timeout", lambda self, *a, **k: 0)
    shop()

    def install(*steps):
        """Scripted answers; a callable step raises at the HTTP layer instead of answering."""
        script = scripted(app, *[step for step in steps if not callable(step)])
        transport_answers = list(steps)

        def handler(request):
            step = transport_answers.pop(0)
            return step(request) if callable(step) else script(request)

        app.config["ANTHROPIC_HTTP_CLIENT"] = httpx2.Client(transport=httpx2.MockTransport(handler))
        return script

    return install


def quantity_in_cart() -> int:
    db.session.expire_all()
    return sum(item.quantity for item in db.session.query(CartItem))


@pytest.mark.parametrize("failure", FAILURES.values(), ids=FAILURES.keys())
def test_a_failure_at_the_first_call_is_answered_by_the_offline_engine(claude, failure):
    claude(failure, failure)  # the call and the SDK's one retry

    turn = chat.chat_turn(Actor(guest_id="claude-guest"), ASK)

    assert "built-in assistant answered" in turn["reply"] and "Traceback" not in turn["reply"]
    assert [c["name"] for c in turn["tool_calls"]] == ["cart_add_item"]
    assert turn["tool_calls"][0]["outcome"] == "executed"
    assert quantity_in_cart() == 2  # the offline engine did it, once


@pytest.mark.parametrize("failure", FAILURES.values(), ids=FAILURES.keys())
def test_a_failure_after_a_tool_ran_never_runs_it_again(claude, failure):
    claude(ADD_TWO, failure, failure)

    turn = chat.chat_turn(Actor(guest_id="claude-guest"), ASK)

    assert quantity_in_cart() == 2  # not 4: neither Claude's retry nor the offline engine added them again
    assert [(c["name"], c["outcome"]) for c in turn["tool_calls"]] == [("cart_add_item", "executed")]
    assert "stopped partway" in turn["reply"] and "Added 2 × Oxford Shirt" in turn["reply"]


def test_the_next_turn_after_an_outage_uses_claude_again(claude):
    claude(OVERLOADED, OVERLOADED, (200, message([text("Back again — how can I help?")])))
    guest = Actor(guest_id="claude-guest")

    first = chat.chat_turn(guest, "hello")
    second = chat.chat_turn(guest, "hello again")

    assert "built-in assistant answered" in first["reply"]
    assert second["reply"] == "Back again — how can I help?"
