"""Request bodies of the category endpoints."""

from __future__ import annotations

# Printable text with at least one visible character: no tabs, newlines or other control characters.
ITEM_NAME = {"type": "string", "minLength": 1, "maxLength": 200,
             "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*\\S[^\\u0000-\\u001f\\u007f-\\u009f]*$"}  # fmt: skip

CATEGORIZE_ITEM_BODY = {
    "type": "object",
    "required": ["item_name"],
    "additionalProperties": False,
    "properties": {"item_name": ITEM_NAME},
}

CATEGORIZE_ITEM_RESULT = {
    "type": "object",
    "required": [
        "category_id",
        "category_name",
        "explanation",
        "match_method",
        "match_score",
        "success",
        "suggestions",
    ],
    "properties": {
        "category_id": {"type": ["integer", "null"]},
        "category_name": {"type": ["string", "null"]},
        "explanation": {"type": "string"},
        "match_method": {"type": "string", "enum": ["exact", "keyword", "fuzzy", "none", "claude"]},
        "match_score": {"type": "number", "minimum": 0, "maximum": 1},
        "success": {"type": "boolean"},
        "suggestions": {
            "type": "array",
            "items": {"type": "object", "required": ["category_id", "category_name", "score"]},
        },
    },
}
