"""Display-ready views for templates: labels, URLs and stock messages decided here, not in templates."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from flask import url_for

from ..models.cart import MAX_LINE_QUANTITY
from ..models.catalog import Product
from ..services.catalog import FACETS, CatalogPage, CatalogQuery, Facets
from ..services.illustrations import has_close_up
from ..services.page_cache import VISIBLE_STOCK
from ..services.pricing import PriceBook
from ..services.search_constraints import matched_color, unmet_reasons
from ..services.vocabulary import CLOTHING_TYPES, SIZES, SORT_LABELS, SORTS, normalise_color, normalise_size
from .filters import label, money, stars

LOW_STOCK = 5
FACET_TITLES = {
    "category": "Department",
    "clothing_type": "Type",
    "color": "Colour",
    "size": "Size",
    "fabric": "Fabric",
    "season": "Season",
}


@dataclass
class Card:
    id: int
    name: str
    url: str
    image_url: str
    price: str
    rating: str
    rating_count: int
    stars: str
    department: str
    colors: list[str]
    badge: str | None
    list_price: str | None = None
    color: str | None = None  # the colour the picture shows (the one the shopper filtered by, when any)
    misses: list[str] = field(default_factory=list)  # for a closest match: what it lacks ("over $50")
    # The compare toggle's URL, built with the card (shared) rather than per card per request; None in cards
    # cached by an older release, for which the button builds it itself.
    compare_url: str | None = None


@dataclass
class Option:
    value: str
    label: str
    count: int
    selected: bool
    input_id: str


@dataclass
class FacetGroup:
    name: str
    title: str
    options: list[Option]
    open: bool


@dataclass
class Link:
    label: str
    url: str
    selected: bool = False


@dataclass
class CatalogView:
    heading: str
    summary: str
    cards: list[Card]
    facet_groups: list[FacetGroup]
    price_links: list[Link]
    chips: list[Link]
    clear_url: str | None
    sort_options: list[Option]
    pages: list[Link | None]
    prev_url: str | None
    next_url: str | None
    notice: str | None
    text: str
    min_price: str
    max_price: str
    closest: list[Card] = field(default_factory=list)
    filters_label: str = "Filters"  # the phone's filters button: "Filters (2)" with two filters on
    show_results_label: str = ""  # the filters drawer's button: "Show 23 results"


@dataclass
class SizeOption:
    size: str
    url: str
    available: bool
    selected: bool
    stock_note: str


@dataclass
class ColorOption:
    color: str
    label: str
    url: str
    selected: bool


@dataclass
class Picture:
    """One thumbnail of the product page's gallery: a colour, or the close-up of the chosen colour."""

    label: str  # the thumbnail's accessible name: "Navy", "Close-up"
    url: str  # the product page showing this picture big (works without JavaScript)
    image_url: str
    dom_id: str  # the same after an htmx swap, so keyboard focus stays on the thumbnail just chosen
    current: bool


@dataclass
class ProductView:
    image_url: str
    image_alt: str
    price: str
    stars: str
    rating: str
    department: str
    department_url: str
    type_label: str
    type_url: str
    color_options: list[ColorOption]
    size_options: list[SizeOption]
    selected_color: str
    selected_size: str | None
    availability: str
    availability_level: str
    list_price: str | None = None
    sale_name: str | None = None
    can_add: bool = False
    add_label: str = "Choose a size"
    quantity_options: list[int] = field(default_factory=list)
    details: list[tuple[str, str]] = field(default_factory=list)
    gallery: list[Picture] = field(default_factory=list)


# Grids of class grid--rows are 4 cards across, 2 on phones (shop.css): a multiple of 4 fills every row at both.
ROW_CARDS = 4
HOME_GRID_CARDS = 2 * ROW_CARDS


