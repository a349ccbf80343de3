"""Numeric and age sizes, read through the size guide: "jeans in a 32" (a waist), "size 10 trainers" (a UK shoe
size), "a dress in a 10" (a UK dress size), "for my 7 year old" (a child's age), "120cm tall", "15.5 collar".

What a number measures, the words that say so and the guide column it is looked up in are data
(data/lexicons/sizes.json); the letters come from services/size_guide.py. The patterns below only find numbers and
their units (entities); which measure a bare number is comes from the lexicon's bare_numbers rows.

resolve(text, department, clothing_type) -> (letter, said) is what other acts call; readings() gives every
department's reading; sentence() words one for a reply ("In our size guide a 32-inch waist is a men's M.")."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ...services import size_guide

LEXICON = Path(__file__).with_name("data") / "lexicons" / "sizes.json"
DEPARTMENTS = ("men", "women", "kids")


@cache
def lexicon() -> dict:
    """The sizes lexicon (data/lexicons/sizes.json)."""
    return json.loads(LEXICON.read_text())


@dataclass(frozen=True)
class Mention:
    """A number the message gives as a size or a measurement, where it was said."""

    value: float
    measure: str | None  # None: a bare or "size N" number, its measure decided by the garment (bare_numbers)
    unit: str | None  # "in", "cm", "years", "kg"; a size system ("uk", "us", "eu"); None when not said
    start: int
    end: int
    raw: str


@dataclass(frozen=True)
class Reading:
    """One department's letter for a mention."""

    letter: str
    department: str
    measure: str
    said: str  # "a 32-inch waist", "a 7-year-old", "a UK 10"
    other: str | None = None  # the letter in the other size system ("a US 10 would be L"), when it differs


# Entities: numbers with their units. Which measure a word names is the lexicon's.
NUM = r"(?P<n>\d{1,3}(?:\.\d{1,2})?)"
UNIT = r"(?P<u>cm|centimet(?:re|er)s?|inch(?:es)?|in\b|\"|''|”)"
NOT_A_SIZE = (r"(?!\s*-?\s*(?:%|percent|colou?rs?|sizes?|days?|weeks?|months?|hours?|mins?|minutes?|packs?|pairs?|pieces?|"
              r"items?|dollars?|bucks|quid|pounds?\b|\$|x\b|of\b|more\b|stars?|off\b|items?|times|units?|left))")  # fmt: skip


def _words(measure: str) -> str:
    words = sorted((w for w in lexicon()["measures"][measure]["words"] if len(w) > 1), key=len, reverse=True)
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words)


