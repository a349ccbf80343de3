"""Stage 2b — amounts: every number on every line with its value, its printed span and any currency marker beside it.

Whether "12,50" is twelve and a half or a list ("55,57") and whether "1.234" is a thousand is decided once per
receipt from the separators its amounts use (decimal_style).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from . import vocabulary
from .normalise import Line

_MARKERS = "|".join(re.escape(m) for m in sorted(vocabulary.CURRENCY_MARKERS, key=len, reverse=True))
NUMBER = (
    r"\d{1,3}(?:,\d{3})+(?:\.\d{1,3})?"  # 1,234.56
    r"|\d{1,3}(?:\.\d{3})+,\d{1,2}"  # 1.234,56
    r"|\d{1,3}(?:'\d{3})+(?:[.,]\d{2})?"  # 1'234.56
    r"|\d+[.,]\d{1,4}"  # 12.50, 12,50, 9.000, 26.5000
    r"|\d+"
    r"|[.,]\d{2}"  # .90
)
AMOUNT = re.compile(
    rf"(?<![0-9.,/\-'])(?P<sign0>-)?(?:(?P<pre>{_MARKERS})\s{{0,2}}:?\s?)?(?P<sign>-\s?)?(?P<num>{NUMBER})(?![\d])(?![.,]\d)"
    rf"(?P<trail>-(?![\dA-Z]))?(?!\s?%)(?!\s?[AP]\.?M\b)(?:\s{{0,2}}(?P<post>{_MARKERS})(?![A-Z0-9])(?!\s{{0,2}}[\d.]))?"
)
DOT_DECIMAL = re.compile(r"(?<![\d.,])\d+\.\d{2}(?![\d.,]|,\d)")
COMMA_DECIMAL = re.compile(r"(?<![\d.,])\d+,\d{2}(?![\d.,]|\.\d)")


@dataclass(frozen=True)
class Amount:
    line: int
    start: int  # the number as printed, sign included, currency marker excluded
    end: int
    value: Decimal
    decimals: int
    marker: str | None = None  # the currency marker as printed beside the number ("RM", "$", "EUR")
    marker_span: tuple[int, int] | None = None
    at: bool = False  # printed right after "@": a unit price

    @property
    def money(self) -> bool:
        """Looks like money: two decimals, or a whole number with a currency marker."""
        return self.decimals == 2 or (self.marker is not None and self.decimals == 0)


def decimal_style(lines: tuple[Line, ...]) -> str:
    """'.' or ',': the decimal separator most of the receipt's two-decimal numbers use."""
    dots = sum(len(DOT_DECIMAL.findall(line.num)) for line in lines)
    commas = sum(len(COMMA_DECIMAL.findall(line.num)) for line in lines)
    return "," if commas > dots else "."


def find_amounts(line: Line, style: str) -> tuple[Amount, ...]:
    """The numbers on a line that can be read as amounts (dates, times, percentages and codes are skipped)."""
    found = []
    for match in AMOUNT.finditer(line.num):
        amount = _amount(line, match, style)
        if amount is not None:
            found.append(amount)
    return tuple(found)


def _amount(line: Line, match: re.Match, style: str) -> Amount | None:
    parsed = parse_number(match.group("num"), style)
    if parsed is None:
        return None
    value, decimals = parsed
    start_at = match.start()
    if start_at and line.num[start_at - 1].isalpha() and not _money_after_word(match, decimals):
        return None  # glued to a word: a code ("PT15944", "X2", "NO.53"), unless it reads as money ("TOTAL9.00")
    negative = bool(match.group("sign0") or match.group("sign") or match.group("trail"))
    start = match.start("sign") if match.group("sign") else match.start("num")
    end = match.end("trail") if match.group("trail") else match.end("num")
    marker_group = "pre" if match.group("pre") else "post" if match.group("post") else None
    return Amount(
        line=line.index,
        start=start,
        end=end,
        value=-value if negative else value,
        decimals=decimals,
        marker=match.group(marker_group) if marker_group else None,
        marker_span=match.span(marker_group) if marker_group else None,
        at=line.num[: match.start()].rstrip().endswith("@"),
    )


def _money_after_word(match: re.Match, decimals: int) -> bool:
    return decimals == 2 and not match.group("pre") and match.group("num")[0].isdigit()


def parse_number(text: str, style: str) -> tuple[Decimal, int] | None:
    """(value, decimals) of a printed number under the receipt's decimal style; None when it is not a number."""
    decimal_mark = _decimal_mark(text, style)
    if decimal_mark is None:
        return None
    if decimal_mark == "":
        digits, decimals = re.sub(r"[,.']", "", text), 0
    else:
        whole, _, fraction = text.rpartition(decimal_mark)
        digits, decimals = re.sub(r"[,.']", "", whole) + "." + fraction, len(fraction)
    try:
        return Decimal(digits), decimals
    except InvalidOperation:
        return None


def _decimal_mark(text: str, style: str) -> str | None:
    """The character that separates the decimals ('' for a whole number), None for an unreadable number."""
    separators = [c for c in text if c in ".,'"]
    if not separators:
        return ""
    last = separators[-1]
    tail = len(text) - text.rfind(last) - 1
    if len(set(separators)) > 1:
        return last if tail <= 4 and last != "'" else None
    if last == "'":
        return ""
    if len(separators) == 1 and last == style:
        return last
    # Thousands only; "55,57" in a receipt whose decimals are dots is a list, not an amount.
    return "" if tail == 3 else None
