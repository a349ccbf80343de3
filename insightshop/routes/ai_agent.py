"""The assistant in the browser: a panel on every page and /chat, over the same chat service as /api/ai/chat."""

from __future__ import annotations

import contextlib

from flask import Blueprint, make_response, redirect, request, session, url_for
from jinja2_fragments.flask import render_blocks

from ..agent import chat
from ..agent.prompts import AGENT_SYSTEM_PROMPT  # noqa: F401  (re-exported; the prompt lives with the agent)
from ..forms.shop import EmptyForm
from ..services import cart
from ..services.errors import DomainError
from ..web.auth import current_actor, ensure_guest
from ..web.rendering import is_fragment_request, render_page

CONVERSATION_KEY = "conversation_id"

assistant = Blueprint("assistant", __name__)


def _conversation_id() -> str | None:
    return session.get(CONVERSATION_KEY)


@assistant.get("/chat")
def show_chat():
    actor = current_actor()
    messages = []
    if actor.has_owner and _conversation_id():
        try:
            messages = chat.get_conversation(actor, _conversation_id(), create=False).messages
        except DomainError:
            session.pop(CONVERSATION_KEY, None)
    return render_page("assistant/chat.html", [], messages=messages)


@assistant.post("/chat/message")
def send_message():
    actor = ensure_guest()
    text = request.form.get("message", "")
    if not EmptyForm().validate_on_submit():
        return _answer({"reply": "Your session expired; reload the page.", "cards": [], "tool_calls": []}, text, 400)
    try:
        turn = chat.chat_turn(actor, text, _conversation_id())
    except DomainError as error:
        if error.status == 404:
            session.pop(CONVERSATION_KEY, None)
        return _answer({"reply": error.message, "cards": [], "tool_calls": []}, text, 422)
    session[CONVERSATION_KEY] = turn["conversation_id"]
    return _answer(turn, text)


@assistant.post("/chat/confirm/<confirmation_id>")
def confirm(confirmation_id: str):
    actor = ensure_guest()
    if not EmptyForm().validate_on_submit() or not _conversation_id():
        return _answer({"reply": "That confirmation has expired.", "cards": [], "tool_calls": []}, None, 400)
    try:
        turn = chat.confirm(actor, _conversation_id(), confirmation_id, request.form.get("approve") == "1")
    except DomainError as error:
        return _answer({"reply": error.message, "cards": [], "tool_calls": []}, None, 422)
    return _answer(turn, None)


@assistant.post("/chat/forget")
def forget():
    if EmptyForm().validate_on_submit() and _conversation_id():
        with contextlib.suppress(DomainError):  # already gone, or someone else's: nothing to delete
            chat.delete_conversation(current_actor(), _conversation_id())
        session.pop(CONVERSATION_KEY, None)
    return redirect(url_for("assistant.show_chat"), 303)


def _answer(turn: dict, text: str | None, status: int = 200):
    """For htmx: the turn's bubbles (and the cart badge out of band); otherwise back to /chat."""
    if not is_fragment_request():
        return redirect(url_for("assistant.show_chat"), 303)
    body = render_blocks("assistant/_turn.html", ["turn", "cart_badge"], user_text=text, turn=turn,
                         cart_count=cart.item_count(current_actor()), fragment=True)  # fmt: skip
    response = make_response(body, status if status != 400 else 200)
    if any(
        call.get("name", "").startswith("cart_") and call.get("outcome") == "executed" for call in turn["tool_calls"]
    ):
        response.headers["HX-Trigger"] = "cart-changed"
    return response
