"""categorize_item: a receipt item name → one of the shop's active spending categories, or honest suggestions.

The seed's fallback chain, deterministic and local (no model ever names a category here):
1. exact — the name is a known item: one this owner categorised by hand, one from the curated table of recurring
   receipt items, or a product of this shop's catalog (its clothing type says Clothing or Footwear);
2. keyword — keyword rules per category on word boundaries, plural or singular, receipt shorthand expanded; the
   most specific keyword wins (more words first, then a later word: "orange peel chocolate" is chocolate);
3. fuzzy — difflib's SequenceMatcher ≥ 0.8 (seed 003) between the name's words and the keywords, category names
   and known items, for typos and OCR noise ("CHIKEN", "BROCOLLI", a last word cut off by the till: "BANAN");
4. none — no category; the top 3 suggestions for the person to choose from.
When the answer is not confident (match_score < CONFIDENT), the top 3 suggestions come with it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache

from sqlalchemy import select

from ...extensions import db
from ...models.receipts import Category, Receipt, ReceiptItem
from .. import shop_vocabulary
from ..actors import Actor
from .category_keywords import KEYWORDS, KNOWN_ITEMS, WEAK_KEYWORDS
from .item_names import item_key, item_words

SIMILARITY_THRESHOLD = 0.8  # seed 003
CONFIDENT = 0.9  # below this the answer carries suggestions
KEYWORD_SCORE = 0.95  # seed 000
AMBIGUOUS_KEYWORD_SCORE = 0.8  # another category matched an equally specific keyword
WEAK_KEYWORD_SCORE = 0.7
SUGGESTIONS = 3
# How a ReceiptItem records a category its owner chose (set_item_category) or approved as suggested.
KNOWN_METHODS = ("manual", "confirmed")
OWNER_ITEMS_READ = 5000  # the owner's most recent hand-categorised items considered
FOOTWEAR_TYPES = frozenset({"sneakers"})
MIN_FUZZY_WORD = 4  # shorter words match too many things ("ice" ~ "rice"); a cut-off last word may have 3


@dataclass(frozen=True)
class Term:
    """A keyword as words, with the category it points to."""

    words: tuple[str, ...]
    category: str  # category name as written in the data (compared case-insensitively)
    strong: bool = True


@dataclass(frozen=True)
class Hit:
    term: Term
    end: int  # index after the last matched word

    @property
    def rank(self) -> tuple:
        return (self.term.strong, len(self.term.words), self.end, len(" ".join(self.term.words)))


@dataclass
class Context:
    """What one categorisation needs from the database: active categories and the known items."""

    categories: dict[str, Category]  # lower name → active category
    owner_items: dict[str, int] = field(default_factory=dict)  # item key → category id (the owner's own choices)

    def category(self, name: str) -> Category | None:
        return self.categories.get(name.lower())

    def by_id(self, category_id: int) -> Category | None:
        return next((c for c in self.categories.values() if c.id == category_id), None)


# The chain ---------------------------------------------------------------------------------------------------


def categorize_item(actor: Actor, item_name: str) -> dict:
    """The category of one receipt item name (exact → keyword → fuzzy → none with suggestions)."""
    return categorize_with(load_context(actor), item_name)


def categorize_items(actor: Actor, item_names: Iterable[str]) -> list[dict]:
    """Categorise many names with one read of the database (an extracted receipt's items)."""
    context = load_context(actor)
    return [categorize_with(context, name) for name in item_names]


def categorize_with(context: Context, item_name: str) -> dict:
    """The chain over a loaded context; pure apart from the catalog vocabulary cache."""
    words = item_words(item_name)
    scores = _Scores(context)
    found = _exact(context, item_key(item_name)) or _keyword(context, words, scores)
    if found is None:
        found = _fuzzy(context, words, item_key(item_name), scores)
    return _answer(found, scores)


def load_context(actor: Actor) -> Context:
    categories = {c.name.lower(): c for c in db.session.scalars(select(Category).where(Category.is_active.is_(True)))}
    return Context(categories=categories, owner_items=_owner_items(actor, categories))


def _owner_items(actor: Actor, categories: dict[str, Category]) -> dict[str, int]:
    if actor.user is None:
        return {}
    active = {c.id for c in categories.values()}
    rows = db.session.execute(
        select(ReceiptItem.item_name, ReceiptItem.category_id)
        .join(Receipt, Receipt.id == ReceiptItem.receipt_id)
        .where(Receipt.user_id == actor.user.id, ReceiptItem.category_method.in_(KNOWN_METHODS),
               ReceiptItem.category_id.is_not(None))
        .order_by(ReceiptItem.id.desc())
        .limit(OWNER_ITEMS_READ)
    )  # fmt: skip
    known: dict[str, int] = {}
    for name, category_id in rows:
        if category_id in active:
            known.setdefault(item_key(name), category_id)  # the most recent choice wins
    return known


@dataclass(frozen=True)
class Found:
    category: Category
    method: str
    score: float


def _exact(context: Context, key: str) -> Found | None:
    if not key:
        return None
    owner_choice = context.owner_items.get(key)
    category = context.by_id(owner_choice) if owner_choice else None
    if category is None:
        name = _curated_items().get(key) or _catalog_items(shop_vocabulary.current()).get(key)
        category = context.category(name) if name else None
    return Found(category, "exact", 1.0) if category else None


def _keyword(context: Context, words: tuple[str, ...], scores: _Scores) -> Found | None:
    hits = [hit for hit in _hits(words, _terms_for(context)) if context.category(hit.term.category)]
    for hit in hits:
        scores.add(hit.term.category, KEYWORD_SCORE if hit.term.strong else WEAK_KEYWORD_SCORE)
    if not hits:
        return None
    best = max(hits, key=lambda hit: hit.rank)
    rivals = [h for h in hits if h.term.category != best.term.category and h.rank[:2] == best.rank[:2]]
    score = _keyword_score(best, rivals)
    scores.choose(best.term.category)
    return Found(context.category(best.term.category), "keyword", score)


def _keyword_score(best: Hit, rivals: list[Hit]) -> float:
    if not best.term.strong:
        return WEAK_KEYWORD_SCORE
    return AMBIGUOUS_KEYWORD_SCORE if rivals else KEYWORD_SCORE


def _fuzzy(context: Context, words: tuple[str, ...], key: str, scores: _Scores) -> Found | None:
    best: tuple[float, str] | None = None
    for ratio, category in _similarities(context, words, key):
        if context.category(category) is None:
            continue
        scores.add(category, ratio)
        if ratio >= SIMILARITY_THRESHOLD and (best is None or ratio > best[0]):
            best = (ratio, category)
    if best is None:
        return None
    scores.choose(best[1])
    return Found(context.category(best[1]), "fuzzy", round(best[0], 3))


def _answer(found: Found | None, scores: _Scores) -> dict:
    suggestions = [] if found is not None and found.score >= CONFIDENT else scores.top(SUGGESTIONS)
    if found is None:
        return {"category_id": None, "category_name": None, "match_method": "none", "match_score": 0.0,
                "suggestions": suggestions}  # fmt: skip
    return {"category_id": found.category.id, "category_name": found.category.name, "match_method": found.method,
            "match_score": round(found.score, 3), "suggestions": suggestions}  # fmt: skip


class _Scores:
    """The best evidence seen per category, for suggestions."""

    def __init__(self, context: Context):
        self.context = context
        self.best: dict[str, float] = {}
        self.chosen: str | None = None

    def choose(self, category: str) -> None:
        """The category the chain settled on leads the suggestions."""
        self.chosen = category.lower()

    def add(self, category: str, score: float) -> None:
        lower = category.lower()
        if lower in self.context.categories and score > self.best.get(lower, 0.0):
            self.best[lower] = score

    def top(self, count: int) -> list[dict]:
        ranked = sorted(self.best.items(), key=lambda item: (item[0] != self.chosen, -item[1], item[0]))[:count]
        return [{"category_id": self.context.categories[name].id, "category_name": self.context.categories[name].name,
                 "score": round(min(score, 1.0), 3)} for name, score in ranked]  # fmt: skip


# Keywords ----------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _data_terms() -> tuple[Term, ...]:
    terms = [Term(item_words(k), name) for name, keywords in KEYWORDS.items() for k in keywords]
    terms += [Term(item_words(k), name, strong=False) for name, keywords in WEAK_KEYWORDS.items() for k in keywords]
    return tuple(term for term in terms if term.words)


def _terms_for(context: Context) -> tuple[Term, ...]:
    """The data's keywords plus every active category's own name ("Herbs" finds "dried herbs")."""
    return _with_category_names(_data_terms(), tuple(sorted(c.name for c in context.categories.values())))


@lru_cache(maxsize=64)
def _with_category_names(terms: tuple[Term, ...], names: tuple[str, ...]) -> tuple[Term, ...]:
    known = {term.words for term in terms}
    extra = tuple(Term(item_words(name), name) for name in names if item_words(name) not in known)
    return terms + tuple(term for term in extra if term.words)


@lru_cache(maxsize=64)
def _first_word_index(terms: tuple[Term, ...]) -> dict[str, tuple[Term, ...]]:
    index: dict[str, list[Term]] = {}
    for term in terms:
        index.setdefault(term.words[0], []).append(term)
    return {word: tuple(found) for word, found in index.items()}


def _hits(words: tuple[str, ...], terms: tuple[Term, ...]) -> list[Hit]:
    """Every keyword found in the words, as a whole-word sequence."""
    index = _first_word_index(terms)
    hits = []
    for start, word in enumerate(words):
        for term in index.get(word, ()):
            end = start + len(term.words)
            if words[start:end] == term.words:
                hits.append(Hit(term, end))
    return hits


@lru_cache(maxsize=1)
def _curated_items() -> dict[str, str]:
    return {item_key(name): category for name, category in KNOWN_ITEMS.items()}


@lru_cache(maxsize=4)
def _catalog_items(vocabulary: shop_vocabulary.ShopVocabulary) -> dict[str, str]:
    """The shop's own product names → Clothing or Footwear (receipts the shop issued, and shoppers' photos of them)."""
    items = {}
    for product in vocabulary.products:
        items[item_key(product.name)] = "Footwear" if product.clothing_type in FOOTWEAR_TYPES else "Clothing"
    return items


# Fuzzy -------------------------------------------------------------------------------------------------------


def _similarities(context: Context, words: tuple[str, ...], key: str):
    """(ratio, category) for the name's words and word pairs against keywords and category names, and the whole
    name against known items. A 3-letter last word (a till cutting the name short) only meets words it begins."""
    candidates = [(w, False) for w in words if len(w) >= MIN_FUZZY_WORD]
    candidates += [(" ".join(pair), False) for pair in zip(words, words[1:], strict=False)]
    if words and len(words[-1]) == MIN_FUZZY_WORD - 1:
        candidates.append((words[-1], True))
    vocabulary = _fuzzy_vocabulary(_terms_for(context))
    for text, prefix_only in candidates:
        yield from _closest(text, vocabulary, prefix_only)
    if len(key) >= 6:
        yield from _closest_items(context, key)


@lru_cache(maxsize=64)
def _fuzzy_vocabulary(terms: tuple[Term, ...]) -> tuple[tuple[str, str], ...]:
    """(term text, category) for strong terms long enough to compare."""
    seen = {}
    for term in terms:
        text = " ".join(term.words)
        if term.strong and len(text) >= MIN_FUZZY_WORD:
            seen.setdefault(text, term.category)
    return tuple(seen.items())


def _closest(text: str, vocabulary: tuple[tuple[str, str], ...], prefix_only: bool):
    """The best ratio per category for one piece of the name."""
    matcher = SequenceMatcher(None, "", text, autojunk=False)
    best: dict[str, float] = {}
    for term, category in vocabulary:
        if prefix_only and not (term.startswith(text) and len(text) >= 0.6 * len(term)):
            continue
        if 2 * min(len(term), len(text)) / (len(term) + len(text)) <= best.get(category, 0.0):
            continue  # even a perfect overlap could not beat what this category already has
        matcher.set_seq1(term)
        if matcher.quick_ratio() <= best.get(category, 0.0):
            continue
        ratio = matcher.ratio()
        if ratio > best.get(category, 0.0):
            best[category] = ratio
    for category, ratio in best.items():
        yield ratio, category


def _closest_items(context: Context, key: str):
    """The whole name against the owner's and the curated known items (a repeat purchase read with noise)."""
    matcher = SequenceMatcher(None, "", key, autojunk=False)
    known = [(k, context.by_id(cid)) for k, cid in context.owner_items.items()]
    known += [(k, context.category(name)) for k, name in _curated_items().items()]
    for item, category in known:
        if category is None or abs(len(item) - len(key)) > len(key) // 3:
            continue
        matcher.set_seq1(item)
        if matcher.real_quick_ratio() >= SIMILARITY_THRESHOLD and matcher.ratio() >= SIMILARITY_THRESHOLD:
            yield matcher.ratio(), category.name
