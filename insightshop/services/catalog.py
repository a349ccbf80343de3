"""Catalog reads: browsing, filtering, faceting and ranking products, and single-product lookups."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from decimal import Decimal

from sqlalchemy import Select, and_, case, exists, func, select

from ..extensions import db
from ..models.catalog import Product, ProductVariant
from . import search_index
from .errors import NotFound
from .search_terms import ParsedQuery, parse_query
from .vocabulary import CATEGORIES, CLOTHING_TYPES, COLORS, FABRICS, SEASONS, SIZES

PRICE_BANDS = (
    (Decimal("0"), Decimal("25")),
    (Decimal("25"), Decimal("50")),
    (Decimal("50"), Decimal("100")),
    (Decimal("100"), Decimal("200")),
    (Decimal("200"), None),
)

FACETS = ("category", "clothing_type", "color", "size", "fabric", "season")
FACET_VOCABULARY = {
    "category": CATEGORIES,
    "clothing_type": CLOTHING_TYPES,
    "color": COLORS,
    "size": SIZES,
    "fabric": FABRICS,
    "season": SEASONS,
}


@dataclass(frozen=True)
class CatalogQuery:
    """What a shopper asked the catalog for; every list is OR within itself, AND across fields."""

    text: str = ""
    category: tuple[str, ...] = ()
    clothing_type: tuple[str, ...] = ()
    color: tuple[str, ...] = ()
    size: tuple[str, ...] = ()
    fabric: tuple[str, ...] = ()
    season: tuple[str, ...] = ()
    min_price: Decimal | None = None
    max_price: Decimal | None = None
    in_stock: bool = False
    sort: str = "relevance"
    page: int = 1
    per_page: int = 24

    def without(self, facet: str) -> CatalogQuery:
        return replace(self, **{facet: ()})

    def selected(self, facet: str) -> tuple[str, ...]:
        return getattr(self, facet)


@dataclass
class CatalogPage:
    """One page of results plus what a pager needs."""

    products: list[Product]
    total: int
    page: int
    per_page: int
    parsed: ParsedQuery = field(default_factory=ParsedQuery)
    broadened: bool = False

    @property
    def pages(self) -> int:
        return max(1, math.ceil(self.total / self.per_page))

    @property
    def has_next(self) -> bool:
        return self.page < self.pages

    @property
    def has_prev(self) -> bool:
        return self.page > 1


@dataclass
class FacetValue:
    value: str
    count: int
    selected: bool


@dataclass
class PriceBand:
    min_price: Decimal
    max_price: Decimal | None
    count: int
    selected: bool


@dataclass
class Facets:
    values: dict[str, list[FacetValue]]
    price_bands: list[PriceBand]


def search_catalog(query: CatalogQuery) -> CatalogPage:
    """Active products matching the query, ranked and paginated; broadens to any-word match when all-words finds nothing."""
    parsed = parse_query(query.text)
    statement, score = _filtered(query, parsed)
    total = _count(statement)
    broadened = False
    if total == 0 and len(parsed.groups) > 1:
        statement, score = _filtered(query, parsed, any_group=True)
        total = _count(statement)
        broadened = total > 0
    page = max(1, query.page)
    ordered = statement.order_by(*_ordering(query.sort, score))
    products = list(
        db.session.scalars(ordered.limit(query.per_page).offset((page - 1) * query.per_page))
    )
    return CatalogPage(products, total, page, query.per_page, parsed, broadened)


def catalog_facets(query: CatalogQuery) -> Facets:
    """Counts per facet value for the query, each facet counted without its own selection (multi-select)."""
    parsed = parse_query(query.text)
    values: dict[str, list[FacetValue]] = {}
    for facet in FACETS:
        counts = _facet_counts(facet, query.without(facet), parsed)
        chosen = set(query.selected(facet))
        values[facet] = [
            FacetValue(value, counts.get(value, 0), value in chosen)
            for value in FACET_VOCABULARY[facet]
            if counts.get(value) or value in chosen
        ]
    return Facets(values, _price_band_counts(replace(query, min_price=None, max_price=None), parsed, query))


def get_product(product_id: int, *, include_inactive: bool = False) -> Product:
    """One product by id; inactive products are hidden from shoppers."""
    product = db.session.get(Product, product_id)
    if product is None or (not product.is_active and not include_inactive):
        raise NotFound(f"Product {product_id} does not exist", details=[{"product_id": product_id}])
    return product


def featured_products(limit: int = 8) -> list[Product]:
    """Hand-picked products for the home page, best rated first."""
    statement = (
        select(Product)
        .where(Product.is_active, Product.is_featured)
        .order_by(Product.rating.desc(), Product.rating_count.desc(), Product.id)
    )
    return list(db.session.scalars(statement.limit(limit)))


def new_arrivals(limit: int = 8) -> list[Product]:
    """The most recently added active products."""
    statement = select(Product).where(Product.is_active).order_by(Product.created_at.desc(), Product.id.desc())
    return list(db.session.scalars(statement.limit(limit)))


def related_products(product: Product, limit: int = 4) -> list[Product]:
    """Other active products of the same type and category, best rated first."""
    statement = (
        select(Product)
        .where(
            Product.is_active,
            Product.id != product.id,
            Product.category == product.category,
            Product.clothing_type == product.clothing_type,
        )
        .order_by(Product.rating.desc(), Product.id)
    )
    return list(db.session.scalars(statement.limit(limit)))


def category_counts() -> dict[str, int]:
    """Active products per category, for navigation."""
    rows = db.session.execute(
        select(Product.category, func.count()).where(Product.is_active).group_by(Product.category)
    )
    return {category: count for category, count in rows}


def _filtered(query: CatalogQuery, parsed: ParsedQuery, *, any_group: bool = False, product_columns=None):
    """A select of active products with every filter applied, and the relevance score column (or None)."""
    statement: Select = select(*(product_columns or (Product,))).where(Product.is_active)
    score = None
    if parsed.has_terms:
        matches = search_index.match_subquery(db.session.get_bind(), parsed, any_group=any_group)
        statement = statement.join(matches, matches.c.product_id == Product.id)
        score = matches.c.score
    categories = _intersect(query.category, parsed.categories)
    if categories is not None:
        statement = statement.where(Product.category.in_(categories))
    for column, values in ((Product.clothing_type, query.clothing_type), (Product.fabric, query.fabric),
                           (Product.season, query.season)):  # fmt: skip
        if values:
            statement = statement.where(column.in_(values))
    if query.color:
        statement = statement.where(_has_variant(ProductVariant.color.in_(query.color)))
    sizes = _intersect(query.size, parsed.sizes)
    if sizes is not None:
        statement = statement.where(_has_variant(ProductVariant.size.in_(sizes), ProductVariant.stock > 0))
    if query.in_stock:
        statement = statement.where(_has_variant(ProductVariant.stock > 0))
    if query.min_price is not None:
        statement = statement.where(Product.price >= query.min_price)
    if query.max_price is not None:
        statement = statement.where(Product.price <= query.max_price)
    return statement, score


def _intersect(chosen: tuple[str, ...], implied: tuple[str, ...]) -> tuple[str, ...] | None:
    """Combine a facet selection with what the search text implies ("ladies" → women)."""
    if chosen and implied:
        return tuple(v for v in chosen if v in implied)
    return chosen or implied or None


def _has_variant(*conditions):
    return exists().where(ProductVariant.product_id == Product.id, *conditions)


def _count(statement: Select) -> int:
    return db.session.scalar(select(func.count()).select_from(statement.order_by(None).subquery())) or 0


def _ordering(sort: str, score):
    tiebreak = (Product.id.desc(),)
    popularity = (Product.rating.desc(), Product.rating_count.desc())
    if sort == "price_low":
        return (Product.price.asc(), *popularity, *tiebreak)
    if sort == "price_high":
        return (Product.price.desc(), *popularity, *tiebreak)
    if sort == "rating":
        return (*popularity, *tiebreak)
    if sort == "newest":
        return (Product.created_at.desc(), *tiebreak)
    if score is not None:
        return (score.asc(), *popularity, *tiebreak)
    return (Product.is_featured.desc(), *popularity, *tiebreak)


def _facet_counts(facet: str, query: CatalogQuery, parsed: ParsedQuery) -> dict[str, int]:
    if facet in ("color", "size"):
        column = getattr(ProductVariant, facet)
        conditions = [ProductVariant.stock > 0] if facet == "size" else []
        base, _ = _filtered(query, parsed, product_columns=(Product.id,))
        ids = base.subquery()
        statement = (
            select(column, func.count(func.distinct(ProductVariant.product_id)))
            .where(ProductVariant.product_id.in_(select(ids.c.id)), *conditions)
            .group_by(column)
        )
    else:
        column = getattr(Product, facet)
        base, _ = _filtered(query, parsed, product_columns=(column,))
        sub = base.subquery()
        statement = select(sub.c[facet], func.count()).group_by(sub.c[facet])
    return {value: count for value, count in db.session.execute(statement) if value is not None}


def _price_band_counts(query: CatalogQuery, parsed: ParsedQuery, original: CatalogQuery) -> list[PriceBand]:
    base, _ = _filtered(query, parsed, product_columns=(Product.price,))
    sub = base.subquery()
    buckets = [
        func.sum(case((and_(sub.c.price >= low, *([sub.c.price < high] if high else [])), 1), else_=0))
        for low, high in PRICE_BANDS
    ]
    counts = db.session.execute(select(*buckets)).one()
    return [
        PriceBand(low, high, int(count or 0), original.min_price == low and original.max_price == _band_max(high))
        for (low, high), count in zip(PRICE_BANDS, counts, strict=True)
    ]


def _band_max(high: Decimal | None) -> Decimal | None:
    # Bands are half-open [low, high); a selected band's max_price is stored as high - 0.01.
    return None if high is None else high - Decimal("0.01")


__all__ = [
    "CatalogPage", "CatalogQuery", "Facets", "catalog_facets", "category_counts", "featured_products",
    "get_product", "new_arrivals", "related_products", "search_catalog",
]  # fmt: skip
