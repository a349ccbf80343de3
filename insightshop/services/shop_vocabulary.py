"""The words of this shop's catalog — product names, ids, categories, colours, sizes — for the offline assistant's
typo correction and product-by-name lookups. Loaded from the database once per process and reloaded when the
catalog changes (product count or latest update); the demo catalog's data file gives the same shape without a
database (tests, benchmarks)."""

from __future__ import annotations

import threading
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from .vocabulary import CLOTHING_TYPES, COLORS, SIZES


@dataclass(frozen=True)
class ProductWords:
    id: int
    name: str
    category: str
    clothing_type: str
    colors: tuple[str, ...]
    sizes: tuple[str, ...]
    price: float


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: the caches keyed on it stay cheap
class ShopVocabulary:
    products: tuple[ProductWords, ...] = ()
    colors: tuple[str, ...] = COLORS
    sizes: tuple[str, ...] = SIZES
    clothing_types: tuple[str, ...] = CLOTHING_TYPES
    extra_words: frozenset[str] = field(default_factory=frozenset)

    @cached_property
    def by_name(self) -> dict[str, tuple[ProductWords, ...]]:
        """Lower-case product name, accents dropped ("Piqué" is "pique", as the engine reads messages) → its products (one name may be sold in several departments and colours)."""
        names: dict[str, list[ProductWords]] = {}
        for product in self.products:
            names.setdefault(fold(product.name.lower()), []).append(product)
        return {name: tuple(found) for name, found in names.items()}

    @cached_property
    def by_id(self) -> dict[int, ProductWords]:
        return {product.id: product for product in self.products}

    @cached_property
    def name_words(self) -> frozenset[str]:
        """Every word of every product name (lower case), for typo correction."""
        return frozenset(w for name in self.by_name for w in _words(name))


def fold(text: str) -> str:
    """The text without accents: names match however the shopper types them ("pique" for "Piqué")."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _words(text: str) -> list[str]:
    return [w for w in "".join(c if c.isalnum() else " " for c in fold(text.lower())).split() if len(w) > 1]


def from_items(items: list[dict], *, first_id: int = 1) -> ShopVocabulary:
    """A vocabulary from product dicts (the demo catalog's shape); ids are assigned in order from first_id."""
    descriptions = frozenset(w for item in items for w in _words(item.get("description") or ""))
    products = tuple(
        ProductWords(
            id=item.get("id", first_id + index),
            name=item["name"],
            category=item["category"],
            clothing_type=item["clothing_type"],
            colors=tuple(item.get("colors") or [item["color"]]),
            sizes=tuple(item.get("sizes") or ()),
            price=float(item["price"]),
        )  # fmt: skip
        for index, item in enumerate(items)
    )
    return ShopVocabulary(products=products, extra_words=descriptions)


@lru_cache(maxsize=1)
def demo_vocabulary() -> ShopVocabulary:
    """The demo catalog as the seed command loads it into an empty database (ids 1…n in data-file order)."""
    from .demo_catalog_data import demo_products

    return from_items(demo_products())


_cache: dict = {"key": None, "vocabulary": None}
_lock = threading.Lock()


def current() -> ShopVocabulary:
    """The live catalog's vocabulary (active products), reloaded only when the catalog changed. Read as rows, not
    ORM objects: every product and variant of the catalog, once per catalog change."""
    from sqlalchemy import func, select

    from ..extensions import db
    from ..models.catalog import Product, ProductVariant, offered_colors, offered_sizes

    key = tuple(db.session.execute(select(func.count(Product.id), func.max(Product.updated_at))).one())
    key = (str(db.engine.url), key[0], str(key[1]))
    with _lock:
        if _cache["key"] == key and _cache["vocabulary"] is not None:
            return _cache["vocabulary"]
    active = Product.is_active.is_(True)
    products = db.session.execute(
        select(Product.id, Product.name, Product.category, Product.clothing_type, Product.color, Product.price,
               Product.description).where(active).order_by(Product.id)
    ).all()  # fmt: skip
    variants: dict[int, list] = {}
    for product_id, color, size in db.session.execute(
        select(ProductVariant.product_id, ProductVariant.color, ProductVariant.size)
        .join(Product).where(active).order_by(ProductVariant.id)
    ):  # fmt: skip
        variants.setdefault(product_id, []).append((color, size))
    vocabulary = ShopVocabulary(products=tuple(
        ProductWords(id=p.id, name=p.name, category=p.category, clothing_type=p.clothing_type,
                     colors=tuple(offered_colors(p.color, [c for c, _ in variants.get(p.id, ())])),
                     sizes=tuple(offered_sizes(s for _, s in variants.get(p.id, ()))), price=float(p.price))
        for p in products
    ), extra_words=description_words(tuple(p.description or "" for p in products)))  # fmt: skip
    with _lock:
        _cache.update(key=key, vocabulary=vocabulary)
    return vocabulary


@lru_cache(maxsize=4)
def description_words(descriptions: tuple[str, ...]) -> frozenset[str]:
    """Every word of the product descriptions (for typo correction); the same texts are not split twice."""
    return frozenset(w for text in descriptions for w in _words(text))


def invalidate() -> None:
    """Forget the cached vocabulary (tests that swap databases)."""
    with _lock:
        _cache.update(key=None, vocabulary=None)
