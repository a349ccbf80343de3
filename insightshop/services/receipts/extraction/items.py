"""Stage 4 — line items: the rows between the header (or the column headings) and the first totals line.

Each line of that block is a name, a run of numbers (a barcode, quantity, prices, line total), or both. Number-only
lines (the box layout puts every number on a line of its own) are read together as one row. Rows with a name and a
total are items; number rows are paired with a name row above or below them, in the direction that pairs more rows
on this receipt. What is left over is a detail ("2 @ 1.25", "@3 X RM 3.38": quantity and unit price for the item
beside it whose total they explain) or the rest of a name printed over several lines. Quantity and unit price are
only taken where printed; the line total is the row's rightmost money amount.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from decimal import Decimal

from ..document import Evidence, ExtractedItem
from . import vocabulary
from .amounts import Amount
from .locate import Located
from .merchant import ITEM_HEADER, KEY_VALUE
from .totals import MoneyFields

NOT_ITEM = re.compile("|".join(vocabulary.NOT_ITEM))
TOKEN = re.compile(r"\S+")
NUMERIC_TOKEN = re.compile(
    r"@?[-+(]?(?:RM|\$|€|£)?[\d.,'/]+[-)*]?|\d{6,}[A-Z]{1,2}|\d+[X×*]|[X×*]\d+|@\d*|[@X×*#:=]+|\*?(?:"
    + "|".join(vocabulary.TAX_CODES + vocabulary.QUANTITY_UNITS)
    + r")\*?|RM|MYR|USD|EUR|\$|€|£|\(RM\)"
)
FLAG_TOKEN = re.compile(r"\*?[A-Z]{1,3}\*?")  # a short flag after the line total ("SVC", "ZRL")
CODE_TOKEN = re.compile(r"^(?:\d+[).]\S*|\d[\d\-/]*|[A-Z]{1,3}\d[\w/\-]*\.?|\d+[A-Z]{1,2})$")  # barcodes, codes
TIMES = re.compile(
    r"(?<![\d.,])(?P<a>\d+(?:[.,]\d+)?)\s{0,2}[X×*]\s{0,2}(?:RM\s?|\$\s?|€\s?)?(?P<b>\d+(?:[.,]\d+)?)(?![\d])"
)
QTY_FORMS = (
    re.compile(r"(?<![\w.])[X×]\s*(?P<qty>\d{1,3})(?![\d.,])"),  # "X2"
    re.compile(r"\bQTY\s*:?\s*(?P<qty>\d{1,4})\b"),
    re.compile(r"(?<![\w.,])(?P<qty>\d+(?:[.,]\d+)?)\s*(?:" + "|".join(vocabulary.QUANTITY_UNITS[:-1]) + r")S?\b"),
)
PRICE_NOTES = re.compile(r"\b(?:" + "|".join(vocabulary.PRICE_NOTES) + r")\W*$")
NOTE_TOKEN = re.compile(r"\(?(?:" + "|".join(vocabulary.PRICE_NOTES) + r")\)?:?")  # "(was 49.00)"
DECOR = re.compile(r"^\W*[*=#~-]{2,}")  # "*** RETAIL/TAKEAWAY ***", "==== MEMBER ===="
LONG_CODE = re.compile(r"\d{6,}")
BARE_COUNT = re.compile(r"\s*\d{1,3}\s*")  # a quantity in a box of its own
TIME = re.compile(r"\b\d{1,2}:\d{2}\b")
NOT_NAME = frozenset({"NO", "AM", "PM"})
MIN_NAME_LETTERS = 3
MAX_NAME_LINES = 3
# A sub-line describing the item above (an e-commerce invoice's "Navy blue / S · SKU IS000002-NAV-S", "was $120.00"
# under a sale price): an attribute of that item, never an item or part of its name.
ATTRIBUTE = re.compile(r"\b(?:SKU|UPC|EAN|ART(?:ICLE)?\s*(?:NO|#)|ITEM\s*(?:NO|#))\b|\bWAS\s*[$€£]?\s?\d")
STOP_KINDS = frozenset({"subtotal", "total", "total_final", "tax", "rounding", "cash", "change", "summary", "count"})


@dataclass(frozen=True)
class Quantity:
    value: Decimal
    line: int
    start: int
    end: int
    explicit: bool = False  # printed as a quantity ("2 x", "QTY 2", "4 X 2.80"), not only a number before the prices


@dataclass(frozen=True)
class Row:
    lines: tuple[int, ...]
    name: tuple[int, int, int] | None = None  # (line, start, end) of the name as printed
    total: Amount | None = None
    unit: Amount | None = None
    quantity: Quantity | None = None
    text: str = ""  # the name as printed


@dataclass
class Draft:
    names: list[Row]  # the rows holding the name, in printed order
    numbers: Row  # the row holding the line total
    details: list[Row] = field(default_factory=list)

    @property
    def rows(self) -> list[Row]:
        return [*self.names, self.numbers, *self.details]


def find_items(located: Located, money: MoneyFields) -> tuple[ExtractedItem, ...]:
    """The receipt's line items in printed order."""
    start, end = item_region(located)
    rows = build_rows(located, range(start, end))
    drafts, names_first = pair_rows(rows)
    attach_leftovers(rows, drafts, names_first)
    drafts.sort(key=lambda d: min(line for row in d.rows for line in row.lines))
    _without_subtotal(located, drafts)
    items = [_item(located, number, draft) for number, draft in enumerate(drafts, start=1)]
    return tuple(_with_confidence(items, money))


