"""Spending categories: list them, find one by a similar name (seed 003), add one (Title Case, never a duplicate
whatever the case), and let an owner set the category of their own receipt item."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ...models.receipts import Category, Receipt, ReceiptItem
from ...schemas.validation import CONTROL_CHARACTERS, DB_INT_MAX
from ..actors import Actor
from ..errors import Conflict, Invalid, NotFound
from .item_names import singular

SIMILARITY_THRESHOLD = 0.8  # seed 003
NAME_MIN, NAME_MAX = 2, 50
DESCRIPTION_MAX = 500
MAX_CATEGORIES = 200  # categories are shared by everyone: a runaway agent or script must not flood the list
MANUAL = "manual"  # ReceiptItem.category_method when the owner chose the category
_NAME_CHARACTERS = re.compile(r"^[^\W\d_](?:[^\W_]|[ &'/-])*$")  # starts with a letter; letters, digits, space & ' / -
_MINOR_WORDS = frozenset({"a", "an", "and", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with"})


# Reading ---------------------------------------------------------------------------------------------------


def list_categories() -> list[Category]:
    """The active categories, by name."""
    return list(db.session.scalars(select(Category).where(Category.is_active.is_(True)).order_by(Category.name)))


def category_to_dict(category: Category) -> dict:
    return {"id": category.id, "name": category.name, "description": category.description}


def similarity(first: str, second: str) -> float:
    """Seed 003's lexical similarity: difflib's Ratcliff/Obershelp ratio of the lower-cased strings, 0..1."""
    return SequenceMatcher(None, first.lower(), second.lower()).ratio()


def query_category_by_name(name: str) -> dict | None:
    """The active category most similar to a name, with its similarity, or None below 0.8 (seed 003)."""
    wanted = _clean_text(name, "name")
    best, best_similarity = None, 0.0
    for category in list_categories():
        score = similarity(wanted, category.name)
        if score > best_similarity:
            best, best_similarity = category, score
    if best is None or best_similarity < SIMILARITY_THRESHOLD:
        return None
    return {**category_to_dict(best), "similarity": round(best_similarity, 3)}


# Adding ----------------------------------------------------------------------------------------------------


def title_case(name: str) -> str:
    """ "personal care" → "Personal Care", "t-shirts" → "T-Shirts", "women's wear" → "Women's Wear",
    "fruits and vegetables" → "Fruits and Vegetables"; a short all-capitals word in a mixed name stays ("DIY")."""
    words = " ".join(name.split()).split(" ")
    shouting = name.upper() == name
    titled = []
    for index, word in enumerate(words):
        if not shouting and word.isupper() and len(word) <= 4:
            titled.append(word)  # an acronym the person wrote as one
        elif index > 0 and word.lower() in _MINOR_WORDS:
            titled.append(word.lower())
        else:
            titled.append("-".join(_capitalised(part) for part in word.split("-")))
    return " ".join(titled)


def _capitalised(part: str) -> str:
    """The first letter upper case, the rest lower ("women's" keeps its lower-case s; "3d" → "3D")."""
    lowered = part.lower()
    for index, character in enumerate(lowered):
        if character.isalpha():
            return lowered[:index] + character.upper() + lowered[index + 1 :]
    return lowered


def name_key(name: str) -> str:
    """What makes two category names the same: case, spacing, hyphens, apostrophes and plurals aside
    ("T-shirts" = "t shirt", "Vegetable" = "Vegetables")."""
    return " ".join(singular(word) for word in re.findall(r"[^\W_]+", name.lower().replace("'", "")))


def add_category(actor: Actor, name: str, description: str | None = None) -> dict:
    """Create a category in Title Case, or return the existing one with the same name whatever its case, spacing
    or plural (already_existed); a retired category of that name is a conflict, never revived silently."""
    actor.require_user()
    title = check_category_name(name)
    description = _clean_description(description)
    existing = _same_name(title)
    if existing is not None:
        return _reused(existing)
    if db.session.scalar(select(func.count(Category.id))) >= MAX_CATEGORIES:
        raise Conflict(f"There are already {MAX_CATEGORIES} categories; choose one of them")
    category = Category(name=title, description=description)
    db.session.add(category)
    try:
        db.session.commit()
    except IntegrityError:  # someone added the same name (any case) since we looked: the unique index decided
        db.session.rollback()
        existing = _same_name(title)
        if existing is None:
            raise
        return _reused(existing)
    return {**category_to_dict(category), "already_existed": False}


def check_category_name(name) -> str:
    """The name in Title Case, or Invalid: 2–50 characters, starting with a letter; letters, digits, spaces and
    & ' / - only."""
    if not isinstance(name, str):
        raise Invalid("name: a category name is text", details=[{"field": "name", "message": "must be a string"}])
    text = " ".join(name.replace("\u2019", "'").split())
    problem = None
    if not NAME_MIN <= len(text) <= NAME_MAX:
        problem = f"must be {NAME_MIN}–{NAME_MAX} characters"
    elif not _NAME_CHARACTERS.match(text):
        problem = "must start with a letter and use only letters, digits, spaces and & ' / -"
    if problem:
        raise Invalid(f"name: a category name {problem}", details=[{"field": "name", "message": problem}])
    return title_case(text)


