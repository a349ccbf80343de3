"""estimate_expiration_date: deterministic, conservative shelf lives (seed 000), never a model's answer.

The seed's fallback chain: the item table (a storage word such as "frozen" first, then the longest matching phrase)
→ a fuzzy match on the item (SequenceMatcher ≥ 0.8) → the category's rule → the conservative default (7 days,
fridge). A safety margin (EXPIRY_SAFETY_MARGIN_DAYS, default −1, never positive) comes off every estimate. Goods that
do not go off (Clothing, Electronics …) get no date and a reason, rather than an invented one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from difflib import SequenceMatcher
from functools import lru_cache

from flask import current_app, has_app_context

from ...models.receipts import Category
from ..actors import Actor
from ..errors import Invalid
from ..pricing import today
from . import categorize
from .categories import get_active_category
from .item_names import item_words
from .shelf_life_rules import (
    CATEGORY_RULES,
    DEFAULT_RULE,
    DEFAULT_SAFETY_MARGIN_DAYS,
    ITEM_RULES,
    NON_PERISHABLE,
    STORAGE_WORDS,
)  # fmt: skip

SIMILARITY_THRESHOLD = 0.8
FUTURE_SLACK_DAYS = 1  # time zones: "today" somewhere may be tomorrow in UTC


@dataclass(frozen=True)
class ShelfLife:
    days: int
    storage: str
    source: str  # item-table, item-fuzzy, category-rule, default
    basis: str  # what the days come from, in words


def estimate_expiration_date(actor: Actor, item_name: str, purchase_date: date,
                             category_id: int | None = None) -> dict:  # fmt: skip
    """When an item bought on purchase_date should be used by, how to keep it, and where the estimate comes from."""
    if purchase_date > today() + timedelta(days=FUTURE_SLACK_DAYS):
        raise Invalid(
            "purchase_date is in the future", details=[{"field": "purchase_date", "message": "in the future"}]
        )
    category = _category(actor, item_name, category_id)
    answer = {"item_name": item_name, "purchase_date": purchase_date.isoformat(),
              "category_id": category.id if category else None, "category_name": category.name if category else None}  # fmt: skip
    if category is not None and category.name in NON_PERISHABLE:
        return answer | {"perishable": False, "expiration_date": None, "shelf_life_days": None,
                         "safety_margin_days": 0, "storage_recommendation": None, "source": "non-perishable",
                         "reason": NON_PERISHABLE[category.name]}  # fmt: skip
    life = shelf_life(item_name, category.name if category else None)
    margin = safety_margin_days()
    expires = purchase_date + timedelta(days=max(0, life.days + margin))
    reason = f"{life.basis}: {life.days} day(s) in the {life.storage}" + (
        f", {-margin} day(s) earlier for safety" if margin else ""
    )
    return answer | {"perishable": True, "expiration_date": expires.isoformat(), "shelf_life_days": life.days,
                     "safety_margin_days": margin, "storage_recommendation": life.storage, "source": life.source,
                     "reason": reason + "."}  # fmt: skip


def shelf_life(item_name: str, category_name: str | None) -> ShelfLife:
    """The chain: item table → fuzzy on the item → category rule → conservative default."""
    words = item_words(item_name)
    found = _storage_word(words) or _item_phrase(words, category_name) or _item_fuzzy(words, category_name)
    if found is not None:
        return found
    if category_name in CATEGORY_RULES:
        days, storage = CATEGORY_RULES[category_name]
        return ShelfLife(days, storage, "category-rule", f"{category_name} in general")
    days, storage = DEFAULT_RULE
    return ShelfLife(days, storage, "default", "No rule for this item, so the conservative default")


def safety_margin_days() -> int:
    """EXPIRY_SAFETY_MARGIN_DAYS (default −1); a positive setting would promise more than the rules, so it counts 0."""
    configured = current_app.config.get("EXPIRY_SAFETY_MARGIN_DAYS") if has_app_context() else None
    return min(0, int(DEFAULT_SAFETY_MARGIN_DAYS if configured is None else configured))


def _category(actor: Actor, item_name: str, category_id: int | None) -> Category | None:
    if category_id is not None:
        return get_active_category(category_id)
    answer = categorize.categorize_item(actor, item_name)
    return get_active_category(answer["category_id"]) if answer["category_id"] else None


def _storage_word(words: tuple[str, ...]) -> ShelfLife | None:
    for word in words:
        if word in STORAGE_WORDS:
            days, storage = STORAGE_WORDS[word]
            return ShelfLife(days, storage, "item-table", f"{word.capitalize()} food")
    return None


@lru_cache(maxsize=1)
def _item_rules() -> tuple[tuple[tuple[str, ...], int, str, str], ...]:
    return tuple((item_words(phrase), days, storage, category) for phrase, days, storage, category in ITEM_RULES)


def _applies(rule_category: str, category_name: str | None) -> bool:
    return category_name is None or rule_category == category_name


def _item_phrase(words: tuple[str, ...], category_name: str | None) -> ShelfLife | None:
    """The longest item-table phrase found in the name as whole words (a later one on a tie)."""
    best = None
    for phrase, days, storage, rule_category in _item_rules():
        if not _applies(rule_category, category_name):
            continue
        for start in range(len(words) - len(phrase) + 1):
            if words[start : start + len(phrase)] == phrase and (best is None or (len(phrase), start) >= best[0]):
                best = ((len(phrase), start), ShelfLife(days, storage, "item-table", " ".join(phrase).capitalize()))
    return best[1] if best else None


def _item_fuzzy(words: tuple[str, ...], category_name: str | None) -> ShelfLife | None:
    """A misspelt or cut-off item ("STRAWBERIES", "YOGHRT") against the item table."""
    pieces = [w for w in words if len(w) >= 4] + [" ".join(pair) for pair in zip(words, words[1:], strict=False)]
    best = None
    for phrase, days, storage, rule_category in _item_rules():
        text = " ".join(phrase)
        if len(text) < 4 or not _applies(rule_category, category_name):
            continue
        for piece in pieces:
            ratio = SequenceMatcher(None, piece, text).ratio()
            if ratio >= SIMILARITY_THRESHOLD and (best is None or ratio > best[0]):
                best = (ratio, ShelfLife(days, storage, "item-fuzzy", f"{text.capitalize()} (read as {piece!r})"))
    return best[1] if best else None
