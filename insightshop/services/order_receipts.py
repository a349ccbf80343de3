"""Order receipts: one plain-text layout (conventional, so the receipt extractor can read it) and its PDF."""

from __future__ import annotations

from fpdf import FPDF

from ..models.orders import Order
from .errors import Conflict, ErrorCode

WIDTH = 48
MERCHANT = "InsightShop"


def _row(left: str, right: str) -> str:
    room = WIDTH - len(right) - 1
    return f"{left[:room]:<{room}} {right}"


def receipt_lines(order: Order) -> list[str]:
    """The receipt as fixed-width text lines: merchant, date, items with prices, totals, payment."""
    if not order.is_paid:
        raise Conflict("A receipt exists once the order is paid", code=ErrorCode.CONFLICT)
    lines = [
        MERCHANT.upper().center(WIDTH),
        "Everyday clothing for the whole family".center(WIDTH),
        "shop.insightshop.example".center(WIDTH),
        "",
        f"Receipt for order #{order.id}",
        f"Date: {order.paid_at.strftime('%Y-%m-%d %H:%M')} UTC",
        f"Customer: {order.shipping_name}",
        "-" * WIDTH,
    ]
    for item in order.items:
        lines.append(_row(f"{item.quantity} x {item.name}", f"{item.line_total:.2f}"))
        detail = f"   {item.color.capitalize()} / {item.size} @ {item.unit_price:.2f}"
        if item.unit_price < item.list_price:
            detail += f" (was {item.list_price:.2f})"
        lines.append(detail)
    lines += [
        "-" * WIDTH,
        _row("SUBTOTAL", f"{order.subtotal:.2f}"),
    ]
    if order.discount:
        lines.append(_row("DISCOUNT", f"-{order.discount:.2f}"))
    lines += [
        _row(f"SHIPPING ({order.shipping_method})", f"{order.shipping:.2f}"),
        _row("TAX", f"{order.tax:.2f}"),
        _row(f"TOTAL {order.currency}", f"{order.total:.2f}"),
        "-" * WIDTH,
        f"Paid with {order.payment_method or order.payment_provider}",
        "Thank you for shopping with InsightShop!",
    ]
    return lines


def receipt_text(order: Order) -> str:
    return "\n".join(receipt_lines(order)) + "\n"


def receipt_pdf(order: Order) -> bytes:
    """The receipt as a one-page PDF (text stays selectable, so it can be extracted again)."""
    pdf = FPDF(format=(100, 60 + 5 * len(receipt_lines(order))), unit="mm")
    pdf.set_margins(6, 6, 6)
    pdf.set_auto_page_break(auto=False)
    pdf.add_page()
    pdf.set_title(f"InsightShop receipt #{order.id}")
    pdf.set_author(MERCHANT)
    pdf.set_font("Courier", size=8)
    for line in receipt_lines(order):
        pdf.cell(0, 4.2, _latin1(line), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def _latin1(text: str) -> str:
    # The core PDF fonts cover Latin-1; a bullet or dash outside it is written plainly.
    return text.replace("•", "*").replace("—", "-").encode("latin-1", "replace").decode("latin-1")
