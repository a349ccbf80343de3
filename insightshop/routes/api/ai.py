"""The assistant over HTTP: POST /api/ai/chat, POST /api/ai/chat/confirm, and the caller's conversations."""

from __future__ import annotations

from ...agent import chat
from ...schemas.assistant import CHAT_BODY, CONFIRM_BODY, conversation_summary_to_dict, conversation_to_dict
from ...schemas.validation import validate
from ...web.auth import current_actor, ensure_guest
from . import api, json_body


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
    return {"conversations": [conversation_summary_to_dict(c) for c in chat.list_conversations(_actor())]}


@api.get("/ai/conversations/<conversation_id>")
def show_conversation(conversation_id: str):
    return conversation_to_dict(chat.get_conversation(_actor(), conversation_id, create=False))


@api.delete("/ai/conversations/<conversation_id>")
def delete_conversation(conversation_id: str):
    chat.delete_conversation(_actor(), conversation_id)
    return {"ok": True}
