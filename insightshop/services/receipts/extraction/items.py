"""Stage 4 — line items (stub)."""

from __future__ import annotations

from ..document import ExtractedItem
from .locate import Located
from .totals import MoneyFields


def find_items(located: Located, money: MoneyFields) -> tuple[ExtractedItem, ...]:
    return ()
