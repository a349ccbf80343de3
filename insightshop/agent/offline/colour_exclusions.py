"""Colours ruled out in a message or a follow-up ("dresses, not red", "not this colour", "the same but not in black"):
the search without them, and what the reply says was left out."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...services.vocabulary import COLORS, normalise_color
from .intent import Request
from .rules import (
    ADD,
    REMOVE,
    SEARCH_VERB,
    Interpretation,
    Msg,
    PlannedCall,
    Turn,
    _search_call,
)

_COLOURS = "|".join(sorted(COLORS, key=len, reverse=True))
NOT_THIS_COLOUR = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|and|hmm|but|what\s+about|how\s+about|show\s+me|got|do\s+you\s+have)\W+)*"
    r"(?:(?:any|anything|something|ones?|the\s+ones?)\s+(?:that\s+(?:are|is)\s+)?)?"
    r"(?:not|no|but\s+not|except|without|other\s+than|besides|but)\s+(?:in\s+|the\s+)?(" + _COLOURS + r")"
    r"(?:\s+ones?)?(?:\s+(?:please|pls|plz|though|then))*\W*$"
)


@dataclass(frozen=True)
class WithoutColour:
    """What a search found minus the products that come only in the colour(s) the shopper ruled out (the search
    itself cannot exclude a colour)."""

    colour: str
    also: tuple[str, ...] = ()  # "not black or grey": more colours ruled out
    noun: str | None = None  # "hoodies": the reply leads with what was asked for, the colours ruled out last

    def __call__(self, result: dict) -> tuple[list, str | None]:
        excluded = {self.colour, *self.also}
        said = " or ".join(dict.fromkeys((self.colour, *self.also)))
        products = result.get("products") or []
        kept = [p for p in products if set(p.get("available_colors") or [p.get("color")]) - excluded]
        if len(kept) < len(products):  # what is ruled out is not shown either: the cards and "the first one" follow
            pagination = result.get("pagination")
            if isinstance(pagination, dict) and isinstance(pagination.get("total"), int):
                pagination["total"] = max(len(kept), pagination["total"] - (len(products) - len(kept)))
            result["products"] = kept
        if not kept:
            if not products:
                return [], "I found nothing matching that, so there is nothing to show."
            return [], f"Everything I found comes only in {said}, so there is nothing to show without it."
        departments = {"men": "Men's", "women": "Women's", "kids": "Kids'"}
        listed = "; ".join(
            f"{p['name']}, {departments.get(p.get('category'), p.get('category'))}, "
            f"{'/'.join(c for c in (p.get('available_colors') or [p.get('color')]) if c not in excluded)}, ${p['price']}"
            for p in kept[:3]
        )
        more = f" (and {len(kept) - 3} more)" if len(kept) > 3 else ""
        if self.noun:
            return [], f"Here are {len(kept)} {self.noun}: {listed}{more} — leaving out {said}."
        return [], f"Not in {said}: {listed}{more}."

    def label(self) -> dict:
        return {"without_colour": [self.colour, *self.also] if self.also else self.colour}


@dataclass(frozen=True)
class AdultsFirst:
    """A search for an adults' occasion with no department said: the kids' products leave the result when an adult
    one is in it (then whatever else the search's reply does)."""

    then: object = None

    def __call__(self, result: dict) -> tuple[list, str | None]:
        products = result.get("products") or []
        adults = [p for p in products if p.get("category") != "kids"]
        if adults and len(adults) < len(products):
            pagination = result.get("pagination")
            if isinstance(pagination, dict) and isinstance(pagination.get("total"), int):
                pagination["total"] = max(len(adults), pagination["total"] - (len(products) - len(adults)))
            result["products"] = adults
        return self.then(result) if callable(self.then) else ([], None)


# "hoodies that aren't black or grey", "dresses that are not red", "I don't want anything pink, show me girls' tops":
# colours ruled out of a search (read from the plain text: contractions expanded).
_COLOUR_LIST = r"(?:" + _COLOURS + r")(?:\s*(?:,|/|\bor\b|\band\b|\bnor\b)\s*(?:in\s+)?(?:" + _COLOURS + r"))*"
EXCLUDED_COLOURS = re.compile(
    r"(?:\b(?:that|which)\s+(?:are|is)\s+|\bi\s+)?(?:\bbut\s+)?"
    r"(?:\b(?:not|nothing|no|are\s*n'?t|arent|is\s*n'?t|isnt|without|except|excluding|other\s+than|besides)|"
    r"\banything\s+but|\b(?:do\s+not|don'?t|dont)\s+(?:want|like|need)\s+(?:anything|any|something)(?:\s+in)?)"
    r"\s+(?:in\s+|any\s+)?(?P<list>" + _COLOUR_LIST + r")\b(?:\s+ones?\b)?"
)


def colours_ruled_out(request: Request) -> str | None:
    """A search with colours ruled out: the search runs without them (and without any colour filter for them), and
    the reply lists only what comes in another colour (request.notes["without_colours"], applied once planned)."""
    if (
        request.pending
        or request.context.get("last_action") == "cart_add_item"
        and not re.search(r"\b(?:show|find|search|see|browse|looking|look)\b", request.plain)
    ):
        return None
    plain = request.plain
    match = EXCLUDED_COLOURS.search(plain)
    if not match:
        return None
    colours = tuple(dict.fromkeys(c for c in map(normalise_color, re.findall(r"[a-z]+", match.group("list"))) if c))
    rest = (plain[: match.start()] + " " + plain[match.end() :]).strip(" ,.;")
    rest = re.sub(r"\s*,\s*,", ",", rest).strip(" ,")
    msg = Msg(rest)
    if not colours or not (msg.types or msg.has(SEARCH_VERB) or msg.category) or msg.has(REMOVE) or msg.has(ADD):
        return None
    if re.search(r"\b(?:cart|basket|bag|trolley)\b", plain) or set(msg.colors) - set(colours):
        return None  # "not black jeans, blue ones": the colour wanted is searched for (rules.search_parts)
    request.notes["without_colours"] = colours
    return rest


def not_this_colour(request: Request) -> Interpretation | None:
    """ "not black ones", "anything but navy?" after a search: that search again, without what comes only in it."""
    last = request.context.get("last_search")
    match = NOT_THIS_COLOUR.match(request.plain)
    if not match or not isinstance(last, dict):
        return None
    colour = normalise_color(match.group(1))
    parts = {k: v for k, v in last.items() if not (k == "color" and v == colour)}
    turn = Turn(request.norm.text, request.context, request.is_admin)
    result = _search_call(turn, parts)
    planned = result.calls[0]
    result.calls[0] = PlannedCall(planned.name, planned.arguments, then=WithoutColour(colour))
    result.context["excluded_colour"] = colour  # "the first one" next counts only what was listed
    return result
