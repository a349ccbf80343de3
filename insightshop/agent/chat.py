"""One chat turn: the engine chooses tool calls, the guard runs them (or asks for confirmation), cards and a
reply come back. Identity always comes from the caller's session or token, never from the model."""

from __future__ import annotations

import json

from sqlalchemy import select, update

from ..extensions import db
from ..models.base import utcnow
from ..models.conversations import ChatMessage, Conversation, PendingConfirmation
from ..observability import metrics
from ..services import orders
from ..services.actors import Actor
from ..services.errors import Invalid, NotFound
from ..utils.agent_executor import run_tool
from . import cards, citation_links, conversation_context, replies
from .engines import respond
from .redaction import redact

MAX_MESSAGE = 2000
HISTORY_SENT = 24
ERROR_KINDS = {
    "auth": {"unauthorized", "forbidden", "token_invalid", "token_expired", "token_revoked"},
    "validation": {"validation_error", "invalid_arguments", "variant_required", "quantity_limit", "ambiguous", "cart_empty",
                   "payment_declined", "invalid_transition", "already_paid", "out_of_stock", "conflict", "last_superadmin"},
    "not_found": {"not_found", "unknown_tool"},
}  # fmt: skip
MAX_TOOL_ERRORS, MAX_AUTH_ERRORS = 2, 1
REFUSED = ("forbidden", "unknown_tool", "invalid_arguments", "unauthorized")
# this turn's only
NOT_REMEMBERED = ("user_email", "last_shipping", "engine_notice", "offline_note", "offline_suggestions")


def error_kind(code: str) -> str:
    return next((kind for kind, codes in ERROR_KINDS.items() if code in codes), "server")


def get_conversation(actor: Actor, conversation_id: str | None, *, create: bool = True) -> Conversation:
    """The actor's conversation (another owner's id is not found), or a new one."""
    actor.require_owner()
    if conversation_id:
        conversation = db.session.get(Conversation, str(conversation_id)[:32])
        if conversation is None or not _owns(actor, conversation):
            raise NotFound("No such conversation")
        return conversation
    if not create:
        raise NotFound("No such conversation")
    conversation = Conversation(user_id=actor.user.id if actor.user else None, guest_id=None if actor.user else actor.guest_id,
                                context={})  # fmt: skip
    db.session.add(conversation)
    db.session.flush()
    return conversation


def list_conversations(actor: Actor) -> list[Conversation]:
    actor.require_owner()
    owner = Conversation.user_id == actor.user.id if actor.user else Conversation.guest_id == actor.guest_id
    return list(db.session.scalars(select(Conversation).where(owner).order_by(Conversation.updated_at.desc())))


def delete_conversation(actor: Actor, conversation_id: str) -> None:
    db.session.delete(get_conversation(actor, conversation_id, create=False))
    db.session.commit()


def chat_turn(actor: Actor, message: str, conversation_id: str | None = None) -> dict:
    """Answer one message: {conversation_id, reply, tool_calls, cards} (the API contract)."""
    text = (message or "").strip()
    if not text or len(text) > MAX_MESSAGE:
        raise Invalid(
            f"message must be 1–{MAX_MESSAGE} characters",
            details=[{"field": "message", "message": "1–2000 characters"}],
        )
    conversation = get_conversation(actor, conversation_id)
    history = _history(conversation)  # before this message: the engine gets this message once
    db.session.add(ChatMessage(conversation_id=conversation.id, role="user", content=redact(text)))
    db.session.commit()  # stored before any tool runs: a failing tool rolls back only its own work
    context = dict(conversation.context or {}) | {
        "user_email": actor.user.email if actor.user else None,
        "last_shipping": orders.last_shipping_details(actor),  # checkout by chat offers the last address again
    }
    tool_calls, turn_cards = [], []
    searches: list[tuple[dict, dict]] = []  # a search's card is redrawn from what the reply kept of its result
    limits = {"errors": 0, "auth": 0}

    def execute(name: str, arguments: dict) -> dict | None:
        """Run one call the engine chose through the guard; None once the turn's error limits are reached."""
        if limits["errors"] >= MAX_TOOL_ERRORS or limits["auth"] >= MAX_AUTH_ERRORS:
            return None
        entry, card = _handle_call(actor, conversation, name, arguments)
        tool_calls.append(entry)
        if card:
            turn_cards.append(card)
            if name == "search_products" and entry["outcome"] == "executed":
                searches.append((entry, card))
        if entry["outcome"] in ("error", "rejected"):
            limits["errors"] += 1
            limits["auth"] += error_kind(entry["error"]["code"]) == "auth"
        return entry

    def observe(entry: dict) -> None:
        """A call a remote MCP server ran for the model (the connector): reported; its proposal gets a card."""
        entry = _remote_entry(conversation, entry)
        tool_calls.append(entry)
        if entry["outcome"] == "needs_confirmation":
            turn_cards.append(cards.confirmation_card(entry["confirmation_id"], entry["tool"], entry["summary"]))

    engine, plan = respond(text, context, actor, history, execute, observe=observe, conversation_id=conversation.id)
    metrics.count_chat_turn(engine.name)  # the engine that answered: the offline one when Claude fell back
    _redraw_search_cards(searches, turn_cards)  # e.g. "dresses, not red": what was ruled out has no card
    turn_cards[:0] = citation_links.citations_cards(plan.citations)  # first: the model's cited text leads the reply
    turn_cards += _closing_cards(plan)
    reply = _reply(plan, tool_calls, engine.name)
    reply = _with_notes(reply, plan.context or {})
    conversation.context = conversation_context.remember(
        {k: v for k, v in (plan.context or {}).items() if k not in NOT_REMEMBERED},
        tool_calls,
    )
    conversation.updated_at = utcnow()
    db.session.add(ChatMessage(conversation_id=conversation.id, role="assistant", content=reply, tool_calls=tool_calls,
                               cards=turn_cards, engine=engine.name))  # fmt: skip
    db.session.commit()
    return {"conversation_id": conversation.id, "reply": reply, "tool_calls": tool_calls, "cards": turn_cards}


