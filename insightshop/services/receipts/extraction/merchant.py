"""Stage 3b — merchant name and address, from the receipt's header (the lines above the first amount).

The merchant is the header line that carries a legal form (SDN BHD, LTD, GMBH …), else a business word (TRADING,
RESTAURANT, MART …), else the first name-like line; a legal form far down the header loses to a name at the top.
A name broken over lines ("POPULAR BOOK" / "CO. (M) SDN BHD") is joined. The address is the run of address-like
lines below the merchant, up to the postcode line (and a state, country or town after it), stopping at contact
details and tax numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import vocabulary
from .locate import Located
from .normalise import Line

LEGAL = re.compile("|".join(vocabulary.LEGAL_FORMS))
BUSINESS = re.compile("|".join(vocabulary.BUSINESS_WORDS))
NOT_MERCHANT = re.compile("|".join(vocabulary.NOT_MERCHANT))
PREFIX = re.compile("|".join(vocabulary.MERCHANT_PREFIXES))
REGISTRATION_TAIL = re.compile(rf"[\s,]*(?:{vocabulary.REGISTRATION})[\s,.;:]*$")
REGISTRATION_ONLY = re.compile(rf"^[\W]*(?:{vocabulary.REGISTRATION}|[A-Z]{{0,3}}\d{{5,}}[- ]?[A-Z]?)[\W]*$")
STREET = re.compile("|".join(vocabulary.STREET_WORDS))
PLACE = re.compile("|".join(vocabulary.PLACE_WORDS))
POSTCODE = re.compile(vocabulary.POSTCODE)
POSTCODE_AT_END = re.compile(rf"(?:{vocabulary.POSTCODE})[\s,.]*$")
ADDRESS_TAIL = re.compile("|".join(vocabulary.ADDRESS_TAIL))
STOP = re.compile("|".join(vocabulary.ADDRESS_STOP))
ITEM_HEADER = re.compile("|".join(vocabulary.ITEM_HEADERS))
HOUSE_NUMBER = re.compile(r"^\W*(?:NO\.?\s*)?\d+[A-Z]?(?:\s*[-&,/]\s*\d+[A-Z]?)*\s*[,.]?\s+[A-Z]")
PHONE = re.compile(r"^\W*[\d\s()+-]{7,}\W*$")
LOT_NUMBER = re.compile(r"\b(?:LOT|PT|PTD|P\.\s?T\.|NO|UNIT)\s*[.:]?\s*$")  # "LOT 34817", "PT15944": not postcodes
CONTINUES_UP = re.compile(r"^\s*[&(,\-]|^\s*(?:CO\b|SDN\b|BHD\b)")
TITLE_TAIL = re.compile(r"\s+(?:RECEIPT|TAX INVOICE|INVOICE|SALES RECEIPT|ORDER CONFIRMATION)\s*$")
BRACKETED = re.compile(r"\([^)]*\)?|^[^(]*\)")  # a bracketed part, or one left open or closed at the line's edge
HEADER_LINES = 14
KEY_VALUE = re.compile(r"^\s*[A-Z][A-Z .]{1,20}\s*:\s*\S")  # "PRESIDENT : KANG", "CASHIER: ANN"
LINE_PENALTY = 0.25  # a legal form far down the header (a customer's company) loses to a name at the top


@dataclass(frozen=True)
class TextField:
    value: str
    spans: tuple[tuple[int, int, int], ...]  # (line, start, end) of each printed part
    confidence: float


def header_end(located: Located) -> int:
    """Index of the first line below the header: the first line with a money amount (at most HEADER_LINES)."""
    first_amount = next((item.amount.line for item in located.labelled), len(located.lines))
    return min(first_amount, HEADER_LINES, len(located.lines))


def find_merchant(located: Located) -> TextField | None:
    """The merchant's name as printed, joined over the lines it is broken across."""
    lines, end = located.lines, header_end(located)
    date_lines = {hit.line for hit in located.dates}
    tiers = {
        line.index: tier
        for line in lines[: min(HEADER_LINES, len(lines))]
        if line.index not in date_lines and (tier := merchant_tier(line)) and (tier == 3 or line.index < end)
    }
    index = _choose_name_line(tiers)
    if index is None:
        return None
    first, last = _joined_range(lines, index, end)
    spans = [span for i in range(first, last + 1) if (span := _name_span(lines[i])) is not None]
    value = " ".join(lines[i].text[s:e] for i, s, e in spans)
    return TextField(value, tuple(spans), {3: 0.85, 2: 0.75, 1: 0.6}[tiers[index]]) if value else None


def _choose_name_line(tiers: dict[int, int]) -> int | None:
    """The best legal-form or business line (earlier is better), unless a plain name line at the top beats it; else
    the first plain name line (a brand is printed first: "TARGET" above its branch "Carmel Mountain Ranch")."""
    named = [(tier - LINE_PENALTY * index, index) for index, tier in tiers.items() if tier >= 2]
    best = max(named, default=None)
    plain = [index for index, tier in tiers.items() if tier == 1]
    if best is not None and (best[0] >= 1 or not plain):
        return best[1]
    return plain[0] if plain else None


