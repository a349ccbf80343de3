"""Where a model's value is printed: the line the model named first, then every other line nearest first, and in
the line the character span of the value as printed ("9.00", "9,00", "RM9.00", "1.234,50"; "14/10/2026",
"Oct 14, 2026"; names whatever their case). A value found nowhere has no evidence: it was read from the image
only, or invented — the caller lowers its confidence."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from ..document import Evidence, ReceiptDocument

# How much of the model's confidence a value keeps, by where its text was found.
STATED, ELSEWHERE, PARTIAL, SYMBOL_ONLY = 1.0, 0.85, 0.8, 0.9
NOT_IN_TEXT = 0.3  # the most confidence a value keeps when the text does not contain it

_BEFORE, _AFTER = r"(?<![\d.,])", r"(?!\d|[.,]\d)"
_GROUPINGS = ((",", "."), (".", ","), (" ", ","), (" ", "."), ("'", "."), ("\u202f", ","))
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_NUMERIC_DATE = re.compile(r"(?<!\d)(\d{1,4})([./-])(\d{1,2})\2(\d{2,4})(?!\d)")
_DAY_MONTH_YEAR = re.compile(rf"(?<!\d)(\d{{1,2}})(?:st|nd|rd|th)?[\s.-]*{_MONTH}[\s,.-]*(\d{{4}}|\d{{2}})(?!\d)", re.I)
_MONTH_DAY_YEAR = re.compile(rf"\b{_MONTH}[\s.-]*(\d{{1,2}})(?:st|nd|rd|th)?,?[\s.-]*(\d{{4}}|\d{{2}})(?!\d)", re.I)
CURRENCY_SYMBOLS = {
    "USD": ("US$", "$"), "CAD": ("CA$", "C$", "$"), "AUD": ("AU$", "A$", "$"), "NZD": ("NZ$", "$"),
    "SGD": ("S$", "$"), "HKD": ("HK$", "$"), "MXN": ("MX$", "$"), "BRL": ("R$",), "EUR": ("€",), "GBP": ("£",),
    "JPY": ("¥", "円"), "CNY": ("¥", "元", "RMB"), "INR": ("₹", "Rs.", "Rs"), "MYR": ("RM",), "KRW": ("₩",),
    "PHP": ("₱",), "THB": ("฿",), "IDR": ("Rp",), "VND": ("₫",), "TRY": ("₺",), "ILS": ("₪",), "NGN": ("₦",),
    "PLN": ("zł",), "CHF": ("Fr.",), "SEK": ("kr",), "NOK": ("kr",), "DKK": ("kr",),
}  # fmt: skip


@dataclass(frozen=True)
class Found:
    """The evidence of one value and how far to trust it for where it was found (a factor of the model's
    confidence; None when the text does not contain the value)."""

    evidence: tuple[Evidence, ...] = ()
    factor: float | None = None

    def confidence(self, base: float) -> float:
        if self.factor is None:
            return round(min(base, NOT_IN_TEXT), 3)
        return round(base * self.factor, 3)


NOWHERE = Found()


def search_order(document: ReceiptDocument, line: int | None) -> list[int]:
    """Line indexes to search: the stated line first, then the others nearest first."""
    indexes = range(len(document.lines))
    if line is None:
        return list(indexes)
    return sorted(indexes, key=lambda index: (abs(index - line), index))


def locate_amount(document: ReceiptDocument, value: Decimal, line: int | None, *, anywhere: bool = True) -> Found:
    """An amount as printed: with decimals on any line; without (a whole "14") only on the stated line."""
    with_decimals, whole = amount_forms(value)
    for index in search_order(document, line) if anywhere else ([line] if line is not None else []):
        forms = with_decimals + whole if index == line else with_decimals
        span = _last_span(document.lines[index].text, forms)
        if span:
            return Found((Evidence(index, *span),), STATED if index == line else ELSEWHERE)
    return NOWHERE


def locate_quantity(document: ReceiptDocument, value: Decimal, line: int | None) -> Found:
    """A quantity as printed, on the item's own line only (a bare "2" elsewhere means nothing)."""
    if line is None:
        return NOWHERE
    text = format(value.normalize(), "f")
    forms = [text, text.replace(".", ",")] if "." in text else [text]
    span = _first_span(document.lines[line].text, forms)
    return Found((Evidence(line, *span),), STATED) if span else NOWHERE


def amount_forms(value: Decimal) -> tuple[list[str], list[str]]:
    """How an amount may be printed: (forms with decimals, whole forms when it has no cents)."""
    places = 3 if value != value.quantize(Decimal("0.01")) else 2
    whole, fraction = f"{value:.{places}f}".split(".")
    with_decimals = [f"{whole}.{fraction}", f"{whole},{fraction}"]
    wholes = [whole] if int(fraction) == 0 else []
    if len(whole) > 3:
        for group, decimal in _GROUPINGS:
            grouped = _group(whole, group)
            with_decimals.append(f"{grouped}{decimal}{fraction}")
            if wholes:
                wholes.append(grouped)
    return list(dict.fromkeys(with_decimals)), list(dict.fromkeys(wholes))