@cache
def _patterns() -> list[tuple[str | None, re.Pattern]]:
    measures = lexicon()["measures"]
    lengths = [m for m, spec in measures.items() if spec.get("unit") in ("in",) and m != "height"]
    length_words = "|".join(f"(?P<{m}>{_words(m)})" for m in lengths)
    systems = "|".join(sorted(map(re.escape, lexicon()["systems"]), key=len, reverse=True))
    child = "|".join(sorted(map(re.escape, lexicon()["child_words"]), key=len, reverse=True))
    shoe, weight, height = _words("shoe"), _words("weight"), _words("height")
    return [
        # "7 year old", "7yo", "10-11 years", "age 7", "aged 5-6", "my son is 9", "she's 9"
        (
            "age",
            re.compile(
                r"\b(?P<n>\d{1,2})(?:\s*(?:-|–|to)\s*(?P<m>\d{1,2}))?[\s-]*(?:years?|yrs?|yo|y/o|y\.o\.?)"
                r"(?:[\s-]*olds?)?(?![a-z])",
                re.I,
            ),
        ),  # fmt: skip
        ("age", re.compile(r"\b(?:age[sd]?|aged)\s*(?P<n>\d{1,2})(?:\s*(?:-|–|to)\s*(?P<m>\d{1,2}))?\b", re.I)),
        (
            "age",
            re.compile(
                rf"\b(?:{child})\s*(?:'s|’s|\s+is|\s+are|\s+turn(?:s|ed|ing)?|\s+just\s+turned)\s+"
                rf"(?:nearly\s+|almost\s+|just\s+|about\s+)?(?P<n>\d{{1,2}})\b(?!\s*(?:cm|kg|lbs?|'|’|ft|"
                r"foot|feet|in\b|inch|\"|%|\$|\.\d))",
                re.I,
            ),
        ),  # fmt: skip
        # "5'4", "5 ft 4", "4 foot 2 inches"
        (
            "height",
            re.compile(
                r"\b(?P<f>\d)\s*(?:'|’|ft\b|foot\b|feet\b)\s*(?:(?P<i>\d{1,2})\s*(?:\"|''|”|in(?:ches)?\b)?)?", re.I
            ),
        ),  # fmt: skip
        ("weight", re.compile(rf"\b{NUM}\s*(?P<u>{weight})\b", re.I)),
        # "32 waist", "34 inch waist", "86cm chest", "15.5 collar", "120cm tall"
        (None, re.compile(rf"\b{NUM}\s*{UNIT}?\s*-?\s*(?:{length_words}|(?P<height>{height}))\b", re.I)),
        # "waist 32", "my chest is 40in", "height: 120 cm"
        (
            None,
            re.compile(
                rf"\b(?:{length_words}|(?P<height>height))\s*(?:size\s*|measurement\s*)?(?:is|of|:|=|"
                rf"measures?|at)?\s*(?:about|around|roughly|approx\.?|~)?\s*{NUM}\s*{UNIT}?",
                re.I,
            ),
        ),  # fmt: skip
        ("waist", re.compile(r"\bw\s?(?P<n>\d{2})\b|\b(?P<m>\d{2})\s?w\b|\b(?P<k>\d{2})\s*[x/]\s*\d{2}\b", re.I)),
        ("height", re.compile(r"\b(?P<n>\d{2,3}(?:\.\d)?)\s*(?P<u>cm)\b|\b(?P<mt>[12](?:\.\d{1,2})?)\s*m\b", re.I)),
        # "size 10", "uk 10", "a size 8 shoe", "in a 32", "I'm a 10", "I wear a 12"
        (
            "sized",
            re.compile(
                rf"\b(?:(?P<s>{systems})\s*)?(?:size|sz|sized)\s*(?:(?P<t>{systems})\s*)?{NUM}\b{NOT_A_SIZE}", re.I
            ),
        ),  # fmt: skip
        ("sized", re.compile(rf"\b(?P<s>{systems})\s+{NUM}\b{NOT_A_SIZE}", re.I)),
        (
            "sized",
            re.compile(
                rf"\b(?:in|wear|wears|am|i'?m|im|is|take|takes|usually|normally|an?)\s+(?:an?\s+)?{NUM}s?\b"
                rf"{NOT_A_SIZE}(?:\s*(?P<shoe>{shoe})\b)?",
                re.I,
            ),
        ),  # fmt: skip
    ]


def mentions(text: str) -> list[Mention]:
    """The numbers the text gives as sizes or measurements, in order (a span read once, by the first pattern)."""
    found: list[Mention] = []
    taken: list[tuple[int, int]] = []
    for kind, pattern in _patterns():
        for match in pattern.finditer(text or ""):
            if any(match.start() < end and start < match.end() for start, end in taken):
                continue
            mention = _mention(kind, match)
            if mention is not None:
                found.append(mention)
                taken.append((match.start(), match.end()))
    return sorted(found, key=lambda m: m.start)


