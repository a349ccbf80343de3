"""What the browser's chat panel needs beyond a chat turn: adding a product picked with a card's buttons (no
language model guesses which product a button meant), and the conversation shown again after the shopper moves
to another page."""

from __future__ import annotations

from sqlalchemy import select

from ..extensions import db
from ..models.base import utcnow
from ..models.conversations import ChatMessage, PendingConfirmation
from ..services import catalog
from ..services.actors import Actor
from ..utils.agent_executor import run_tool
from . import cards, conversation_context, replies
from .chat import error_kind, get_conversation

CARD_TOOL = "cart_add_item"


def add_from_card(actor: Actor, conversation_id: str | None, product_id: int, *, size: str | None = None,
                  color: str | None = None, quantity: int = 1) -> dict:  # fmt: skip
    """Add the product a shopper picked on a card, as a turn of the conversation (so "make that 2" follows it):
    the shopper's bubble names the product, the cart_add_item call goes through the tool guard like any other."""
    product = catalog.get_product(product_id)
    conversation = get_conversation(actor, conversation_id)
    choice = " / ".join(filter(None, [color.capitalize() if color else None, size]))
    text = f"Add {quantity} × {product.name}" + (f" ({choice})" if choice else "")
    db.session.add(ChatMessage(conversation_id=conversation.id, role="user", content=text))
    db.session.commit()  # stored before the tool runs: a failing tool rolls back only its own work
    arguments = {"product_id": product.id, "quantity": quantity}
    arguments |= {k: v for k, v in (("selected_size", size), ("selected_color", color)) if v}
    result = run_tool(CARD_TOOL, arguments, actor)
    entry = _entry(arguments, result)
    if result["ok"]:
        turn_cards, reply = [cards.card_for(CARD_TOOL, result["data"])], replies.compose([entry])
    else:  # one message per failure: a card with the remaining choice, or the error as text
        choice_card = cards.choice_card(CARD_TOOL, arguments, result["error"])
        turn_cards = [choice_card] if choice_card else []
        reply = choice_prompt(choice_card) if choice_card else replies.error_text(entry)
    context = dict(conversation.context or {})
    if result["ok"]:  # engines read the last executed tool from here ("make that 2" follows an add)
        context["last_action"] = CARD_TOOL
    conversation.context = conversation_context.remember(context, [entry])
    conversation.updated_at = utcnow()
    db.session.add(ChatMessage(conversation_id=conversation.id, role="assistant", content=reply, tool_calls=[entry],
                               cards=turn_cards, engine="panel"))  # fmt: skip
    db.session.commit()
    return {"conversation_id": conversation.id, "reply": reply, "tool_calls": [entry], "cards": turn_cards,
            "user_text": text}  # fmt: skip


def choice_prompt(card: dict) -> str:
    """The question that goes with a choice card (the card's buttons answer it)."""
    if card["type"] == "choices":
        return "Several products fit. Which one do you mean?"
    product = card["product"]
    needs_color = not card.get("color") and len(product.get("colors") or []) > 1
    return f"Which {'colour and size' if needs_color else 'size'} of {product['name']} would you like?"


def conversation_messages(actor: Actor, conversation_id: str | None) -> list[dict]:
    """The conversation's messages for the panel; confirmations already decided show their decision, not buttons."""
    if not conversation_id or not actor.has_owner:
        return []
    conversation = get_conversation(actor, conversation_id, create=False)
    decided = dict(db.session.execute(select(PendingConfirmation.id, PendingConfirmation.status).where(
        PendingConfirmation.conversation_id == conversation.id, PendingConfirmation.status != "pending")).all())  # fmt: skip
    return [
        {"role": m.role, "content": m.content, "cards": [_with_status(card, decided) for card in m.cards or []]}
        for m in conversation.messages
    ]


def _with_status(card: dict, decided: dict) -> dict:
    if isinstance(card, dict) and card.get("type") == "confirmation" and card.get("confirmation_id") in decided:
        return card | {"status": decided[card["confirmation_id"]]}
    return card


def _entry(arguments: dict, result: dict) -> dict:
    if result["ok"]:
        return {"name": CARD_TOOL, "arguments": arguments, "outcome": "executed", "result": result["data"]}
    error = result["error"]
    return {"name": CARD_TOOL, "arguments": arguments, "outcome": "error",
            "error": {"code": error["code"], "message": error["message"], "kind": error_kind(error["code"]),
                      "details": error.get("details")}}  # fmt: skip