# --- The block of items -------------------------------------------------------------------------------------------


def item_region(located: Located) -> tuple[int, int]:
    """(first, end) line indexes of the items: after the column headings or the header, before the totals."""
    first_money = next((item.amount.line for item in located.labelled), len(located.lines))
    end = _totals_start(located, first_money)
    headings = [i for i in range(min(end, first_money)) if _is_heading(located.lines[i].upper)]
    if headings:
        return headings[-1] + 1, end
    below = _heading_below(located, first_money)
    if below is not None:  # an invoice's summary band ("AMOUNT PAID $153.90") printed above its item table
        return below + 1, _totals_start(located, below + 1)
    meta = [i for i in range(first_money) if _is_meta(located, i)]
    return (meta[-1] + 1 if meta else max(0, first_money - 1)), end


def _heading_below(located: Located, first_money: int) -> int | None:
    """A column-heading line ("ITEM QTY UNIT PRICE AMOUNT") below the first amount and above every subtotal or
    total, with amounts below it."""
    totals = [i.amount.line for i in located.labelled if i.kind in ("subtotal", *vocabulary.TOTAL_KINDS)]
    for index in range(first_money, min(totals, default=len(located.lines))):
        text = located.lines[index].upper
        words_only = not any(c.isdigit() for c in text)  # "ITEM(S) : 1 QTY(S) : 1" is a count, not headings
        if words_only and len(ITEM_HEADER.findall(text)) >= 2 and _is_heading(text) and _has_money(located, index + 1):
            return index
    return None


def _totals_start(located: Located, first_money: int) -> int:
    """The first line of the totals: a total, tax, payment … label with its amount on the line or just below."""
    for index in range(first_money, len(located.lines)):
        if len(ITEM_HEADER.findall(located.lines[index].upper)) >= 2:
            continue
        stops = any(label.kind in STOP_KINDS for label in located.labels[index])
        if stops and any(_has_money(located, index + step) for step in range(3)):
            return index
    return len(located.lines)


def _has_money(located: Located, index: int) -> bool:
    return index < len(located.lines) and any(a.money for a in located.amounts[index])


def _is_heading(text: str) -> bool:
    """Column headings: "ITEM QTY PRICE AMOUNT", or one heading word on a line of its own (box layout)."""
    words = re.findall(r"[A-Z][A-Z./]*", text)
    headings = ITEM_HEADER.findall(text)
    return bool(headings) and (len(headings) >= 2 or len(words) <= len(headings) + 1) and not re.search(r"\d\.\d", text)


