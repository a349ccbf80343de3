"""Stage 1 — normalise: Unicode and punctuation, shorthand, typos corrected against the shop's words and product
names (rapidfuzz), numbers and prices in words, ages and relations that mean the kids' department.

`text` keeps the shopper's casing (names, tracking numbers and e-mails stay intact) and feeds the rule stage;
`plain` is lower case with contractions expanded, for intent cues such as negation."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

from rapidfuzz import fuzz, process
from rapidfuzz.distance import DamerauLevenshtein

from ...services.search_terms import CATEGORY_WORDS, STOPWORDS, SYNONYMS
from ...services.shop_vocabulary import ShopVocabulary
from ...services.vocabulary import CLOTHING_TYPES, COLOR_ALIASES, COLORS, FABRICS, SIZE_ALIASES
from . import lexicon

CHARS = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": " - ",
                       "\u2014": " - ", "\u00a0": " ", "\u00d7": "x", "\u2026": "..."})  # fmt: skip
TOKEN = re.compile(r"[A-Za-z][A-Za-z']*")
# Emails, links, quoted text, codes with digits, and sizes past the shop's range ("XXXL" must not become "XXL").
PROTECTED = re.compile(r"\S+@\S+|https?://\S+|\"[^\"]*\"|\b[A-Z0-9]*\d[A-Z0-9]*\b|\b(?i:x{3,}[ls])\b")
_QUANTITY = tuple((re.compile(p, re.I), r) for p, r in lexicon.QUANTITY_PHRASES)
_KIDS = tuple(re.compile(p, re.I) for p in lexicon.KIDS_PHRASES)
_TENS = "|".join(lexicon.TENS)
_UNITS_1_9 = "one|two|three|four|five|six|seven|eight|nine"
_COMPOUND = re.compile(rf"\b({_TENS})(?:[\s-]+({_UNITS_1_9}))?\b", re.I)
_TEENS = re.compile(r"\b(thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)\b", re.I)
_CURRENCY = r"(?:dollars?|bucks|usd|quid|euros?|pounds|\$)"
_PRICE_LEAD = r"(?:under|below|over|above|than|max|maximum|least|most|upto|to|budget\s+(?:is|of)|around|about)"
_UNIT_PRICE = re.compile(rf"\b({'|'.join(lexicon.UNITS)})(?=\s+{_CURRENCY})", re.I)
_LEAD_PRICE = re.compile(rf"\b({_PRICE_LEAD})\s+({'|'.join(lexicon.UNITS)})\b", re.I)
CONTRACTION = re.compile(
    r"(?<![\w'])(?:" + "|".join(sorted(map(re.escape, lexicon.CONTRACTIONS), key=len, reverse=True)) + r")(?![\w'])"
)
_HUNDRED = re.compile(r"\b(\d+)\s+hundred(?:\s+and)?(?:\s+(\d+))?\b", re.I)


@dataclass
class Normalised:
    original: str
    text: str  # corrected, casing kept: what the rule stage reads
    plain: str  # lower case, contractions expanded: what intent cues read
    corrections: dict = field(default_factory=dict)


def normalise(message: str, vocabulary: ShopVocabulary) -> Normalised:
    """The message cleaned up for the later stages (see module doc)."""
    text = unicodedata.normalize("NFKC", message or "").translate(CHARS)
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = re.sub(r"\s+", " ", text).strip()[:2000]
    for pattern in _KIDS:
        text = pattern.sub(lambda m: " for kids " if m.group(0).strip() else m.group(0), text)
    corrections: dict[str, str] = {}
    text = _correct_words(text, vocabulary, corrections)
    text = numbers_in_words(text)
    text = re.sub(r"\bfor\s+for\b", "for", re.sub(r"\s+", " ", text)).strip()
    plain = CONTRACTION.sub(lambda m: lexicon.CONTRACTIONS[m.group(0)], text.lower())
    return Normalised(message or "", text, plain, corrections)


def numbers_in_words(text: str) -> str:
    """ "sixty bucks" → "60 bucks", "forty-five" → "45", "half a dozen" → "6", "five dollars" → "5 dollars"."""
    for pattern, replacement in _QUANTITY:
        text = pattern.sub(replacement, text)
    text = _COMPOUND.sub(lambda m: str(lexicon.TENS[m.group(1).lower()] + lexicon.UNITS.get((m.group(2) or "").lower(), 0)),
                         text)  # fmt: skip
    text = _TEENS.sub(lambda m: str(lexicon.UNITS[m.group(1).lower()]), text)
    text = _UNIT_PRICE.sub(lambda m: str(lexicon.UNITS[m.group(1).lower()]), text)
    text = _LEAD_PRICE.sub(lambda m: f"{m.group(1)} {lexicon.UNITS[m.group(2).lower()]}", text)
    return _HUNDRED.sub(lambda m: str(int(m.group(1)) * 100 + int(m.group(2) or 0)), text)


def _correct_words(text: str, vocabulary: ShopVocabulary, corrections: dict) -> str:
    protected = [(m.start(), m.end()) for m in PROTECTED.finditer(text)]
    targets = _targets(vocabulary)
    known = _known(vocabulary)
    out, last = [], 0
    for match in TOKEN.finditer(text):
        start, end = match.span()
        if any(a <= start < b for a, b in protected):
            continue
        word = match.group(0)
        low = word.lower()
        fixed = lexicon.SHORTHAND.get(low)
        if fixed is None and low.endswith("in") and low not in known and low + "g" in known:
            fixed = low + "g"  # chat spelling "lookin", "tryin": the -ing word
        stem = low[:-2] if low.endswith("es") else low[:-1] if low.endswith("s") else low
        if fixed is None and low not in known and stem not in known and len(low) >= 4 and "'" not in low:
            mid_sentence_name = word[0].isupper() and start > 0 and not word.isupper()
            fixed = None if mid_sentence_name else _closest(low, targets)
        if fixed is None or fixed == low:
            continue
        corrections[word] = fixed
        out.append(text[last:start])
        out.append(fixed)
        last = end
    out.append(text[last:])
    return "".join(out)


@lru_cache(maxsize=8)
def _targets(vocabulary: ShopVocabulary) -> tuple[str, ...]:
    """Words a typo may be corrected to: the shop's types, colours, sizes, fabrics, departments, product names."""
    words = set(CLOTHING_TYPES) | {_plural(t) for t in CLOTHING_TYPES} | set(COLORS)
    words |= set(COLOR_ALIASES) | {k for k in SIZE_ALIASES if " " not in k and len(k) > 2} | set(FABRICS)
    words |= {w for w in SYNONYMS if len(w) > 3} | {w + "s" for w in SYNONYMS if len(w) > 3 and not w.endswith("s")}
    words |= {w for w in CATEGORY_WORDS if len(w) > 3} | set(vocabulary.name_words)
    words |= {"tshirts", "tees", "trousers", "sweaters", "jumpers", "basket", "cart", "checkout", "remove", "delete",
              "compare", "review", "shipping", "returns", "refund", "order", "orders", "tracking", "cheapest",
              "expensive", "please", "large", "medium", "small", "extra", "quantity", "size", "clear", "empty",
              "show", "search", "price", "under", "dollars", "sneakers", "add", "cheap", "cheaper", "priciest",
              "receipt", "receipts", "spend", "spent", "spending", "expenses", "difference", "between",
              # the shop-question words ("retrun policy", "exchnage", "ship internationaly")
              "return", "returned", "returning", "exchange", "exchanges", "exchanged", "refunds", "refunded", "policy", "policies", "delivery", "deliver", "delivered", "deliveries", "international", "internationally",
              "abroad", "overseas", "postage", "payment", "warranty",
              # the admin's stock and catalog words ("lowest stok", "restok", "most stocked" is no "smocked")
              "stock", "stocked", "restock", "restocked", "inventory", "units", "deleted", "hidden", "inactive"}  # fmt: skip
    return tuple(sorted(w for w in words if w.isalpha() and len(w) >= 3))


