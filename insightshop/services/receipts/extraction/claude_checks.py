"""Never trust the model: every value it reports is checked before the shop keeps it. Amounts must parse as
Decimal within range, dates must be real and not in the future, a currency is a three-letter code, text is cleaned
and bounded, line numbers must exist. Anything else becomes null, with a problem said back to the model."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

MAX_AMOUNT = Decimal("99999999.99")  # Numeric(10, 2)
MAX_QUANTITY = Decimal("100000")
EARLIEST_DATE = date(1990, 1, 1)
TEXT_LIMITS = {"merchant_name": 255, "merchant_address": 500, "item_name": 255}
DEFAULT_CONFIDENCE = 0.5  # the model gave none we can use
_NUMBER = re.compile(r"-?\d{1,12}(?:\.\d{1,12})?")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_CURRENCY = re.compile(r"[A-Z]{3}")


@dataclass(frozen=True)
class Checked:
    """A value the shop accepts (or None), and what was wrong with the model's value when it was refused."""

    value: object = None
    problem: str | None = None

    @property
    def rejected(self) -> bool:
        return self.problem is not None


ABSENT = Checked()


def check_amount(label: str, raw, *, allow_zero: bool = False) -> Checked:
    """A money amount: a plain decimal ("1234.50"), positive (zero only where allowed), at most 3 decimals."""
    number = _decimal(raw)
    if number is ABSENT:
        return ABSENT
    if number is None:
        return Checked(problem=f"{label} {raw!r} is not a decimal number like 1234.50; recorded as null")
    if number < 0 or (number == 0 and not allow_zero) or number > MAX_AMOUNT:
        return Checked(problem=f"{label} {raw!r} is out of range (positive, at most {MAX_AMOUNT}); recorded as null")
    if number.as_tuple().exponent < -3:
        return Checked(problem=f"{label} {raw!r} has more than 3 decimals; recorded as null")
    return Checked(number)


def check_quantity(label: str, raw) -> Checked:
    """A quantity: positive, at most MAX_QUANTITY, at most 3 decimals (weights)."""
    number = _decimal(raw)
    if number is ABSENT:
        return ABSENT
    if number is None or not 0 < number <= MAX_QUANTITY or number.as_tuple().exponent < -3:
        return Checked(problem=f"{label} {raw!r} is not a quantity; recorded as null")
    return Checked(number)


def check_date(raw, today: date) -> Checked:
    """A purchase date as YYYY-MM-DD: a real day, not before 1990 and not after today."""
    if raw is None or raw == "":
        return ABSENT
    text = str(raw).strip()
    try:
        day = date.fromisoformat(text) if _ISO_DATE.fullmatch(text) else None
    except ValueError:
        day = None
    if day is None:
        return Checked(problem=f"purchase_date {raw!r} is not a real date as YYYY-MM-DD; recorded as null")
    if day > today:
        return Checked(problem=f"purchase_date {text} is in the future; recorded as null")
    if day < EARLIEST_DATE:
        return Checked(problem=f"purchase_date {text} is implausibly old; recorded as null")
    return Checked(text)


def check_currency(raw) -> Checked:
    """An ISO 4217 code: three letters."""
    if raw is None or raw == "":
        return ABSENT
    code = str(raw).strip().upper()
    if not _CURRENCY.fullmatch(code):
        return Checked(problem=f"currency {raw!r} is not a three-letter ISO 4217 code; recorded as null")
    return Checked(code)


def check_text(name: str, raw) -> Checked:
    """Printed text: control characters dropped, whitespace collapsed, bounded; empty is absent."""
    if raw is None:
        return ABSENT
    if not isinstance(raw, str):
        return Checked(problem=f"{name} {raw!r} is not text; recorded as null")
    text = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in raw)
    text = " ".join(text.split())
    return Checked(text[: TEXT_LIMITS.get(name, 255)]) if text else ABSENT


def check_line(label: str, raw, line_count: int) -> Checked:
    """A 1-based line number of the numbered text → the 0-based line index; 0 (or none) means not printed."""
    if raw is None or raw == 0 or isinstance(raw, bool):
        return ABSENT
    if not isinstance(raw, int) or not 1 <= raw <= line_count:
        return Checked(problem=f"{label} line {raw!r} does not exist (the text has {line_count} lines)")
    return Checked(raw - 1)


def check_confidence(raw) -> float:
    """The model's own confidence, within 0..1 (DEFAULT_CONFIDENCE when it gave none)."""
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        return DEFAULT_CONFIDENCE
    return min(max(float(raw), 0.0), 1.0)


def _decimal(raw) -> Decimal | Checked | None:
    """The Decimal of a plain number; ABSENT for null/empty; None when it is no plain number."""
    if raw is None or raw == "":
        return ABSENT
    if isinstance(raw, bool) or not isinstance(raw, str | int | float):
        return None
    text = str(raw).strip()
    return Decimal(text) if _NUMBER.fullmatch(text) else None