def whole_rows(products: list[Product]) -> list[Card]:
    """Cards for a grid--rows grid, cut so its last row is full 4 and 2 across; fewer than 4 make one row."""
    count = len(products)
    keep = count - count % ROW_CARDS if count >= ROW_CARDS else (count - count % 2 or count)
    return [card(p) for p in products[:keep]]


def card(product: Product, book: PriceBook | None = None, *, color: str | None = None,
         misses: list[str] | None = None) -> Card:  # fmt: skip
    """A product as a catalog tile; with color (one the shopper asked for), the picture and link show that variant."""
    color = color if color in product.available_colors else product.color
    variant = {"color": color} if color != product.color else {}
    stock = product.stock_quantity
    price = (book or PriceBook()).price_of(product)
    badge = "Sold out" if stock == 0 else ("Few left" if stock <= LOW_STOCK else None)
    if price.on_sale and stock:
        badge = f"−{price.sale.discount_percentage:.0f}%"
    return Card(
        id=product.id,
        name=product.name,
        url=url_for("shop.show_product", product_id=product.id, **variant),
        image_url=url_for("shop.product_image", product_id=product.id, **variant),
        price=money(price.price),
        list_price=money(price.list_price) if price.on_sale else None,
        rating=f"{product.rating:.1f}",
        rating_count=product.rating_count,
        stars=stars(product.rating),
        department=label(product.category, "category"),
        colors=[color, *(c for c in product.available_colors if c != color)],
        badge=badge,
        color=color,
        misses=misses or [],
        compare_url=url_for("compare.toggle", product_id=product.id),
    )


def catalog_view(query: CatalogQuery, results: CatalogPage, facets: Facets) -> CatalogView:
    """Everything the catalog page shows for one query."""
    departments = [label(c, "category") for c in query.category] or [
        label(c, "category") for c in results.parsed.categories
    ]
    heading = f"Search results for “{query.text}”" if query.text else (" & ".join(departments) or "All products")
    noun = "product" if results.total == 1 else "products"
    book = PriceBook()
    wanted = results.wanted
    chips = _chips(query)
    groups = [
        FacetGroup(
            name=name,
            title=FACET_TITLES[name],
            options=[
                Option(v.value, label(v.value, name), v.count, v.selected, f"f-{name}-{v.value}")
                for v in facets.values[name]
            ],
            open=name in ("category", "clothing_type", "color", "size") or any(v.selected for v in facets.values[name]),
        )
        for name in FACETS
        if facets.values[name]
    ]
    return CatalogView(
        heading=heading,
        summary=f"{results.total:,} {noun}",
        cards=[card(p, book, color=matched_color(p, wanted)) for p in results.products],
        facet_groups=groups,
        price_links=_price_links(query, facets),
        chips=chips,
        clear_url=catalog_url(CatalogQuery(text=query.text, sort=query.sort)) if _has_filters(query) else None,
        filters_label=f"Filters ({len(chips)})" if chips else "Filters",
        show_results_label=_show_results_label(results.total),
        sort_options=[Option(s, SORT_LABELS[s], 0, s == query.sort, f"sort-{s}") for s in SORTS],
        pages=_page_links(query, results),
        prev_url=catalog_url(query, page=results.page - 1) if results.has_prev else None,
        next_url=catalog_url(query, page=results.page + 1) if results.has_next else None,
        notice=_honest_notice(results),
        text=query.text,
        min_price="" if query.min_price is None else f"{query.min_price:.2f}",
        max_price="" if query.max_price is None else f"{query.max_price:.2f}",
        closest=[
            card(
                s.product,
                book,
                color=matched_color(s.product, wanted),
                misses=unmet_reasons(s.product, s.unmet, wanted),
            )
            for s in results.suggestions
        ],
    )


def _show_results_label(total: int) -> str:
    """What the filters drawer's button does: show the results it counted."""
    if total == 0:
        return "No results"
    return f"Show {total:,} result{'' if total == 1 else 's'}"


