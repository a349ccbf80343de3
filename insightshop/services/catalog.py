"""Catalog reads: browsing, filtering, faceting and ranking products, and single-product lookups."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from decimal import Decimal

from sqlalchemy import Select, String, and_, case, false, func, literal_column, or_, select, true, union_all

from ..extensions import db
from ..models.catalog import Product, ProductVariant
from ..schemas.validation import shorten
from . import search_index
from .errors import ErrorCode, Invalid, NotFound
from .pricing import PriceBook, running_sales
from .search_constraints import SUGGEST_BELOW, SUGGESTION_LIMIT, Constraints, describe
from .search_terms import ParsedQuery, canonical_clothing_type, parse_query
from .vocabulary import CATEGORIES, CLOTHING_TYPES, COLORS, FABRICS, SEASONS, SIZES, normalise_color, normalise_size

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
    on_sale: bool = False
    sort: str = "relevance"
    # Exclusions (the assistant's brief: "not white", "nothing with wool"): never relaxed, suggestions included.
    color_out: tuple[str, ...] = ()
    fabric_out: tuple[str, ...] = ()
    exclude_ids: tuple[int, ...] = ()
    page: int = 1
    per_page: int = 24

    def without(self, facet: str) -> CatalogQuery:
        return replace(self, **{facet: ()})

    def selected(self, facet: str) -> tuple[str, ...]:
        return getattr(self, facet)


@dataclass
class Suggestion:
    """A close product that misses some of what was asked (`unmet` names the constraints)."""

    product: Product
    unmet: list[str]


@dataclass
class CatalogPage:
    """One page of products meeting every constraint, plus the closest others when there are few."""

    products: list[Product]
    total: int
    page: int
    per_page: int
    parsed: ParsedQuery = field(default_factory=ParsedQuery)
    broadened: bool = False  # kept for the API's interpreted_as: the search never pads results any more
    wanted: Constraints = field(default_factory=Constraints)
    suggestions: list[Suggestion] = field(default_factory=list)

    @property
    def pages(self) -> int:
        return max(1, math.ceil(self.total / self.per_page))

    @property
    def has_next(self) -> bool:
        return self.page < self.pages

    @property
    def has_prev(self) -> bool:
        return self.page > 1

    @property
    def description(self) -> str:
        """The request in words, e.g. "red dresses under $50"."""
        return describe(self.wanted)


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
    """Active products meeting every stated constraint (filters and what the words name), ranked and paginated;
    with fewer than SUGGEST_BELOW of them, the closest others as suggestions, each naming what it misses."""
    parsed = parse_query(query.text)
    wanted = constraints_for(query, parsed)
    # Sales matter only to prices and "on sale"; a plain search skips reading them.
    prices_matter = wanted.on_sale or wanted.min_price is not None or wanted.max_price is not None
    sales = tuple(running_sales()) if prices_matter or query.sort in ("price_low", "price_high") else ()
    plan = _plan(wanted, sales)
    total = _count(plan)
    page = max(1, query.page)
    products = _page(plan, query.sort, page, query.per_page) if total else []
    suggestions = []
    if total < SUGGEST_BELOW and page == 1 and wanted.stated():
        sales = sales or tuple(running_sales())
        suggestions = closest_products(wanted, sales, query.sort, exclude={p.id for p in products})
    return CatalogPage(products, total, page, query.per_page, parsed, wanted=wanted, suggestions=suggestions)


def constraints_for(query: CatalogQuery, parsed: ParsedQuery | None = None) -> Constraints:
    """Every constraint of a query: its filters, and what its words name (colours, garments, departments,
    sizes, prices, "on sale", "in stock"); a filter and a word on the same facet must both hold."""
    parsed = parsed or parse_query(query.text)
    lows = [v for v in (query.min_price, parsed.min_price) if v is not None]
    highs = [v for v in (query.max_price, parsed.max_price) if v is not None]
    return Constraints(
        terms=parsed.terms,
        category=_intersect(query.category, parsed.categories),
        clothing_type=_intersect(query.clothing_type, parsed.clothing_types),
        color=_intersect(query.color, parsed.colors),
        size=_intersect(query.size, parsed.sizes),
        fabric=query.fabric or None,
        season=query.season or None,
        min_price=max(lows) if lows else None,
        max_price=min(highs) if highs else None,
        on_sale=query.on_sale or parsed.on_sale,
        in_stock=query.in_stock or parsed.in_stock,
        color_out=query.color_out,
        fabric_out=query.fabric_out,
        exclude_ids=query.exclude_ids,
    )


def closest_products(wanted: Constraints, sales, sort: str = "relevance", *, exclude=(),
                     limit: int = SUGGESTION_LIMIT) -> list[Suggestion]:  # fmt: skip
    """The products nearest to the request: drop one constraint at a time (closest first), then two; another
    garment only when nothing of the asked garment comes close."""
    found: list[Suggestion] = []
    seen = set(exclude)
    for phase in wanted.relaxations():
        for names in phase:
            relaxed = wanted.relax(*names)
            if len(found) >= limit or not relaxed.stated():
                continue  # with nothing left to honour, "closest" would be the whole catalog
            order = {("max_price",): "price_low", ("min_price",): "price_high"}.get(names, sort)
            for product in _page(_plan(relaxed, sales), order, 1, limit):
                if product.id not in seen and len(found) < limit:
                    seen.add(product.id)
                    found.append(Suggestion(product, list(names)))
        if found:
            break
    return found


def catalog_facets(query: CatalogQuery) -> Facets:
    """Counts per facet value for the query, each facet counted without its own selection (multi-select)."""
    parsed = parse_query(query.text)
    sales = tuple(running_sales())
    facet_plans = {facet: _plan(constraints_for(query.without(facet), parsed), sales) for facet in FACETS}
    unpriced = constraints_for(replace(query, min_price=None, max_price=None), parsed)
    band_plan = _plan(replace(unpriced, min_price=None, max_price=None), sales)
    counts = _facet_counts(facet_plans, band_plan)
    values: dict[str, list[FacetValue]] = {}
    for facet in FACETS:
        chosen = set(query.selected(facet))
        values[facet] = [
            FacetValue(value, counts[facet].get(value, 0), value in chosen)
            for value in FACET_VOCABULARY[facet]
            if counts[facet].get(value) or value in chosen
        ]
    bands = [
        PriceBand(low, high, counts[PRICE_FACET].get(str(index), 0),
                  query.min_price == low and query.max_price == _band_max(high))
        for index, (low, high) in enumerate(PRICE_BANDS)
    ]  # fmt: skip
    return Facets(values, bands)


def get_product(product_id: int, *, include_inactive: bool = False) -> Product:
    """One product by id; inactive products are hidden from shoppers."""
    product = db.session.get(Product, product_id)
    if product is None or (not product.is_active and not include_inactive):
        raise NotFound(f"Product {product_id} does not exist", details=[{"product_id": product_id}])
    return product


def resolve_product(clothing_type: str | None, color: str | None = None, size: str | None = None,
                    category: str | None = None, quantity: int = 1) -> tuple[Product, list[Product]]:  # fmt: skip
    """The product a shopper means by garment, colour, size and department, with the runners-up.

    Type, colour, size (with stock for the quantity) and a named department are hard filters. With no department,
    adult products come before kids', products shown in the asked colour before those that merely come in it, and
    the adult department that carries most of that garment before the other; then the best rated. When the best
    candidates are equally good the shopper must choose: Invalid "ambiguous" lists them."""
    kind, wanted_color, wanted_size = _resolution_terms(clothing_type, color, size)
    statement = select(Product).where(Product.is_active, Product.clothing_type == kind)
    if category:
        statement = statement.where(Product.category == category)
    candidates = [
        product
        for product in db.session.scalars(statement)
        if any(
            (wanted_color is None or v.color == wanted_color)
            and (wanted_size is None or v.size == wanted_size)
            and v.stock >= quantity
            for v in product.variants
        )  # fmt: skip
    ]
    if not candidates:
        department = {"men": "men's", "women": "women's", "kids": "kids'"}.get(category or "", category)
        what = " ".join(filter(None, [department, wanted_color, kind])) + (
            f" in size {wanted_size}" if wanted_size else ""
        )
        raise NotFound(
            f"No {what} in stock" + (f" for {quantity}" if quantity > 1 else ""), code=ErrorCode.OUT_OF_STOCK
        )
    home = None if category else _home_department(kind)

    def score(product: Product) -> tuple:
        return (
            category is not None or product.category != "kids",
            wanted_color is None or product.color == wanted_color,
            home is None or product.category == home,
            product.rating,
            product.rating_count,
        )

    ranked = sorted(candidates, key=lambda p: (score(p), -p.id), reverse=True)
    ties = [p for p in ranked if score(p) == score(ranked[0])]
    if len(ties) > 1:
        book = PriceBook()
        raise Invalid(
            f"Several products fit equally well: {', '.join(p.name for p in ties[:4])}; choose one by product_id",
            code="ambiguous",
            details=[{"product_id": p.id, "name": p.name, "category": p.category, "color": p.color,
                      "price": f"{book.effective_price(p):.2f}", "sizes": _sizes_in_stock(p, wanted_color)}
                     for p in ties[:8]],
        )  # fmt: skip
    return ranked[0], ranked[1:6]


def _sizes_in_stock(product: Product, color: str | None) -> list[str]:
    """The sizes a shopper can still choose (in the colour asked for): never a sold-out one."""
    return [size for size in product.available_sizes
            if any(v.size == size and v.stock > 0 and (color is None or v.color == color) for v in product.variants)]  # fmt: skip


def _resolution_terms(clothing_type, color, size) -> tuple[str, str | None, str | None]:
    kind = canonical_clothing_type(clothing_type)
    if kind is None:
        raise Invalid(f"clothing_type: {shorten(repr(clothing_type))} is not something the shop sells",
                      details=[{"field": "clothing_type", "message": f"one of {', '.join(CLOTHING_TYPES)}"}])  # fmt: skip
    wanted_color = normalise_color(color) if color else None
    wanted_size = normalise_size(size) if size else None
    if color and wanted_color is None:
        raise Invalid(f"selected_color: {shorten(repr(color))} is not a shop colour",
                      details=[{"field": "selected_color", "message": "unknown"}])  # fmt: skip
    if size and wanted_size is None:
        raise Invalid(f"selected_size: {shorten(repr(size))} is not a shop size",
                      details=[{"field": "selected_size", "message": "unknown"}])  # fmt: skip
    return kind, wanted_color, wanted_size


def _home_department(kind: str) -> str | None:
    """The adult department carrying most active products of a garment (shirts → men, dresses → women)."""
    rows = db.session.execute(
        select(Product.category, func.count())
        .where(Product.is_active, Product.clothing_type == kind, Product.category != "kids")
        .group_by(Product.category)
        .order_by(func.count().desc(), Product.category)
    ).all()
    if not rows or (len(rows) > 1 and rows[0][1] == rows[1][1]):
        return None
    return rows[0][0]


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
    sales = running_sales()
    if not _discounting(sales):
        return []
    statement = (
        select(Product).where(Product.is_active, _on_sale_condition(sales)).order_by(Product.rating.desc(), Product.id)
    )
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


def _discounting(sales) -> list:
    return [sale for sale in sales if sale.discount_percentage > 0]


def _sale_scope(sale):
    """SQL for "this sale covers the product" (Sale.applies_to as a condition)."""
    conditions = [true()]
    if sale.categories:
        conditions.append(Product.category.in_(sale.categories))
    if sale.clothing_types:
        conditions.append(Product.clothing_type.in_(sale.clothing_types))
    if sale.product_ids:
        conditions.append(Product.id.in_(sale.product_ids))
    return and_(*conditions)


def _on_sale_condition(sales):
    """Products some running sale discounts."""
    scopes = [_sale_scope(sale) for sale in _discounting(sales)]
    return or_(*scopes) if scopes else false()


def _price_now(sales):
    """SQL for what a product costs today: the biggest running discount applied (as PriceBook does)."""
    ordered = sorted(_discounting(sales), key=lambda sale: sale.discount_percentage, reverse=True)
    if not ordered:
        return Product.price
    hundred = Decimal("100")
    return case(
        *((_sale_scope(sale), func.round(Product.price * (hundred - sale.discount_percentage) / hundred, 2))
          for sale in ordered),
        else_=Product.price,
    )  # fmt: skip


@dataclass(frozen=True)
class _Plan:
    """How one request is answered: text groups and facet-token groups go to the full-text index,
    prices (after sales) and "on sale" to the products table."""

    groups: tuple[tuple[str, ...], ...]
    filters: tuple[tuple[str, ...], ...]
    min_price: Decimal | None
    max_price: Decimal | None
    on_sale: bool
    colors: tuple[str, ...]
    sales: tuple = ()
    colors_out: tuple[str, ...] = ()
    fabrics_out: tuple[str, ...] = ()
    ids_out: tuple[int, ...] = ()
    kinds: tuple[str, ...] = ()  # several garments asked for: the first listed ranks first (most fitting first)

    @property
    def uses_index(self) -> bool:
        return bool(self.groups or self.filters)

    @property
    def needs_table(self) -> bool:
        excludes = self.colors_out or self.fabrics_out or self.ids_out
        return self.min_price is not None or self.max_price is not None or self.on_sale or bool(excludes)

    def matches(self, *, with_score: bool = False, name: str = "matches"):
        return search_index.match_subquery(
            db.session.get_bind(), self.groups, filters=self.filters, with_score=with_score, name=name
        )

    def index_args(self) -> dict:
        return {"filters": self.filters}


def _plan(wanted: Constraints, sales=()) -> _Plan:
    filters = []
    for facet in FACETS:
        values = getattr(wanted, facet)
        if values is not None and len(values) == 0:
            filters.append(("nomatch",))  # the text and a filter ask for different things
        elif values:
            filters.append(tuple(search_index.facet_token(facet, v) for v in values))
    if wanted.in_stock:
        filters.append((search_index.IN_STOCK_TOKEN,))
    return _Plan(wanted.terms, tuple(filters), wanted.min_price, wanted.max_price, wanted.on_sale,
                 wanted.color or (), tuple(sales), wanted.color_out, wanted.fabric_out, wanted.exclude_ids,
                 wanted.clothing_type if wanted.clothing_type and len(wanted.clothing_type) > 1 else ())  # fmt: skip


def _filtered(plan: _Plan, *columns, with_score: bool = False, match_name: str = "matches"):
    """A select of the plan's active products (with the relevance score column when asked)."""
    statement: Select = select(*(columns or (Product,))).where(Product.is_active)
    score = None
    if plan.uses_index:
        matches = plan.matches(with_score=with_score, name=match_name)
        statement = statement.join(matches, matches.c.product_id == Product.id)
        score = matches.c.score if with_score else None
    price = _price_now(plan.sales)
    if plan.min_price is not None:
        statement = statement.where(price >= plan.min_price)
    if plan.max_price is not None:
        statement = statement.where(price <= plan.max_price)
    if plan.on_sale:
        statement = statement.where(_on_sale_condition(plan.sales))
    if plan.colors_out:  # shown in its own colour: a product whose colour is ruled out is left out
        statement = statement.where(Product.color.notin_(plan.colors_out))
    if plan.fabrics_out:
        statement = statement.where(or_(Product.fabric.is_(None), Product.fabric.notin_(plan.fabrics_out)))
    if plan.ids_out:
        statement = statement.where(Product.id.notin_(plan.ids_out))
    return statement, score