def merchant_tier(line: Line) -> int:
    """3 legal form, 2 business word, 1 name-like, 0 not a name (judged on the name part of the line)."""
    span = _name_span(line)
    text = line.upper[span[1] : span[2]] if span else ""
    letters = sum(c.isalpha() for c in text)
    if letters < 3 or NOT_MERCHANT.search(text) or REGISTRATION_ONLY.match(text) or _is_header(text):
        return 0
    if LEGAL.search(text):
        return 3
    if KEY_VALUE.match(text):
        return 0
    if BUSINESS.search(text) and not STREET.search(text):
        return 2
    if letters < 0.5 * len(text.strip()) or _address_like(line):
        return 0
    return 1


def _is_header(text: str) -> bool:
    """A column header ("QTY PRICE AMT"), not a name."""
    headers = ITEM_HEADER.findall(text)
    return len(headers) >= 2 or (bool(headers) and len(text.split()) <= len(headers))


def _joined_range(lines: tuple[Line, ...], index: int, end: int) -> tuple[int, int]:
    first, last = index, index
    while first > 0 and index - first < 2 and _continues_up(lines[first], lines[first - 1]):
        first -= 1
    while last + 1 < end and last - index < 1 and _continues_down(lines[last], lines[last + 1]):
        last += 1
    return first, last


def _continues_up(line: Line, above: Line) -> bool:
    """The name began on the line above: this line is only a legal form, starts mid-name ("& TEA LEAF"), or holds
    nothing but business words ("ENTERPRISE (SETIA")."""
    if merchant_tier(above) == 0 or LEGAL.search(above.upper):
        return False
    core = LEGAL.split(_strip_registration(line.upper))[0]
    words = BRACKETED.sub(" ", core).split()
    generic = all(BUSINESS.fullmatch(word) or not any(c.isalpha() for c in word) for word in words)
    return len(words) <= 1 or generic or bool(CONTINUES_UP.match(line.upper)) or _open_ended(above.upper)


def _continues_down(line: Line, below: Line) -> bool:
    """The name goes on below: this line ends open ("HARDWARE &") or the next line is only the legal form."""
    only_legal = LEGAL.sub("", _strip_registration(below.upper)).strip(" .,") == ""
    return _open_ended(line.upper) and merchant_tier(below) > 0 or only_legal and bool(LEGAL.search(below.upper))


def _open_ended(text: str) -> bool:
    stripped = text.rstrip()
    return stripped.endswith(("&", "-", ",")) or stripped.count("(") > stripped.count(")")


def _strip_registration(text: str) -> str:
    return REGISTRATION_TAIL.sub("", text)


def _name_span(line: Line) -> tuple[int, int, int] | None:
    """The part of a line that is the name: no branch or registration number, no "WELCOME TO"."""
    text = line.upper
    prefix = PREFIX.match(text)
    start = prefix.end() if prefix else 0
    title = TITLE_TAIL.search(text)  # "InsightShop Receipt": the shop's name, then the document's title
    text = text[: title.start()] if title and title.start() > start else text
    end = _legal_end(text, start) or len(_strip_registration(text))
    end = _without_numbered_group(text, start, end)
    while end > start and text[end - 1] in " ,;:-":
        end -= 1
    while start < end and text[start] in " ,;:-*":
        start += 1
    return (line.index, start, end) if end > start else None


def _legal_end(text: str, start: int) -> int | None:
    """The end of the first legal form (with any legal form right after it: "PTE. LTD."), None without one."""
    end = None
    for match in LEGAL.finditer(text, start):
        if end is not None and match.start() > end + 2:
            break
        end = match.end()
    return end


def _without_numbered_group(text: str, start: int, end: int) -> int:
    """Cut a trailing bracketed group that holds a number: "TONYMOLY VIVA CITY (TONYMOLY SHOP (95874))"."""
    stripped = text[start:end].rstrip()
    if not stripped.endswith(")"):
        return end
    depth, i = 0, len(stripped) - 1
    while i >= 0:
        depth += {")": 1, "(": -1}.get(stripped[i], 0)
        if depth == 0:
            break
        i -= 1
    group = stripped[i:]
    return start + i if i > 0 and sum(c.isdigit() for c in group) >= 4 else end


def _address_like(line: Line) -> bool:
    text = line.upper
    return bool(STREET.search(text) or PLACE.search(text) or POSTCODE.search(text) or HOUSE_NUMBER.match(text))


def _part(line: Line) -> str:
    """The line up to its contact details or tax numbers."""
    stop = STOP.search(line.upper)
    return line.upper[: stop.start()] if stop else line.upper


def _starts_address(line: Line) -> bool:
    part = _part(line)
    if sum(c.isalnum() for c in part) < 4 or REGISTRATION_ONLY.match(part):
        return False
    return bool(STREET.search(part) or POSTCODE.search(part) or HOUSE_NUMBER.match(part))


