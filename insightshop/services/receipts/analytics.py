"""Spending analytics over the caller's own receipts, every figure with its citations (seed 004).

A question about a category or an item ("how much did I spend on coffee this year") adds up the matching ITEM LINES,
never the whole receipts they are on; a question about a merchant or a period adds up receipt totals. A scope that
matches nothing gives zero and no sources, never a wider figure. Money is Decimal and never added across currencies.
Only read receipts count (completed or needing review), owner only."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import func, select

from ...extensions import db
from ...models.receipts import RECEIPT_DONE_STATUSES, Category, Receipt, ReceiptItem
from ..actors import Actor
from ..citations.builder import build_citation, field_by_name, source_blocks
from .item_names import item_words, singular

CENT = Decimal("0.01")
MAX_CITED = 25  # sources listed with a figure; the count says how many there were in all
GROUPS = ("category", "merchant", "month")
# Words a receipt prints for the thing a person names: "coffee" on a receipt is often a latte or KOPI.
ITEM_FAMILIES = {
    "coffee": ("coffee", "latte", "cappuccino", "espresso", "americano", "mocha", "kopi", "nescafe", "flat white"),
    "tea": ("tea", "teh", "chai", "matcha"),
    "beer": ("beer", "lager", "stout", "ale", "tiger", "carlsberg", "heineken", "guinness"),
    "wine": ("wine",),
    "milk": ("milk",),
    "bread": ("bread", "loaf", "baguette", "sourdough", "roti"),
}


@dataclass(frozen=True)
class Scope:
    """Which spending: a period (inclusive dates), a merchant (part of its name), a category or an item word."""

    date_from: date | None = None
    date_to: date | None = None
    merchant: str | None = None
    category: str | None = None
    item: str | None = None

    @property
    def by_lines(self) -> bool:
        return bool(self.category or self.item)

    def to_dict(self) -> dict:
        return {"date_from": self.date_from.isoformat() if self.date_from else None,
                "date_to": self.date_to.isoformat() if self.date_to else None,
                "merchant": self.merchant, "category": self.category, "item": self.item}  # fmt: skip


@dataclass
class Entry:
    """One value added into a figure: an item line or a receipt total, with where it was read."""

    receipt: Receipt
    value: Decimal
    currency: str
    field_name: str
    label: str
    item: ReceiptItem | None = None
    extra: dict = field(default_factory=dict)


def spending(actor: Actor, scope: Scope, *, group_by: str | None = None) -> dict:
    """The caller's spending in the scope: item lines when a category or item is named, else receipt totals."""
    lines = scope.by_lines or group_by == "category"  # a receipt has no one category: its lines have
    entries = _entries(actor, scope, lines=lines)
    result = {"measure": "items" if lines else "receipts", "scope": scope.to_dict(), "group_by": group_by,
              "by_currency": _by_currency(entries), "count": len(entries),
              "sources": [_cited(e) for e in entries[:MAX_CITED]]}  # fmt: skip
    if group_by in GROUPS:
        result["groups"] = _groups(entries, group_by)
    return result


def extreme(actor: Actor, scope: Scope, which: str) -> dict:
    """The largest or smallest receipt in the scope (an item line when a category or item is named), or none."""
    entries = _entries(actor, scope)
    pick = max if which == "largest" else min
    chosen = pick(entries, key=lambda e: (e.value, -e.receipt.id)) if entries else None
    return {"which": which, "measure": "items" if scope.by_lines else "receipts", "scope": scope.to_dict(),
            "count": len(entries), "found": _cited(chosen) if chosen else None}  # fmt: skip


def compare(actor: Actor, scope: Scope, periods: list[tuple[date, date]]) -> dict:
    """The scope's spending in each period (same merchant, category and item), with the change from the one after
    it in the list (periods are given newest first: "this month vs last month")."""
    figures = []
    for start, end in periods:
        within = Scope(start, end, scope.merchant, scope.category, scope.item)
        entries = _entries(actor, within)
        figures.append({"date_from": start.isoformat(), "date_to": end.isoformat(), "count": len(entries),
                        "by_currency": _by_currency(entries),
                        "sources": [_cited(e) for e in entries[:MAX_CITED]]})  # fmt: skip
    for current, previous in zip(figures, figures[1:], strict=False):
        current["change"] = _change(current["by_currency"], previous["by_currency"])
    return {"measure": "items" if scope.by_lines else "receipts", "scope": scope.to_dict(), "periods": figures}


# Reading -------------------------------------------------------------------------------------------------------------


def _receipts(actor: Actor, scope: Scope) -> list[Receipt]:
    user = actor.require_user()
    query = select(Receipt).where(Receipt.user_id == user.id, Receipt.status.in_(RECEIPT_DONE_STATUSES))
    if scope.date_from:
        query = query.where(Receipt.purchase_date >= scope.date_from)
    if scope.date_to:
        query = query.where(Receipt.purchase_date <= scope.date_to)
    if scope.merchant:
        wanted = scope.merchant.strip().lower()
        query = query.where(func.lower(Receipt.merchant_name).contains(wanted, autoescape=True))
    return list(db.session.scalars(query.order_by(Receipt.purchase_date, Receipt.id)))