def _honest_notice(results: CatalogPage) -> str | None:
    """Say plainly when nothing (or little) meets every constraint: "No red dresses under $50." """
    if not results.wanted.stated():
        return None
    description = results.description
    if results.total == 0:
        return f"No {description}."
    if results.suggestions:
        return f"Only one match for {description}." if results.total == 1 else f"Only {results.total} {description}."
    return None


def catalog_url(query: CatalogQuery, **changes) -> str:
    """The shareable catalog URL of a query, with some fields changed."""
    values = {
        "q": query.text or None,
        **{facet: list(query.selected(facet)) or None for facet in FACETS},
        "min_price": None if query.min_price is None else f"{query.min_price:.2f}",
        "max_price": None if query.max_price is None else f"{query.max_price:.2f}",
        "in_stock": "1" if query.in_stock else None,
        "sort": None if query.sort == "relevance" else query.sort,
        "page": None if query.page == 1 else query.page,
    }
    values.update(changes)
    if values.get("sort") == "relevance":
        values["sort"] = None
    if values.get("page") == 1:
        values["page"] = None
    return url_for("shop.show_catalog", **{k: v for k, v in values.items() if v not in (None, [], "")})


def product_view(product: Product, color: str | None, size: str | None, view: str | None = None) -> ProductView:
    """The product page's pictures and pickers: colours, sizes with per-variant stock, the variant's availability."""
    colors = product.available_colors
    chosen_color = normalise_color(color) if color else None
    chosen_color = chosen_color if chosen_color in colors else colors[0]
    chosen_size = normalise_size(size) if size else None
    in_color = {v.size: v for v in product.variants if v.color == chosen_color}
    if chosen_size not in in_color:
        chosen_size = None
    close_up = view == "close-up" and has_close_up(product.clothing_type)
    kept_view = "close-up" if close_up else None  # the size and colour pickers keep the picture's view
    size_options = [
        SizeOption(
            size=s,
            url=url_for("shop.show_product", product_id=product.id, color=chosen_color, size=s, view=kept_view),
            available=in_color[s].stock > 0,
            selected=s == chosen_size,
            stock_note=_stock_note(in_color[s].stock),
        )
        for s in SIZES
        if s in in_color
    ]
    availability, level = _availability(product, chosen_color, chosen_size, in_color)
    price = PriceBook().price_of(product)
    stock = in_color[chosen_size].stock if chosen_size else 0
    can_add = stock > 0
    return ProductView(
        can_add=can_add,
        add_label="Add to cart" if can_add else ("Out of stock" if chosen_size else "Choose a size"),
        quantity_options=list(range(1, min(MAX_LINE_QUANTITY, stock) + 1)) if can_add else [1],
        image_url=url_for("shop.product_image", product_id=product.id, color=chosen_color, view=kept_view),
        image_alt=f"{product.name} in {label(chosen_color)}" + (", close-up" if close_up else ""),
        gallery=_gallery(product, chosen_color, chosen_size, close_up),
        price=money(price.price),
        list_price=money(price.list_price) if price.on_sale else None,
        sale_name=price.sale.name if price.on_sale else None,
        stars=stars(product.rating),
        rating=f"{product.rating:.1f}",
        department=label(product.category, "category"),
        department_url=url_for("shop.show_catalog", category=product.category),
        type_label=label(product.clothing_type, "clothing_type"),
        type_url=url_for("shop.show_catalog", category=product.category, clothing_type=product.clothing_type),
        color_options=[
            ColorOption(
                c,
                label(c),
                url_for("shop.show_product", product_id=product.id, color=c, size=chosen_size, view=kept_view),
                c == chosen_color,
            )
            for c in colors
        ],
        size_options=size_options,
        selected_color=chosen_color,
        selected_size=chosen_size,
        availability=availability,
        availability_level=level,
        details=[
            ("Department", label(product.category, "category")),
            ("Type", label(product.clothing_type)),
            ("Fabric", label(product.fabric)),
            ("Season", label(product.season)),
            ("Colours", ", ".join(label(c) for c in colors)),
            ("Sizes", ", ".join(product.available_sizes)),
        ],
    )


