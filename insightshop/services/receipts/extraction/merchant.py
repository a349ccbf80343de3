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
from .normalise import WORD, Line, digits_in_numbers, letters_in_words, one_edit_apart, upper_same_length

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
UNIT_NUMBER = re.compile(
    r"^\W*[A-Z]{1,2}\d?(?:\s?[-.]+\s?[A-Z]?\d{1,4}[A-Z]?){1,3}\s*,"
)  # "A-16-1,", "G-26,", "F.K06,"
STATE_AT_END = re.compile(  # the line ends with the state or city, and not with a comma ("JALAN IPOH," goes on)
    rf"(?<!JALAN )(?<!JLN )(?<!JL )(?<!LORONG )(?<!GENTING )\b(?:{vocabulary.STATES}|{vocabulary.TOWNS})[^\w,]*$"
)
PHONE = re.compile(r"^\W*[\d\s()+-]{7,}\W*$")
LOT_NUMBER = re.compile(r"\b(?:LOT|PT|PTD|P\.\s?T\.|NO|UNIT)\s*[.:]?\s*$")  # "LOT 34817", "PT15944": not postcodes
CONTINUES_UP = re.compile(r"^\s*[&(,\-]|^\s*(?:CO\b|SDN\b|BHD\b)")
TITLE_TAIL = re.compile(
    r"(?:^|\s+)(?:SIMPLIFIED\s+)?(?:RECEIPT|TAX\s*INVOICE|INVOICE|SALES RECEIPT|ORDER CONFIRMATION)\s*$"
)
BRACKETED = re.compile(r"\([^)]*\)?|^[^(]*\)")  # a bracketed part, or one left open or closed at the line's edge
LABEL_END = re.compile(r"(?:\b(?:NUMBER|NO|NUM)\b\.?|[:#])\s*$")  # "PREPAY CHIT NUMBER": a label, its value below
REGISTRATION_LEAD = re.compile(rf"^\W*(?:{vocabulary.REGISTRATION})")  # "(1035693-T)," a registration number
ADDRESS_LABEL = re.compile(r"^\W*(?:(?:HQ|HEAD OFFICE|OUTLET|SHOP|BRANCH)\s+)?(?:ADD|ADDR|ADDRESS|ALAMAT)\b\.?\s*:\s*")
BRACKETED_REGISTRATION = re.compile(r"\(\s*(?:CO\.?\s*(?:REG|NO)\.?\s*:?\s*)?\d{4,}-?[A-Z]\s*\)[\s,.]*$")
REGISTRATION_LINE = re.compile(  # "(1095514-X)", "CO. REG. NO: 001011128-T", "COMPANY NO: SA0127959-D", "ROC NO. : …"
    r"^\W*(?:(?:CO\.?|COMPANY)\s*(?:REG(?:ISTRATION)?\.?\s*)?(?:NO\.?)?|ROC(?:\s*NO\.?)?|REG\.?\s*NO\.?)\s*[:.]?\s*\(?"
    r"[A-Z]{0,3}\d{4,}-?[A-Z]\b|^\W*\(?\s*\d{4,}-?[A-Z]\s*\)?\W*$"
)
SPACED_END = re.compile(r"(?<=\w)\s+([,.])\s*$")  # "JALAN KPB 6 ,", "PETALING JAYA ."
GLUED_STREET = re.compile(  # "OFF JALANPUDU": a street word run into the name after it (not BANDARAYA, LEBUHRAYA)
    r"\b(JALAN|JLN|TAMAN|TMN|LORONG|BANDAR|KAWASAN|PERSIARAN|KAMPUNG|SEKSYEN)(?!AYA\b|AN\b)(?=[A-Z]{3,})"
)
DOUBLED_HYPHEN = re.compile(r"(?<=\w)-{2,}(?=\w)")  # "A--16-1": a unit number has one hyphen between its parts
SPACED_STOP = re.compile(r"(?<=\w)\s+\.\s+(?=\w)")  # "NO . 3", "B . CAVES"
NUMBERED_START = re.compile(r"^\W*(?:NO|LOT|UNIT|BLOCK|BLK)\b\.?\s*[:.]?\s*[A-Z]?-?\d")  # "NO 15 JALAN", "LOT 2-1"
LABELLED = re.compile(r"(?:\bNUMBER|\bNO\.?|#)\s*[:#]\s*$")  # "CHIT NUMBER: 12091", "ORDER #: 10234": not postcodes
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
        if line.index not in date_lines
        and (tier := merchant_tier(line))
        and (tier == 3 or line.index < end or _registered(lines, line.index))  # a footer printed first
    }
    index = _choose_name_line(tiers, {i for i in tiers if _registered(lines, i)})
    if index is None:
        return None
    first, last = _joined_range(lines, index, end)
    spans = [span for i in range(first, last + 1) if (span := _name_span(lines[i])) is not None]
    value = as_named(" ".join(lines[i].text[s:e] for i, s, e in spans))
    return TextField(value, tuple(spans), {3: 0.85, 2: 0.75, 1: 0.6}[tiers[index]]) if value else None


