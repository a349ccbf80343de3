"""Catalog reads: browsing, filtering, faceting and ranking products, and single-product lookups."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from decimal import Decimal

from sqlalchemy import Select, and_, case, func, or_, select

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
    plan = _plan(query, parsed)
    total = _count(plan)
    broadened = False
    if total == 0 and len(parsed.groups) > 1:
        plan = _plan(query, parsed, any_group=True)
        total = _count(plan)
        broadened = total > 0
    page = max(1, query.page)
    products = _page(plan, query.sort, page, query.per_page)
    return CatalogPage(products, total, page, query.per_page, parsed, broadened)


def catalog_facets(query: CatalogQuery) -> Facets:
    """Counts per facet value for the query, each facet counted without its own selection (multi-select)."""
    parsed = parse_query(query.text)
    # Counts follow the results: when all-words matched nothing, the page shows any-word matches.
    broaden = len(parsed.groups) > 1 and _count(_plan(query, parsed)) == 0
    values: dict[str, list[FacetValue]] = {}
    for facet in FACETS:
        counts = _facet_counts(facet, _plan(query.without(facet), parsed, any_group=broaden))
        chosen = set(query.selected(facet))
        values[facet] = [
            FacetValue(value, counts.get(value, 0), value in chosen)
            for value in FACET_VOCABULARY[facet]
            if counts.get(value) or value in chosen
        ]
    unpriced = _plan(replace(query, min_price=None, max_price=None), parsed, any_group=broaden)
    return Facets(values, _price_band_counts(unpriced, query))


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


def on_sale_products(limit: int = 8) -> list[Product]:
    """Active products a running sale covers, best rated first."""
    from .pricing import running_sales

    scopes = []
    for sale in running_sales():
        conditions = [Product.is_active]
        if sale.categories:
            conditions.append(Product.category.in_(sale.categories))
        if sale.clothing_types:
            conditions.append(Product.clothing_type.in_(sale.clothing_types))
        if sale.product_ids:
            conditions.append(Product.id.in_(sale.product_ids))
        scopes.append(and_(*conditions))
    if not scopes:
        return []
    statement = select(Product).where(Product.is_active, or_(*scopes)).order_by(Product.rating.desc(), Product.id)
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


@dataclass(frozen=True)
class _Plan:
    """How one query is answered: text groups and facet-token groups go to the full-text index,
    prices to the products table."""

    groups: tuple[tuple[str, ...], ...]
    filters: tuple[tuple[str, ...], ...]
    any_group: bool
    min_price: Decimal | None
    max_price: Decimal | None

    @property
    def uses_index(self) -> bool:
        return bool(self.groups or self.filters)

    @property
    def filters_price(self) -> bool:
        return self.min_price is not None or self.max_price is not None

    def matches(self, *, with_score: bool = False):
        return search_index.match_subquery(
            db.session.get_bind(), self.groups, any_group=self.any_group, filters=self.filters, with_score=with_score
        )

    def index_args(self) -> dict:
        return {"any_group": self.any_group, "filters": self.filters}


def _plan(query: CatalogQuery, parsed: ParsedQuery, *, any_group: bool = False) -> _Plan:
    filters = []
    selections = {facet: query.selected(facet) for facet in FACETS}
    selections["category"] = _intersect(query.category, parsed.categories)
    selections["size"] = _intersect(query.size, parsed.sizes)
    for facet, values in selections.items():
        if values is not None and len(values) == 0 and facet in ("category", "size"):
            filters.append(("nomatch",))  # the text and the facet ask for different departments/sizes
        elif values:
            filters.append(tuple(search_index.facet_token(facet, v) for v in values))
    if query.in_stock:
        filters.append((search_index.IN_STOCK_TOKEN,))
    return _Plan(parsed.groups, tuple(filters), any_group, query.min_price, query.max_price)


def _filtered(plan: _Plan, *columns, with_score: bool = False):
    """A select of the plan's active products (with the relevance score column when asked)."""
    statement: Select = select(*(columns or (Product,))).where(Product.is_active)
    score = None
    if plan.uses_index:
        matches = plan.matches(with_score=with_score)
        statement = statement.join(matches, matches.c.product_id == Product.id)
        score = matches.c.score if with_score else None
    if plan.min_price is not None:
        statement = statement.where(Product.price >= plan.min_price)
    if plan.max_price is not None:
        statement = statement.where(Product.price <= plan.max_price)
    return statement, score


def _intersect(chosen: tuple[str, ...], implied: tuple[str, ...]) -> tuple[str, ...] | None:
    """Combine a facet selection with what the search text implies ("ladies" → women)."""
    if chosen and implied:
        return tuple(v for v in chosen if v in implied)
    return chosen or implied or None


def _count(plan: _Plan) -> int:
    if plan.uses_index and not plan.filters_price:
        # The index holds only active products, so it can count on its own.
        statement = search_index.count_matches(db.session.get_bind(), plan.groups, **plan.index_args())
        return db.session.scalar(statement) or 0
    statement, _ = _filtered(plan, func.count(Product.id))
    return db.session.scalar(statement) or 0


def _page(plan: _Plan, sort: str, page: int, per_page: int) -> list[Product]:
    offset = (page - 1) * per_page
    if plan.groups and sort == "relevance" and not plan.filters_price:
        # Rank inside the index, then load just one page of products.
        ranked = search_index.ranked_ids(
            db.session.get_bind(), plan.groups, **plan.index_args(), limit=per_page, offset=offset
        )
        ids = list(db.session.scalars(ranked))
        found = {p.id: p for p in db.session.scalars(select(Product).where(Product.id.in_(ids)))}
        return [found[i] for i in ids if i in found]
    statement, score = _filtered(plan, with_score=bool(plan.groups) and sort == "relevance")
    return list(db.session.scalars(statement.order_by(*_ordering(sort, score)).limit(per_page).offset(offset)))


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


def _facet_counts(facet: str, plan: _Plan) -> dict[str, int]:
    if facet in ("color", "size"):
        column = getattr(ProductVariant, facet)
        conditions = [ProductVariant.stock > 0] if facet == "size" else []
        ids, _ = _filtered(plan, Product.id)
        statement = (
            select(column, func.count(func.distinct(ProductVariant.product_id)))
            .where(ProductVariant.product_id.in_(ids), *conditions)
            .group_by(column)
        )
    else:
        column = getattr(Product, facet)
        base, _ = _filtered(plan, column)
        sub = base.subquery()
        statement = select(sub.c[facet], func.count()).group_by(sub.c[facet])
    return {value: count for value, count in db.session.execute(statement) if value is not None}


def _price_band_counts(plan: _Plan, original: CatalogQuery) -> list[PriceBand]:
    base, _ = _filtered(plan, Product.price)
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
