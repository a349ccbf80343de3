"""Stage 3a — the money fields: total, subtotal, tax and the currency they are printed in.

The total is, in order of trust: the labelled total that equals cash tendered minus change (or any amount above the
payment that does); the first total printed after a non-zero rounding line; the last explicitly final total (GRAND
TOTAL, TOTAL PAYABLE, NETT TOTAL …); the first plain TOTAL; the subtotal when nothing larger follows it; the cash paid
when no change is printed; else the largest unlabelled amount above the payment lines. The confidence says which rule
decided, raised when subtotal, tax and rounding add up to it. Totals below a tax-summary heading are not candidates.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from . import vocabulary
from .locate import Labelled, Located

CENT = Decimal("0.01")


@dataclass(frozen=True)
class Chosen:
    item: Labelled
    confidence: float


@dataclass(frozen=True)
class Currency:
    code: str
    spans: tuple[tuple[int, int, int], ...]  # (line, start, end) of the marker as printed; empty when inferred
    confidence: float


@dataclass(frozen=True)
class MoneyFields:
    total: Chosen | None
    subtotal: Chosen | None
    tax: Chosen | None
    currency: Currency | None


def money_fields(located: Located) -> MoneyFields:
    """Total, subtotal, tax and currency of a located receipt."""
    main = [item for item in located.labelled if not item.in_summary]
    total = choose_total(main) or choose_total(list(located.labelled))
    subtotal = _first_of_kind(main, "subtotal", total, _discounts(main))
    tax = _first_of_kind(main, "tax", total)
    if total and _adds_up(total, subtotal, tax, main):
        total = Chosen(total.item, min(0.99, total.confidence + 0.05))
    return MoneyFields(total, subtotal, tax, choose_currency(located, total))


def choose_total(main: list[Labelled]) -> Chosen | None:
    candidates = [item for item in main if item.kind in vocabulary.TOTAL_KINDS and item.amount.value > 0]
    paid = paid_amount(main)
    for choose in (_equal_to_paid, _after_rounding, _last_final, _first_plain, _subtotal_only):
        chosen = choose(candidates, main, paid)
        if chosen:
            return chosen
    return _largest_unlabelled(main, paid)


def _payments(main: list[Labelled]) -> list[Labelled]:
    """Cash and change amounts below the first total or subtotal (a payment word in the header is not a payment)."""
    first = next((i.amount.line for i in main if i.kind in ("subtotal", *vocabulary.TOTAL_KINDS)), -1)
    return [item for item in main if item.kind in ("cash", "change") and item.amount.line > first]


def paid_amount(main: list[Labelled]) -> Decimal | None:
    """Cash tendered minus change, when the receipt prints both (the amount the total must equal)."""
    cash = next((item for item in _payments(main) if item.kind == "cash" and item.amount.value > 0), None)
    if cash is None:
        return None
    change = next((i for i in main if i.kind == "change" and i.amount.line >= cash.amount.line), None)
    if change is None or change.amount.value < 0 or change.amount.value >= cash.amount.value:
        return None
    return cash.amount.value - change.amount.value


def _equal_to_paid(candidates, main, paid) -> Chosen | None:
    if paid is None:
        return None
    equal = [item for item in candidates if item.amount.value == paid]
    if equal:
        return Chosen(equal[-1], 0.97)
    payment_line = _payment_line(main)
    unlabelled = [
        i for i in main if i.kind in (None, "subtotal", *vocabulary.TOTAL_KINDS) and i.amount.line < payment_line
    ]
    equal = [item for item in unlabelled if item.amount.value == paid]
    return Chosen(equal[-1], 0.85) if equal else None


def _payment_line(main: list[Labelled]) -> int:
    return min((item.amount.line for item in _payments(main)), default=1 << 30)


def _after_rounding(candidates, main, paid) -> Chosen | None:
    rounding = [item for item in main if item.kind == "rounding"]
    if not rounding or rounding[0].amount.value == 0:
        return None
    after = [item for item in candidates if item.amount.line > rounding[0].amount.line]
    return Chosen(after[0], 0.9) if after else None


def _last_final(candidates, main, paid) -> Chosen | None:
    finals = [item for item in candidates if item.kind == "total_final"]
    return Chosen(finals[-1], 0.85 if paid is None else 0.6) if finals else None


def _first_plain(candidates, main, paid) -> Chosen | None:
    return Chosen(candidates[0], 0.75 if paid is None else 0.55) if candidates else None


def _subtotal_only(candidates, main, paid) -> Chosen | None:
    subtotals = [item for item in main if item.kind == "subtotal" and item.amount.value > 0]
    if not subtotals:
        return None
    later = [item for item in main if item.kind is None and item.amount.line > subtotals[-1].amount.line]
    if any(item.amount.value > subtotals[-1].amount.value for item in later):
        return None
    return Chosen(subtotals[-1], 0.6)


def _largest_unlabelled(main: list[Labelled], paid: Decimal | None) -> Chosen | None:
    payment_line = _payment_line(main)
    pool = [
        item
        for item in main
        if item.kind in (None, "other") and item.amount.value > 0 and not item.amount.at
        if item.amount.line < payment_line
    ]
    cash = next((item for item in _payments(main) if item.kind == "cash" and item.amount.value > 0), None)
    if cash is not None and (not pool or cash.amount.value >= max(item.amount.value for item in pool)):
        exact = sum(item.amount.value for item in pool) == cash.amount.value
        return Chosen(cash, 0.75 if exact else 0.45)  # paid without change
    if not pool:
        return None
    return Chosen(max(pool, key=lambda item: item.amount.value), 0.4)


def _discounts(main: list[Labelled]) -> Decimal:
    """The discounts printed on the receipt, as a positive sum ("Sale discount −$30.00", "DISCOUNT 5.00")."""
    return sum((abs(i.amount.value) for i in main if i.kind == "discount"), Decimal(0))


def _first_of_kind(
    main: list[Labelled], kind: str, total: Chosen | None, allowance: Decimal = Decimal(0)
) -> Chosen | None:
    """The first amount labelled `kind` (not above the total, plus any discounts for a subtotal); of several on its
    line, the smallest ("GST 6% 37.50 2.25" prints the base before the tax)."""
    limit = total.item.amount.value + allowance if total else None
    fitting = [i for i in main if i.kind == kind and i.amount.value >= 0 and (limit is None or i.amount.value <= limit)]
    if not fitting:
        return None
    line = [item for item in fitting if item.amount.line == fitting[0].amount.line]
    return Chosen(min(line, key=lambda item: item.amount.value) if kind == "tax" else line[0], 0.8)


def _adds_up(total: Chosen, subtotal: Chosen | None, tax: Chosen | None, main: list[Labelled]) -> bool:
    """Whether subtotal (+ tax, + rounding) comes to the total: two fields confirm each other."""
    if subtotal is None:
        return False
    extra = sum((i.amount.value for i in main if i.kind in ("rounding", "service")), Decimal(0))
    parts = subtotal.item.amount.value - _discounts(main) + (tax.item.amount.value if tax else 0) + extra
    return abs(parts - total.item.amount.value) <= CENT or subtotal.item.amount.value == total.item.amount.value


def choose_currency(located: Located, total: Chosen | None) -> Currency | None:
    """The currency printed with the total (beside it or on its line), else the receipt's most used marker, else
    the country's currency (inferred, no evidence)."""
    lines_of_total = _lines_of_total(total)
    for index in lines_of_total:
        found = _markers_on(located, index, near=total.item.amount.start if index == lines_of_total[0] else None)
        if found:
            return _currency(located, found, 0.95)
    beside = [(a.line, *a.marker_span, a.marker) for row in located.amounts for a in row if a.marker]
    if beside:
        return _currency(located, _most_common(beside), 0.8)
    anywhere = [(m_line, m.start(), m.end(), m.group()) for m_line in range(len(located.lines))
                for m in located.markers(m_line)]  # fmt: skip
    if anywhere:
        return _currency(located, _most_common(anywhere), 0.7)
    code = vocabulary.CURRENCY_BY_COUNTRY.get(located.country or "")
    return Currency(code, (), 0.5) if code else None