def _closing_cards(plan) -> list[dict]:
    """The login form, and the buttons of a question that offers the likely meanings of an unclear message."""
    closing = [cards.login_card()] if plan.wants_login_form else []
    suggestions = cards.suggestions_card((plan.context or {}).get("offline_suggestions"))
    return closing + ([suggestions] if suggestions else [])


def _with_notes(reply: str, context: dict) -> str:
    """The offline engine's note on what it left out or how it read a size ("we don't sell belts"), then the notice
    that the offline engine answered for Claude; neither is remembered."""
    note = context.get("offline_note")
    if isinstance(note, str) and note not in reply:
        reply = f"{reply} {note}"
    notice = context.get("engine_notice")
    return f"{reply} {notice}" if notice else reply


def _reply(plan, tool_calls: list[dict], engine: str) -> str:
    """The turn's words. Each error is said once, in the text (no error card beside it): the engine's reply, or one
    composed from the calls; an offline reply that does not mention an error gets it added."""
    if not (plan.reply or plan.follow_up):
        return replies.compose(tool_calls)
    reply = plan.reply or plan.follow_up
    if engine == "claude":  # the model saw every error as data and words it itself
        return reply
    unsaid = [replies.error_text(e) for e in tool_calls if e["outcome"] in ("error", "rejected")]
    unsaid = [text for text in dict.fromkeys(unsaid) if text not in reply]
    return " ".join([reply, *unsaid])


def confirm(actor: Actor, conversation_id: str, confirmation_id: str, approve: bool) -> dict:
    """Run (or drop) a proposed consequential call; only its own conversation's owner can."""
    conversation = get_conversation(actor, conversation_id, create=False)
    pending = db.session.get(PendingConfirmation, str(confirmation_id)[:32])
    if pending is None or pending.conversation_id != conversation.id:
        raise NotFound("No such confirmation")
    tool, arguments = pending.tool, dict(pending.arguments or {})
    _claim(pending, "approved" if approve else "declined")
    tool_calls, turn_cards = [], []
    if approve:
        result = run_tool(tool, arguments, actor)  # confirmed: the person approved this very call
        entry = _entry(tool, arguments, result)
        tool_calls.append(entry)
        card = (
            cards.card_for(tool, result["data"])
            if result["ok"]
            else cards.choice_card(tool, arguments, result["error"])
        )
        if card:
            turn_cards.append(card)
        reply = replies.compose(tool_calls)
    else:
        reply = "Okay, I won't do that."
    db.session.add(
        ChatMessage(
            conversation_id=conversation.id, role="assistant", content=reply, tool_calls=tool_calls, cards=turn_cards
        )
    )
    db.session.commit()
    return {"conversation_id": conversation.id, "reply": reply, "tool_calls": tool_calls, "cards": turn_cards}