def _mention(kind: str | None, match: re.Match) -> Mention | None:
    groups = {k: v for k, v in match.groupdict().items() if v}
    span = (match.start(), match.end(), match.group(0))
    if kind == "age":
        value = max(float(groups[k]) for k in ("n", "m") if k in groups)
        return Mention(value, "age", "years", *span)
    if kind == "height" and "f" in groups:
        return Mention(int(groups["f"]) * 12 + int(groups.get("i") or 0), "height", "in", *span)
    if kind == "height":
        if "mt" in groups:
            return Mention(round(float(groups["mt"]) * 100), "height", "cm", *span)
        value = float(groups["n"])
        return Mention(value, "height", "cm", *span) if value >= 80 else None
    if kind == "weight":
        return Mention(float(groups["n"]), "weight", groups["u"].lower(), *span)
    if kind == "waist":
        return Mention(float(groups.get("n") or groups.get("m") or groups["k"]), "waist", None, *span)
    if kind == "sized":
        system = (groups.get("s") or groups.get("t") or "").lower()
        unit = lexicon()["systems"].get(system)
        return Mention(float(groups["n"]), "shoe" if "shoe" in groups else None, unit, *span)
    measure = next((m for m in lexicon()["measures"] if m in groups), None)
    if measure is None:
        return None
    unit = (groups.get("u") or "").lower()
    return Mention(float(groups["n"]), measure, "cm" if unit.startswith("c") else "in" if unit else None, *span)


def _digits(text: str) -> str:
    """ "a seven year old" → "a 7 year old" (only a number of years: "the navy one" stays)."""
    words = lexicon()["number_words"]
    pattern = re.compile(r"\b(" + "|".join(words) + r")(?=[\s-]+(?:years?|yrs?|yo|y/o)\b)", re.I)
    return pattern.sub(lambda m: str(words[m.group(1).lower()]), text or "")


# Letters from the guide ----------------------------------------------------------------------------------------


def _range(cell: str) -> tuple[float, float] | None:
    numbers = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", cell or "")]
    return (numbers[0], numbers[-1]) if numbers else None


def letter_for(department: str, measure: str, value: float, unit: str | None) -> str | None:
    """The guide's letter for a value of a measure in a department (between two sizes: the larger, as the guide
    advises for a relaxed fit); None past the guide or when the department has no such column."""
    spec = lexicon()["measures"].get(measure) or {}
    unit = _unit(spec, value, unit)
    heading = (spec.get("columns") or {}).get(unit)
    if not heading:
        return None
    if measure == "age" and department == "kids" and float(value).is_integer():
        by_age = size_guide.kids_size_for_age(int(value))
        if by_age:
            return by_age
    cells = [(size, _range(cell)) for size, cell in size_guide.column(department, heading).items()]
    cells = [(size, bounds) for size, bounds in cells if bounds]
    for size, (low, high) in cells:
        if low <= value <= high:
            return size
    if cells and cells[0][1][0] < value < cells[-1][1][1]:
        return next(size for size, (low, _high) in cells if low > value)
    return None


def _unit(spec: dict, value: float, unit: str | None) -> str | None:
    if unit in (None, "in") and spec.get("cm_from") and value >= spec["cm_from"]:
        return "cm"
    return unit or spec.get("unit")


def departments_with(measure: str, unit: str | None = None) -> list[str]:
    """The departments whose guide has the measure's column."""
    spec = lexicon()["measures"].get(measure) or {}
    columns = spec.get("columns") or {}
    headings = [columns[unit]] if unit in columns else list(columns.values())
    return [d for d in DEPARTMENTS if any(size_guide.column(d, h) for h in headings)]


def _measure_of(mention: Mention, departments: list[str], clothing_type: str | None) -> tuple[str, list[str]] | None:
    """What a number with no measure word measures, by the garment and department (the lexicon's bare_numbers)."""
    if mention.measure:
        return mention.measure, departments
    for row in lexicon()["bare_numbers"]:
        if not row["from"] <= mention.value <= row["to"]:
            continue
        if row.get("garments") and clothing_type not in row["garments"]:
            continue
        if mention.unit and row["measure"] not in ("dress", "shoe"):
            continue  # "uk 10" is a dress or shoe size
        fitting = [d for d in departments if d in row.get("departments", departments)]
        if fitting:
            return row["measure"], fitting
    return None