def _plural(word: str) -> str:
    if word.endswith(("s", "sh", "ch", "x")):
        return word if word in ("jeans", "pants", "shorts", "socks", "sneakers", "pajamas") else word + "es"
    return word + "s"


@lru_cache(maxsize=8)
def _known(vocabulary: ShopVocabulary) -> frozenset[str]:
    from .rules import NOISE  # the rule stage's filler words are real words too

    known = frozenset(_targets(vocabulary)) | lexicon.KNOWN_WORDS | lexicon.COMMON_WORDS | NOISE | STOPWORDS
    return known | set(lexicon.CONTRACTIONS) | vocabulary.extra_words


@lru_cache(maxsize=4096)
def _closest(word: str, targets: tuple[str, ...]) -> str | None:
    """The shop word a typo most likely meant: same first letter, similarity ≥ 80 (rapidfuzz ratio, or
    Damerau-Levenshtein so that swapped letters count once: "purpel" → "purple")."""
    candidates = [t for t in targets if t[0] == word[0] and abs(len(t) - len(word)) <= 2]
    found = process.extractOne(word, candidates, scorer=_similarity, score_cutoff=80)
    return found[0] if found else None


def _similarity(a: str, b: str, **_kwargs) -> float:
    if len(a) == len(b) == 4 and b in COLORS and sorted(a) == sorted(b) and DamerauLevenshtein.distance(a, b) == 1:
        return 90.0  # two letters swapped in a short colour ("bleu" → "blue") score only 75 as a ratio
    return max(fuzz.ratio(a, b), DamerauLevenshtein.normalized_similarity(a, b) * 100)