def _is_meta(located: Located, index: int) -> bool:
    """A header line about the document rather than the goods: a date, a number, a "Key: value"."""
    text = located.lines[index].upper
    return any(hit.line == index for hit in located.dates) or bool(KEY_VALUE.match(text) or NOT_ITEM.search(text))


# --- Rows ---------------------------------------------------------------------------------------------------------


def build_rows(located: Located, region: range) -> list[Row]:
    """The block's rows: name lines (with any numbers after the name) and number rows (consecutive number-only
    lines read together; a line of words between them ends the row)."""
    rows: list[Row] = []
    pending: list[int] = []
    for index in region:
        skipped = _skipped(located, index)
        name = None if skipped else name_span(located, index) or _name_fragment(located, index, region)
        if name is None and not skipped and located.amounts[index]:
            pending.append(index)
            continue
        if (
            name is None
            and not _net_after_discount(located, index)
            and not (skipped and located.lines[index].has_letters)
        ):
            continue  # "*", "S", "RM": filler between the numbers of one row
        if pending:
            rows.append(read_row(located, tuple(pending), None))
            pending = []
        if name is not None:
            rows.append(read_row(located, (index,), name))
        else:
            rows = _with_net_total(located, index, rows)
    if pending:
        rows.append(read_row(located, tuple(pending), None))
    return [row for row in rows if row.name or row.total or row.unit or row.quantity]


def _name_fragment(located: Located, index: int, region: range) -> tuple[int, int, int] | None:
    """A piece of a name the box layout printed on a line of its own after the quantity ("1" / '9"HT' / "(AC)" /
    "LVDR-RG-1" / "27.80"): too short to be a name alone, and '9"HT' would pass for a number. It is a name part when
    it is in a run of at least two such pieces (or names) right below a bare count."""
    if not _fragment_like(located, index):
        return None
    above, below = index - 1, index + 1
    while above in region and _fragment_like(located, above):
        above -= 1
    while below in region and _fragment_like(located, below):
        below += 1
    if above not in region or not BARE_COUNT.fullmatch(located.lines[above].upper) or below - above - 1 < 2:
        return None
    line = located.lines[index]
    start = len(line.text) - len(line.text.lstrip())
    return index, start, len(line.text.rstrip())


def _fragment_like(located: Located, index: int) -> bool:
    """No price on the line, and a word of two letters or more that is not a unit, a tax flag, a code or a time."""
    line = located.lines[index]
    if not line.has_letters or any(a.money or a.at or a.decimals >= 3 for a in located.amounts[index]):
        return False
    if TIME.search(line.upper) or _skipped(located, index):
        return False
    for token in TOKEN.finditer(line.upper):
        word = re.sub(r"[^A-Z0-9]", "", token.group())
        letters = sum(c.isalpha() for c in word)
        if letters >= 2 and not (NUMERIC_TOKEN.fullmatch(word) or _leading_code(token.group()) or word in NOT_NAME):
            return True
    return False


def _net_after_discount(located: Located, index: int) -> Amount | None:
    """ "DISC -28.00 108.00": the item's total after its discount, printed on the discount line."""
    amounts = located.amounts[index]
    if not any(a.value < 0 for a in amounts) or not amounts or not amounts[-1].money or amounts[-1].value <= 0:
        return None
    return amounts[-1]


def _with_net_total(located: Located, index: int, rows: list[Row]) -> list[Row]:
    net = _net_after_discount(located, index)
    if rows and rows[-1].total is None and net is not None:
        rows[-1] = replace(rows[-1], total=net)
    return rows


def _skipped(located: Located, index: int) -> bool:
    text = located.lines[index].upper
    if not text.strip() or NOT_ITEM.search(text) or _is_heading(text) or DECOR.match(text):
        return True
    if ATTRIBUTE.search(text) and "@" not in text:  # "White / M @ 29.00 (was 35.00)" still gives the unit price
        return True
    return any(amount.value < 0 and amount.money for amount in located.amounts[index])


