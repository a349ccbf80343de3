"""Receipts with cited item lines, for the spending analytics' tool and chat tests."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from insightshop.extensions import db
from insightshop.models.citations import DocumentBlock, ExtractedField
from insightshop.models.receipts import Category, Receipt, ReceiptItem


def category(name: str) -> Category:
    found = db.session.query(Category).filter(db.func.lower(Category.name) == name.lower()).first()
    if found is None:
        found = Category(name=name)
        db.session.add(found)
        db.session.flush()
    return found


def receipt(user, merchant: str, day: date, lines: list[tuple[str, str, str | None]], *, status="completed",
            currency="USD") -> Receipt:  # fmt: skip
    """A read receipt whose lines are (name, price, category) and whose total is their sum, each line cited."""
    total = sum((Decimal(price) for _, price, _ in lines), Decimal("0.00"))
    made = Receipt(user_id=user.id, original_filename=f"{merchant.lower().replace(' ', '-')}-{day}.txt",
                   content_type="text/plain", sha256=f"{merchant}{day}{total}".ljust(64, "0")[:64], status=status,
                   merchant_name=merchant, purchase_date=day, total_amount=total, currency=currency,
                   confidence=0.95)  # fmt: skip
    made.items = [ReceiptItem(line_number=n, item_name=name, total_price=Decimal(price),
                              category=category(cat) if cat else None)
                  for n, (name, price, cat) in enumerate(lines, 1)]  # fmt: skip
    made.blocks = [DocumentBlock(block_id=f"p1-l{n + 1}", position=n, text=f"{name}  {price}")
                   for n, (name, price, _) in enumerate(lines, 1)]  # fmt: skip
    made.fields = [ExtractedField(field_name=f"items.{n}.total_price", value=price, value_type="money",
                                  source_block_ids=[f"p1-l{n + 1}"], extraction_method="ocr_rules", confidence=0.95)
                   for n, (_, price, _) in enumerate(lines, 1)]  # fmt: skip
    db.session.add(made)
    db.session.commit()
    return made