def _intersect(chosen: tuple[str, ...], implied: tuple[str, ...]) -> tuple[str, ...] | None:
    """Combine a facet selection with what the search text implies ("ladies" → women)."""
    if chosen and implied:
        return tuple(v for v in chosen if v in implied)
    return chosen or implied or None


def _count(plan: _Plan) -> int:
    if plan.uses_index and not plan.needs_table:
        # The index holds only active products, so it can count on its own.
        statement = search_index.count_matches(db.session.get_bind(), plan.groups, **plan.index_args())
        return db.session.scalar(statement) or 0
    statement, _ = _filtered(plan, func.count(Product.id))
    return db.session.scalar(statement) or 0


def _page(plan: _Plan, sort: str, page: int, per_page: int) -> list[Product]:
    offset = (page - 1) * per_page
    if plan.groups and sort == "relevance" and not plan.needs_table:
        # Rank inside the index, then load just one page of products.
        ranked = search_index.ranked_ids(
            db.session.get_bind(), plan.groups, **plan.index_args(), limit=per_page, offset=offset
        )
        ids = list(db.session.scalars(ranked))
        found = {p.id: p for p in db.session.scalars(select(Product).where(Product.id.in_(ids)))}
        return [found[i] for i in ids if i in found]
    statement, score = _filtered(plan, with_score=bool(plan.groups) and sort == "relevance")
    ordering = _ordering(sort, score, _price_now(plan.sales), plan.colors, plan.kinds)
    return list(db.session.scalars(statement.order_by(*ordering).limit(per_page).offset(offset)))