def _gallery(product: Product, color: str, size: str | None, close_up: bool) -> list[Picture]:
    """One picture per colour, then the chosen colour's close-up; none when there would be only one picture."""
    pictures = [
        Picture(
            label=label(c),
            url=url_for("shop.show_product", product_id=product.id, color=c, size=size),
            image_url=url_for("shop.product_image", product_id=product.id, color=c),
            dom_id=f"picture-{c}",
            current=c == color and not close_up,
        )
        for c in product.available_colors
    ]
    if has_close_up(product.clothing_type):
        pictures.append(
            Picture(
                label="Close-up",
                url=url_for("shop.show_product", product_id=product.id, color=color, size=size, view="close-up"),
                image_url=url_for("shop.product_image", product_id=product.id, color=color, view="close-up"),
                dom_id="picture-close-up",
                current=close_up,
            )
        )
    return pictures if len(pictures) > 1 else []


def _stock_note(stock: int) -> str:
    if stock == 0:
        return "Out of stock"
    if stock <= LOW_STOCK:
        return f"Only {stock} left"
    return "In stock"


def _availability(product, color, size, in_color) -> tuple[str, str]:
    if size:
        stock = in_color[size].stock
        if stock == 0:
            return f"{label(color)} / {size} is out of stock", "out"
        if stock <= LOW_STOCK:
            return f"Only {stock} left in {label(color)} / {size}", "low"
        if stock <= VISIBLE_STOCK:
            return f"In stock in {label(color)} / {size} ({stock} available)", "ok"
        return f"In stock in {label(color)} / {size}", "ok"  # no count: cached pages don't follow every order
    total = sum(v.stock for v in in_color.values())
    if total == 0:
        return f"{label(color)} is sold out in every size", "out"
    return "Choose a size to see its stock", "info"


def _has_filters(query: CatalogQuery) -> bool:
    return (
        any(query.selected(f) for f in FACETS)
        or query.min_price is not None
        or query.max_price is not None
        or query.in_stock
    )


def _chips(query: CatalogQuery) -> list[Link]:
    chips = []
    for facet in FACETS:
        for value in query.selected(facet):
            remaining = [v for v in query.selected(facet) if v != value]
            chips.append(
                Link(
                    label(value, facet if facet != "clothing_type" else ""),
                    catalog_url(query, **{facet: remaining or None, "page": 1}),
                )
            )
    if query.min_price is not None or query.max_price is not None:
        chips.append(
            Link(
                _price_label(query.min_price, query.max_price),
                catalog_url(query, min_price=None, max_price=None, page=1),
            )
        )
    if query.in_stock:
        chips.append(Link("In stock", catalog_url(query, in_stock=None, page=1)))
    return chips


def _price_label(low: Decimal | None, high: Decimal | None) -> str:
    if low and high:
        return f"{money(low)} – {money(high)}"
    if high:
        return f"Under {money(high + Decimal('0.01'))}" if high % 1 == Decimal("0.99") else f"Up to {money(high)}"
    return f"{money(low or Decimal(0))} and up"


def _price_links(query: CatalogQuery, facets: Facets) -> list[Link]:
    links = []
    for band in facets.price_bands:
        if band.count == 0 and not band.selected:
            continue
        high = None if band.max_price is None else band.max_price - Decimal("0.01")
        text = _price_label(band.min_price or None, high) if band.min_price else f"Under {money(band.max_price)}"
        url = (
            catalog_url(query, min_price=None, max_price=None, page=1)
            if band.selected
            else catalog_url(
                query, min_price=f"{band.min_price:.2f}", max_price=None if high is None else f"{high:.2f}", page=1
            )
        )
        links.append(Link(f"{text} ({band.count})", url, band.selected))
    return links


