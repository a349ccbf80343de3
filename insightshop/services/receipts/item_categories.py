"""Giving a receipt's line items their spending category when they are saved (the categorisation chain)."""

from __future__ import annotations

from collections.abc import Iterable

from ...extensions import db
from ...models.accounts import User
from ...models.receipts import ReceiptItem
from ..actors import Actor
from .categorize import categorize_with, load_context


def assign_categories(user_id: int, items: Iterable[ReceiptItem]) -> None:
    """Set each item's category from the chain (the owner's own choices first); unplaceable items stay None."""
    items = list(items)
    if not items:
        return
    context = load_context(Actor(user=db.session.get(User, user_id)))
    for item in items:
        answer = categorize_with(context, item.item_name)
        item.category_id = answer["category_id"]
        item.category_method = answer["match_method"] if answer["category_id"] else None