def _ordering(sort: str, score, price=Product.price, colors=(), kinds=()):
    tiebreak = (Product.id.desc(),)
    popularity = (Product.rating.desc(), Product.rating_count.desc())
    if sort == "price_low":
        return (price.asc(), *popularity, *tiebreak)
    if sort == "price_high":
        return (price.desc(), *popularity, *tiebreak)
    if sort == "rating":
        return (*popularity, *tiebreak)
    if sort == "newest":
        return (Product.created_at.desc(), *tiebreak)
    # A product shown in the asked colour ranks before one that merely also comes in it.
    in_color = (case((Product.color.in_(colors), 0), else_=1),) if colors else ()
    if kinds:
        in_color = (case({kind: rank for rank, kind in enumerate(kinds)}, value=Product.clothing_type,
                         else_=len(kinds)), *in_color)  # fmt: skip
    if score is not None:
        return (*in_color, score.asc(), *popularity, *tiebreak)
    return (*in_color, Product.is_featured.desc(), *popularity, *tiebreak)


PRICE_FACET = "price"  # the price bands' rows among the facet counts, valued by their index in PRICE_BANDS


def _facet_counts(facet_plans: dict[str, _Plan], band_plan: _Plan) -> dict[str, dict[str, int]]:
    """Every facet's counts and the price bands' in one statement: (facet, value, count) rows.

    Facets whose plans are alike (all of them, unless the shopper selected values of some) share one set of
    matched products, so a plain search reads the index once, not once per facet."""
    matched: dict[_Plan, object] = {}

    def matched_for(plan: _Plan):
        if plan not in matched:
            name = f"matched_{len(matched)}"
            columns = (
                Product.id,
                *(getattr(Product, f) for f in PRODUCT_FACETS),
                _price_now(plan.sales).label("price"),
            )
            statement, _ = _filtered(plan, *columns, match_name=f"{name}_index")
            matched[plan] = statement.cte(name)
        return matched[plan]

    parts = [_facet_part(facet, matched_for(plan)) for facet, plan in facet_plans.items()]
    products = matched_for(band_plan)
    for index, (low, high) in enumerate(PRICE_BANDS):
        in_band = [products.c.price >= low, *([products.c.price < high] if high is not None else [])]
        parts.append(select(_constant(PRICE_FACET), _constant(str(index)), func.count()).where(*in_band))
    counts: dict[str, dict[str, int]] = {facet: {} for facet in (*FACETS, PRICE_FACET)}
    for facet, value, count in db.session.execute(union_all(*parts)):
        if value is not None:
            counts[facet][value] = int(count)
    return counts