def _page_links(query: CatalogQuery, results: CatalogPage) -> list[Link | None]:
    """Page numbers around the current page, with None where a gap (…) goes."""
    if results.pages <= 1:
        return []
    shown = sorted({1, results.pages, *range(max(1, results.page - 2), min(results.pages, results.page + 2) + 1)})
    links: list[Link | None] = []
    previous = 0
    for number in shown:
        if number - previous > 1:
            links.append(None)
        links.append(Link(str(number), catalog_url(query, page=number), number == results.page))
        previous = number
    return links


@dataclass
class DepartmentTile:
    label: str
    url: str
    image_url: str
    count: int


DEPARTMENT_PICTURES = {"women": ("dress", "navy"), "men": ("shirt", "blue"), "kids": ("hoodie", "yellow")}


def department_tiles(counts: dict[str, int]) -> list[DepartmentTile]:
    """Home page department tiles with their product counts."""
    return [
        DepartmentTile(
            label=label(category, "category"),
            url=url_for("shop.show_catalog", category=category),
            image_url=url_for("shop.illustration", clothing_type=kind, color=color),
            count=counts.get(category, 0),
        )
        for category, (kind, color) in DEPARTMENT_PICTURES.items()
    ]


def type_links() -> list[Link]:
    """One catalog link per clothing type."""
    return [Link(label(t, "clothing_type"), url_for("shop.show_catalog", clothing_type=t)) for t in CLOTHING_TYPES]


@dataclass
class ComparisonColumn:
    id: int
    name: str
    url: str
    image_url: str


@dataclass
class ComparisonRow:
    label: str
    values: list[str]
    best: int | None = None


@dataclass
class Comparison:
    columns: list[ComparisonColumn]
    rows: list[ComparisonRow]


def comparison(products: list[Product]) -> Comparison:
    """Products side by side; the lowest price and the best rating are marked."""
    if not products:
        return Comparison([], [])
    book = PriceBook()
    prices = [book.effective_price(p) for p in products]
    ratings = [p.rating for p in products]
    in_stock_sizes = [
        ", ".join(s for s in SIZES if any(v.size == s and v.stock > 0 for v in p.variants)) or "Sold out"
        for p in products
    ]
    rows = [
        ComparisonRow("Price", [money(p) for p in prices], prices.index(min(prices))),
        ComparisonRow(
            "Rating",
            [f"{stars(p.rating)} {p.rating:.1f} ({p.rating_count})" for p in products],
            ratings.index(max(ratings)) if max(ratings) > 0 else None,
        ),  # fmt: skip
        ComparisonRow("Department", [label(p.category, "category") for p in products]),
        ComparisonRow("Type", [label(p.clothing_type) for p in products]),
        ComparisonRow("Colours", [", ".join(label(c) for c in p.available_colors) for p in products]),
        ComparisonRow("Sizes in stock", in_stock_sizes),
        ComparisonRow("Fabric", [label(p.fabric) for p in products]),
        ComparisonRow("Season", [label(p.season) for p in products]),
    ]
    columns = [
        ComparisonColumn(
            p.id, p.name, url_for("shop.show_product", product_id=p.id), url_for("shop.product_image", product_id=p.id)
        )
        for p in products
    ]
    return Comparison(columns, rows)


@dataclass(frozen=True)
class SaleBanner:
    headline: str
    ends: str
    url: str


def sale_banner(sales) -> SaleBanner | None:
    """The home page's banner for the biggest running sale, or None when nothing is on sale."""
    if not sales:
        return None
    sale = max(sales, key=lambda s: (s.discount_percentage, -s.end_date.toordinal()))
    percent = f"{sale.discount_percentage.normalize():f}".rstrip(".")
    return SaleBanner(f"{sale.name}: up to {percent}% off", f"Ends {sale.end_date.strftime('%d %b')}",
                      url_for("shop.show_catalog", on_sale="1"))  # fmt: skip