LEGAL_MISREAD = re.compile(r"\b(SDN\.?\s*)(?:BND|BHO|BH)\b")  # "SDN BND": the H or D misread
GLUED_LEGAL = re.compile(r"\bSDNBHD\b")  # the space OCR dropped ("SDN.BHD" as printed stays)
LONG_BUSINESS_WORDS = tuple(
    word for pattern in vocabulary.BUSINESS_WORDS if len(word := pattern.strip("\\b")) >= 8 and word.isalpha()
)


def _digits_as_letters(text: str) -> str:
    """Digits OCR put inside the words of an address line read as letters ("SE1ANGOR", "5ELANGOR", "TAMAN 8ARU"):
    only between two letters, or first before four letters or more. A number at a word's end ("UG1", "NO1"), an
    ordinal ("1ST") or a code with as many digits as letters ("SS21", "U5") stays."""
    key = letters_in_words(upper_same_length(text))

    def fix(match: re.Match) -> str:
        word, start = match.group(), match.start()
        chars = list(word)
        for i, c in enumerate(word):
            if not c.isdigit() or key[start + i] == c:
                continue
            inside = 0 < i < len(word) - 1 and word[i - 1].isalpha() and word[i + 1].isalpha()
            leading = i == 0 and len(word) >= 5 and word[1:].isalpha()
            if inside or leading:
                chars[i] = key[start + i]
        return "".join(chars)

    return WORD.sub(fix, text)


def _letters_as_digits(text: str) -> str:
    """Letters OCR put inside the numbers of an address line read as digits ("551O0" -> "55100", "56I00" -> "56100"):
    only in a word with more digits than letters, where the number form reads a digit."""
    num = digits_in_numbers(upper_same_length(text))

    def fix(match: re.Match) -> str:
        word, start = match.group(), match.start()
        if sum(c.isdigit() for c in word) <= sum(c.isalpha() for c in word):
            return word
        return "".join(num[start + i] if c.isalpha() and num[start + i].isdigit() else c for i, c in enumerate(word))

    return WORD.sub(fix, text)


def as_named(name: str) -> str:
    """The printed name as it is spelt: digits that OCR put inside its words read as the letters they resemble
    ("5DN 8HD" -> "SDN BHD", "G1N KEE" -> "GIN KEE"; "99 SPEED MART", "CT281" stay), and its legal form and long
    business words right where the print has one letter wrong ("SDN BND" -> "SDN BHD", "ENTERORISE" / "ENTYERPRISE"
    -> "ENTERPRISE"; the first and last letters must agree, so "STATIONER" and "STATIONERS" stay). Case as printed."""
    key = letters_in_words(upper_same_length(name))
    name = "".join(k if c.isdigit() else c for c, k in zip(name, key, strict=True))
    name = GLUED_LEGAL.sub("SDN BHD", LEGAL_MISREAD.sub(r"\1BHD", name))
    return WORD.sub(lambda m: _business_word(m.group()), name)


def _business_word(word: str) -> str:
    if not word.isupper() or len(word) < 8 or word in LONG_BUSINESS_WORDS:
        return word
    for known in LONG_BUSINESS_WORDS:
        if known[0] == word[0] and known[-1] == word[-1] and one_edit_apart(word, known):
            return known
    return word


def _choose_name_line(tiers: dict[int, int], registered: set[int] = frozenset()) -> int | None:
    """The best legal-form or business line (earlier is better), unless a plain name line at the top beats it; else
    the first plain name line (a brand is printed first: "TARGET" above its branch "Carmel Mountain Ranch"). A name
    with its company registration number beside or right below it is the registered business: it counts a tier
    more ("ESJAY FUEL ENTERPRISE" / "CO. REG. NO: 001011128-T" below the station's brand)."""
    ranked = {index: min(tier + (index in registered), 3) for index, tier in tiers.items()}
    named = [(tier - LINE_PENALTY * index, index) for index, tier in ranked.items() if tier >= 2]
    best = max(named, default=None)
    plain = [index for index, tier in ranked.items() if tier == 1]
    if best is not None and (best[0] >= 1 or not plain):
        return best[1]
    return plain[0] if plain else None