def name_span(located: Located, index: int) -> tuple[int, int, int] | None:
    """The item name on a line: after any code or line number, before the run of numbers and flags at its end."""
    line = located.lines[index]
    tokens = list(TOKEN.finditer(line.upper))
    first = 0
    while first < len(tokens) and _leading_code(tokens[first].group()):
        first += 1
    priced = any(a.money or a.at or a.decimals >= 3 for a in located.amounts[index])
    last = _trailing_run_start(tokens, located.amounts[index]) if priced else len(tokens)
    if last <= first:
        return None
    start, end = tokens[first].start(), tokens[last - 1].end()
    if sum(c.isalpha() for c in line.upper[start:end]) < MIN_NAME_LETTERS:
        return None
    return index, start, end


def _trailing_run_start(tokens: list[re.Match], amounts: tuple[Amount, ...]) -> int:
    """Index of the first token of the numbers at the end of a line (short flags after a money amount included)."""
    money_end = max((a.end for a in amounts if a.money), default=None)
    last = len(tokens)
    while last > 0:
        token = tokens[last - 1]
        flag = money_end is not None and token.start() >= money_end and FLAG_TOKEN.fullmatch(token.group())
        if not (NUMERIC_TOKEN.fullmatch(token.group()) or NOTE_TOKEN.fullmatch(token.group()) or flag):
            break
        last -= 1
    return last


def _leading_code(token: str) -> bool:
    return bool(CODE_TOKEN.match(token) or re.fullmatch(r"[X×]|\*", token))


def read_row(located: Located, lines: tuple[int, ...], name: tuple[int, int, int] | None) -> Row:
    """A row's line total, unit price and quantity from the numbers outside its name."""
    totals, units = [], []
    for amount in _amounts_after_name(located, lines, name):
        role = _role(located.lines[amount.line].num, amount)
        if role == "unit":
            units.append(amount)
        elif role == "total":
            totals.append(amount)
    total = totals[-1] if totals else None
    quantity, unit = _times(located, lines, name, total)
    if quantity and total and (total.line, total.start) == (quantity.line, quantity.start):
        totals = [t for t in totals if t is not total]  # "2.00 X 68.00": 2.00 is the count
        total = totals[-1] if totals else None
    quantity = quantity or _other_quantity(located, lines, name, total)
    unit = unit or (units[0] if units else _unit_from_prices(totals[:-1], quantity, total))
    text = located.lines[name[0]].upper[name[1] : name[2]] if name else ""
    row = Row(lines=lines, name=name, total=total, unit=unit, quantity=quantity, text=text)
    return _decimal_quantity(located, row)


def _amounts_after_name(located: Located, lines: tuple[int, ...], name: tuple[int, int, int] | None) -> list[Amount]:
    return [
        amount
        for index in lines
        for amount in located.amounts[index]
        if not (name and name[0] == index and amount.start < name[2])  # part of the name ("100 PLUS", "12*1KG")
    ]


def _role(text: str, amount: Amount) -> str | None:
    before = text[: amount.start]
    if amount.value <= 0 or amount.decimals == 0 or PRICE_NOTES.search(before):
        return None
    if amount.at or re.search(r"\d\s*[X×*]\s*(?:RM|\$|€)?\s*$", before):
        return "unit"
    if amount.money:
        return "total"
    return "unit" if amount.decimals in (3, 4) else None


def _unit_from_prices(prices: list[Amount], quantity: Quantity | None, total: Amount | None) -> Amount | None:
    """Among the other prices of a row, the unit price: the one that times the quantity comes nearest the total."""
    if total is None or not prices:
        return None
    count = quantity.value if quantity else Decimal(1)
    best = min(prices, key=lambda p: abs(p.value * count - total.value))
    return best if _close(best.value * count, total.value) else None


