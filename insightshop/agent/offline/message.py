"""A message as the phrase rules read it (Msg): normalised text and lazily extracted features — numbers, ids, colours,
sizes, types, departments, prices, sorts."""

from __future__ import annotations

import re
from functools import cached_property

from ...services.search_terms import SYNONYMS, normalise_text, singular
from ...services.vocabulary import CLOTHING_TYPES, normalise_color, normalise_size
from . import entities
from .rule_words import (
    AMOUNT,
    CATEGORY_OF,
    CHAR_MAP,
    EMAIL,
    EXTRA_PHRASES,
    EXTRA_TYPES,
    LETTER_SIZE,
    NUM_WORDS,
    ORDER_REF,
    PRICE_MAX,
    PRODUCT_REF,
    RAW_SIZE,
    REVIEW_REF,
    SORT_ANY,
    SORT_RULES,
    USER_REF,
    WORD,
    WORD_SIZE,
)

# The message and its features ---------------------------------------------------------------------------------


def normalise(text: str) -> str:
    """Lower-case text with the shop's phrases joined ("t-shirt" → "tshirt", "extra large" → "xl")."""
    text = normalise_text(re.sub(r"(\d)'s\b", r"\1", text.lower()))
    for pattern, replacement in EXTRA_PHRASES:
        text = pattern.sub(replacement, text)
    return text


def clothing_type(word: str) -> str | None:
    """ "tees", "trousers", "hoodies", "pyjamas" → the shop's clothing type."""
    for candidate in (word, singular(word)):
        if candidate in CLOTHING_TYPES:
            return candidate
        kind = "t-shirt" if candidate == "tshirt" else EXTRA_TYPES.get(candidate)
        if kind:
            return kind
        for term in SYNONYMS.get(candidate, ()):
            kind = "t-shirt" if term == "tshirt" else term
            if kind in CLOTHING_TYPES:
                return kind
    return None


def _number(token: str | None) -> int | None:
    if token is None:
        return None
    return int(token) if token.isdigit() else NUM_WORDS.get(token)


def _amount(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() else value


def _blank(pattern: re.Pattern, text: str) -> str:
    return pattern.sub(" ", text)


class Msg:
    """One message: raw (case kept), low (same length, lower-case), norm (shop phrases joined), and features."""

    def __init__(self, message: str):
        raw = (message or "")[:2000].translate(CHAR_MAP).strip()
        self.low = raw.lower()
        self.raw = raw if len(self.low) == len(raw) else self.low
        self.norm = normalise(raw)
        self.core = _blank(SORT_ANY, self.norm)  # "top rated" is no top
        self.words = WORD.findall(re.sub(r"\b(?:you|u)\s+guys\b", " ", self.core))  # "do you guys have…": no department

    def has(self, pattern: re.Pattern) -> bool:
        return pattern.search(self.norm) is not None

    @cached_property
    def emails(self) -> list[str]:
        return EMAIL.findall(self.raw)

    @cached_property
    def without_refs(self) -> str:
        """norm without order / review / user references: what product ids and quantities are read from."""
        text = EMAIL.sub(" ", self.norm)
        for pattern in (ORDER_REF, REVIEW_REF, USER_REF):
            text = _blank(pattern, text)
        return text

    @cached_property
    def product_ids(self) -> list[int]:
        return _product_ids(self.without_refs)

    @cached_property
    def order_id(self) -> int | None:
        match = ORDER_REF.search(self.norm)
        return int(match.group(1)) if match else None

    @cached_property
    def user_id(self) -> int | None:
        match = USER_REF.search(self.norm)
        return int(match.group(1)) if match else None

    @cached_property
    def review_id(self) -> int | None:
        match = REVIEW_REF.search(self.norm)
        return int(match.group(1)) if match else None

    @cached_property
    def types(self) -> list[str]:
        """The garments named. In a compound the last noun is the garment: "denim jacket" is a jacket, "shirt dress"
        a dress (the word before only describes it)."""
        kinds = [clothing_type(word) for word in self.words]
        return [kind for at, kind in enumerate(kinds) if kind and not (at + 1 < len(kinds) and kinds[at + 1])]

    @cached_property
    def colors(self) -> list[str]:
        return list(dict.fromkeys(c for c in map(normalise_color, self.words) if c))

    @cached_property
    def size(self) -> str | None:
        return _size(self.core) or _raw_size(self.raw) or _bare_size(self.core)

    @cached_property
    def category(self) -> str | None:
        return _category(self.words)

    @cached_property
    def max_price(self) -> int | float | None:
        return _max_price(self.norm)

    @cached_property
    def min_price(self) -> int | float | None:
        return entities.min_price(self.norm)

    @cached_property
    def on_sale(self) -> bool:
        return entities.on_sale(self.norm)

    @cached_property
    def in_stock(self) -> bool:
        return entities.in_stock(self.norm)

    @cached_property
    def sort_by(self) -> str | None:
        return next((name for name, pattern in SORT_RULES if pattern.search(self.norm)), None)

    @cached_property
    def integers(self) -> list[int]:
        text = _blank(PRICE_MAX, _blank(AMOUNT, self.without_refs))
        return [int(n) for n in re.findall(r"\b\d+\b", re.sub(r"\d+(?:\.\d+)?\s*(?:%|percent)", " ", text))]


def _product_ids(text: str) -> list[int]:
    ids: list[int] = []
    for match in PRODUCT_REF.finditer(text):
        ids.extend(int(n) for n in re.findall(r"\d+", match.group(1)) if int(n) not in ids)
    return [i for i in ids if i >= 1]


def _size(text: str) -> str | None:
    match = WORD_SIZE.search(text) or LETTER_SIZE.search(text)
    return normalise_size(match.group(1)) if match else None


# A whole message that is only a size letter answers "which size?": "m", "l please", "xs thanks".
BARE_SIZE = re.compile(r"\W*(?:ok(?:ay)?\s+|um+\s+)?(xxl|xl|xs|s|m|l)\W*(?:please|pls|plz|thanks|thank\s+you|thx)?\W*")


def _bare_size(text: str) -> str | None:
    match = BARE_SIZE.fullmatch(text)
    return normalise_size(match.group(1)) if match else None


def _raw_size(raw: str) -> str | None:
    match = RAW_SIZE.search(raw)
    return match.group(1) if match else None


def _category(words: list[str]) -> str | None:
    return next((CATEGORY_OF[w] for w in words if w in CATEGORY_OF), None)


def _max_price(text: str) -> int | float | None:
    match = PRICE_MAX.search(text)
    if not match:
        return None
    value = next(g for g in match.groups() if g is not None)
    return _amount(value) if float(value) <= 100000 else None
