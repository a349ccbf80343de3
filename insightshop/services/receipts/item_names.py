"""Receipt item names as words to match: "CR-CHOCLT 2PCS" → ("cr", "chocolate"), "Organic Bananas" → ("organic",
"banana"). Item names and every keyword go through the same steps, so plurals, case and shorthand meet."""

from __future__ import annotations

import re
from functools import lru_cache

from ..search_terms import singular as english_singular
from .category_keywords import ABBREVIATIONS, NOISE_WORDS, PHRASE_REWRITES

# Sizes, weights and pack counts say nothing about what the item is: 425GM, 1.5L, 3'S, 2PK, 100PCS, 48MM.
_MEASURE = re.compile(
    r"^\d+(?:\.\d+)?(?:ml|l|lt|ltr|litre|liter|g|gm|gms|gr|gram|grams|kg|kgs|k|oz|lb|lbs|mm|cm|m|pc|pcs|pk|pks|s|x|"
    r"y|yd|w|v|a|amp|mah|gal|inch|in|ft|pax|ply)$"
)
_TOKEN = re.compile(r"\d+(?:\.\d+)?[a-z]*|[a-z][a-z0-9]*")
_DECIMAL = re.compile(r"^\d+\.\d+$")
_REWRITES = tuple((re.compile(pattern), replacement) for pattern, replacement in PHRASE_REWRITES)
# Plurals the search singulariser does not know (it serves catalog words, not groceries).
_IRREGULAR = {"shoes": "shoe", "knives": "knife", "leaves": "leaf", "loaves": "loaf", "halves": "half",
              "potatoes": "potato", "tomatoes": "tomato", "mangoes": "mango", "cookies": "cookie", "pies": "pie",
              "ties": "tie", "fries": "fries", "chips": "chip", "glasses": "glass", "boxes": "box"}  # fmt: skip


def singular(word: str) -> str:
    """ "bananas" → "banana", "tomatoes" → "tomato", "dresses" → "dress" (the catalog's rule plus grocery plurals)."""
    return _IRREGULAR.get(word) or english_singular(word)


@lru_cache(maxsize=4096)
def item_words(name: str) -> tuple[str, ...]:
    """The words of an item name for matching: lower case, shorthand expanded, sizes and noise dropped, singular."""
    text = name.lower()
    for pattern, replacement in _REWRITES:
        text = pattern.sub(replacement, text)
    words: list[str] = []
    for token in _TOKEN.findall(text):
        if token in NOISE_WORDS or _MEASURE.match(token) or _DECIMAL.match(token):
            continue
        expanded = ABBREVIATIONS.get(token) or ABBREVIATIONS.get(singular(token)) or token
        words.extend(singular(word) for word in _TOKEN.findall(expanded))
    return tuple(words)


def item_key(name: str) -> str:
    """The name as one comparable string: "O.C. WHITE" and "o c white" give the same key."""
    return " ".join(item_words(name))
