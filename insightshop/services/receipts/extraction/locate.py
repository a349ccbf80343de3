"""Stage 2 — locate: amounts, labels, dates and country hints on the normalised lines, and which label each amount
belongs to (on its own line, or on the line above when the label and the value were read as separate lines).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from . import vocabulary
from .amounts import Amount, decimal_style, find_amounts
from .dates import DateHit, find_dates
from .labels import Label, find_labels
from .normalise import Line

COUNTRY_PATTERNS = {country: re.compile("|".join(patterns)) for country, patterns in vocabulary.COUNTRY_HINTS.items()}
_STANDALONE = sorted(
    (m for m in vocabulary.CURRENCY_MARKERS if m not in vocabulary.NOT_STANDALONE_MARKERS), key=len, reverse=True
)
MARKER = re.compile(r"(?<![A-Z])(?:" + "|".join(re.escape(m) for m in _STANDALONE) + r")(?![A-Z])")
ITEM_HEADER = re.compile("|".join(vocabulary.ITEM_HEADERS))
PERCENT = re.compile(r"@?\s*\d+(?:[.,]\d+)?\s*%")
FILLER = re.compile(r"^[\W_]*(?:\(?(?:RM|MYR|USD|EUR|SGD|\$|€|£)\)?)?[\W_]*$")


@dataclass(frozen=True)
class Labelled:
    amount: Amount
    kind: str | None  # the label's kind, None when the amount has no label
    label: Label | None
    in_summary: bool  # below a tax summary heading


@dataclass(frozen=True)
class Located:
    lines: tuple[Line, ...]
    amounts: tuple[tuple[Amount, ...], ...]  # per line
    labels: tuple[tuple[Label, ...], ...]  # per line
    dates: tuple[DateHit, ...]
    labelled: tuple[Labelled, ...]  # money amounts in reading order with their labels
    style: str  # the decimal separator
    country: str | None

    def markers(self, index: int) -> list[re.Match]:
        """Currency markers printed anywhere on a line."""
        return list(MARKER.finditer(self.lines[index].upper))


def locate(lines: tuple[Line, ...]) -> Located:
    """Everything the field stages read, found once."""
    style = decimal_style(lines)
    amounts = tuple(find_amounts(line, style) for line in lines)
    labels = tuple(find_labels(line) for line in lines)
    dates = tuple(hit for line in lines for hit in find_dates(line))
    amounts = tuple(_without_dates(row, dates) for row in amounts)
    labelled = label_amounts(lines, amounts, labels)
    return Located(lines, amounts, labels, dates, labelled, style, guess_country(lines))


def _without_dates(row: tuple[Amount, ...], dates: tuple[DateHit, ...]) -> tuple[Amount, ...]:
    return tuple(a for a in row if not any(d.line == a.line and d.start < a.end and a.start < d.end for d in dates))


def guess_country(lines: tuple[Line, ...]) -> str | None:
    """The country whose hints (legal forms, states, postcodes, tax names, currencies) the receipt shows most."""
    text = "\n".join(line.upper for line in lines)
    votes = Counter({country: len(pattern.findall(text)) for country, pattern in COUNTRY_PATTERNS.items()})
    country, count = votes.most_common(1)[0]
    return country if count else None


def label_amounts(
    lines: tuple[Line, ...], amounts: tuple[tuple[Amount, ...], ...], labels: tuple[tuple[Label, ...], ...]
) -> tuple[Labelled, ...]:
    """Each money amount with the label before it on its line, or the label of the line above that has no amount."""
    out, in_summary = [], False
    for index, row in enumerate(amounts):
        in_summary = in_summary or any(label.kind == "summary" for label in labels[index])
        for amount in row:
            if amount.money:
                label = _label_on_line(labels[index], amount) or _label_above(lines, amounts, labels, index)
                out.append(Labelled(amount, _kind(label, amount), label, in_summary))
    return tuple(out)


def _kind(label: Label | None, amount: Amount) -> str | None:
    if label is None:
        return None
    if label.kind == "rounding" and abs(amount.value) >= vocabulary.MAX_ROUNDING:
        return "total_final"  # "ROUNDING RM 45.35": an adjustment is cents, so this is the rounded total
    return label.kind


def _label_on_line(labels: tuple[Label, ...], amount: Amount) -> Label | None:
    return _last_label([label for label in labels if label.end <= amount.start])


def _last_label(before: list[Label]) -> Label | None:
    if not before:
        return None
    last = before[-1]
    # "TOTAL (GST INCL)", "TOTAL INCL. GST@6%": a tax word right after a total qualifies the total.
    if last.kind == "tax" and len(before) > 1 and before[-2].kind in vocabulary.TOTAL_KINDS:
        return before[-2]
    return last


def _label_above(lines, amounts, labels, index: int) -> Label | None:
    if labels[index] or _has_words(lines[index], amounts[index]):
        return None
    above = index - 1
    while above >= 0 and FILLER.match(lines[above].upper):
        above -= 1
    if above < 0 or index - above > 2 or not _label_only(lines[above], labels[above]):
        return None
    if any(amount.money for amount in amounts[above]):
        return None
    return _last_label(list(labels[above]))


def _label_only(line: Line, labels: tuple[Label, ...]) -> bool:
    """A line that is a label and little else ("TOTAL (RM):", "CHANGE DUE"), not a column header."""
    if not labels or ITEM_HEADER.search(line.upper) and len(ITEM_HEADER.findall(line.upper)) >= 2:
        return False
    if re.search(r"[A-Z0-9]", MARKER.sub("", PERCENT.sub("", line.key[labels[-1].end :]))):
        return False
    words = [w for w in line.words if len(w.text) > 1 and not w.text.isdigit() and not MARKER.fullmatch(w.text)]
    covered = [w for w in words if any(label.start <= w.start < label.end for label in labels)]
    return 2 * len(covered) > len(words)


def _has_words(line: Line, amounts: tuple[Amount, ...]) -> bool:
    """Whether a line says something besides its amounts and currency markers (then it is not a bare value)."""
    text = list(line.upper)
    for amount in amounts:
        for span in (amount.marker_span, (amount.start, amount.end)):
            if span:
                text[span[0] : span[1]] = " " * (span[1] - span[0])
    rest = MARKER.sub(" ", "".join(text))
    return sum(c.isalpha() for c in rest) >= 3