def _registered(lines: tuple[Line, ...], index: int) -> bool:
    """A company registration number closes the line ("BEST DENKI MALAYSIA (308282-A)") or is the next line."""
    below = lines[index + 1].upper if index + 1 < len(lines) else ""
    return bool(BRACKETED_REGISTRATION.search(lines[index].upper) or REGISTRATION_LINE.match(below))


def merchant_tier(line: Line) -> int:
    """3 legal form, 2 business word, 1 name-like, 0 not a name (judged on the name part of the line)."""
    span = _name_span(line)
    text = line.upper[span[1] : span[2]] if span else ""
    letters = sum(c.isalpha() for c in text)
    if letters < 3 or NOT_MERCHANT.search(text) or REGISTRATION_ONLY.match(text) or _is_header(text):
        return 0
    if _in_brackets(line.upper):
        return 0  # "(TONYMOLY SHOP (95874))", "(SUBANG JASA)": a branch or code under the name, never the name itself
    if LEGAL.search(text):
        return 3
    if KEY_VALUE.match(text):
        return 0
    if BUSINESS.search(text) and not STREET.search(text):
        return 2
    if letters < 0.5 * len(text.strip()) or _address_like(line) and not BRACKETED_REGISTRATION.search(line.upper):
        return 0  # an address line; but "BEST DENKI MALAYSIA (308282-A)" is a company with its registration number
    return 1


def _in_brackets(text: str) -> bool:
    """The whole line is one bracketed group."""
    text = text.strip()
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and i < len(text) - 1:
            return False
    return True


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
    """The name began on the line above: this line is only a legal form (or a fragment and one: "CO. (M) SDN BHD"),
    starts mid-name ("& TEA LEAF"), or holds nothing but business words ("ENTERPRISE (SETIA"). A legal-form line with
    a name of its own ("TRENDYMAX (M) SDN. BHD." under the brand "SARANG HAE YO") is the whole name."""
    if merchant_tier(above) == 0 or LEGAL.search(above.upper):
        return False
    core = LEGAL.split(_strip_registration(line.upper))[0]
    words = BRACKETED.sub(" ", core).split()
    generic = all(BUSINESS.fullmatch(word) or not any(c.isalpha() for c in word) for word in words)
    fragment = not words or len(words) == 1 and sum(c.isalpha() for c in words[0]) <= 3  # "CO. (M) SDN BHD"
    return fragment or generic or bool(CONTINUES_UP.match(line.upper)) or _open_ended(above.upper)


def _continues_down(line: Line, below: Line) -> bool:
    """The name goes on below: this line ends open ("HARDWARE &") before any legal form, or the next line is only
    the legal form."""
    only_legal = LEGAL.sub("", _strip_registration(below.upper)).strip(" .,") == ""
    open_ended = _open_ended(line.upper) and not LEGAL.search(line.upper)  # "SDN BHD (417940-M)," ends the name
    return open_ended and merchant_tier(below) > 0 or only_legal and bool(LEGAL.search(below.upper))


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
    end = _legal_end(line.key[: len(text)], start) or len(_strip_registration(text))  # "SDN 8HD": digits as letters
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
    if NOT_MERCHANT.search(part) and not any(c.isdigit() for c in part):
        return False  # "TQ FOR SHOPPING WITH MYNEWS.COM": a greeting, not a street
    if part.strip().startswith("(") and part.strip().endswith(")"):
        return False  # "(JALAN KLANG LAMA)": a branch named in brackets, not a street line
    postcode = any(not LABELLED.search(part[: m.start()]) for m in POSTCODE.finditer(part))
    return bool(STREET.search(part) or postcode or HOUSE_NUMBER.match(part) or UNIT_NUMBER.match(part))


