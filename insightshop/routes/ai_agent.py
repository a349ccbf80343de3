"""The assistant in the browser: a panel on every page and /chat, over the same chat service as /api/ai/chat."""

from __future__ import annotations

import contextlib

from flask import Blueprint, flash, has_request_context, make_response, redirect, request, session, url_for
from jinja2_fragments.flask import render_blocks

from ..agent import chat, citation_links, panel
from ..agent.prompts import AGENT_SYSTEM_PROMPT  # noqa: F401  (re-exported; the prompt lives with the agent)
from ..forms.shop import AddToCartForm, EmptyForm
from ..services import cart
from ..services.errors import DomainError
from ..web.auth import current_actor, ensure_guest, log_out
from ..web.rendering import is_fragment_request, render_page

CONVERSATION_KEY = "conversation_id"

assistant = Blueprint("assistant", __name__)


def _conversation_id() -> str | None:
    return session.get(CONVERSATION_KEY)


@assistant.app_context_processor
def chat_panel_state():
    """Whether the panel has a conversation to load when the page loads (no query: only the session is read)."""
    return {"chat_conversation_active": has_request_context() and bool(_conversation_id())}


@assistant.app_template_global()
def cited_segments(text, cards):
    """The assistant's reply cut at its citation links (built from the turn's citations card, never from text)."""
    return citation_links.cited_segments(text, cards)


@assistant.get("/chat")
def show_chat():
    return render_page("assistant/chat.html", [], messages=_messages())


@assistant.get("/chat/log")
def show_log():
    """The current conversation's bubbles, for the panel on every page (it survives navigation)."""
    return render_page("assistant/_log.html", ["log"], messages=_messages())


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
    if _logged_out(turn):
        return _end_browser_session()
    return _answer(turn, text)


@assistant.post("/chat/add")
def add_from_card():
    """A size, colour or product button on a card: adds that exact product through the cart_add_item tool."""
    form = AddToCartForm()
    if not form.validate_on_submit():
        return _answer({"reply": "That choice has expired; reload the page.", "cards": [], "tool_calls": []}, None, 400)
    try:
        turn = panel.add_from_card(ensure_guest(), _conversation_id(), form.product_id.data, size=form.size.data or None,
                                   color=form.color.data or None, quantity=form.quantity.data)  # fmt: skip
    except DomainError as error:
        if error.status == 404 and error.message.startswith("No such conversation"):
            session.pop(CONVERSATION_KEY, None)
        return _answer({"reply": error.message, "cards": [], "tool_calls": []}, None, 422)
    session[CONVERSATION_KEY] = turn["conversation_id"]
    return _answer(turn, turn["user_text"])


@assistant.post("/chat/confirm/<confirmation_id>")
def confirm(confirmation_id: str):
    actor = ensure_guest()
    if not EmptyForm().validate_on_submit() or not _conversation_id():
        return _answer({"reply": "That confirmation has expired.", "cards": [], "tool_calls": []}, None, 400)
    approve = request.form.get("approve") == "1"
    try:
        turn = chat.confirm(actor, _conversation_id(), confirmation_id, approve)
    except DomainError as error:
        return _answer({"reply": error.message, "cards": [], "tool_calls": []}, None, 422)
    if _logged_out(turn):
        return _end_browser_session()
    return _answer(
        turn, None, decided={"confirmation_id": confirmation_id, "status": "approved" if approve else "declined"}
    )


@assistant.post("/chat/forget")
def forget():
    if EmptyForm().validate_on_submit() and _conversation_id():
        with contextlib.suppress(DomainError):  # already gone, or someone else's: nothing to delete
            chat.delete_conversation(current_actor(), _conversation_id())
        session.pop(CONVERSATION_KEY, None)
    return redirect(url_for("assistant.show_chat"), 303)


def _messages() -> list[dict]:
    try:
        return panel.conversation_messages(current_actor(), _conversation_id())
    except DomainError:  # deleted, or the login changed: start afresh
        session.pop(CONVERSATION_KEY, None)
        return []


def _logged_out(turn: dict) -> bool:
    return any(c.get("name") == "auth_logout" and c.get("outcome") == "executed" for c in turn["tool_calls"])


def _end_browser_session():
    """Saying "log me out" in chat ends this browser's login too (its login-session record is revoked); the whole page
    reloads so the header, the cart badge and the panel show a logged-out shopper."""
    log_out()
    flash("You are logged out.", "info")
    if not is_fragment_request():
        return redirect(url_for("shop.show_home"), 303)
    response = make_response("", 200)
    response.headers["HX-Refresh"] = "true"
    return response


def _answer(turn: dict, text: str | None, status: int = 200, decided: dict | None = None):
    """For htmx: the turn's bubbles (and the cart badge, and a decided confirmation, out of band); otherwise
    back to /chat."""
    if not is_fragment_request():
        return redirect(url_for("assistant.show_chat"), 303)
    body = render_blocks("assistant/_turn.html", ["turn", "cart_badge", "decided"], user_text=text, turn=turn,
                         decided=decided, cart_count=cart.item_count(current_actor()), fragment=True)  # fmt: skip
    response = make_response(body, status if status != 400 else 200)
    if any(
        call.get("name", "").startswith("cart_") and call.get("outcome") == "executed" for call in turn["tool_calls"]
    ):
        response.headers["HX-Trigger"] = "cart-changed"
    return response