def readings(text: str, departments: list[str] | tuple[str, ...] | None = None, clothing_type: str | None = None,
             *, bare: bool = False) -> tuple[Mention | None, dict[str, Reading]]:  # fmt: skip
    """The first size or measurement in the text and its letter in each department that reads it (departments: the
    ones in question, else every department whose guide has the measure). A number with no measure word is read only
    for a garment or a department, or (bare=True, a size question) in the adult departments."""
    found_mentions = mentions(_digits(text))
    # a measure said ("7yo", "32 waist") before a bare number ("wat size 4 a 7yo": the 4 is "for")
    for mention in [m for m in found_mentions if m.measure] + [m for m in found_mentions if not m.measure]:
        if mention.measure == "weight":
            continue
        kind = clothing_type or ("sneakers" if mention.measure == "shoe" or _shoe_words(text) else None)
        wanted = departments
        if mention.measure is None and not (kind or departments or mention.unit):
            if not bare:
                continue
            wanted = ["women", "men"]
        found = read(mention, wanted, kind)
        if found is not None:
            return mention, found
    return None, {}


def read(mention: Mention, departments=None, clothing_type: str | None = None) -> dict[str, Reading] | None:
    """One mention's letter in each department that reads it; None when no measure fits the number."""
    wanted = list(departments or DEPARTMENTS)
    if mention.measure == "age" and not departments:
        wanted = ["kids"]
    decided = _measure_of(mention, wanted, clothing_type)
    if decided is None:
        return None
    measure, fitting = decided
    found = {}
    for department in fitting:
        for option in _systems(mention, measure):
            letter = letter_for(department, measure, option.value, option.unit)
            if letter:
                found[department] = Reading(letter, department, measure, _said(option, measure),
                                            _other_system(department, measure, option))  # fmt: skip
                break
    return found


def _systems(mention: Mention, measure: str) -> list[Mention]:
    """A dress or shoe size said with no system: read in the default system first, then in the others (a women's
    "size 10 trainers" is past the UK shoe sizes, so it is a US 10)."""
    columns = lexicon()["measures"][measure].get("columns") or {}
    if mention.unit or measure not in ("dress", "shoe"):
        return [mention]
    default = lexicon()["default_system"]
    order = [default, *(s for s in columns if s != default)]
    return [Mention(mention.value, mention.measure, s if s != default else None, mention.start, mention.end, mention.raw)
            for s in order]  # fmt: skip


def resolve(
    text: str, department: str | None = None, clothing_type: str | None = None, *, departments: list[str] | None = None
) -> tuple[str, str] | None:
    """The shop's letter for a numeric or age size in the text, and how it was read ("a 32-inch waist is our men's
    M"); None when there is none, or when the departments it could be for read it differently. departments: those
    to read it in when none is said (e.g. the adult ones that make the garment)."""
    _mention, found = readings(text, [department] if department else departments, clothing_type)
    letters = {r.letter for r in found.values()}
    if len(letters) != 1:
        return None
    reading = next(iter(found.values()))
    whose = " and ".join(DEPARTMENT_WORDS.get(r.department, r.department) for r in found.values())
    return reading.letter, f"{reading.said} is our {whose} {reading.letter}"


DEPARTMENT_WORDS = {"men": "men's", "women": "women's", "kids": "kids'"}