def _close(a: Decimal, b: Decimal) -> bool:
    return abs(a - b) <= max(Decimal("0.06") * abs(b), Decimal("0.05"))


def _outside_name(located: Located, index: int, name: tuple[int, int, int] | None) -> str:
    text = located.lines[index].num
    if name and name[0] == index:
        return text[: name[1]] + " " * (name[2] - name[1]) + text[name[2] :]
    return text


def _times(located, lines, name, total: Amount | None) -> tuple[Quantity | None, Amount | None]:
    """ "4 X 2.80", "3.05*1", "@3 X RM 3.38" (also split over the lines of a row): the whole number is the quantity,
    the other the unit price."""
    text, where = _joined(located, lines, name)
    for match in TIMES.finditer(text):
        a, b = (Decimal(match[g].replace(",", ".")) for g in ("a", "b"))
        count_side = "b" if _whole(b) and not _whole(a) else "a"
        price_side = "a" if count_side == "b" else "b"
        count = a if count_side == "a" else b
        if not 0 < count < 1000:
            continue
        line, start = where(match.start(count_side))
        quantity = Quantity(count, line, start, start + len(match[count_side]), explicit=True)
        price_line, price_start = where(match.start(price_side))
        unit = next((x for x in located.amounts[price_line] if x.start == price_start and x.decimals >= 2), None)
        return quantity, (None if unit is total and count != 1 else unit)
    return None, None


def _joined(located: Located, lines: tuple[int, ...], name: tuple[int, int, int] | None):
    """A row's lines as one text (names blanked), and a map from a position in it to (line, position in line)."""
    parts, offsets, position = [], [], 0
    for index in lines:
        part = _outside_name(located, index, name)
        parts.append(part)
        offsets.append((position, index))
        position += len(part) + 1

    def where(at: int) -> tuple[int, int]:
        start, index = max((o for o in offsets if o[0] <= at), key=lambda o: o[0])
        return index, at - start

    return " ".join(parts), where


def _whole(value: Decimal) -> bool:
    return value == value.to_integral_value()


def _other_quantity(located, lines, name, total: Amount | None) -> Quantity | None:
    """ "2 x Shirt", "X2", "QTY 2", "1 PC"; else a count just before the prices; else a count before the name."""
    text, where = _joined(located, lines, name)
    for pattern in QTY_FORMS:
        match = pattern.search(text)
        if match and 0 < Decimal(match["qty"].replace(",", ".")) < 1000:
            line, start = where(match.start("qty"))
            value = Decimal(match["qty"].replace(",", "."))
            return Quantity(value, line, start, start + len(match["qty"]), explicit=True)
    return _bare_quantity(located, lines, name) or (_leading_count(located, name) if total else None)


def _bare_quantity(located: Located, lines: tuple[int, ...], name: tuple[int, int, int] | None) -> Quantity | None:
    """A whole number printed just before the row's first price ("17 0.85 0.90 15.25", "1 3.50 0.00 3.50")."""
    numbers = _amounts_after_name(located, lines, name)
    for before, after in zip(numbers, numbers[1:], strict=False):
        if before.decimals == 0 and after.decimals >= 2 and 0 < before.value < 1000:
            return Quantity(before.value, before.line, before.start, before.end)
    return None


def _leading_count(located: Located, name: tuple[int, int, int] | None) -> Quantity | None:
    """ "2 x White Oxford Shirt  58.00", "2  Fries  7.00": a small number right before the name on the total's line."""
    if name is None:
        return None
    match = re.match(r"\s*(\d{1,3})\s*([X×])?\s+$", located.lines[name[0]].num[: name[1]])
    if match is None or int(match[1]) == 0:
        return None
    return Quantity(Decimal(match[1]), name[0], *match.span(1), explicit=bool(match[2]))


