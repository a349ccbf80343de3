"""The phrase rules' search: the arguments of search_products from a message's features."""

from __future__ import annotations

import re

from ...services.search_terms import singular
from ...services.vocabulary import CLOTHING_TYPES, normalise_color
from .message import Msg, _blank, clothing_type
from .plans import Interpretation
from .rule_words import (
    AMOUNT,
    CATALOG_WORDS,
    CATEGORY_OF,
    EXCLUDED,
    LETTER_SIZE,
    NOISE,
    PRICE_MAX,
    REFINE_TYPE,
    SEARCH_VERB,
    SIZE_WORDS,
    WORD,
)
from .turns import Turn, call


def h_search(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    parts = search_parts(msg)
    if not any(parts.values()):
        browse = msg.has(SEARCH_VERB) and msg.has(CATALOG_WORDS)
        return _search_call(turn, {}) if browse else None
    if not (
        msg.has(SEARCH_VERB)
        or msg.types
        or msg.colors
        or msg.category
        or msg.max_price
        or msg.sort_by
        or msg.on_sale
        or msg.min_price
    ):
        return None
    last = turn.ctx.get("last_search") or {}
    if REFINE_TYPE.search(msg.norm) and msg.types and last:
        parts = {**{k: v for k, v in last.items() if k != "terms"}, **{k: v for k, v in parts.items() if v}}
    # "black or navy coats", "a shirt or a blouse in white": a search takes one colour and one garment, so one
    # search per alternative.
    for either in EITHER.finditer(msg.norm):
        for slot, read in (("color", normalise_color), ("clothing_type", clothing_type)):
            options = [read(either.group(1)), read(either.group(2))]
            if parts.get(slot) and all(options) and options[0] != options[1]:
                first, second = (_search_call(turn, {**parts, slot: option}) for option in options)
                first.calls += second.calls
                return first
    return _search_call(turn, parts)


EITHER = re.compile(r"\b([a-z-]+)\s+or\s+(?:an?\s+|some\s+|the\s+)?([a-z-]+)\b")


def _search_call(turn: Turn, parts: dict) -> Interpretation:
    """search_products with the shopper's constraints as hard filters; leftover words are the text query."""
    parts = {k: v for k, v in parts.items() if v}
    kind = parts.get("clothing_type")
    terms = [t for t in parts.get("terms", []) if t != kind and t not in CLOTHING_TYPES]
    args: dict = {"query": " ".join(terms)[:500]} if terms else {}
    if parts.get("color"):
        args["color"] = parts["color"]
    if kind:
        args["clothing_type"] = kind
    for key in ("category", "size", "min_price", "max_price", "on_sale", "in_stock", "sort_by"):
        if parts.get(key):
            args[key] = parts[key]
    if (
        args.get("min_price") is not None
        and args.get("max_price") is not None
        and args["min_price"] > args["max_price"]
    ):
        args.pop("min_price")
    result = call(turn, "search_products", args)
    result.context["last_search"] = parts
    result.context.pop("excluded_colour", None)
    return result


def search_parts(msg: Msg) -> dict:
    """The search a message describes: colour, query words (clothing types canonical), filters."""
    # The ceiling first, with its amount: "nothing over $60" leaves no "nothing" behind.
    text = _blank(LETTER_SIZE, _blank(AMOUNT, _blank(PRICE_MAX, msg.core)))
    # What the shopper rules out ("jackets but not leather") is never searched for: a search cannot exclude, and
    # asking for the word would find the very thing they do not want.
    excluded = {word for match in EXCLUDED.finditer(text) for word in WORD.findall(match.group(1))}
    text = EXCLUDED.sub(" ", text)
    kinds = [kind for kind in msg.types if kind not in {clothing_type(word) for word in excluded}]
    terms: list[str] = []
    color = None
    named: list[tuple[str, str]] = []  # (word, the garment it names), in order
    for word in WORD.findall(text):
        kind = clothing_type(word)
        shade = normalise_color(word)
        if kind:
            terms.append(kind)
            named.append((word, kind))
        elif shade:
            color = color or shade
        elif not (word in NOISE or word in CATEGORY_OF or word in SIZE_WORDS or word.isdigit() or len(word) < 2):
            terms.append(word)
    final = (kinds or [None])[-1]
    for (word, _kind), (next_word, next_kind) in zip(named, named[1:], strict=False):
        # "denim jacket", "puffer jacket": a garment word right before the garment asked for describes it, so it
        # stays a search word ("tees and shirts" are two garments, not a kind of shirt).
        right_before = re.search(rf"\b{re.escape(word)}\s+{re.escape(next_word)}\b", text)
        if next_kind == final and right_before and singular(word) not in CLOTHING_TYPES:
            terms.append(word)
    terms = list(dict.fromkeys(terms))
    return {"color": color, "terms": terms, "clothing_type": final,
            "category": msg.category, "size": msg.size, "max_price": msg.max_price, "sort_by": msg.sort_by,
            "min_price": msg.min_price, "on_sale": msg.on_sale or None, "in_stock": msg.in_stock or None}  # fmt: skip