def _entries(actor: Actor, scope: Scope, *, lines: bool | None = None) -> list[Entry]:
    receipts = _receipts(actor, scope)
    if not (scope.by_lines if lines is None else lines):
        return [Entry(r, r.total_amount.quantize(CENT), r.currency or "USD", "total_amount", _receipt_label(r))
                for r in receipts if r.total_amount is not None]  # fmt: skip
    category = _category_name(scope.category) if scope.category else None
    if scope.category and category is None:
        return []  # a category the shop does not know matches nothing (never every line)
    words = _item_terms(scope.item) if scope.item else ()
    return [Entry(r, item.total_price.quantize(CENT), r.currency or "USD", f"items.{item.line_number}.total_price",
                  item.item_name, item)
            for r in receipts for item in r.items
            if item.total_price is not None and _line_matches(item, category, words)]  # fmt: skip


def _category_name(name: str) -> str | None:
    found = db.session.scalar(select(Category.name).where(func.lower(Category.name) == name.strip().lower()))
    return found


def _item_terms(item: str) -> tuple[str, ...]:
    key = " ".join(singular(w) for w in item.lower().split())
    return ITEM_FAMILIES.get(key, (key,))


def _line_matches(item: ReceiptItem, category: str | None, terms: tuple[str, ...]) -> bool:
    if category is not None and (item.category is None or item.category.name.lower() != category.lower()):
        return False
    if not terms:
        return True
    name = f" {' '.join(item_words(item.item_name))} {item.item_name.lower()} "
    return any(f" {term} " in name for term in terms)


def _receipt_label(receipt: Receipt) -> str:
    return receipt.merchant_name or receipt.original_filename


# Figures -------------------------------------------------------------------------------------------------------------


def _by_currency(entries: list[Entry]) -> list[dict]:
    totals: dict[str, list[Decimal]] = {}
    for entry in entries:
        totals.setdefault(entry.currency, []).append(entry.value)
    return [{"currency": currency, "total": f"{sum(values, Decimal('0.00')):.2f}", "count": len(values)}
            for currency, values in sorted(totals.items())]  # fmt: skip


def _groups(entries: list[Entry], group_by: str) -> list[dict]:
    groups: dict[tuple[str, str], list[Decimal]] = {}
    for entry in entries:
        groups.setdefault((_group_key(entry, group_by), entry.currency), []).append(entry.value)
    rows = [{"key": key, "currency": currency, "total": sum(values, Decimal("0.00")), "count": len(values)}
            for (key, currency), values in groups.items()]  # fmt: skip
    rows.sort(key=lambda row: (row["key"], row["currency"]) if group_by == "month" else (-row["total"], row["key"]))
    return [row | {"total": f"{row['total']:.2f}"} for row in rows]


def _group_key(entry: Entry, group_by: str) -> str:
    if group_by == "merchant":
        return entry.receipt.merchant_name or "Unknown merchant"
    if group_by == "month":
        day = entry.receipt.purchase_date
        return day.strftime("%Y-%m") if day else "undated"
    if entry.item is not None:
        return entry.item.category.name if entry.item.category else "Uncategorised"
    return "All receipts"


def _change(current: list[dict], previous: list[dict]) -> list[dict]:
    before = {row["currency"]: Decimal(row["total"]) for row in previous}
    now = {row["currency"]: Decimal(row["total"]) for row in current}
    changes = []
    for currency in sorted(set(before) | set(now)):
        old, new = before.get(currency, Decimal("0.00")), now.get(currency, Decimal("0.00"))
        percent = ((new - old) * 100 / old).quantize(Decimal("0.1"), ROUND_HALF_UP) if old else None
        changes.append({"currency": currency, "difference": f"{new - old:.2f}",
                        "percent": f"{percent}" if percent is not None else None})  # fmt: skip
    return changes


def _cited(entry: Entry) -> dict:
    """One source: the receipt, the line or total, its value and its citation (seed 004) when it was read."""
    receipt = entry.receipt
    extracted = field_by_name(receipt, entry.field_name)
    citation = build_citation(receipt, extracted) if extracted is not None else None
    blocks = source_blocks(receipt, extracted) if extracted is not None else []
    return {
        "receipt_id": receipt.id,
        "filename": receipt.original_filename,
        "merchant": receipt.merchant_name,
        "purchase_date": receipt.purchase_date.isoformat() if receipt.purchase_date else None,
        "field": entry.field_name,
        "label": entry.label,
        "category": entry.item.category.name if entry.item is not None and entry.item.category else None,
        "value": f"{entry.value:.2f}",
        "currency": entry.currency,
        "citation": citation["citation"]["short"] if citation else f"[{receipt.original_filename}]",
        "source_text": blocks[0].text if blocks else None,
        "page": blocks[0].page if blocks else None,
        "bbox": blocks[0].bbox if blocks else None,
        "block_ids": [b.block_id for b in blocks],
        "verified": bool(extracted and extracted.verified),
        "confidence": extracted.confidence if extracted is not None else None,
        "method": extracted.extraction_method if extracted is not None else None,
    }