def _lines_of_total(total: Chosen | None) -> list[int]:
    if total is None:
        return []
    lines = [total.item.amount.line]
    if total.item.label and total.item.label.line != total.item.amount.line:
        lines.append(total.item.label.line)
    return lines


def _markers_on(located: Located, index: int, near: int | None) -> list[tuple[int, int, int, str]]:
    markers = [(index, m.start(), m.end(), m.group()) for m in located.markers(index)]
    if near is not None:
        markers.sort(key=lambda m: abs(m[1] - near))
    return markers[:1]


def _most_common(markers: list[tuple[int, int, int, str]]) -> list[tuple[int, int, int, str]]:
    codes = [vocabulary.CURRENCY_MARKERS[m[3]] for m in markers]
    best = max(set(codes), key=codes.count)
    return [m for m, code in zip(markers, codes, strict=True) if code == best][:1]


def _currency(located: Located, found: list[tuple[int, int, int, str]], confidence: float) -> Currency:
    line, start, end, marker = found[0]
    code = vocabulary.CURRENCY_MARKERS[marker]
    if code == "$":
        code = vocabulary.DOLLAR_BY_COUNTRY.get(located.country or "", vocabulary.DEFAULT_DOLLAR)
        confidence -= 0.1 if located.country is None else 0
    return Currency(code, ((line, start, end),), round(confidence, 2))
