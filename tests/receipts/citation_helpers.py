"""Receipts with located lines and a cited total, as the reader leaves them: for the assistant's citation tests."""

from datetime import date
from decimal import Decimal

from insightshop.extensions import db
from insightshop.models.citations import DocumentBlock, ExtractedField
from insightshop.models.receipts import Receipt, ReceiptItem


def receipt_lines(merchant: str, day: date, total: str) -> list[str]:
    """A receipt's text: the total on line 9, a blank line 4 (blank lines are blocks too)."""
    return [merchant.upper(), "123 Main St", day.strftime("%m/%d/%Y"), "", "Bananas 2.10", "Milk 4.57",
            "Cheese 39.00", f"SUBTOTAL {total}", f"TOTAL {total}", "VISA 4242"]  # fmt: skip


def cited_receipt(user, *, filename="receipt-12.jpg", merchant="Whole Foods", total="45.67", day=date(2025, 10, 3),
                  lines=None, total_line=9, confidence=0.62, verified=False) -> Receipt:  # fmt: skip
    """A read receipt whose total is cited from line `total_line` (1-based) of its text."""
    receipt = Receipt(user_id=user.id, original_filename=filename, content_type="image/jpeg",
                      sha256=f"{filename}{merchant}{total}".ljust(64, "0")[:64], status="completed",
                      merchant_name=merchant, purchase_date=day, total_amount=Decimal(total), currency="USD",
                      confidence=confidence)  # fmt: skip
    lines = lines or receipt_lines(merchant, day, total)
    receipt.items = [ReceiptItem(line_number=1, item_name="Groceries", total_price=Decimal(total))]
    receipt.blocks = [DocumentBlock(block_id=f"p1-l{n + 1}", position=n, text=line, page=1,
                                    bbox={"x": 10, "y": 20 * n, "width": 200, "height": 18}, confidence=0.9)
                      for n, line in enumerate(lines)]  # fmt: skip
    source = lines[total_line - 1]
    start = source.rindex(total)
    receipt.fields = [
        ExtractedField(field_name="merchant_name", value=merchant, source_block_ids=["p1-l1"], span_start=0,
                       span_end=len(lines[0]), extraction_method="ocr_rules", confidence=0.9),
        ExtractedField(field_name="total_amount", value=total, value_type="money", source_block_ids=[f"p1-l{total_line}"],
                       span_start=start, span_end=start + len(total), extraction_method="ocr_rules",
                       confidence=confidence, verified=verified),
    ]  # fmt: skip
    db.session.add(receipt)
    db.session.commit()
    return receipt