def find_address(located: Located, merchant: TextField | None) -> TextField | None:
    """The address lines below the merchant, joined with spaces."""
    lines, end = located.lines, min(header_end(located) + 2, len(located.lines))
    date_lines = {hit.line for hit in located.dates}
    after = (merchant.spans[-1][0] + 1) if merchant else 0
    merchant_lines = {span[0] for span in merchant.spans} if merchant else set()
    candidates = [*range(after, min(end, after + 6)), *range(0, after)]  # below the merchant first
    excluded = date_lines | merchant_lines | {item.amount.line for item in located.labelled}
    first = next((i for i in candidates if i not in excluded and _starts_address(lines[i])), None)
    if first is None:
        return None
    spans = _address_spans(lines, first, excluded)
    value = " ".join(lines[i].text[s:e] for i, s, e in spans)
    postcode = any(has_postcode(lines[i].upper[s:e]) for i, s, e in spans)
    # Exact-match accuracy of addresses with a postcode is about two in three (punctuation and line-breaks differ
    # between printers and annotators), so even a complete-looking address stays near the 0.7 threshold.
    return TextField(value, tuple(spans), 0.75 if postcode else 0.55) if value else None


def _address_spans(lines: tuple[Line, ...], first: int, excluded: set[int]) -> list[tuple[int, int, int]]:
    spans: list[tuple[int, int, int]] = []
    postcode_line: Line | None = None
    for line in lines[first : first + vocabulary.MAX_ADDRESS_LINES]:
        if spans and not _address_continues(line, postcode_line, excluded):
            break
        part = _part(line)
        span = _trimmed(line, 0, len(part))
        if span:
            spans.append(span)
        if postcode_line is not None or len(part) < len(line.upper):
            break  # one line at most after the postcode; nothing after contact details
        postcode_line = line if has_postcode(part) else None
    closing = _closing_line(lines, spans, excluded) if postcode_line is not None or len(spans) > 1 else None
    return [*spans, closing] if closing and any(has_postcode(lines[i].upper[s:e]) for i, s, e in spans) else spans


def _closing_line(lines: tuple[Line, ...], spans: list, excluded: set[int]) -> tuple[int, int, int] | None:
    """The branch or outlet line that closes an address block ("1320-TMN BATU", "(MR DIY TESCO TERBAU)",
    "KL FESTIVAL CITY MALL"): right after the postcode and state, and itself right above contact details, tax
    numbers or a document title."""
    index = spans[-1][0] + 1
    if index + 1 >= len(lines) or index in excluded or not _ends_block(lines[index + 1]):
        return None
    line = lines[index]
    part = _part(line).strip()
    plain = len(part) == len(line.upper.strip()) and not PHONE.match(part) and not REGISTRATION_ONLY.match(part)
    letters = sum(c.isalpha() for c in part)
    company = (LEGAL.search(part) or BUSINESS.search(part)) and not STREET.search(part)  # the next business's name
    if not plain or letters < 3 or company or NOT_MERCHANT.search(part) or sum(c.isdigit() for c in part) > 5:
        return None
    return _trimmed(line, 0, len(line.text))


def _ends_block(line: Line) -> bool:
    """Contact details, a tax or registration number or a title start the line: the address block is over."""
    return not _part(line).strip(" -*=:") or bool(PHONE.match(line.upper) or REGISTRATION_ONLY.match(line.upper))


def _address_continues(line: Line, postcode_line: Line | None, excluded: set[int]) -> bool:
    """Whether the line below an address line goes on with the address (dates and amounts never do)."""
    part = _part(line).strip()
    if not part or line.index in excluded or PHONE.match(part) or REGISTRATION_ONLY.match(part):
        return False
    if postcode_line is not None:
        # After the postcode only a state or country, or the town when the postcode ended the line above.
        # ("39100 BRINCHANG," / "CAMERON HIGHLANDS, PAHANG": a postcode line ending in a comma goes on too)
        ends_open = POSTCODE_AT_END.search(_part(postcode_line)) or _part(postcode_line).rstrip().endswith(",")
        return bool(ADDRESS_TAIL.match(part)) or bool(ends_open and _town(part))
    return _address_like(line) or (sum(c.isalpha() for c in part) >= 3 and not NOT_MERCHANT.search(part))


def has_postcode(text: str) -> bool:
    """A postcode on the line; a number that starts the line and is followed by a street is a house number
    ("11665 Carmel Mountain Rd")."""
    for match in POSTCODE.finditer(text):
        house = not text[: match.start()].strip() and STREET.search(text[match.end() :])
        if not house and not LOT_NUMBER.search(text[: match.start()]):
            return True
    return False


def _town(text: str) -> bool:
    return not any(c.isdigit() for c in text) and sum(c.isalpha() for c in text) >= 3


def _trimmed(line: Line, start: int, end: int) -> tuple[int, int, int] | None:
    text = line.text
    while start < end and text[start] in " \t":
        start += 1
    while end > start and text[end - 1] in " \t":
        end -= 1
    return (line.index, start, end) if end > start else None