def locate_text(document: ReceiptDocument, value: str, line: int | None) -> Found:
    """Printed text whatever its case and spacing; an address also part by part (it may span lines)."""
    pattern = _text_pattern(value)
    if pattern is None:
        return NOWHERE
    for index in search_order(document, line):
        match = pattern.search(document.lines[index].text)
        if match:
            return Found((Evidence(index, match.start(), match.end()),), STATED if index == line else ELSEWHERE)
    return _locate_parts(document, value, line)


def locate_date(document: ReceiptDocument, value: date, line: int | None) -> Found:
    """A date as printed in any common form whose reading (day or month first) gives this day."""
    for index in search_order(document, line):
        for start, end, readings in date_tokens(document.lines[index].text):
            if value in readings:
                return Found((Evidence(index, start, end),), STATED if index == line else ELSEWHERE)
    return NOWHERE


def date_tokens(text: str) -> list[tuple[int, int, set[date]]]:
    """Every date-like token in a line with the days it can mean."""
    tokens = []
    for match in _NUMERIC_DATE.finditer(text):
        first, _, second, third = match.groups()
        # year first; else day first, month first
        orders = [(first, second, third)] if len(first) == 4 else [(third, second, first), (third, first, second)]
        tokens.append((match.start(), match.end(), _days(orders)))
    for match in _DAY_MONTH_YEAR.finditer(text):
        day, month, year = match.groups()
        tokens.append((match.start(), match.end(), _days([(year, str(_MONTHS.index(month.lower()) + 1), day)])))
    for match in _MONTH_DAY_YEAR.finditer(text):
        month, day, year = match.groups()
        tokens.append((match.start(), match.end(), _days([(year, str(_MONTHS.index(month.lower()) + 1), day)])))
    return tokens


def locate_currency(document: ReceiptDocument, code: str, line: int | None) -> Found:
    """A currency by its code (USD), else by a symbol of it ($, RM, €) — a symbol alone says less."""
    code_pattern = re.compile(rf"(?<![A-Za-z]){code}(?![A-Za-z])")
    symbols = [re.compile(_symbol_pattern(symbol)) for symbol in CURRENCY_SYMBOLS.get(code, ())]
    for patterns, factor in (([code_pattern], None), (symbols, SYMBOL_ONLY)):
        for index in search_order(document, line):
            for pattern in patterns:
                match = pattern.search(document.lines[index].text)
                if match:
                    where = factor or (STATED if index == line else ELSEWHERE)
                    return Found((Evidence(index, match.start(), match.end()),), where)
    return NOWHERE


def _locate_parts(document: ReceiptDocument, value: str, line: int | None) -> Found:
    parts = [part for part in re.split(r"[,\n]", value) if len(part.strip()) > 1]
    if len(parts) < 2:
        return NOWHERE
    found = [locate_text(document, part, line) for part in parts]
    evidence = tuple(dict.fromkeys(hit.evidence[0] for hit in found if hit.evidence))
    if not evidence:
        return NOWHERE
    if len(evidence) < len(parts):
        return Found(evidence, PARTIAL)
    return Found(evidence, STATED if evidence[0].line_index == line else ELSEWHERE)


def _text_pattern(value: str) -> re.Pattern | None:
    words = re.findall(r"\w+", value)
    if not words:
        return None
    return re.compile(r"\W{0,8}".join(re.escape(word) for word in words), re.I)


def _symbol_pattern(symbol: str) -> str:
    escaped = re.escape(symbol)
    return rf"(?<![A-Za-z]){escaped}(?![A-Za-z])" if symbol[-1].isalpha() else escaped


def _group(whole: str, separator: str) -> str:
    head = len(whole) % 3 or 3
    return separator.join([whole[:head]] + [whole[i : i + 3] for i in range(head, len(whole), 3)])


def _last_span(text: str, forms: list[str]) -> tuple[int, int] | None:
    """The last place one of the forms is printed as a whole number (amounts are printed on the right)."""
    for form in forms:
        matches = list(re.finditer(_BEFORE + re.escape(form) + _AFTER, text))
        if matches:
            return matches[-1].start(), matches[-1].end()
    return None


def _first_span(text: str, forms: list[str]) -> tuple[int, int] | None:
    for form in forms:
        match = re.search(_BEFORE + re.escape(form) + _AFTER, text)
        if match:
            return match.start(), match.end()
    return None


def _days(orders: list[tuple[str, str, str]]) -> set[date]:
    days = set()
    for year, month, day in orders:
        full_year = int(year) + 2000 if len(year) == 2 else int(year)
        try:
            days.add(date(full_year, int(month), int(day)))
        except ValueError:
            continue
    return days
