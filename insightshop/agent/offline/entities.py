"""Stage 2 — entities: the things a message names that the rule stage does not read itself — products by name
(fuzzy, against the live catalog), carriers and tracking numbers, the shopper's own name, price floors, "on sale",
dashboard periods. Cart items, colours, sizes, departments, quantities, order ids and e-mails are read by the
rule stage's `Msg` (insightshop.agent.offline.rules)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz

from ...services.search_terms import CATEGORY_WORDS, SYNONYMS
from ...services.shop_vocabulary import ProductWords, ShopVocabulary
from ...services.vocabulary import CLOTHING_TYPES, COLOR_ALIASES, COLORS
from . import lexicon

WORD = re.compile(r"[a-z0-9]+")
_GENERIC = (set(CLOTHING_TYPES) | {"tshirt", "tee", "t", "set", "shirt", "dress", "the", "and", "in", "of"}
            | set(COLORS) | set(COLOR_ALIASES) | set(CATEGORY_WORDS) | set(SYNONYMS))  # fmt: skip
CARRIER = re.compile(r"\b(" + "|".join(sorted(map(re.escape, lexicon.CARRIERS), key=len, reverse=True)) + r")\b", re.I)
TRACKING = re.compile(lexicon.TRACKING_TOKEN)
TRACKING_LABEL = re.compile(
    r"(?i)\btracking(?:\s+(?:number|no\.?|num|code|id|#))?\s*(?:is|:|#|=)?\s*([A-Za-z0-9-]{5,100})"
)
SELF_NAME = re.compile(
    r"(?:^|[,.;!]\s*|\s-\s*)(?i:hi,?\s+|hey,?\s+|hello,?\s+)?(?i:i'?m|i\s+am|my\s+name\s+is|my\s+name'?s|this\s+is|"
    r"name\s*:|it'?s|signed,?|from)\s+([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)(?=\s*(?:[,.;!:-]|\bhere\b|$))|"
    r"(?:^|[,.;!]\s*)([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)\s+here\b|"
    r"\s(?:-|—)\s*([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+)?)\s*$"
)
_MIN_PRICE = re.compile(lexicon.MIN_PRICE, re.I)
# Words a message uses as commands; alone they never name a product ("show me…" is not "No-Show Socks").
_COMMANDS = "show find add get put buy remove delete search see give take no yes set view list"
COMMAND_WORDS = frozenset(_COMMANDS.split())
_NEGATED_FLOOR = re.compile(
    r"\b(?:nothing|not|no|never|none|don'?t|do\s+not|won'?t|will\s+not|can'?t|cannot)(?:\s+(?:want\s+to|wanna|spend|pay|go))*"
    r"\s*$",
    re.I,
)
_ON_SALE = re.compile(lexicon.ON_SALE, re.I)
_IN_STOCK = re.compile(lexicon.IN_STOCK, re.I)
_PERIODS = tuple((name, re.compile(p, re.I)) for name, p in lexicon.PERIODS)


@dataclass
class Mention:
    """A product named in the message: every catalog entry sold under that name, best first."""

    name: str
    products: tuple[ProductWords, ...]
    position: int
    score: float
    telling: bool = False  # named by a word only this product has among the garments said ("the oxford shirt")
    hits: int = 1  # how many of the name's distinctive words the message has ("crew neck" of Essential Crew Neck Tee)


@lru_cache(maxsize=8)
def _distinctive(vocabulary: ShopVocabulary) -> dict[str, frozenset[str]]:
    """Product name → the words of it that tell it apart (not a type, colour or department word). A word that names
    another garment describes this one: "denim" tells the Classic Denim Jacket apart among jackets."""
    return {
        name: frozenset(
            w for w in WORD.findall(name) if len(w) > 1 and (w not in _GENERIC or _describes(w, name, vocabulary))
        )
        for name in vocabulary.by_name
    }


def _describes(word: str, name: str, vocabulary: ShopVocabulary) -> bool:
    """A garment word ("denim" for jeans) in the name of a product of another garment (a jacket)."""
    kind = vocabulary.by_name[name][0].clothing_type
    means = SYNONYMS.get(word)
    return bool(means) and word not in CLOTHING_TYPES and kind not in means and kind.rstrip("s") not in means


def distinctive_words(vocabulary: ShopVocabulary) -> dict[str, frozenset[str]]:
    """Lower-case product name → the words of it that tell it apart."""
    return _distinctive(vocabulary)


@lru_cache(maxsize=64)
def _telling_words(vocabulary: ShopVocabulary, types: tuple[str, ...]) -> frozenset[str]:
    """Distinctive words that belong to one product name of these garments only ("oxford" among shirts,
    "cashmere" among sweaters): one of them, with the garment said, names that product ("the oxford shirt")."""
    seen: dict[str, int] = {}
    for name, distinct in _distinctive(vocabulary).items():
        if vocabulary.by_name[name][0].clothing_type not in types:
            continue
        for word in distinct:
            seen[word] = seen.get(word, 0) + 1
    return frozenset(word for word, count in seen.items()
                     if count == 1 and (len(word) >= 4 or len(word) == 3 and word not in _SHORT_EVERYDAY))  # fmt: skip


# Three-letter name words that are everyday English too: they never name a product alone ("pea", "zip", "tie" do).
_SHORT_EVERYDAY = frozenset(("cut", "off", "low", "non", "top", "one", "set", "new", "old", "big", "all", "any", "can",
                             "get", "got", "put", "run"))  # fmt: skip


@lru_cache(maxsize=8)
def _rare_words(vocabulary: ShopVocabulary) -> frozenset[str]:
    """Words of one product name only, in the whole catalog, that are no everyday English ("onesie", "dinosaur"):
    one names that product even with no garment said ("a pink onesie for my toddler")."""
    everyday = lexicon.COMMON_WORDS | lexicon.KNOWN_WORDS
    return frozenset(word for word in _telling_words(vocabulary, tuple(sorted(vocabulary.clothing_types)))
                     if (len(word) >= 5 or word in lexicon.SHORT_NAMING_WORDS) and word not in everyday
                     and word not in COMMAND_WORDS)  # fmt: skip


def product_mentions(
    text: str, vocabulary: ShopVocabulary, types: list[str] | None = None, *, rare: bool = False
) -> list[Mention]:
    """Products named in the text ("the Oxford Button-Down Shirt", "the linen shirt"), in the order they appear.

    A name counts when at least half of its distinctive words are present (fuzzily), or, with the garment said, a
    word only that name has ("the oxford shirt"); if the message names a clothing type, the product is of that
    type; overlapping candidates go to the best-scoring name."""
    tokens = WORD.findall(text.lower())
    if not tokens:
        return []
    scored = []
    unique = (
        _telling_words(vocabulary, tuple(sorted(types))) if types else _rare_words(vocabulary) if rare else frozenset()
    )
    for name, distinct in _distinctive(vocabulary).items():
        if not distinct:
            continue
        products = vocabulary.by_name[name]
        if types and products[0].clothing_type not in types:
            continue
        hits = {}
        for word in distinct:
            position = _find(word, tokens)
            if position is not None:
                hits[word] = position
        score = len(hits) / len(distinct)
        # With no garment named, words the engine reads as commands ("show" of "No-Show Socks") name nothing alone.
        telling = types or any(word not in COMMAND_WORDS for word in hits)
        if hits and (score >= 0.5 or unique.intersection(hits)) and telling:
            scored.append((score, len(hits), name, hits))
    scored.sort(key=lambda s: (-s[0], -s[1], min(s[3].values())))
    used: set[int] = set()
    mentions = []
    for score, _count, name, hits in scored:
        positions = set(hits.values())
        if positions & used:
            continue
        used |= positions
        mentions.append(Mention(name, vocabulary.by_name[name], min(positions), score, bool(unique.intersection(hits)),
                                len(hits)))  # fmt: skip
    return sorted(mentions, key=lambda m: m.position)


def _find(word: str, tokens: list[str]) -> int | None:
    for index, token in enumerate(tokens):
        if token == word or (len(word) >= 5 and len(token) >= 4 and fuzz.ratio(token, word) >= 85):
            return index
    return None


def choose(
    products: tuple[ProductWords, ...], color: str | None = None, category: str | None = None
) -> list[ProductWords]:
    """The entries of one product name that fit the colour and department; adults before kids when none named."""
    fitting = [
        p for p in products if (color is None or color in p.colors) and (category is None or p.category == category)
    ]
    if category is None:
        adults = [p for p in fitting if p.category != "kids"]
        fitting = adults or fitting
    return fitting


def carrier(text: str) -> str | None:
    match = CARRIER.search(text)
    return lexicon.CARRIERS[match.group(1).lower()] if match else None


def tracking_number(text: str) -> str | None:
    """ "tracking 1Z999AA10123456784", "tracking number: 9400…", or a carrier-shaped token."""
    labelled = TRACKING_LABEL.search(text)
    if labelled and re.search(r"\d", labelled.group(1)):
        return labelled.group(1).upper()
    match = TRACKING.search(text.upper())
    return match.group(1) if match and not re.fullmatch(r"\d{1,6}", match.group(1)) else None


def self_name(text: str) -> tuple[str, tuple[int, int]] | None:
    """The writer's own name ("I'm Jordan", "my name is Sam Lee", "… - Jordan") and where it was said."""
    for match in SELF_NAME.finditer(text):
        name = next(g for g in match.groups() if g)
        if name.lower() in lexicon.KNOWN_WORDS or name.lower() in ("ready", "looking", "interested", "done"):
            continue
        return name, match.span()
    return None


def min_price(text: str) -> float | int | None:
    # "nothing over $60" is a ceiling (rules.PRICE_MAX), not a floor.
    match = next((m for m in _MIN_PRICE.finditer(text) if not _NEGATED_FLOOR.search(text[: m.start()])), None)
    if not match:
        return None
    value = float(match.group(1) or match.group(2))
    return int(value) if value.is_integer() else value


def on_sale(text: str) -> bool:
    return _ON_SALE.search(text) is not None


def in_stock(text: str) -> bool:
    return _IN_STOCK.search(text) is not None


def period(text: str) -> str | None:
    return next((name for name, pattern in _PERIODS if pattern.search(text)), None)