def _clean_description(description) -> str | None:
    if description is None:
        return None
    text = _clean_text(description, "description", allow_empty=True)
    if len(text) > DESCRIPTION_MAX:
        raise Invalid(f"description: at most {DESCRIPTION_MAX} characters",
                      details=[{"field": "description", "message": "too long"}])  # fmt: skip
    return text or None


def _clean_text(value, field: str, *, allow_empty: bool = False) -> str:
    if not isinstance(value, str) or CONTROL_CHARACTERS.search(value):
        raise Invalid(f"{field}: text without control characters",
                      details=[{"field": field, "message": "must be text without control characters"}])  # fmt: skip
    text = " ".join(value.split())
    if not text and not allow_empty:
        raise Invalid(f"{field}: must not be empty", details=[{"field": field, "message": "required"}])
    return text


def _same_name(title: str) -> Category | None:
    """The category this name would duplicate: the same lower-case name (active or not), else an active one
    with the same name key."""
    exact = db.session.scalar(select(Category).where(func.lower(Category.name) == title.lower()))
    if exact is not None:
        return exact
    key = name_key(title)
    return next((c for c in list_categories() if name_key(c.name) == key), None)


def _reused(category: Category) -> dict:
    if not category.is_active:
        raise Conflict(f"The category {category.name} was retired; choose another category",
                       details=[{"field": "name", "category_id": category.id}])  # fmt: skip
    return {**category_to_dict(category), "already_existed": True}


# An owner's receipt items ----------------------------------------------------------------------------------


def set_item_category(actor: Actor, item_id: int, category_id: int) -> ReceiptItem:
    """The owner's choice of category for one of their receipt items; it becomes a known item for categorize_item.
    Another user's item is not found (its existence is not revealed)."""
    user = actor.require_user()
    item = None
    if isinstance(item_id, int) and 1 <= item_id <= DB_INT_MAX:
        item = db.session.scalar(
            select(ReceiptItem).join(Receipt, Receipt.id == ReceiptItem.receipt_id)
            .where(ReceiptItem.id == item_id, Receipt.user_id == user.id)
        )  # fmt: skip
    if item is None:
        raise NotFound(f"Receipt item {item_id} does not exist", details=[{"item_id": item_id}])
    category = get_active_category(category_id)
    item.category_id, item.category_method, item.confidence = category.id, MANUAL, 1.0
    db.session.commit()
    return item


def get_active_category(category_id: int) -> Category:
    """One active category by id, or NotFound."""
    category = db.session.get(Category, category_id) if isinstance(category_id, int) and 1 <= category_id <= DB_INT_MAX else None  # fmt: skip
    if category is None or not category.is_active:
        raise NotFound(f"Category {category_id} does not exist", details=[{"category_id": category_id}])
    return category
