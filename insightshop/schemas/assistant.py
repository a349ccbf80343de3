"""Request bodies and output shapes of the assistant over HTTP (chat turns, confirmations, conversations) and of
the tool catalog (GET /api/tools, POST /api/tools/<name>)."""

from __future__ import annotations

from .products import DATE_TIME

CHAT_BODY = {
    "type": "object",
    "required": ["message"],
    "additionalProperties": False,
    "properties": {
        "message": {"type": "string", "minLength": 1, "maxLength": 2000},
        "conversation_id": {"type": "string", "minLength": 1, "maxLength": 64},
    },
}
CONFIRM_BODY = {
    "type": "object",
    "required": ["conversation_id", "confirmation_id", "approve"],
    "additionalProperties": False,
    "properties": {
        "conversation_id": {"type": "string", "maxLength": 64},
        "confirmation_id": {"type": "string", "maxLength": 64},
        "approve": {"type": "boolean"},
    },
}

OUTCOMES = ["executed", "needs_confirmation", "error", "rejected"]
TOOL_CALL_SCHEMA = {
    "type": "object",
    "description": "One tool call of the turn and what became of it",
    "required": ["name", "arguments", "outcome"],
    "properties": {
        "name": {"type": "string"},
        "arguments": {"type": "object"},
        "outcome": {"type": "string", "enum": OUTCOMES},
        "result": {"description": "executed: the tool's output (its output_schema in GET /api/tools)"},
        "error": {
            "type": "object",
            "required": ["code", "message", "kind"],
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "kind": {"type": "string", "enum": ["auth", "validation", "not_found", "server"]},
                "details": {},
            },
        },
        "confirmation_id": {
            "type": "string",
            "description": "needs_confirmation: approve it with POST /api/ai/chat/confirm",
        },
        "summary": {"type": "string"},
        "tool": {"type": "string"},
    },
    "allOf": [
        {"if": {"properties": {"outcome": {"const": "executed"}}}, "then": {"required": ["result"]}},
        {"if": {"properties": {"outcome": {"enum": ["error", "rejected"]}}}, "then": {"required": ["error"]}},
        {
            "if": {"properties": {"outcome": {"const": "needs_confirmation"}}},
            "then": {"required": ["confirmation_id", "summary"]},
        },
    ],
}

# What each kind of card always carries (the panel renders them; API clients may too).
CARD_FIELDS = {
    "products": ["products", "total"],
    "cart": ["items", "item_count", "subtotal"],
    "comparison": ["products"],
    "order": ["order", "payment"],
    "review": ["review"],
    "tracking": ["shipment"],
    "orders": ["orders"],
    "sale": ["sale"],
    "choices": ["quantity", "size", "color", "candidates"],
    "variant_choice": ["quantity", "size", "color", "product"],
    "confirmation": ["confirmation_id", "tool", "summary"],
    "error": ["message"],
    "login_form": [],
    "citations": ["links"],  # each cited value: {"text", "url"} — the receipt page with its source highlighted
    "suggestions": ["options"],  # the likely meanings of an unclear message: [{"label", "message"}] as buttons
    "figures": [
        "title",
        "lines",
    ],  # a shopper's figures (an order's refund or return state, spending): [{"label", "value"}]
    "admin_stock": ["products"],  # stock per variant of each product (after a change: the new stock)
    "admin_stock_list": ["rows"],  # products low on or out of stock
    "admin_prices": ["rows"],  # prices after an approved change: old → new
    "admin_figures": ["rows"],  # revenue and orders for a period, compared and broken down
    "admin_products": ["rows"],  # an admin's product search: price, stock, active
}
CARD_SCHEMA = {
    "type": "object",
    "required": ["type"],
    "properties": {"type": {"type": "string", "enum": list(CARD_FIELDS)}},
    "allOf": [
        {"if": {"properties": {"type": {"const": kind}}}, "then": {"required": fields}}
        for kind, fields in CARD_FIELDS.items()
        if fields
    ],
}
CHAT_TURN_SCHEMA = {
    "type": "object",
    "required": ["conversation_id", "reply", "tool_calls", "cards"],
    "properties": {
        "conversation_id": {"type": "string"},
        "reply": {"type": "string"},
        "tool_calls": {"type": "array", "items": {"$ref": "#/components/schemas/ToolCall"}},
        "cards": {"type": "array", "items": {"$ref": "#/components/schemas/Card"}},
    },
}
CONVERSATION_LIST_SCHEMA = {
    "type": "object",
    "required": ["conversations"],
    "properties": {
        "conversations": {
            "type": "array",
            "description": "Most recently updated first",
            "items": {
                "type": "object",
                "required": ["id", "updated_at", "messages"],
                "properties": {
                    "id": {"type": "string"},
                    "updated_at": DATE_TIME,
                    "messages": {"type": "integer", "minimum": 0, "description": "How many messages it holds"},
                },
            },
        }
    },
}
CONVERSATION_SCHEMA = {
    "type": "object",
    "required": ["id", "messages"],
    "properties": {
        "id": {"type": "string"},
        "messages": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["role", "content", "tool_calls", "cards", "at"],
                "properties": {
                    "role": {"type": "string", "enum": ["user", "assistant"]},
                    "content": {"type": "string"},
                    "tool_calls": {"type": "array", "items": {"$ref": "#/components/schemas/ToolCall"}},
                    "cards": {"type": "array", "items": {"$ref": "#/components/schemas/Card"}},
                    "at": DATE_TIME,
                },
            },
        },
    },
}
TOOL_LIST_SCHEMA = {
    "type": "object",
    "required": ["role", "tools"],
    "properties": {
        "role": {"type": "string", "enum": ["anonymous", "user", "admin"]},
        "tools": {
            "type": "array",
            "items": {
                "type": "object",
                "required": [
                    "name",
                    "description",
                    "input_schema",
                    "output_schema",
                    "annotations",
                    "confirm",
                    "permission",
                ],
                "properties": {
                    "name": {"type": "string", "pattern": "^[a-z][a-z0-9_]{1,63}$"},
                    "description": {"type": "string"},
                    "input_schema": {"type": "object", "description": "JSON Schema of the arguments"},
                    "output_schema": {"type": "object", "description": "JSON Schema of data in a successful call"},
                    "annotations": {"type": "object", "description": "MCP tool annotations (readOnlyHint, …)"},
                    "confirm": {"type": "boolean", "description": "The assistant asks the shopper before running it"},
                    "permission": {"type": "string", "enum": ["user", "admin"]},
                },
            },
        },
    },
}
TOOL_RESULT_SCHEMA = {
    "type": "object",
    "required": ["ok", "data"],
    "properties": {
        "ok": {"const": True},
        "data": {"type": "object", "description": "Matches the tool's output_schema (GET /api/tools)"},
    },
}


def conversation_summary_to_dict(conversation) -> dict:
    return {
        "id": conversation.id,
        "updated_at": conversation.updated_at.isoformat(),
        "messages": len(conversation.messages),
    }


def conversation_to_dict(conversation) -> dict:
    return {
        "id": conversation.id,
        "messages": [
            {
                "role": m.role,
                "content": m.content,
                "tool_calls": m.tool_calls,
                "cards": m.cards,
                "at": m.created_at.isoformat(),
            }
            for m in conversation.messages
        ],
    }
