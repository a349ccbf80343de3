"""The assistant over HTTP: POST /api/ai/chat, POST /api/ai/chat/confirm, and the caller's conversations."""

from __future__ import annotations

from ...agent import chat
from ...schemas.validation import validate
from ...web.auth import current_actor, ensure_guest
from . import api, json_body

CHAT_BODY = {
    "type": "object",
    "required": ["message"],
    "additionalProperties": False,
    "properties": {
        "message": {"type": "string", "minLength": 1, "maxLength": 2000},
        "conversation_id": {"type": "string", "minLength": 1, "maxLength": 64},
    },  # fmt: skip
}
CONFIRM_BODY = {
    "type": "object",
    "required": ["conversation_id", "confirmation_id", "approve"],
    "additionalProperties": False,
    "properties": {
        "conversation_id": {"type": "string", "maxLength": 64},
        "confirmation_id": {"type": "string", "maxLength": 64},
        "approve": {"type": "boolean"},
    },  # fmt: skip
}


def _actor():
    actor = current_actor()
    return actor if actor.has_owner else ensure_guest()


@api.post("/ai/chat")
def chat_message():
    body = validate(json_body(), CHAT_BODY, what="chat message")
    return chat.chat_turn(_actor(), body["message"], body.get("conversation_id"))


@api.post("/ai/chat/confirm")
def chat_confirm():
    body = validate(json_body(), CONFIRM_BODY, what="confirmation")
    return chat.confirm(_actor(), body["conversation_id"], body["confirmation_id"], body["approve"])


@api.get("/ai/conversations")
def list_conversations():
    return {"conversations": [{"id": c.id, "updated_at": c.updated_at.isoformat(), "messages": len(c.messages)}
                              for c in chat.list_conversations(_actor())]}  # fmt: skip


@api.get("/ai/conversations/<conversation_id>")
def show_conversation(conversation_id: str):
    conversation = chat.get_conversation(_actor(), conversation_id, create=False)
    return {"id": conversation.id, "messages": [{"role": m.role, "content": m.content, "tool_calls": m.tool_calls, "cards": m.cards,
                                                 "at": m.created_at.isoformat()} for m in conversation.messages]}  # fmt: skip


@api.delete("/ai/conversations/<conversation_id>")
def delete_conversation(conversation_id: str):
    chat.delete_conversation(_actor(), conversation_id)
    return {"ok": True}