def _decimal_quantity(located: Located, row: Row) -> Row:
    """A three-decimal whole number is a quantity ("1.0000 48.00"); a two-decimal amount that times the unit price
    makes the total is a quantity too ("2.200 22.73 50.00": litres at a price per litre)."""
    if row.total is None or row.unit is None or (row.quantity and row.quantity.explicit):
        return row
    unit, total = row.unit, row.total.value
    if _whole(unit.value) and unit.decimals >= 3 and unit.value != total and unit.value < total:
        return replace(row, unit=None, quantity=Quantity(unit.value, unit.line, unit.start, unit.end, explicit=True))
    for amount in _amounts_after_name(located, row.lines, row.name):
        if (
            amount not in (unit, row.total)
            and amount.money
            and abs(amount.value * unit.value - total) <= Decimal("0.01")
        ):
            return replace(row, quantity=Quantity(amount.value, amount.line, amount.start, amount.end, explicit=True))
    return row


# --- Pairing names with numbers -----------------------------------------------------------------------------------


def pair_rows(rows: list[Row]) -> tuple[list[Draft], bool]:
    """Drafts of items (rows with a name and a total; number rows paired with a name row above or below) and
    whether names came first. The direction pairing more rows wins; then the one giving the first number row a name;
    then the one pairing nearer rows."""
    options = []
    for names_first in (True, False):
        drafts = _pairs(rows, names_first=names_first)
        first = next((row for row in rows if row.total is not None and row.name is None), None)
        distance = sum(abs(rows.index(d.names[0]) - rows.index(d.numbers)) for d in drafts)
        options.append(((len(drafts), any(d.numbers is first for d in drafts), -distance), drafts, names_first))
    _, drafts, names_first = max(options, key=lambda option: option[0])
    return drafts, names_first


def _pairs(rows: list[Row], *, names_first: bool) -> list[Draft]:
    drafts, used = [], set()
    for i, row in enumerate(rows):
        if row.total is None:
            continue
        if row.name is not None:
            drafts.append(Draft([row], row))
            continue
        partner = _partner(rows, i, -1 if names_first else 1, used)
        if partner is not None:
            used.add(partner)
            drafts.append(Draft([rows[partner]], row))
    return drafts


def _partner(rows: list[Row], i: int, step: int, used: set[int]) -> int | None:
    """The nearest name row without a total in one direction, not crossing another number row."""
    j = i + step
    while 0 <= j < len(rows):
        row = rows[j]
        if row.total is not None:
            return None
        if row.name is not None and j not in used:
            return j
        j += step
    return None


def attach_leftovers(rows: list[Row], drafts: list[Draft], names_first: bool) -> None:
    """Unpaired rows: details go to the neighbouring item whose total they explain; name rows continue the name of
    the item they touch (the separate name row below when names come first; else the name row above)."""
    owner = {id(row): draft for draft in drafts for row in draft.rows}
    leftovers = [i for i, row in enumerate(rows) if id(row) not in owner]
    for i in leftovers:
        if rows[i].unit or (rows[i].quantity and rows[i].quantity.explicit):
            _attach_detail(rows, i, owner)
    if names_first:
        for i in reversed(leftovers):
            _continue_name(rows, i, owner, below=True)
    for i in leftovers:
        _continue_name(rows, i, owner, below=False)


def _continue_name(rows: list[Row], i: int, owner: dict[int, Draft], *, below: bool) -> None:
    row = rows[i]
    j = i + 1 if below else i - 1
    if id(row) in owner or row.name is None or not 0 <= j < len(rows) or LONG_CODE.search(row.text):
        return
    neighbour = rows[j]
    draft = owner.get(id(neighbour))
    if draft is None or len(draft.names) >= MAX_NAME_LINES:
        return
    if below and neighbour is draft.names[0] and neighbour is not draft.numbers:
        draft.names.insert(0, row)
    elif not below and neighbour is draft.names[-1]:
        draft.names.append(row)
    else:
        return
    owner[id(row)] = draft