def _shoe_words(text: str) -> bool:
    return re.search(rf"\b(?:{_words('shoe')})\b", text or "", re.I) is not None


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _said(mention: Mention, measure: str) -> str:
    spec = lexicon()["measures"][measure]
    unit = _unit(spec, mention.value, mention.unit)
    if measure == "height":
        if "'" in mention.raw or "’" in mention.raw or re.search(r"ft|foot|feet", mention.raw, re.I):
            feet, inches = divmod(int(mention.value), 12)
            return f"a height of {feet}'{inches}\""
        return f"a height of {_number(mention.value)} {'cm' if unit == 'cm' else 'inches'}"
    system = (unit or lexicon()["default_system"]).upper()
    text = spec["said"].format(value=_number(mention.value), unit_hyphen="cm" if unit == "cm" else "-inch",
                               unit_space=f" {unit}", system=system)  # fmt: skip
    return re.sub(r"\ba (?=(?:8|11|18)\b|(?:8|11|18)\D)", "an ", text)


def _other_system(department: str, measure: str, mention: Mention) -> str | None:
    """ "a US 10 would be L": the other reading of a dress or shoe size given with no system."""
    if measure not in ("dress", "shoe") or mention.unit:
        return None
    default = lexicon()["default_system"]
    other = next((s for s in lexicon()["measures"][measure]["columns"] if s != default), None)
    letter = letter_for(department, measure, mention.value, other) if other else None
    mine = letter_for(department, measure, mention.value, default)
    if not letter or letter == mine:
        return None
    return f"a {other.upper()} {_number(mention.value)} would be {letter}"


def sentence(found: dict[str, Reading]) -> str:
    """How the size was read, for the reply: "In our size guide a 32-inch waist is a men's M." (or, when the
    departments differ, "… is men's M and women's L.")."""
    if not found:
        return ""
    readings_ = list(found.values())
    said = readings_[0].said
    if len({r.said for r in readings_}) > 1:  # "a UK 10 shoe is men's L; a US 10 shoe is women's XXL"
        return (
            "In our size guide "
            + "; ".join(f"{r.said} is {DEPARTMENT_WORDS[r.department]} {r.letter}" for r in readings_)
            + "."
        )
    if len({r.letter for r in readings_}) == 1:
        whose = " and ".join(DEPARTMENT_WORDS[r.department] for r in readings_)
        text = f"In our size guide {said} is a {whose} {readings_[0].letter}"
    else:
        text = f"In our size guide {said} is " + " and ".join(
            f"{DEPARTMENT_WORDS[r.department]} {r.letter}" for r in readings_
        )
    others = [r.other for r in readings_ if r.other]
    return text + (f" ({others[0]})" if others else "") + "."


# The rule stage's text: a numeric or age size said as the shop's letter ---------------------------------------


def as_letter(text: str, request) -> str:
    """The message with a numeric or age size said as the guide's letter (", size M"), for the rule stage; the
    reading goes to request.notes["size_note"] for the reply. The department is the one said, else the one talked
    about ("the same in a 10" after a women's dress), else the adult departments that make the garment (in the
    colour said); when their letters differ an add asks which (request.notes["department_question"]) and a search
    leaves the size out."""
    from . import rules

    if rules.Msg(text).size:
        return text  # a letter said wins
    source, mention = _mention_to_read(text, request)
    if mention is None:
        return text
    rest = text[: mention.start].rstrip(" ,") + " " + text[mention.end :].lstrip(" ,") if source is text else text
    msg = rules.Msg(rest)
    said_kind = msg.types[-1] if msg.types else None
    talked = talked_about(request) if not said_kind else {}
    kind = said_kind or talked.get("clothing_type")
    if mention.measure == "shoe" or (mention.measure is None and _shoe_words(source)):
        kind = kind or "sneakers"
    color = msg.colors[0] if msg.colors else None
    department = msg.category or talked.get("category")
    if department is None and mention.measure in ("age", "height"):
        department = "kids"
    found = read(mention, [department] if department else making(request, kind, color), kind)
    if not found:
        return text  # past the guide: the rules say the shop's sizes are letters and ask
    letters = {r.letter for r in found.values()}
    if len(letters) == 1 and source is not text and not msg.has(rules.ADD):
        request.notes["size_note"] = sentence(found)  # "hoodies for my 7 year old": the kids' range, its size said
        return text
    if len(letters) == 1:
        request.notes["size_note"] = sentence(found)
        if source is text:  # said where the number was: "jeans in a 32" → "jeans in M", "same in a 10" → "same in M"
            return f"{text[: mention.start].rstrip(' ,')} in {letters.pop()} {text[mention.end :].lstrip(' ,')}".strip()
        return f"{rest.strip()}, size {letters.pop()}".strip(" ,")
    request.notes["size_note"] = sentence(found)
    if not msg.has(rules.ADD):
        return rest.strip()
    _ask_department(request, msg, found, kind, color)
    return text


