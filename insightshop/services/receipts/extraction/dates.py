"""Stage 2c — dates: every date printed on the receipt, and which one is the purchase date.

A numeric date such as 05/06/2018 is read day first or month first per receipt: first from the receipt's own
unambiguous dates (13/06/2018 can only be day first), then from its currency and country (USD or a US address:
month first), else day first. A date must be a real calendar date, not before vocabulary.EARLIEST_YEAR and not after
`today`; when one reading is in the future and the other is not, the other wins.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from . import vocabulary
from .normalise import WORD, Line

_MONTH = "|".join(re.escape(m) for m in sorted(vocabulary.MONTHS, key=len, reverse=True))
ISO = re.compile(r"(?<![\d.,/])(?P<y>(?:19|20)\d{2})\s?(?P<s>[-/.])\s?(?P<m>\d{1,2})\s?(?P=s)\s?(?P<d>\d{1,2})(?!\d)")
# A year may run straight into the time after it ("06/02/1818:47", "18/04/20185:18:08" as OCR prints them).
YEAR = r"(?P<y>\d{4}(?=\d{1,2}:\d{2}|[^\d:]|$)|\d{2}(?=\d{1,2}:\d{2}|[^\d]|$))"
NUMERIC = re.compile(rf"(?<![\d.,/])(?P<a>\d{{1,2}})\s?(?P<s>[-/.])\s?(?P<b>\d{{1,2}})\s?(?P=s)\s?{YEAR}(?![.,]\d)")
DAY_MONTH = re.compile(
    rf"(?<![A-Z0-9])(?P<d>\d{{1,2}})(?:ST|ND|RD|TH)?[\s\-/.,]*(?P<mon>{_MONTH})[A-Z]*\.?[\s\-/.,']*(?P<y>\d{{4}}|\d{{2}})(?!\d)"
)
MONTH_DAY = re.compile(
    rf"(?<![A-Z])(?P<mon>{_MONTH})[A-Z]*\.?\s*(?P<d>\d{{1,2}})(?:ST|ND|RD|TH)?(?:,\s*(?P<y2>\d{{4}}|\d{{2}})|\s+(?P<y>\d{{4}}))(?!\d)"
)
COMPACT = re.compile(r"(?<!\d)(?P<c>\d{8})(?!\d)")
OCR_DIGITS = str.maketrans("OISBL", "01581")
DIGITISH = re.compile(r"(?<![A-Z])[\dOISBL]*\d[\dOISBL]*(?![A-Z])")
TIME = re.compile(r"(?<!\d)\d{1,2}:\d{2}(?!\d)")


@dataclass(frozen=True)
class DateHit:
    line: int
    start: int
    end: int
    day_first: dt.date | None  # the reading of a numeric date day first (or the only reading)
    month_first: dt.date | None  # the reading month first; None when the printed form is not ambiguous in order
    numeric: bool = False  # printed as three numbers with the year last (05/06/2018), so its order is a question

    @property
    def ambiguous(self) -> bool:
        return self.day_first is not None and self.month_first is not None and self.day_first != self.month_first


@dataclass(frozen=True)
class PurchaseDate:
    value: dt.date
    hit: DateHit
    confidence: float


def find_dates(line: Line) -> tuple[DateHit, ...]:
    """The dates printed on a line (spans do not overlap; the first pattern to claim characters keeps them)."""
    hits: list[DateHit] = []
    for finder in (_iso, _day_month, _month_day, _numeric, _compact):
        for hit in finder(line):
            if hit is not None and not any(hit.start < h.end and h.start < hit.end for h in hits):
                hits.append(hit)
    return tuple(sorted(hits, key=lambda h: h.start))


def date_text(line: Line) -> str:
    """The line with OCR letters inside digit runs read as digits ("2S MAY", "201B"), same length."""
    return DIGITISH.sub(lambda m: m.group().translate(OCR_DIGITS), line.num)


def _make(year: str, month: int | str, day: int | str) -> dt.date | None:
    y = int(year)
    if y < 100:
        y += 2000 if y < 70 else 1900
    try:
        return dt.date(y, int(month), int(day))
    except ValueError:
        return None


def _iso(line: Line):
    for m in ISO.finditer(date_text(line)):
        date = _make(m["y"], m["m"], m["d"])
        yield DateHit(line.index, m.start(), m.end(), date, None) if date else None


def _numeric(line: Line):
    for m in NUMERIC.finditer(date_text(line)):
        day_first, month_first = _make(m["y"], m["b"], m["a"]), _make(m["y"], m["a"], m["b"])
        if day_first or month_first:
            yield DateHit(line.index, m.start(), m.end(), day_first, month_first, numeric=True)


def _named(line: Line, pattern: re.Pattern):
    for m in pattern.finditer(date_text(line)):
        year = m.groupdict().get("y2") or m["y"]
        date = _make(year, vocabulary.MONTHS[m["mon"]], m["d"])
        yield DateHit(line.index, m.start(), m.end(), date, None) if date else None


def _day_month(line: Line):
    yield from _named(line, DAY_MONTH)


def _month_day(line: Line):
    yield from _named(line, MONTH_DAY)


def _compact(line: Line):
    if not _has_word(line, vocabulary.DATE_LABELS):
        return
    for m in COMPACT.finditer(date_text(line)):
        text = m["c"]
        date = _make(text[:4], text[4:6], text[6:]) if text[:2] in ("19", "20") else None
        date = date or _make(text[4:], text[2:4], text[:2])
        yield DateHit(line.index, m.start(), m.end(), date, None) if date else None


def _has_word(line: Line, phrases: tuple[str, ...]) -> bool:
    words = " " + " ".join(word.text for word in line.words) + " "
    return any(" " + " ".join(WORD.findall(phrase)) + " " in words for phrase in phrases)


def month_first_by_values(hits: list[DateHit], today: dt.date) -> bool | None:
    """What the receipt's unambiguous numeric dates say about its order: True month first, False day first."""
    votes = 0
    for hit in hits:
        if not hit.numeric:
            continue
        day_first_possible = hit.day_first is not None and hit.day_first <= today
        month_first_possible = hit.month_first is not None and hit.month_first <= today
        votes += int(month_first_possible and not day_first_possible) - int(
            day_first_possible and not month_first_possible
        )
    return None if votes == 0 else votes > 0


