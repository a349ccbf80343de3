"""Turns what a shopper types into search terms: synonyms, plurals, category words, sizes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .vocabulary import COLOR_ALIASES, SIZE_ALIASES

# Multi-word phrases are rewritten before the text is split into words.
PHRASES = (
    (r"\bt[\s-]?shirts?\b", "tshirt"),
    (r"\btee[\s-]?shirts?\b", "tshirt"),
    (r"\bpolo[\s-]shirts?\b", "polo"),
    (r"\bsweat[\s-]?shirts?\b", "sweatshirt"),
    (r"\bsweat[\s-]?pants\b", "sweatpants"),
    (r"\bbutton[\s-]?downs?\b", "buttondown"),
    (r"\bextra[\s-]+extra[\s-]+large\b", "xxl"),
    (r"\bextra[\s-]+large\b", "xl"),
    (r"\bextra[\s-]+small\b", "xs"),
    (r"\b(\w+)'s\b", r"\1s"),
)

# A word → every index word that should satisfy it (the word itself first).
SYNONYMS: dict[str, tuple[str, ...]] = {
    "tee": ("tshirt",),
    "tshirt": ("tshirt",),
    "trouser": ("pants", "trousers"),
    "slack": ("pants", "slacks"),
    "chino": ("pants", "chinos"),
    "sweatpants": ("pants", "sweatpants"),
    "jumper": ("sweater", "jumper"),
    "pullover": ("sweater", "pullover"),
    "knit": ("sweater", "knit"),
    "cardigan": ("sweater", "cardigan"),
    "sweatshirt": ("hoodie", "sweater", "sweatshirt"),
    "hoody": ("hoodie",),
    "denim": ("denim", "jeans"),
    "trainer": ("sneakers", "trainers"),
    "sneaker": ("sneakers",),
    "kick": ("sneakers",),
    "shoe": ("sneakers", "shoes"),
    "pyjama": ("pajamas",),
    "pjs": ("pajamas",),
    "pj": ("pajamas",),
    "jammies": ("pajamas",),
    "pajama": ("pajamas",),
    "buttondown": ("shirt",),
    "frock": ("dress",),
    "gown": ("dress", "gown"),
    "parka": ("coat", "parka"),
    "overcoat": ("coat", "overcoat"),
    "trench": ("coat", "trench"),
    "blazer": ("jacket", "blazer"),
    "anorak": ("jacket", "anorak"),
    "top": ("blouse", "tshirt", "top"),
    **{alias: (color, alias) for alias, color in COLOR_ALIASES.items()},
}

CATEGORY_WORDS = {
    **dict.fromkeys(("men", "mens", "man", "male", "gents", "gent", "gentlemen", "him"), "men"),
    **dict.fromkeys(("women", "womens", "woman", "ladies", "lady", "female", "her", "womenswear"), "women"),
    **dict.fromkeys(
        ("kids", "kid", "kidswear", "boys", "boy", "girls", "girl", "children", "childrens", "child",
         "toddler", "toddlers", "youth", "junior", "juniors"),
        "kids",
    ),
}  # fmt: skip

SIZE_WORDS = {k: v for k, v in SIZE_ALIASES.items() if " " not in k and len(k) > 1}

STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "the",
        "for",
        "with",
        "in",
        "on",
        "of",
        "to",
        "my",
        "me",
        "i",
        "im",
        "we",
        "you",
        "some",
        "any",
        "all",
        "show",
        "find",
        "get",
        "want",
        "need",
        "looking",
        "look",
        "search",
        "please",
        "something",
        "nice",
        "new",
        "size",
        "sized",
    ]
)

WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class ParsedQuery:
    """What a search box's text means: term groups (any word of a group matches), plus filters it implies."""

    groups: tuple[tuple[str, ...], ...] = ()
    categories: tuple[str, ...] = ()
    sizes: tuple[str, ...] = ()
    prefix_last: bool = False
    raw: str = ""
    words: tuple[str, ...] = field(default=())

    @property
    def has_terms(self) -> bool:
        return bool(self.groups)


def normalise_text(text: str) -> str:
    """Lower-case text with shop phrases joined into single words, for indexing and querying alike."""
    text = text.lower()
    for pattern, replacement in PHRASES:
        text = re.sub(pattern, replacement, text)
    return text


def singular(word: str) -> str:
    """A crude English singular, enough to look words up in SYNONYMS (the index stems by itself)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def parse_query(text: str | None) -> ParsedQuery:
    """Parse a shopper's search text; "ladies white tees" → women + (white) + (tshirt)."""
    text = (text or "")[:500]
    words = WORD.findall(normalise_text(text))
    typing_last_word = bool(words) and not text[-1:].isspace() and not text.rstrip().endswith(("'", '"'))
    groups: list[tuple[str, ...]] = []
    categories: list[str] = []
    sizes: list[str] = []
    for index, word in enumerate(words):
        is_last = index == len(words) - 1
        if word in CATEGORY_WORDS:
            _append_unique(categories, CATEGORY_WORDS[word])
        elif word in SIZE_WORDS:
            _append_unique(sizes, SIZE_WORDS[word])
        elif word in STOPWORDS or (len(word) < 2 and not word.isdigit()):
            continue
        else:
            group = SYNONYMS.get(word) or SYNONYMS.get(singular(word)) or (word,)
            if is_last and typing_last_word and len(word) >= 2:
                group = tuple(dict.fromkeys((*group, word + "*")))
            if group not in groups:
                groups.append(group)
    return ParsedQuery(
        groups=tuple(groups[:12]),
        categories=tuple(categories),
        sizes=tuple(sizes),
        prefix_last=typing_last_word,
        raw=text,
        words=tuple(words),
    )


def _append_unique(items: list[str], value: str) -> None:
    if value not in items:
        items.append(value)