def _claim(pending: PendingConfirmation, decision: str) -> None:
    """Decide a confirmation once: a conditional UPDATE lets exactly one of concurrent requests win.

    Committed before the tool runs, so a failing tool cannot leave it approvable again."""
    claimed = db.session.execute(
        update(PendingConfirmation)
        .where(PendingConfirmation.id == pending.id, PendingConfirmation.status == "pending")
        .values(status=decision)
        .execution_options(synchronize_session=False)
    )
    db.session.commit()
    if claimed.rowcount != 1:
        db.session.refresh(pending)
        raise Invalid(f"This was already {pending.status}", code="already_decided")


def _redraw_search_cards(searches: list[tuple[dict, dict]], turn_cards: list) -> None:
    """A search's card drawn again from what the turn kept of its result ("dresses, not red": the products that come
    only in red are not shown as cards either)."""
    for entry, card in searches:
        redrawn = cards.card_for(entry["name"], entry["result"])
        if redrawn != card:
            turn_cards[:] = [redrawn if c is card else c for c in turn_cards if c is not card or redrawn]


def propose_confirmation(actor: Actor, conversation_id: str, tool: str, arguments: dict) -> dict:
    """Record a consequential call the assistant proposed in the actor's conversation, to run on Approve:
    {confirmation_id, summary}. The chat and the shop's MCP server (connector calls) both propose through here."""
    conversation = get_conversation(actor, conversation_id, create=False)
    return _propose(actor, conversation, tool, arguments)


def _propose(actor: Actor, conversation: Conversation, tool: str, arguments: dict) -> dict:
    summary = replies.summarise(tool, arguments, actor)
    # The card shows the whole summary (a price change lists every product); the stored copy keeps 500 characters.
    stored = summary[:500]
    pending = PendingConfirmation(conversation_id=conversation.id, tool=tool, arguments=arguments, summary=stored)
    db.session.add(pending)
    db.session.commit()
    return {"confirmation_id": pending.id, "summary": summary[:4000]}


def _handle_call(actor: Actor, conversation: Conversation, name: str, arguments: dict) -> tuple[dict, dict | None]:
    """One call through the guard: run_tool decides (exists, schema, permission, owner, preconditions) and a
    consequential call comes back as a proposal, which becomes a pending confirmation and its card."""
    result = run_tool(name, arguments, actor, confirmed=False)
    if result.get("needs_confirmation"):
        proposal = _propose(actor, conversation, name, result["arguments"])
        entry = {"name": name, "arguments": arguments, "outcome": "needs_confirmation", **proposal}
        return entry, cards.confirmation_card(proposal["confirmation_id"], name, proposal["summary"])
    entry = _entry(name, arguments, result)
    if result["ok"]:
        return entry, cards.card_for(name, result["data"])
    # A missing choice (size, colour, which product) gets buttons; other errors are said once, in the reply.
    return entry, cards.choice_card(name, arguments, result["error"])


def _remote_entry(conversation: Conversation, entry: dict) -> dict:
    """A connector call's entry; a proposal counts only if it is a pending confirmation of this conversation."""
    if entry["outcome"] != "needs_confirmation":
        return entry
    pending = db.session.get(PendingConfirmation, str(entry["confirmation_id"])[:32])
    if (
        pending
        and pending.conversation_id == conversation.id
        and pending.status == "pending"
        and pending.tool == entry["tool"]
    ):
        return {**entry, "summary": pending.summary}
    error = {
        "code": "remote_tool_error",
        "message": "the remote tool asked for an unknown confirmation",
        "kind": "server",
    }
    return {key: entry[key] for key in ("name", "arguments")} | {"outcome": "error", "error": error}


def _entry(name: str, arguments: dict, result: dict) -> dict:
    if result["ok"]:
        return {"name": name, "arguments": arguments, "outcome": "executed", "result": result["data"]}
    error = result["error"]
    entry = {"name": name, "arguments": arguments, "outcome": "rejected" if error["code"] in REFUSED else "error",
             "error": {"code": error["code"], "message": error["message"], "kind": error_kind(error["code"])}}  # fmt: skip
    if error.get("details"):
        entry["error"]["details"] = json.loads(
            json.dumps(error["details"], default=str)
        )  # e.g. variant_required: the sizes and colours to offer
    return entry


def _history(conversation: Conversation) -> list[dict]:
    return [{"role": m.role, "content": m.content} for m in conversation.messages[-HISTORY_SENT:]]


def _owns(actor: Actor, conversation: Conversation) -> bool:
    if actor.user is not None:
        return conversation.user_id == actor.user.id
    return conversation.guest_id is not None and conversation.guest_id == actor.guest_id
