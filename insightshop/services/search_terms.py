"""Turns what a shopper types into search terms: synonyms, plurals, category words, sizes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from .vocabulary import CLOTHING_TYPES, COLOR_ALIASES, COLORS, SIZE_ALIASES

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

# What a quality or an occasion asked for in a shopper's own words looks like in product texts, which state it by
# the fabric, the season or the cut: "a warm coat" is a wool or winter coat, "for a wedding" a tailored one.
WARM = ("warm", "warmth", "winter", "wool", "fleece", "cashmere", "padded", "quilted", "puffer", "cosy", "cozy")
FORMAL = ("formal", "tailored", "smart", "silk", "blazer", "poplin")

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
    **{word: tuple(dict.fromkeys((word, *WARM))) for word in ("warm", "cosy", "cozy")},
    **{
        word: tuple(dict.fromkeys((word, *FORMAL)))
        for word in ("formal", "dressy", "elegant", "wedding", "interview", "occasion")
    },
}

CATEGORY_WORDS = {
    **dict.fromkeys(("men", "mens", "man", "male", "gents", "gent", "gentlemen", "him", "husband", "boyfriend",
                     "dad", "father", "brother", "grandpa"), "men"),
    **dict.fromkeys(("women", "womens", "woman", "ladies", "lady", "female", "her", "womenswear", "wife",
                     "girlfriend", "mum", "mom", "mother", "sister", "grandma"), "women"),
    **dict.fromkeys(
        ("kids", "kid", "kidswear", "boys", "boy", "girls", "girl", "children", "childrens", "child",
         "toddler", "toddlers", "youth", "junior", "juniors", "son", "sons", "daughter", "daughters", "niece",
         "nieces", "nephew", "nephews", "baby", "babies", "grandson", "granddaughter", "grandkids"),
        "kids",
    ),
}  # fmt: skip

# "for my 6-year-old", "8 yr old": a child's age means the kids' department.
CHILD_AGE = re.compile(r"\b(\d{1,2})[\s-]*(?:years?|yrs?|yo)(?:[\s-]*old)?\b")
CHILD_AGE_LIMIT = 15

SIZE_WORDS = {k: v for k, v in SIZE_ALIASES.items() if " " not in k and len(k) > 1}

# Words that name a colour → the shop colour (a hard filter on the variants' colours).
COLOR_WORDS = {**{color: color for color in COLORS}, **COLOR_ALIASES}

# Synonym heads that are fabrics, not garments: "denim jacket" is a jacket made of denim.
_NOT_GARMENTS = frozenset({"denim"})


def _type_words() -> dict[str, tuple[str, ...]]:
    """Every word naming a garment → the shop clothing types it means ("tees" → t-shirt, "top" → blouse, t-shirt)."""
    words: dict[str, tuple[str, ...]] = {}
    for kind in CLOTHING_TYPES:
        words[kind.replace("-", "")] = (kind,)
    for word, group in SYNONYMS.items():
        if word in _NOT_GARMENTS or word in COLOR_WORDS:
            continue
        kinds = tuple(
            dict.fromkeys("t-shirt" if term == "tshirt" else term for term in group if _as_type(term) is not None)
        )
        if kinds:
            words[word] = kinds
    return words


def _as_type(term: str) -> str | None:
    term = "t-shirt" if term == "tshirt" else term
    return term if term in CLOTHING_TYPES else None


TYPE_WORDS = _type_words()

# Asking for deals means products in a running sale.
SALE_WORDS = frozenset({"sale", "sales", "onsale", "discount", "discounts", "discounted", "deal", "deals",
                        "clearance", "reduced", "markdown", "markdowns", "bargain", "bargains", "promotion", "promotions"})  # fmt: skip

# Price bounds said in words: "under 50 dollars", "below $60", "over 100", "between 20 and 40".
_AMOUNT = r"\$?\s*(\d{1,6}(?:\.\d{1,2})?)\s*(?:dollars?|bucks?|usd)?"
# A floor said with a negation is a ceiling: "nothing over $60", "not more than 40", "don't want to spend over 50".
NOT_ABOVE = (
    r"(?:nothing|not|no|never|none)\s+(?:over|above|more\s+than|more\s+expensive\s+than|higher\s+than|pricier\s+than|"
    r"dearer\s+than|exceeding)|not\s+to\s+exceed|(?:don'?t|do\s+not|won'?t|will\s+not|can'?t|cannot)\s+(?:want\s+to\s+|wanna\s+)?"
    r"(?:spend|pay|go)\s+(?:over|above|more\s+than|beyond)"
)
PRICE_PATTERNS = (
    ("range", re.compile(rf"\b(?:between|from)\s+{_AMOUNT}\s+(?:and|to|-)\s+{_AMOUNT}")),
    ("range", re.compile(rf"\$\s*(\d{{1,6}}(?:\.\d{{1,2}})?)\s*(?:-|to)\s*{_AMOUNT}")),
    (
        "max",
        re.compile(
            rf"(?:\b(?:{NOT_ABOVE}|under|below|beneath|less\s+than|cheaper\s+than|max(?:imum)?|up\s+to|at\s+most|"
            rf"no\s+more\s+than|within)|<=?)\s*{_AMOUNT}"
        ),
    ),
    ("min", re.compile(rf"(?:\b(?:over|above|more\s+than|at\s+least|min(?:imum)?|upwards\s+of|from)|>=?)\s*{_AMOUNT}")),
)
IN_STOCK_PHRASE = re.compile(r"\b(?:in[\s-]stock|available\s+now|not\s+sold\s+out)\b")

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
        # Question and filler words a shopper types around the things that matter.
        *(
            "anything",
            "everything",
            "what",
            "whats",
            "which",
            "do",
            "does",
            "have",
            "has",
            "got",
            "there",
            "is",
            "are",
            "it",
            "its",
            "that",
            "this",
            "these",
            "those",
            "can",
            "could",
            "would",
            "like",
            "love",
            "buy",
            "shop",
            "see",
            "browse",
            "available",
            "ones",
            "one",
            "pair",
            "pairs",
            "item",
            "items",
            "product",
            "products",
            "clothes",
            "clothing",
            "stuff",
            "things",
            "thing",
            "options",
            "color",
            "colour",
            "colored",
            "coloured",
            "under",
            "below",
            "over",
            "above",
            "than",
            "less",
            "more",
            "between",
            "dollars",
            "dollar",
            "bucks",
            "buck",
            "usd",
            "price",
            "priced",
            "cost",
            "costing",
            "at",
            "most",
            "least",
            "up",
            "or",
            "by",
            "your",
            "our",
            "us",
            "just",
            "also",
            "too",
            "currently",
            "now",
            "right",
            "today",
            "please",
            "thanks",
            "light",
            "dark",
            "pale",
            "bright",
            "cheap",
            "cheaper",
            "cheapest",
            "affordable",
            "budget",
            "good",
            "great",
            "best",
            "stock",
            "ok",
            "okay",
            "hi",
            "hello",
            "hey",
            "wear",
            "wearing",
            "year",
            "years",
            "yr",
            "yrs",
            "old",
            "aged",
            "add",
            "put",
            "into",
            "cart",
            "basket",
            "give",
            "grab",
            "pick",
            "maybe",
            "kind",
            "kinds",
            "type",
            "types",
            "style",
            "styles",
            "around",
            "about",
            "roughly",
            "else",
            "other",
            "another",
        ),
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
    # What the words state as hard constraints; `terms` are the groups left once those are taken out.
    colors: tuple[str, ...] = ()
    clothing_types: tuple[str, ...] = ()
    terms: tuple[tuple[str, ...], ...] = ()
    min_price: Decimal | None = None
    max_price: Decimal | None = None
    on_sale: bool = False
    in_stock: bool = False

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
    """Parse a shopper's search text; "ladies white tees under $30" → women, white, t-shirt, max 30."""
    text = (text or "")[:500]
    normalised = normalise_text(text)
    normalised, min_price, max_price = _take_prices(normalised)
    in_stock = bool(IN_STOCK_PHRASE.search(normalised))
    normalised, child = _take_child_age(normalised)
    words = WORD.findall(normalised)
    typing_last_word = bool(words) and not text[-1:].isspace() and not text.rstrip().endswith(("'", '"', "?", "!", "."))
    groups: list[tuple[str, ...]] = []
    terms: list[tuple[str, ...]] = []
    categories: list[str] = ["kids"] if child else []
    sizes: list[str] = []
    colors: list[str] = []
    kinds: list[str] = []
    on_sale = False
    for index, word in enumerate(words):
        is_last = index == len(words) - 1
        following = words[index + 1] if not is_last else None
        if _take_filter_word(word, categories, sizes):
            continue
        if word in SALE_WORDS:
            on_sale = True
            continue
        group = SYNONYMS.get(word) or SYNONYMS.get(singular(word)) or (word,)
        if is_last and typing_last_word and len(word) >= 2:
            group = tuple(dict.fromkeys((*group, word + "*")))
        if group not in groups:
            groups.append(group)
        _sort_word(word, following, group, colors, kinds, terms)
    return ParsedQuery(
        groups=tuple(groups[:12]),
        categories=tuple(categories),
        sizes=tuple(sizes),
        prefix_last=typing_last_word,
        raw=text,
        words=tuple(words),
        colors=tuple(colors),
        clothing_types=tuple(kinds),
        terms=tuple(terms[:12]),
        min_price=min_price,
        max_price=max_price,
        on_sale=on_sale,
        in_stock=in_stock,
    )


