"""A shopper's receipts: finding, reading back, correcting, re-reading and deleting them (owner only)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path

from sqlalchemy import func, select

from ...extensions import db
from ...models.receipts import Category, Receipt, ReceiptItem
from ..actors import Actor
from ..errors import Conflict, NotFound
from . import jobs, storage

MAX_PER_PAGE = 100


@dataclass(frozen=True)
class ReceiptFilters:
    """What receipts_list, the page and the API filter on; every bound is inclusive."""

    merchant: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    min_amount: Decimal | None = None
    max_amount: Decimal | None = None
    category: str | None = None
    status: str | None = None


@dataclass(frozen=True)
class ReceiptPage:
    receipts: list[Receipt]
    total: int
    page: int
    per_page: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))


def get_receipt(actor: Actor, receipt_id: int) -> Receipt:
    """The caller's receipt; another user's (or a missing one) is 404."""
    user = actor.require_user()
    receipt = db.session.get(Receipt, receipt_id)
    if receipt is None or receipt.user_id != user.id:
        raise NotFound("No such receipt")
    return receipt


def list_receipts(actor: Actor, filters: ReceiptFilters = ReceiptFilters(), *, page: int = 1,
                  per_page: int = 20) -> ReceiptPage:  # fmt: skip
    """The caller's receipts matching the filters, newest purchase first."""
    user = actor.require_user()
    per_page = max(1, min(per_page, MAX_PER_PAGE))
    query = _filtered(select(Receipt).where(Receipt.user_id == user.id), filters)
    total = db.session.scalar(select(func.count()).select_from(query.subquery())) or 0
    ordered = query.order_by(Receipt.purchase_date.desc().nulls_last(), Receipt.id.desc())
    rows = db.session.scalars(ordered.offset((max(page, 1) - 1) * per_page).limit(per_page)).all()
    return ReceiptPage(receipts=list(rows), total=total, page=max(page, 1), per_page=per_page)


def _filtered(query, filters: ReceiptFilters):
    if filters.merchant:
        query = query.where(func.lower(Receipt.merchant_name).contains(filters.merchant.strip().lower(),
                                                                       autoescape=True))  # fmt: skip
    if filters.date_from:
        query = query.where(Receipt.purchase_date >= filters.date_from)
    if filters.date_to:
        query = query.where(Receipt.purchase_date <= filters.date_to)
    if filters.min_amount is not None:
        query = query.where(Receipt.total_amount >= filters.min_amount)
    if filters.max_amount is not None:
        query = query.where(Receipt.total_amount <= filters.max_amount)
    if filters.status:
        query = query.where(Receipt.status == filters.status)
    if filters.category:
        in_category = (
            select(ReceiptItem.receipt_id).join(Category, ReceiptItem.category_id == Category.id)
            .where(func.lower(Category.name) == filters.category.strip().lower())
        )  # fmt: skip
        query = query.where(Receipt.id.in_(in_category))
    return query


def spending(actor: Actor, filters: ReceiptFilters) -> dict:
    """Totals of the caller's read receipts matching the filters, per currency, with the receipts counted."""
    user = actor.require_user()
    query = _filtered(select(Receipt).where(Receipt.user_id == user.id, Receipt.total_amount.is_not(None)), filters)
    receipts = db.session.scalars(query.order_by(Receipt.purchase_date, Receipt.id)).all()
    totals: dict[str, Decimal] = {}
    counts: dict[str, int] = {}
    for receipt in receipts:
        currency = receipt.currency or "USD"
        totals[currency] = totals.get(currency, Decimal("0.00")) + receipt.total_amount
        counts[currency] = counts.get(currency, 0) + 1
    return {"count": len(receipts), "totals": totals, "counts": counts, "receipts": list(receipts)}


def receipt_file(actor: Actor, receipt_id: int) -> tuple[Path, Receipt]:
    """The stored file of the caller's receipt and the receipt; 404 when it has none (a shop receipt)."""
    receipt = get_receipt(actor, receipt_id)
    if not receipt.stored_name:
        raise NotFound("This receipt has no uploaded file")
    return storage.file_path(receipt.stored_name), receipt


def reprocess_receipt(actor: Actor, receipt_id: int) -> Receipt:
    """Read the receipt again (values the owner corrected are kept by the corrections service)."""
    receipt = get_receipt(actor, receipt_id)
    if receipt.is_pending:
        raise Conflict("This receipt is being read already")
    if not receipt.stored_name:
        raise Conflict("The shop's own receipts are not read from a file")
    receipt.status, receipt.errors = "uploaded", []
    db.session.commit()
    jobs.enqueue(receipt.id)
    return receipt


def delete_receipt(actor: Actor, receipt_id: int) -> None:
    """Delete the caller's receipt, its items and its file."""
    receipt = get_receipt(actor, receipt_id)
    storage.delete_file(receipt.stored_name)
    db.session.delete(receipt)
    db.session.commit()
