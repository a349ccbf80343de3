"""The receipt as a designed PDF: the shop's logo and name, order and payment details, buyer and shipping address,
the line items (sale prices with the price they replace), the totals, and the shop's contact and returns info.

What it says comes from services.order_receipts (receipt_facts) and the order's own snapshot; this module only lays
it out. All text stays real text, so the receipt reader can extract merchant, dates, items and totals again."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF

from ..models.orders import Order, OrderItem
from ..services import order_receipts
from ..services.order_receipts import MERCHANT, TAGLINE, ReceiptFacts
from .filters import label, money

STATIC = Path(__file__).resolve().parent.parent / "static"
FONT_DIR = STATIC / "fonts"
LOGO = STATIC / "img" / "favicon.svg"
FONT_FILES = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf"}

PAGE_FORMAT = "Letter"  # a US shop; the content (180 mm wide) fits A4 paper too
MARGIN = 18.0
FOOTER_HEIGHT = 20.0  # room kept free at the bottom of every page for the footer

# The shop's colours (static/css/shop.css)
INK = (29, 35, 51)
MUTED = (95, 102, 119)
LINE = (228, 225, 218)
CANVAS = (250, 248, 244)
ACCENT = (31, 42, 68)
ACCENT_2 = (181, 69, 47)
OK = (47, 125, 79)

# Item table: description, quantity, unit price, amount (widths in mm; the description takes the rest)
QTY_WIDTH, PRICE_WIDTH, AMOUNT_WIDTH = 16.0, 32.0, 32.0
CELL_PAD = 2.5  # the table's inset from its edges (the totals' amounts line up with it)
NAME_LINE, DETAIL_LINE = 4.4, 3.9
GRID = 4  # the detail bands are laid on four columns
THANKS_HEIGHT = 18.0


def render_receipt(order: Order) -> bytes:
    """The paid order's receipt as a PDF (Letter pages; the item table flows on with its header repeated)."""
    document = ReceiptDocument(order_receipts.receipt_facts(order))
    document.draw()
    return bytes(document.output())


@dataclass(frozen=True)
class ItemRow:
    """One line item, display-ready."""

    name: str
    detail: str
    quantity: str
    price: str
    was: str | None
    amount: str


def item_row(item: OrderItem, currency: str) -> ItemRow:
    detail = f"{label(item.color)} / {item.size}" + (f"  ·  SKU {item.sku}" if item.sku else "")
    was = money(item.list_price, currency) if item.unit_price < item.list_price else None
    return ItemRow(item.name, detail, str(item.quantity), money(item.unit_price, currency), was,
                   money(item.line_total, currency))  # fmt: skip