def find_address(located: Located, merchant: TextField | None) -> TextField | None:
    """The address lines below the merchant, joined with spaces."""
    lines, end = located.lines, min(header_end(located) + 2, len(located.lines))
    date_lines = {hit.line for hit in located.dates}
    after = (merchant.spans[-1][0] + 1) if merchant else 0
    merchant_lines = {span[0] for span in merchant.spans} if merchant else set()
    if after >= end:  # the header printed below amounts (a footer first): the address is still under the merchant
        end = min(after + vocabulary.MAX_ADDRESS_LINES, len(lines))
    candidates = [*range(after, min(end, after + 6)), *range(0, after)]  # below the merchant first
    excluded = date_lines | merchant_lines | {item.amount.line for item in located.labelled}
    first = next((i for i in candidates if i not in excluded and _starts_address(lines[i])), None)
    if first is None:
        return None
    first = _street_line_above(lines, _open_lines_above(lines, first, excluded), excluded)
    first = _past_branch_name(lines, first, excluded)
    spans = _address_spans(lines, first, excluded)
    label = ADDRESS_LABEL.match(lines[first].upper)
    if label and spans and spans[0][0] == first:  # "HQ ADD: LOT 11995, ...": the label is not part of the address
        spans[0] = _trimmed(lines[first], label.end(), spans[0][2]) or spans[0]
    value = " ".join(as_typed(lines[i].text[s:e]) for i, s, e in spans)
    postcode = any(has_postcode(lines[i].upper[s:e]) for i, s, e in spans)
    if (
        not postcode
        and _below_contact(lines, after, first)
        and not any(_streetish(lines[i].upper[s:e]) for i, s, e in spans)
    ):
        return None  # "4 CHILIS3" / "23 ANIS" under the TEL and GST lines: a table and covers, not an address
    # Exact-match accuracy of addresses with a postcode is about two in three (punctuation and line-breaks differ
    # between printers and annotators), so even a complete-looking address stays near the 0.7 threshold.
    return TextField(value, tuple(spans), 0.75 if postcode else 0.55) if value else None


def _below_contact(lines: tuple[Line, ...], after: int, first: int) -> bool:
    """Contact details or tax numbers are printed between the merchant and the line taken as the address's first."""
    return any(STOP.search(lines[i].upper) for i in range(after, first))


def _streetish(text: str) -> bool:
    return bool(STREET.search(text) or PLACE.search(text))


def as_typed(part: str) -> str:
    """An address line as people type it: a comma or full stop that the print sets off with a space is written
    against the word before it ("JALAN KPB 6 ," -> "JALAN KPB 6,", "PETALING JAYA ." -> "PETALING JAYA.",
    "NO . 3" -> "NO.3"), digits misread inside its words as letters and letters inside its numbers as digits, a
    street word run into the next word written apart ("JALANPUDU") and a doubled hyphen as one ("A--16-1");
    everything else as printed."""
    part = GLUED_STREET.sub(r"\1 ", SPACED_END.sub(r"\1", _letters_as_digits(_digits_as_letters(part))))
    part = DOUBLED_HYPHEN.sub("-", part)
    return SPACED_STOP.sub(".", part)


def _past_branch_name(lines: tuple[Line, ...], first: int, excluded: set[int]) -> int:
    """A branch or outlet name printed above the numbered street line ("SUSHI KING PLAZA DAMAI" over "NO.37-1, PLAZA
    DAMAI 2,", "BANDAR BARU BANGI" over "NO 15 JALAN 10" / "BANDAR BARU BANGI"): a line without a number whose last
    words come again in the address right below it names the shop, it is not the first line of its address."""
    text = _part(lines[first]).strip()
    below = [i for i in range(first + 1, min(first + 3, len(lines))) if i not in excluded]
    if any(c.isdigit() for c in text) or not below or below[0] != first + 1:
        return first
    street = _part(lines[first + 1]).strip()
    if not (HOUSE_NUMBER.match(street) or UNIT_NUMBER.match(street) or NUMBERED_START.match(street)):
        return first
    words = re.findall(r"[A-Z0-9']+", text)
    tail = r"\W+".join(re.escape(word) for word in words[-2:])
    if len(words) < 2 or not any(re.search(rf"\b{tail}\b", _part(lines[i])) for i in below):
        return first
    return first + 1


def _open_lines_above(lines: tuple[Line, ...], first: int, excluded: set[int]) -> int:
    """The address starts higher when the lines above its first line end with a comma and carry a unit number or a
    street word ("A-G-06, DATARAN GLOMAC," / "NO.1," / "CAR PARK OFFICE, BASEMENT 1," above the street line)."""
    for above in range(first - 1, max(first - 3, -1), -1):
        line = lines[above]
        part = _part(line).strip()
        numbered = any(c.isdigit() for c in part) or STREET.search(part)
        if above in excluded or len(part) < len(line.upper.strip()) or not part.endswith(",") or not numbered:
            break
        if PHONE.match(part) or REGISTRATION_ONLY.match(part.rstrip(",")) or REGISTRATION_LEAD.match(part):
            break
        first = above
    return first