def _mention_to_read(text: str, request) -> tuple[str, Mention | None]:
    """The size said, and the text it was read in: the rule stage's, or what was written for an age (the normaliser
    says "for kids" for "size 10-11 years")."""
    found = [m for m in mentions(text) if m.measure != "weight"]
    ages = [m for m in mentions(_digits(request.norm.original)) if m.measure in ("age", "height")]
    if ages and not any(m.measure for m in found):
        return request.norm.original, ages[0]
    return text, (found[0] if found else None)


def making(request, kind: str | None, color: str | None) -> list[str]:
    """The adult departments that make this garment (in this colour); kids' only when no adult one does."""
    making = [d for d in DEPARTMENTS if any(
        p.category == d and (not kind or p.clothing_type == kind) and (not color or color in p.colors)
        for p in request.vocabulary.products)]  # fmt: skip
    adults = [d for d in making if d != "kids"]
    return adults or making or ["men", "women"]


def talked_about(request) -> dict:
    """The garment and department the conversation is about: the line just added, the item last asked for, the
    last search."""
    context = request.context
    shown = [p for p in context.get("last_shown") or [] if isinstance(p, dict)]
    line = context.get("last_line") if isinstance(context.get("last_line"), dict) else {}
    for product_id in (_pointed_at(request.plain, shown), line.get("product_id")):
        product = next((p for p in request.vocabulary.products if p.id == product_id), None)
        if product is not None:  # "add the second one in a 12": the dress shown second
            return {"clothing_type": product.clothing_type, "category": product.category}
    for key in ("last_item", "last_search"):
        value = context.get(key)
        if isinstance(value, dict) and value.get("clothing_type"):
            return {"clothing_type": value["clothing_type"], "category": value.get("category")}
    frame = (context.get("brief") or {}).get("frame") or {}
    if len(frame.get("types") or []) == 1:  # the shopping brief's one garment ("a navy dress", then "the same in a 10")
        return {"clothing_type": frame["types"][0], "category": frame.get("department")}
    return {}


def _pointed_at(plain: str, shown: list[dict]) -> int | None:
    """The id of the product of the last list an ordinal points at ("the second one", "the last one")."""
    from .rules import ORDINAL, ORDINALS

    said = ORDINAL.search(plain)
    if not said or not shown:
        return None
    index = ORDINALS.get(said.group(1).lower())
    if index is None or not -len(shown) <= index < len(shown):
        return None
    return shown[index].get("id")


def _ask_department(request, msg, found: dict[str, Reading], kind: str | None, color: str | None) -> None:
    from .rules import Interpretation, items

    item = items(msg)[0]
    arguments: dict = {"quantity": min(item.quantity or 1, 10)}
    if kind:
        arguments["clothing_type"] = kind
    if color:
        arguments["selected_color"] = color
    choices = {d: {"category": d, "selected_size": r.letter} for d, r in found.items()}
    context = dict(request.context)
    context["pending"] = {"tool": "cart_add_item", "args": arguments, "choices": choices}
    options = " or ".join(DEPARTMENT_WORDS[d] for d in found)
    question = sentence(found).rstrip(".") + f" — {options}?"
    request.notes.pop("size_note", None)
    request.notes["department_question"] = Interpretation(follow_up=question, context=context)
