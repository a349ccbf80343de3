"""Product endpoints: browse, facets, search (seed 001 search_products) and product detail."""

from __future__ import annotations

from flask import request

from ...schemas.catalog import browse_params, search_body
from ...schemas.products import facets_to_dict, page_to_dict, product_to_dict
from ...services import catalog
from ...web.page_cache import remember
from . import api, json_body


@api.get("/products")
def list_products():
    query = browse_params(request.args, strict=True)
    return page_to_dict(catalog.search_catalog(query))


@api.get("/products/facets")
def product_facets():
    query = browse_params(request.args, strict=True)
    return facets_to_dict(remember("facets", query, lambda: catalog.catalog_facets(query), typed=bool(query.text)))


@api.post("/products/search")
def search_products():
    query = search_body(json_body())
    return page_to_dict(catalog.search_catalog(query))


@api.get("/products/<int:product_id>")
def get_product(product_id: int):
    return {"product": product_to_dict(catalog.get_product(product_id))}
