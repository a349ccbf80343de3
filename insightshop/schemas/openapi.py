"""The OpenAPI 3.1 description of the JSON API, assembled from the same schemas the API validates with."""

from __future__ import annotations

from .catalog import BROWSE_PARAMS_SCHEMA, SEARCH_BODY_SCHEMA
from .products import PRODUCT_SCHEMA

ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "details"],
            "properties": {
                "code": {"type": "string", "examples": ["validation_error", "not_found"]},
                "message": {"type": "string"},
                "details": {"type": "array", "items": {}},
            },
        }
    },
}

PAGINATION_SCHEMA = {
    "type": "object",
    "required": ["page", "per_page", "total", "pages", "has_next", "has_prev"],
    "properties": {
        "page": {"type": "integer"},
        "per_page": {"type": "integer"},
        "total": {"type": "integer"},
        "pages": {"type": "integer"},
        "has_next": {"type": "boolean"},
        "has_prev": {"type": "boolean"},
    },
}

PRODUCT_PAGE_SCHEMA = {
    "type": "object",
    "required": ["products", "pagination"],
    "properties": {
        "products": {"type": "array", "items": {"$ref": "#/components/schemas/Product"}},
        "pagination": {"$ref": "#/components/schemas/Pagination"},
        "interpreted_as": {
            "type": "object",
            "description": "How the search text was understood: term groups (synonyms), implied categories and sizes",
        },
    },
}

FACET_COUNTS_SCHEMA = {
    "type": "object",
    "required": ["facets", "price_ranges"],
    "properties": {
        "facets": {
            "type": "object",
            "additionalProperties": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "value": {"type": "string"},
                        "count": {"type": "integer"},
                        "selected": {"type": "boolean"},
                    },
                },
            },
        },
        "price_ranges": {"type": "array", "items": {"type": "object"}},
    },
}


def _error_responses(*statuses: int) -> dict:
    descriptions = {400: "Invalid input", 404: "Not found", 415: "Body is not JSON"}
    return {
        str(status): {
            "description": descriptions.get(status, "Error"),
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
        for status in statuses
    }


def _query_parameters() -> list[dict]:
    parameters = []
    for name, schema in BROWSE_PARAMS_SCHEMA["properties"].items():
        parameter = {"name": name, "in": "query", "required": False, "schema": schema}
        if schema.get("type") == "array":
            parameter.update(style="form", explode=True)
        parameters.append(parameter)
    return parameters


def _json_ok(ref: str, description: str) -> dict:
    return {"200": {"description": description, "content": {"application/json": {"schema": {"$ref": ref}}}}}


def build_openapi(server_url: str = "/") -> dict:
    """The OpenAPI 3.1 document."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "InsightShop API",
            "version": "1.0.0",
            "description": "Catalog, cart, orders and the assistant's tools. Errors always use the Error envelope.",
        },
        "servers": [{"url": server_url}],
        "paths": {
            "/api/products": {
                "get": {
                    "operationId": "listProducts",
                    "summary": "Browse and search active products with filters, sort and pagination",
                    "parameters": _query_parameters(),
                    "responses": {
                        **_json_ok("#/components/schemas/ProductPage", "A page of products"),
                        **_error_responses(400),
                    },  # fmt: skip
                }
            },
            "/api/products/facets": {
                "get": {
                    "operationId": "productFacets",
                    "summary": "Facet value counts for the same query parameters",
                    "parameters": _query_parameters(),
                    "responses": {
                        **_json_ok("#/components/schemas/FacetCounts", "Facet counts"),
                        **_error_responses(400),
                    },  # fmt: skip
                }
            },
            "/api/products/search": {
                "post": {
                    "operationId": "searchProducts",
                    "summary": "Search products (the search_products tool's input)",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SearchRequest"}}},
                    },
                    "responses": {
                        **_json_ok("#/components/schemas/ProductPage", "A page of products"),
                        **_error_responses(400, 415),
                    },  # fmt: skip
                }
            },
            "/api/products/{product_id}": {
                "get": {
                    "operationId": "getProduct",
                    "summary": "One active product with its variants and per-variant stock",
                    "parameters": [
                        {
                            "name": "product_id",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "integer", "minimum": 1},
                        }
                    ],
                    "responses": {
                        "200": {
                            "description": "The product",
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "type": "object",
                                        "required": ["product"],
                                        "properties": {"product": {"$ref": "#/components/schemas/Product"}},
                                    }
                                }
                            },
                        },
                        **_error_responses(404),
                    },
                }
            },
            "/api/openapi.json": {
                "get": {
                    "operationId": "openapi",
                    "summary": "This document",
                    "responses": {"200": {"description": "OpenAPI 3.1 document", "content": {"application/json": {}}}},
                }
            },
        },
        "components": {
            "schemas": {
                "Error": ERROR_SCHEMA,
                "Product": PRODUCT_SCHEMA,
                "Pagination": PAGINATION_SCHEMA,
                "ProductPage": PRODUCT_PAGE_SCHEMA,
                "FacetCounts": FACET_COUNTS_SCHEMA,
                "SearchRequest": SEARCH_BODY_SCHEMA,
            }
        },
    }