PRODUCT_FACETS = ("category", "clothing_type", "fabric", "season")


def _facet_part(facet: str, products):
    """(facet, value, products counted) for one facet over the matched products; colours and sizes are the
    variants' (a size only where it is in stock), each product counted once per value."""
    if facet in PRODUCT_FACETS:
        column = products.c[facet]
        return select(_constant(facet), column, func.count()).group_by(column)
    column = getattr(ProductVariant, facet)
    in_stock = [ProductVariant.stock > 0] if facet == "size" else []
    return (
        select(_constant(facet), column, func.count(func.distinct(ProductVariant.product_id)))
        .where(ProductVariant.product_id.in_(select(products.c.id)), *in_stock)
        .group_by(column)
    )


def _constant(value: str):
    # A fixed SQL string, not a bound parameter: PostgreSQL cannot type a bare parameter inside a UNION.
    return literal_column("'" + value.replace("'", "''") + "'", String)


def _band_max(high: Decimal | None) -> Decimal | None:
    # Bands are half-open [low, high); a selected band's max_price is stored as high - 0.01.
    return None if high is None else high - Decimal("0.01")


__all__ = [
    "CatalogPage", "CatalogQuery", "Constraints", "Facets", "Suggestion", "closest_products", "constraints_for", "catalog_facets", "category_counts", "featured_products",
    "get_product", "new_arrivals", "related_products", "resolve_product", "search_catalog",
]  # fmt: skip