class ReceiptDocument(FPDF):
    def __init__(self, facts: ReceiptFacts):
        super().__init__(format=PAGE_FORMAT, unit="mm")
        self.facts = facts
        self.order = facts.order
        self.sans = self._load_fonts()
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.c_margin = 0  # text starts exactly where it is put: every edge below lines up on MARGIN or CELL_PAD
        self.set_auto_page_break(False)  # rows are never split: each part checks its room (see make_room)
        self.set_title(f"{MERCHANT} receipt for order #{self.order.id}")
        self.set_author(MERCHANT)
        self.set_subject(f"Receipt for order #{self.order.id}")
        self.set_creation_date(self.order.paid_at)  # the same order always gives the same file
        self.paid_note_bottom = 0.0

    # Fonts and text ---------------------------------------------------------------------------------------------

    def _load_fonts(self) -> str:
        """DejaVu Sans (shipped under static/fonts) prints any name; without it, Helvetica and Latin-1 text."""
        if not all((FONT_DIR / name).is_file() for name in FONT_FILES.values()):
            return "Helvetica"
        for style, name in FONT_FILES.items():
            self.add_font("DejaVu", style, str(FONT_DIR / name))
        return "DejaVu"

    def normalize_text(self, text: str) -> str:
        if not self.is_ttf_font:  # the core fonts (the Times wordmark, the fallback) speak Latin-1 only
            text = _latin1(text)
        return super().normalize_text(text)

    def amount(self, value) -> str:
        return money(value, self.order.currency)

    def style(self, size: float, style: str = "", color: tuple[int, int, int] = INK, spacing: float = 0) -> None:
        self.set_font(self.sans, style, size)
        self.set_text_color(*color)
        self.set_char_spacing(spacing)

    def caption(self, text: str) -> None:
        """A small upper-case label above a value."""
        self.style(6.8, "B", MUTED, spacing=0.6)
        self.cell(0, 4, text.upper(), new_x="LMARGIN", new_y="NEXT")
        self.set_char_spacing(0)

    def make_room(self, height: float) -> bool:
        """Start a new page when the next part would run into the footer; True when it did."""
        if self.get_y() + height <= self.h - FOOTER_HEIGHT:
            return False
        self.add_page()
        return True

    # The document -----------------------------------------------------------------------------------------------

    def draw(self) -> None:
        self.add_page()
        self.draw_masthead()
        self.draw_details()
        self.draw_items()
        self.draw_totals()
        self.draw_thanks()
        self.number_pages()

    def header(self) -> None:
        if self.page_no() == 1:
            return
        self.image(str(LOGO), x=MARGIN, y=MARGIN - 4, w=7)
        self.set_xy(MARGIN + 9, MARGIN - 4)
        self.wordmark(13, 7)
        self.style(8.5, color=MUTED)
        self.set_xy(MARGIN, MARGIN - 4)
        self.cell(0, 7, f"Receipt for order #{self.order.id} (continued)", align="R")
        self.rule(MARGIN + 6)
        self.set_y(MARGIN + 10)

    def footer(self) -> None:
        facts = self.facts
        self.rule(self.h - FOOTER_HEIGHT + 4)
        self.set_y(self.h - FOOTER_HEIGHT + 6)
        width = self.epw - 30
        self.style(7.5, "B", INK)
        self.cell(width, 4, f"{MERCHANT}  ·  {facts.support_email}  ·  {facts.website}", new_x="LMARGIN", new_y="NEXT")
        self.style(7.5, color=MUTED)
        self.cell(width, 4, f"Questions about this order? Email us and quote order #{self.order.id}; we answer within "
                            "one business day.", new_x="LMARGIN", new_y="NEXT")  # fmt: skip
        self.cell(width, 4, f"Returns are free within {facts.return_days} days of delivery, unworn and with their "
                            "tags: start one from your order page.")  # fmt: skip

    def number_pages(self) -> None:
        """ "Page 1 of 3" on every page, once the count is known (fpdf's {nb} alias would shift right-aligned text)."""
        total = self.pages_count
        for number in range(1, total + 1):
            self.page = number
            self.current_font_is_set_on_page = False  # the page's own stream may end in another font: select again
            self.set_xy(MARGIN, self.h - FOOTER_HEIGHT + 6)
            self.style(7.5, color=MUTED)
            self.cell(0, 4, f"Page {number} of {total}", align="R")

    def rule(self, y: float, color: tuple[int, int, int] = LINE, width: float = 0.3) -> None:
        self.set_draw_color(*color)
        self.set_line_width(width)
        self.line(MARGIN, y, self.w - MARGIN, y)

    def wordmark(self, size: float, height: float) -> None:
        """ "InsightShop" as on the site: a serif, "Shop" in the second accent colour."""
        for part, color in (("Insight", ACCENT), ("Shop", ACCENT_2)):
            self.set_font("Times", "B", size)
            self.set_text_color(*color)
            self.cell(self.get_string_width(part), height, part)

    def draw_masthead(self) -> None:
        top = MARGIN - 2
        self.image(str(LOGO), x=MARGIN, y=top, w=14)
        self.set_xy(MARGIN + 17, top - 0.5)
        self.wordmark(22, 9.5)
        self.set_xy(MARGIN + 17, top + 9)
        self.style(8.5, color=MUTED)
        self.cell(0, 5, TAGLINE)
        self.set_xy(MARGIN, top - 1)
        self.set_font("Times", "B", 26)
        self.set_text_color(*ACCENT)
        self.cell(0, 11, "Receipt", align="R")
        self.set_xy(MARGIN, top + 10)
        self.style(9.5, color=MUTED)
        self.cell(0, 5, f"Order #{self.order.id}", align="R")
        self.rule(top + 20, ACCENT, 0.5)
        self.set_y(top + 26)

    def draw_details(self) -> None:
        """Order and payment facts in one band, then who it is for, where it goes and how."""
        order, facts = self.order, self.facts
        paid = [f"{order.paid_at:%d %b %Y}", f"{order.paid_at:%H:%M} UTC"]
        payment = [facts.payment] + (["Test payment", "(no money moved)"] if facts.test_payment else [])
        self.columns([("Amount paid", [self.amount(order.total)]), ("Order date", [f"{order.created_at:%d %b %Y}"]),
                      ("Paid on", paid), ("Payment", payment)])  # fmt: skip
        self.set_y(self.get_y() + 6)
        ship_to = [order.shipping_name, order.shipping_address,
                   f"{order.shipping_city}, {order.shipping_state} {order.shipping_zip}", order.shipping_country]  # fmt: skip
        delivery = [facts.delivery_method, facts.delivery_time]
        self.columns([("Customer", [order.shipping_name, order.email]), ("Ship to", ship_to),
                      ("Delivery", [line for line in delivery if line])])  # fmt: skip
        self.set_y(self.get_y() + 8)

    def columns(self, blocks: list[tuple[str, list[str]]]) -> None:
        """Side-by-side blocks of a caption over lines of text; the cursor ends below the tallest."""
        top, width, bottom = self.get_y(), self.epw / GRID, self.get_y()
        for index, (title, lines) in enumerate(blocks):
            x = MARGIN + index * width
            self.set_xy(x, top)
            self.set_left_margin(x)
            self.caption(title)
            for number, line in enumerate(lines):
                self.style(9.5, "B" if number == 0 else "", INK if number == 0 else MUTED)
                self.multi_cell(width - 5, 4.6, line, align="L", new_x="LMARGIN", new_y="NEXT")
            bottom = max(bottom, self.get_y())
        self.set_left_margin(MARGIN)
        self.set_xy(MARGIN, bottom)

    # Items ------------------------------------------------------------------------------------------------------

    @property
    def name_width(self) -> float:
        return self.epw - QTY_WIDTH - PRICE_WIDTH - AMOUNT_WIDTH

    def draw_items(self) -> None:
        self.draw_table_header()
        items = self.order.items
        for number, item in enumerate(items, start=1):
            row = item_row(item, self.order.currency)
            height = self.row_height(row)
            # The last row keeps the totals company: they never stand on a page of their own.
            if self.make_room(height + (self.closing_height() if number == len(items) else 0)):
                self.draw_table_header()
            self.draw_row(row, height)

    def draw_table_header(self) -> None:
        y = self.get_y()
        self.set_fill_color(*ACCENT)
        self.rect(MARGIN, y, self.epw, 8, style="F")
        self.style(7.2, "B", (255, 255, 255), spacing=0.6)
        self.set_xy(MARGIN + CELL_PAD, y)
        self.cell(self.name_width - CELL_PAD, 8, "ITEM")
        for title, width in (("QTY", QTY_WIDTH), ("UNIT PRICE", PRICE_WIDTH), ("AMOUNT", AMOUNT_WIDTH)):
            self.cell(width - CELL_PAD, 8, title, align="R")
            self.set_x(self.get_x() + CELL_PAD)
        self.set_char_spacing(0)
        self.set_y(y + 8)

    def name_lines(self, name: str) -> list[str]:
        self.style(9.5, "B")
        return self.multi_cell(self.name_width - 2 * CELL_PAD, NAME_LINE, name, dry_run=True, output="LINES")

    def row_height(self, row: ItemRow) -> float:
        text = len(self.name_lines(row.name)) * NAME_LINE + DETAIL_LINE
        price = NAME_LINE + (DETAIL_LINE if row.was else 0)
        return max(text, price) + 2 * CELL_PAD

    def draw_row(self, row: ItemRow, height: float) -> None:
        top = self.get_y() + CELL_PAD
        self.set_xy(MARGIN + CELL_PAD, top)
        self.style(9.5, "B")
        self.multi_cell(self.name_width - 2 * CELL_PAD, NAME_LINE, row.name, align="L", new_x="LEFT", new_y="NEXT")
        self.style(8, color=MUTED)
        self.cell(self.name_width - 2 * CELL_PAD, DETAIL_LINE, row.detail)
        x = MARGIN + self.name_width
        self.style(9.5)
        for text, width in ((row.quantity, QTY_WIDTH), (row.price, PRICE_WIDTH), (row.amount, AMOUNT_WIDTH)):
            self.set_xy(x, top)
            self.cell(width - CELL_PAD, NAME_LINE, text, align="R")
            x += width
        if row.was:
            self.draw_was_price(row.was, MARGIN + self.name_width + QTY_WIDTH, top + NAME_LINE)
        self.rule(top - CELL_PAD + height)
        self.set_y(top - CELL_PAD + height)

    def draw_was_price(self, was: str, x: float, y: float) -> None:
        """ "was $49.99" under a sale price, the old price struck through (written in reading order)."""
        self.style(8, "S", MUTED)
        struck = self.get_string_width(was)
        self.style(8, color=MUTED)
        word = self.get_string_width("was ")
        self.set_xy(x + PRICE_WIDTH - CELL_PAD - struck - word, y)
        self.cell(word, DETAIL_LINE, "was ")
        self.style(8, "S", MUTED)
        self.cell(struck, DETAIL_LINE, was)

    # Totals -----------------------------------------------------------------------------------------------------

    def total_rows(self) -> list[tuple[str, str, tuple[int, int, int]]]:
        order, facts = self.order, self.facts
        rows = [("Subtotal", self.amount(order.items_subtotal), INK)]
        rows.append((f"Shipping ({facts.delivery_method})", self.amount(order.shipping) if order.shipping else "Free",
                     INK))  # fmt: skip
        rows.append(("Tax", self.amount(order.tax), INK))
        return rows

    def closing_height(self) -> float:
        """The totals and the thank-you note."""
        return 6 * len(self.total_rows()) + 24 + THANKS_HEIGHT

    def draw_totals(self) -> None:
        rows = self.total_rows()
        self.make_room(6 * len(rows) + 24)
        top = self.get_y() + 6
        width = QTY_WIDTH + PRICE_WIDTH + AMOUNT_WIDTH  # under the number columns
        x = self.w - MARGIN - width
        self.draw_paid_note(top, self.epw - width - 10)
        self.set_y(top)
        for title, amount, color in rows:
            self.set_x(x + CELL_PAD)
            self.style(9.5, color=MUTED)
            self.cell(width / 2 - CELL_PAD, 6, title)
            self.style(9.5, color=color)
            self.cell(width / 2 - CELL_PAD, 6, amount, align="R", new_x="LMARGIN", new_y="NEXT")
        y = self.get_y() + 1.5
        self.set_draw_color(*ACCENT)
        self.set_line_width(0.5)
        self.line(x, y, self.w - MARGIN, y)
        self.set_xy(x + CELL_PAD, y + 2)
        self.style(12, "B")
        self.cell(width / 2 - CELL_PAD, 8, f"Total ({self.order.currency})")
        self.cell(width / 2 - CELL_PAD, 8, self.amount(self.order.total), align="R")
        self.set_y(max(self.get_y() + 8, self.paid_note_bottom) + 10)

    def draw_paid_note(self, top: float, width: float) -> None:
        """Left of the totals: paid in full, when and how, and what the sale saved."""
        order = self.order
        lines = [f"{self.amount(order.total)} on {order.paid_at:%d %b %Y}", f"with {self.facts.payment}"]
        if order.discount:
            lines.append(f"You saved {self.amount(order.discount)} with our sale prices.")
        self.set_xy(MARGIN, top)
        self.style(9.5, "B", OK)
        self.cell(width, 6, "Paid in full", new_x="LMARGIN", new_y="NEXT")
        self.style(9, color=MUTED)
        for line in lines:
            self.multi_cell(width, 4.8, line, align="L", new_x="LMARGIN", new_y="NEXT")
        self.paid_note_bottom = self.get_y()

    def draw_thanks(self) -> None:
        self.make_room(THANKS_HEIGHT)
        y = self.get_y()
        self.set_fill_color(*CANVAS)
        self.rect(MARGIN, y, self.epw, THANKS_HEIGHT, style="F", round_corners=True, corner_radius=3)
        self.set_xy(MARGIN, y + 3.5)
        self.set_font("Times", "BI", 15)
        self.set_text_color(*ACCENT)
        self.cell(0, 6.5, f"Thank you for shopping with {MERCHANT}!", align="C", new_x="LMARGIN", new_y="NEXT")
        self.style(8.5, color=MUTED)
        self.cell(0, 5, "Keep this receipt for your records: it is your proof of purchase.", align="C")


# Marks and letters that Unicode does not decompose into a Latin-1 base letter plus an accent.
_PLAIN = str.maketrans({"•": "*", "–": "-", "—": "-", "−": "-", "‘": "'", "’": "'", "“": '"', "”": '"', "Ł": "L",
                        "ł": "l", "Đ": "D", "đ": "d", "Œ": "OE", "œ": "oe", "ı": "i"})  # fmt: skip


def _latin1(text: str) -> str:
    """Text for the core PDF fonts: typographic marks made plain, letters outside Latin-1 without their accents."""
    return "".join(char if ord(char) < 256 else _unaccented(char) for char in text.translate(_PLAIN))


def _unaccented(char: str) -> str:
    base = "".join(part for part in unicodedata.normalize("NFKD", char) if not unicodedata.combining(part))
    return base if base and all(ord(part) < 256 for part in base) else "?"
