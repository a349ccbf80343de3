"""Shop pages: home, catalog with facets and search-as-you-type, product pages and product pictures."""

from __future__ import annotations

import hashlib
from dataclasses import replace

from flask import Blueprint, Response, abort, current_app, jsonify, request

from ..extensions import db, limiter
from ..observability import readiness
from ..schemas.catalog import browse_params
from ..services import catalog, pricing, shop_policies, wishlist
from ..services.illustrations import VIEWS, has_close_up, render_product_svg
from ..services.vocabulary import CLOTHING_TYPES, COLORS
from ..web import display
from ..web.auth import current_actor
from ..web.page_cache import remember
from ..web.rendering import is_fragment_request, render_page
from .reviews import review_context, shared_product_page

shop = Blueprint("shop", __name__)


@shop.get("/")
def show_home():
    return render_page("shop/home.html", [], **remember("home", (), _home_rows))


def _home_rows() -> dict:
    """What the home page shows every visitor alike (its product rows, departments, sale banner): no visitor's data,
    so it is shared through the data cache and only the visitor's own parts are rendered afresh."""
    return {
        "featured": display.whole_rows(catalog.featured_products(display.HOME_GRID_CARDS)),
        "new_arrivals": display.whole_rows(catalog.new_arrivals(display.HOME_GRID_CARDS)),
        "on_sale": display.whole_rows(catalog.on_sale_products(display.HOME_GRID_CARDS)),
        "departments": display.department_tiles(catalog.category_counts()),
        "type_links": display.type_links(),
        "sale": display.sale_banner(pricing.running_sales()),
    }


@shop.get("/catalog")
def show_catalog():
    query = browse_params(request.args, strict=False, default_per_page=current_app.config["CATALOG_PAGE_SIZE"])
    view = remember("catalog", query, lambda: _catalog_view(query), typed=bool(query.text))
    response = render_page(
        "shop/catalog.html", ["results", "facets", "filters_label", "filters_footer"], view=view, query=query
    )
    if is_fragment_request():
        # The canonical URL (no empty fields) is the one worth sharing and keeping in history.
        response.headers["HX-Push-Url"] = display.catalog_url(query)
    return response


def _catalog_view(query) -> display.CatalogView:
    """One page of results with its facets, as every visitor sees it (the data cache shares it)."""
    facets = remember("facets", replace(query, page=1, sort="relevance"), lambda: catalog.catalog_facets(query),
                      typed=bool(query.text))  # fmt: skip
    return display.catalog_view(query, catalog.search_catalog(query), facets)


@shop.get("/products/<int:product_id>")
def show_product(product_id: int):
    args = request.args
    page = shared_product_page(product_id, args.get("color"), args.get("size"), args.get("view"))
    related = remember("related", product_id, lambda: _related_cards(product_id))
    saved = product_id in wishlist.saved_product_ids(current_actor())
    # a size or colour picked swaps only the buy box (and the picture, out of band): the page holds still
    picked = request.headers.get("HX-Target") == "buy-box"
    blocks = ["buy_box", "product_picture"] if picked else ["product_main"]
    return render_page("shop/product.html", blocks, view=page.view, related=related, saved=saved,
                       picture_out_of_band=picked, facts=shop_policies.buying_facts(page.product.fabric),
                       **review_context(page))  # fmt: skip


def _related_cards(product_id: int) -> list[display.Card]:
    return display.whole_rows(catalog.related_products(catalog.get_product(product_id), display.ROW_CARDS))


@shop.get("/products/<int:product_id>/image.svg")
def product_image(product_id: int):
    product = catalog.get_product(product_id, include_inactive=True)
    color = request.args.get("color") or product.color
    view = request.args.get("view") or "front"
    if color not in product.available_colors or view not in VIEWS:
        abort(404)
    if view != "front" and not has_close_up(product.clothing_type):
        abort(404)
    return _svg_response(render_product_svg(product.clothing_type, color, view=view))


@shop.get("/illustrations/<clothing_type>/<color>.svg")
def illustration(clothing_type: str, color: str):
    if clothing_type not in CLOTHING_TYPES or color not in COLORS:
        abort(404)
    return _svg_response(render_product_svg(clothing_type, color))


@shop.get("/healthz")
@limiter.exempt
def health():
    # The process answers and reaches its database; an outage answers 503 with Retry-After (web/errors.py), never a
    # 500. /readyz also checks Redis, with deadlines of its own.
    db.session.execute(db.text("SELECT 1"))
    return _not_cached(jsonify(status="ok"))


@shop.get("/readyz")
@limiter.exempt
def ready():
    checks = readiness.check_readiness(db.engine, current_app.config.get("REDIS_URL"))
    status = readiness.status_of(checks)
    response = _not_cached(jsonify(status=status, checks=checks))
    if status == "unavailable":
        response.status_code = 503
        response.headers["Retry-After"] = "5"
    return response


def _not_cached(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


def _svg_response(svg: str) -> Response:
    response = Response(svg, mimetype="image/svg+xml")
    response.set_etag(hashlib.sha256(svg.encode()).hexdigest()[:32])
    response.cache_control.public = True
    response.cache_control.max_age = 86400
    return response.make_conditional(request)