def _street_line_above(lines: tuple[Line, ...], first: int, excluded: set[int]) -> int:
    """An address does not start with its postcode: when the first line found starts with one, the line right above
    it is the street ("AUTOROUTE RABAT MEKNES" / "15000 KHEMISSET"), unless that line is something else."""
    above = first - 1
    if above < 0 or above in excluded or not POSTCODE.match(_part(lines[first]).strip()):
        return first
    part = _part(lines[above]).strip()
    if len(part) < len(lines[above].upper.strip()) or sum(c.isalpha() for c in part) < 3 or NOT_MERCHANT.search(part):
        return first
    if PHONE.match(part) or REGISTRATION_ONLY.match(part) or REGISTRATION_LEAD.match(part) or _in_brackets(part):
        return first
    if merchant_tier(lines[above]) >= 2 and not _address_like(lines[above]):
        return first  # a business's name ("KEDAI MAKAN MAJU"), not its street
    return above


def _address_spans(lines: tuple[Line, ...], first: int, excluded: set[int]) -> list[tuple[int, int, int]]:
    spans: list[tuple[int, int, int]] = []
    postcode_line: Line | None = None
    for line in lines[first : first + vocabulary.MAX_ADDRESS_LINES]:
        if spans and not _address_continues(line, postcode_line, excluded):
            break
        if postcode_line is None and spans and _ends_with_state(lines, spans[-1]) and not _closes(line):
            break  # the line above ended with the state or city ("8175 MASAI, JOHOR"): the address is over
        part = _part(line)
        span = _trimmed(line, 0, len(part))
        if span:
            spans.append(span)
        if postcode_line is not None or len(part) < len(line.upper):
            break  # one line at most after the postcode; nothing after contact details
        postcode_line = line if has_postcode(part) else None
    if spans and not any(has_postcode(lines[i].upper[s:e]) for i, s, e in spans):
        spans += _postcode_past_contact(lines, spans[-1][0] + 1, excluded)
    closing = _closing_line(lines, spans, excluded) if postcode_line is not None or len(spans) > 1 else None
    return [*spans, closing] if closing and any(has_postcode(lines[i].upper[s:e]) for i, s, e in spans) else spans


def _postcode_past_contact(lines: tuple[Line, ...], index: int, excluded: set[int]) -> list[tuple[int, int, int]]:
    """The postcode line printed under a contact line that interrupts the address ("TEL: 03-51221701" between
    "SECTION 25, TAMAN INDUSTRIES." and "AXIS 40400 SHAH ALAM, SELANGOR")."""
    if index + 1 >= len(lines) or index + 1 in excluded or _part(lines[index]).strip(" -*=:"):
        return []
    line = lines[index + 1]
    part = _part(line)
    if not has_postcode(part) or PHONE.match(part) or REGISTRATION_ONLY.match(part.strip()):
        return []
    span = _trimmed(line, 0, len(part))
    return [span] if span else []


def _ends_with_state(lines: tuple[Line, ...], span: tuple[int, int, int]) -> bool:
    return bool(STATE_AT_END.search(lines[span[0]].upper[: span[2]]))


def _closes(line: Line) -> bool:
    """A postcode, state or country: all that may follow a line ending with the state or city."""
    return has_postcode(_part(line)) or bool(ADDRESS_TAIL.match(_part(line).strip()))


def _closing_line(lines: tuple[Line, ...], spans: list, excluded: set[int]) -> tuple[int, int, int] | None:
    """The branch or outlet line that closes an address block ("1320-TMN BATU", "(MR DIY TESCO TERBAU)", "PAHANG"):
    right after the postcode and state, and itself right above contact details, tax numbers or a document title. A
    bare mall or branch name ("SUNWAY VELOCITY", "IOI MALL": no outlet number, no brackets, not a state) is where
    the shop is, not part of its postal address; a label waiting for its value ("PREPAY CHIT NUMBER") is neither."""
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
    bare_name = not any(c.isdigit() for c in part) and not part.startswith("(") and not ADDRESS_TAIL.match(part)
    if bare_name or LABEL_END.search(part):
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
    if LABEL_END.search(part):
        return False  # "PREPAY CHIT NUMBER", "INVOICE NO:": a label waiting for its value
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