def _attach_detail(rows: list[Row], i: int, owner: dict[int, Draft]) -> None:
    candidates = [owner.get(id(rows[j])) for j in (i - 1, i + 1) if 0 <= j < len(rows)]
    candidates = [draft for draft in candidates if draft is not None and not draft.details]
    detail = rows[i]
    fitting = [d for d in candidates if _explains(detail, d.numbers.total)]
    target = fitting[0] if fitting else (candidates[0] if candidates else None)
    if target is not None:
        target.details.append(detail)
        owner[id(detail)] = target


def _explains(detail: Row, total: Amount | None) -> bool:
    if total is None or detail.unit is None:
        return False
    count = detail.quantity.value if detail.quantity else Decimal(1)
    return _close(count * detail.unit.value, total.value)


def _without_subtotal(located: Located, drafts: list[Draft]) -> None:
    """The box layout runs the last item's numbers into the unlabelled subtotal printed under it ("14.50" / "14.80" /
    "45.70", where 45.70 is every item added up): when the last number of the last item's number-only row is the sum
    of the other items' totals and an earlier price of that row, the item's numbers end at that price."""
    if len(drafts) < 2 or drafts[-1].numbers.name is not None or len(drafts[-1].numbers.lines) < 2:
        return
    row = drafts[-1].numbers
    others = sum((d.numbers.total.value for d in drafts[:-1]), Decimal(0))
    money = [a for a in _amounts_after_name(located, row.lines, None) if a.money and a.value > 0]
    if len(money) < 2 or money[-1] is not row.total:
        return
    price = next((a for a in money[:-1] if a.line < row.total.line and a.value + others == row.total.value), None)
    if price is not None:
        drafts[-1].numbers = read_row(located, tuple(i for i in row.lines if i <= price.line), None)


# --- Items --------------------------------------------------------------------------------------------------------


def _item(located: Located, number: int, draft: Draft) -> ExtractedItem:
    row = draft.numbers
    quantity = _best_quantity(draft)
    unit = next((r.unit for r in (row, *draft.details, *draft.names) if r.unit is not None), None)
    names = [r.name for r in draft.names if r.name is not None]
    evidence = {"item_name": tuple(Evidence(*span) for span in names), "total_price": (_evidence(row.total),)}
    if quantity:
        evidence["quantity"] = (Evidence(quantity.line, quantity.start, quantity.end),)
    if unit:
        evidence["unit_price"] = (_evidence(unit),)
    return ExtractedItem(
        line_number=number,
        item_name=" ".join(located.lines[line].text[start:end] for line, start, end in names),
        total_price=row.total.value,
        quantity=quantity.value if quantity else None,
        unit_price=unit.value if unit else None,
        confidence=_item_confidence(draft, quantity, unit),
        evidence=evidence,
    )


def _best_quantity(draft: Draft) -> Quantity | None:
    quantities = [r.quantity for r in (draft.numbers, *draft.details, *draft.names) if r.quantity is not None]
    return next((q for q in quantities if q.explicit), quantities[0] if quantities else None)


def _evidence(amount: Amount) -> Evidence:
    return Evidence(amount.line, amount.start, amount.end)


def _item_confidence(draft: Draft, quantity: Quantity | None, unit: Amount | None) -> float:
    confidence = 0.65 if draft.names[0] is draft.numbers else 0.55
    if quantity and unit:
        confidence += 0.15 if _close(quantity.value * unit.value, draft.numbers.total.value) else -0.15
    return confidence


def _with_confidence(items: list[ExtractedItem], money: MoneyFields) -> list[ExtractedItem]:
    """Items whose totals add up to the subtotal or total are all more likely right."""
    if not items:
        return items
    added = sum((item.total_price for item in items), Decimal(0))
    targets = [c.item.amount.value for c in (money.subtotal, money.total) if c is not None]
    bonus = 0.2 if any(abs(added - target) <= Decimal("0.05") for target in targets) else -0.1
    return [replace(item, confidence=round(max(0.1, min(0.97, item.confidence + bonus)), 2)) for item in items]
