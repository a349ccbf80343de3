"""A receipt's values by field name ("total_amount", "items.2.unit_price"): which exist, their kind, parsing
text typed by a person, and setting them on the receipt or its item."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal, InvalidOperation

from ...models.receipts import Receipt
from ..citations import provenance
from ..errors import Invalid, NotFound

ITEM_FIELD = re.compile(r"^items\.(\d{1,4})\.(item_name|quantity|unit_price|total_price)$")
MAX_TEXT = {"merchant_name": 255, "merchant_address": 500, "item_name": 255}


def keep_verified(receipt: Receipt) -> None:
    """After an extraction: put the verified values back onto the receipt and its items."""
    for field in receipt.fields:
        if field.verified and known(receipt, field.field_name):
            set_value(receipt, field.field_name, parse_value(field.field_name, field.value_type, field.value))
            receipt.field_confidence = {**(receipt.field_confidence or {}), field.field_name: 1.0}


def known(receipt: Receipt, field_name: str) -> bool:
    match = ITEM_FIELD.match(field_name)
    if match:
        return any(item.line_number == int(match.group(1)) for item in receipt.items)
    return field_name in provenance.RECEIPT_FIELDS


def kind_of(receipt: Receipt, field_name: str) -> str:
    if not known(receipt, field_name):
        raise NotFound(f"This receipt has no field {field_name[:70]!r}")
    match = ITEM_FIELD.match(field_name)
    return provenance.ITEM_ATTRIBUTES[match.group(2)] if match else provenance.RECEIPT_FIELDS[field_name]


def parse_value(field_name: str, kind: str, value: str | None):
    """A typed value from text, or Invalid with a message for people."""
    text = (value or "").strip()
    if not text:
        if field_name.endswith(("item_name", "total_price")):
            raise Invalid("This value cannot be empty", details=[{"field": field_name, "message": "required"}])
        return None
    try:
        return _PARSERS[kind](text, field_name)
    except (ValueError, InvalidOperation):
        raise Invalid(_MESSAGES[kind], details=[{"field": field_name, "message": _MESSAGES[kind]}]) from None


def _money(text: str, _name: str) -> Decimal:
    amount = Decimal(text.replace(",", "").lstrip("$€£"))
    if not amount.is_finite() or amount < 0 or amount >= Decimal("100000000"):
        raise ValueError(text)
    return amount.quantize(Decimal("0.01"))


def _quantity(text: str, _name: str) -> Decimal:
    amount = Decimal(text)
    if not amount.is_finite() or amount <= 0 or amount >= 10000000:
        raise ValueError(text)
    return amount


def _date(text: str, _name: str) -> date:
    day = date.fromisoformat(text)
    if day > date.today() or day.year < 1990:
        raise ValueError(text)
    return day


def _currency(text: str, _name: str) -> str:
    if not re.fullmatch(r"[A-Za-z]{3}", text):
        raise ValueError(text)
    return text.upper()


def _string(text: str, name: str) -> str:
    return text[: MAX_TEXT.get(name.rsplit(".", 1)[-1], 255)]


_PARSERS = {"money": _money, "quantity": _quantity, "date": _date, "currency": _currency, "string": _string}
_MESSAGES = {
    "money": "Enter an amount such as 12.50",
    "quantity": "Enter a quantity such as 2 or 1.5",
    "date": "Enter a date on or before today as YYYY-MM-DD",
    "currency": "Enter a three-letter currency code such as USD",
    "string": "Enter some text",
}


def set_value(receipt: Receipt, field_name: str, value) -> None:
    match = ITEM_FIELD.match(field_name)
    if match is None:
        setattr(receipt, field_name, value)
        return
    item = next(item for item in receipt.items if item.line_number == int(match.group(1)))
    setattr(item, match.group(2), value)
    item.confidence = 1.0 if match.group(2) == "total_price" else item.confidence