def read(hit: DateHit, month_first: bool, today: dt.date) -> dt.date | None:
    """The hit's date under the receipt's order, falling back to the other order when the first is impossible."""
    first, second = (hit.month_first, hit.day_first) if month_first else (hit.day_first, hit.month_first)
    for date in (first, second):
        if date is not None and date.year >= vocabulary.EARLIEST_YEAR and date <= today:
            return date
    return None


def choose_purchase_date(
    lines: tuple[Line, ...], hits: list[DateHit], month_first_hint: bool | None, today: dt.date
) -> PurchaseDate | None:
    """The purchase date: a labelled date beats an unlabelled one, expiry and due dates are skipped, first wins."""
    by_values = month_first_by_values(hits, today)
    month_first = by_values if by_values is not None else bool(month_first_hint)
    best: tuple[float, int, dt.date, DateHit] | None = None
    for order, hit in enumerate(hits):
        date = read(hit, month_first, today)
        if date is None:
            continue
        score = _score(lines, hit)
        if best is None or score > best[0]:
            best = (score, order, date, hit)
    if best is None:
        return None
    score, _, date, hit = best
    return PurchaseDate(date, hit, _confidence(hit, score, by_values is not None or month_first_hint is not None))


def _score(lines: tuple[Line, ...], hit: DateHit) -> float:
    line = lines[hit.line]
    score = 0.0
    if _has_word(line, vocabulary.NOT_PURCHASE_DATE):
        score -= 3
    if _has_word(line, vocabulary.DATE_LABELS) or _label_above(lines, hit.line):
        score += 2
    if TIME.search(line.num) or (hit.line + 1 < len(lines) and TIME.search(lines[hit.line + 1].num)):
        score += 1
    return score


def _label_above(lines: tuple[Line, ...], index: int) -> bool:
    if index == 0:
        return False
    above = lines[index - 1]
    return _has_word(above, vocabulary.DATE_LABELS) and not any(c.isdigit() for c in above.num)


def _confidence(hit: DateHit, score: float, order_known: bool) -> float:
    """High for any real, past date (they are rarely wrong); higher with a DATE label or a time beside it; lower when
    the day/month order was a guess."""
    confidence = 0.85 + 0.04 * max(-3.0, min(score, 3.0))
    if hit.ambiguous and not order_known:
        confidence -= 0.2
    return round(max(0.3, min(confidence, 0.98)), 2)
