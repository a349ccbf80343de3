"""Jinja filters that format values for display (formatting only, no business rules)."""

from __future__ import annotations

import re
from decimal import Decimal

from flask import Flask, request, url_for
from markupsafe import Markup, escape

from ..services.vocabulary import CATEGORY_LABELS, CLOTHING_TYPE_LABELS, SORT_LABELS


def money(value: Decimal | None, currency: str = "USD") -> str:
    if value is None:
        return ""
    symbol = {"USD": "$", "EUR": "€", "GBP": "£"}.get(currency, currency + " ")
    if value < 0:
        return f"−{symbol}{-value:,.2f}"
    return f"{symbol}{value:,.2f}"


PAYMENT_STATUS_LABELS = {"succeeded": "Paid", "needs_review": "Needs review", "card_declined": "Card declined",
                         "insufficient_funds": "Insufficient funds", "failed": "Failed", "refunded": "Refunded",
                         "requires_payment_method": "Awaiting card", "pending": "Pending"}  # fmt: skip


def label(value: str | None, kind: str = "") -> str:
    """Human label for a vocabulary value ("t-shirt" → "T-shirts" as a facet title)."""
    if value is None:
        return ""
    if kind == "size":
        return value
    table = {"category": CATEGORY_LABELS, "clothing_type": CLOTHING_TYPE_LABELS, "sort": SORT_LABELS,
             "payment_status": PAYMENT_STATUS_LABELS}.get(kind, {})  # fmt: skip
    return table.get(value) or value.replace("-", " ").replace("_", " ").capitalize()


def stars(rating) -> str:
    """Five stars, filled to the nearest whole star."""
    filled = int(Decimal(str(rating or 0)).quantize(Decimal("1"), rounding="ROUND_HALF_UP"))
    return "★" * filled + "☆" * (5 - filled)


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """ "1 product", "1,024 products", "2 entries": a count with its noun in the right number (an s unless
    `plural` says otherwise)."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


_BOLD = re.compile(r"\*\*(.+?)\*\*")
_LINK = re.compile(r"(?<![\w/])(/(?:orders|products|cart|catalog)[\w/?=&;.-]*)")


def chat_text(text: str | None) -> Markup:
    """Assistant text, escaped first; then a tiny markdown subset: **bold** and links to the shop's own pages."""
    safe = str(escape(text or ""))
    safe = _BOLD.sub(r"<strong>\1</strong>", safe)
    safe = _LINK.sub(r'<a href="\1">\1</a>', safe)
    return Markup(safe)


def url_with(**changes) -> str:
    """This page's URL with some query arguments changed (pagination keeps the filters)."""
    arguments = {**request.args.to_dict(), **changes}
    return url_for(
        request.endpoint, **(request.view_args or {}), **{k: v for k, v in arguments.items() if v not in (None, "")}
    )


def page_numbers(page: int, pages: int, *, around: int = 2) -> list[int | None]:
    """The page links to show: first, last and a window around the current one; None marks a gap."""
    shown = sorted({1, pages, *range(max(1, page - around), min(pages, page + around) + 1)})
    numbers: list[int | None] = []
    for number in shown:
        if numbers and number - numbers[-1] > 1:
            numbers.append(None)
        numbers.append(number)
    return numbers


def init_app(app: Flask) -> None:
    app.add_template_global(url_with)
    app.add_template_global(page_numbers)
    app.add_template_filter(money)
    app.add_template_filter(label)
    app.add_template_filter(stars)
    app.add_template_filter(counted)
    app.add_template_filter(chat_text)
