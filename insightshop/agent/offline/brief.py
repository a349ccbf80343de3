"""The shopping brief: what a conversation has established so far, kept in the conversation's context under
"brief" (JSON-safe) and edited by every message. Sections:

frame     the search frame: department, types, colors / colors_out, sizes, min_price / max_price,
          materials / materials_out, needs (occasion attributes: formal, warm, waterproof…), sort, on_sale
order     the order in scope: {order_id}
receipts  the receipt scope: {date_from, date_to, category, merchant, item_query, measure}
admin     the admin's selection and period: {selection: [product ids], period, compare_to, figure, group_by}

The last list shown and the last cart line stay where conversation_context.py keeps them (last_shown, last_line).
"""

from __future__ import annotations

import copy

SECTIONS = ("frame", "order", "receipts", "admin")


def load(context: dict) -> dict:
    """A copy of the conversation's brief, every section present."""
    stored = context.get("brief") if isinstance(context.get("brief"), dict) else {}
    brief = copy.deepcopy(stored)
    for section in SECTIONS:
        if not isinstance(brief.get(section), dict):
            brief[section] = {}
    return brief


def save(context: dict, brief: dict) -> dict:
    """The context with this brief (empty sections dropped)."""
    kept = {section: value for section, value in brief.items() if value}
    return {**context, "brief": kept}