def _sort_word(word, following, group, colors, kinds, terms) -> None:
    """A colour word is a colour filter, a garment word a type filter, anything else a term to match."""
    color = COLOR_WORDS.get(word)
    kind = _type_of(word)
    # A garment word right before another one is a modifier: "dress shirt", "dress socks".
    if kind and following is not None and _type_of(following):
        kind = None
    if color:
        _append_unique(colors, color)
    elif kind:
        for value in kind:
            _append_unique(kinds, value)
    elif group not in terms:
        terms.append(group)


def _take_filter_word(word: str, categories: list[str], sizes: list[str]) -> bool:
    """Department and size words become filters; stopwords are dropped. True when the word is used up."""
    if word in CATEGORY_WORDS:
        _append_unique(categories, CATEGORY_WORDS[word])
    elif word in SIZE_WORDS:
        _append_unique(sizes, SIZE_WORDS[word])
    else:
        # Bare numbers are quantities or ages ("2 shirts", "a 40 year old"); prices were taken out before.
        return word in STOPWORDS or len(word) < 2 or word.isdigit()
    return True


def _type_of(word: str | None) -> tuple[str, ...] | None:
    return (TYPE_WORDS.get(word) or TYPE_WORDS.get(singular(word))) if word else None


def canonical_clothing_type(word: str | None) -> str | None:
    """ "shirts", "tees", "trousers", "T-Shirt" → the shop's clothing type (or None)."""
    if not word:
        return None
    text = normalise_text(word.strip().replace("_", " "))
    if text in CLOTHING_TYPES:
        return text
    compact = "".join(WORD.findall(text))
    kinds = _type_of(compact) or _type_of(text.split()[-1] if text.split() else None)
    return kinds[0] if kinds else None


def _take_child_age(text: str) -> tuple[str, bool]:
    """Whether the text names a child's age ("my 6-year-old"), and the text without it."""
    match = CHILD_AGE.search(text)
    if match is None or int(match.group(1)) > CHILD_AGE_LIMIT:
        return text, False
    return text[: match.start()] + " " + text[match.end() :], True


def _take_prices(text: str) -> tuple[str, Decimal | None, Decimal | None]:
    """Price bounds stated in the text, and the text without them."""
    low = high = None
    for kind, pattern in PRICE_PATTERNS:
        match = pattern.search(text)
        if match is None:
            continue
        amounts = [Decimal(value) for value in match.groups() if value is not None]
        if kind == "range":
            low, high = min(amounts), max(amounts)
        elif kind == "max" and high is None:
            high = amounts[0]
        elif kind == "min" and low is None:
            low = amounts[0]
        text = text[: match.start()] + " " + text[match.end() :]
    return text, low, high


def _append_unique(items: list[str], value: str) -> None:
    if value not in items:
        items.append(value)
