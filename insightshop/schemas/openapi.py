"""The OpenAPI 3.1 description of the JSON API, assembled from the same schemas the API validates with."""

from __future__ import annotations

from .admin import (
    DISABLE_BODY,
    ORDER_STATUS_UPDATE_BODY,
    PRODUCT_CREATE_BODY,
    PRODUCT_UPDATE_BODY,
    RETURN_DECISION_BODY,
    ROLE_BODY,
    SALE_CREATE_BODY,
    SALE_UPDATE_BODY,
    VARIANT_UPDATE_BODY,
)  # fmt: skip
from .catalog import BROWSE_PARAMS_SCHEMA, SEARCH_BODY_SCHEMA
from .categories import CATEGORIZE_ITEM_BODY
from .citations_openapi import CITATION_COMPONENTS, CITATION_PATHS
from .orders import (
    CHECKOUT_BODY,
    CREATE_INTENT_BODY,
    OFFLINE_CONFIRM_BODY,
    ORDER_STATUS_BODY,
    ORDER_TRACK_BODY,
    RETURN_BODY,
)  # fmt: skip
from .products import PRODUCT_SCHEMA
from .shop import (
    CART_ADD_BODY,
    CART_UPDATE_BODY,
    COMPARE_BODY,
    LOGIN_BODY,
    PASSWORD_RESET_REQUEST_BODY,
    REGISTER_BODY,
    REVIEW_BODY,
    WISHLIST_ADD_BODY,
)  # fmt: skip

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

UNMET_NAMES = ["color", "clothing_type", "category", "size", "min_price", "max_price", "on_sale", "in_stock",
               "fabric", "season", "query"]  # fmt: skip

PRODUCT_PAGE_SCHEMA = {
    "type": "object",
    "required": ["products", "suggestions", "pagination"],
    "properties": {
        "products": {
            "type": "array",
            "description": "Only products meeting every stated constraint (filters and what the words name)",
            "items": {"$ref": "#/components/schemas/Product"},
        },
        "suggestions": {
            "type": "array",
            "description": "When there are fewer than 3 products: the closest others, closest first, never matches",
            "items": {
                "allOf": [
                    {"$ref": "#/components/schemas/Product"},
                    {
                        "type": "object",
                        "required": ["unmet", "unmet_reasons"],
                        "properties": {
                            "unmet": {
                                "type": "array",
                                "description": "The constraints this product misses (query: the other search words)",
                                "items": {"type": "string", "enum": UNMET_NAMES},
                            },
                            "unmet_reasons": {
                                "type": "array",
                                "items": {"type": "string"},
                                "examples": [["over $50"], ["navy, not red"]],
                            },
                        },
                    },
                ]
            },
        },
        "summary": {
            "type": "string",
            "examples": ["No red dresses under $50. The closest products are in suggestions."],
        },
        "pagination": {"$ref": "#/components/schemas/Pagination"},
        "interpreted_as": {
            "type": "object",
            "description": "How the request was understood: term groups, and the constraints in force",
            "properties": {
                "terms": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
                "categories": {"type": "array", "items": {"type": "string"}},
                "sizes": {"type": "array", "items": {"type": "string"}},
                "colors": {"type": "array", "items": {"type": "string"}},
                "clothing_types": {"type": "array", "items": {"type": "string"}},
                "min_price": {"type": ["string", "null"]},
                "max_price": {"type": ["string", "null"]},
                "on_sale": {"type": "boolean"},
                "in_stock": {"type": "boolean"},
                "constraints": {"type": "array", "items": {"type": "string", "enum": UNMET_NAMES}},
                "description": {"type": "string", "examples": ["red dresses under $50"]},
                "broadened": {"type": "boolean", "description": "Always false: results are never padded"},
            },
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
    descriptions = {400: "Invalid input", 401: "Not authenticated", 403: "Not allowed", 404: "Not found", 503: "Unavailable",
                    409: "Conflict (e.g. out of stock)", 415: "Body is not JSON", 429: "Too many requests",
                    422: "Idempotency-Key reused with a different request"}  # fmt: skip
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


def _op(operation_id: str, summary: str, *, body: str | None = None, errors=(400,), ok: str = "200",
        path_params: tuple[str, ...] = (), auth: str = "optional") -> dict:  # fmt: skip
    """One operation with a JSON body (a components schema name), JSON answer and the error envelope."""
    operation = {
        "operationId": operation_id,
        "summary": summary,
        "responses": {
            ok: {"description": "Success", "content": {"application/json": {"schema": {"type": "object"}}}},
            **_error_responses(*errors),
        },  # fmt: skip
    }
    if path_params:
        operation["parameters"] = [
            {"name": name, "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}
            for name in path_params
        ]
    if body:
        operation["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{body}"}}},
        }
    if auth == "required":
        operation["security"] = [{"bearer": []}]
    elif auth == "optional":
        operation["security"] = [{"bearer": []}, {}]
    return operation


SHOP_PATHS = {
    "/api/auth/register": {
        "post": _op(
            "register",
            "Sign up: 202 {ok, message} whether the address is new (a confirmation link is mailed) or already has an "
            "account (its owner is mailed a notice), so accounts cannot be discovered; then log in",
            body="RegisterRequest",
            errors=(400, 415, 429),
            ok="202",
            auth="none",
        )
    },
    "/api/auth/login": {
        "post": _op(
            "login",
            "Log in (auth_login); a guest token sent along merges its cart. Failures are limited per account and per "
            "client across every door (429 rate_limited, Retry-After)",
            body="LoginRequest",
            errors=(400, 401, 415, 429),
        )
    },
    "/api/auth/logout": {
        "post": _op("logout", "Revoke the bearer token (auth_logout)", errors=(401,), auth="required")
    },
    "/api/auth/logout-all": {
        "post": _op(
            "logoutEverywhere",
            "Revoke every token, browser session and remember cookie of the signed-in user",
            errors=(401,),
            auth="required",
        )
    },
    "/api/auth/me": {"get": _op("me", "The signed-in user", errors=(401,), auth="required")},
    "/api/auth/guest": {
        "post": _op(
            "guestToken", "A token for an anonymous cart (limited per client)", errors=(429,), ok="201", auth="none"
        )  # fmt: skip
    },
    "/api/auth/password-reset": {
        "post": _op(
            "requestPasswordReset",
            "Email a password reset link",
            body="PasswordResetRequest",
            errors=(400, 415, 429),
            ok="202",
            auth="none",
        )
    },
    "/api/cart": {
        "get": _op("showCart", "The caller's cart (cart_show)", errors=(401,)),
        "post": _op(
            "addToCart",
            "Add a product variant (cart_add_item)",
            body="CartAddRequest",
            errors=(400, 401, 404, 409, 415),
            ok="201",
        ),
    },
    "/api/cart/{item_id}": {
        "patch": _op(
            "updateCartItem",
            "Set a line's quantity",
            body="CartUpdateRequest",
            errors=(400, 401, 404, 409, 415),
            path_params=("item_id",),
        ),
        "delete": _op(
            "removeCartItem", "Remove a line (cart_remove_item)", errors=(401, 404), path_params=("item_id",)
        ),
    },
    "/api/cart/clear": {"delete": _op("clearCart", "Empty the cart (cart_clear)", errors=(401,))},
    "/api/wishlist": {
        "get": _op("showWishlist", "Saved products with price drops and back-in-stock", errors=(401,), auth="required"),
        "post": _op(
            "addToWishlist",
            "Save a product",
            body="WishlistAddRequest",
            errors=(400, 401, 404, 415),
            ok="201",
            auth="required",
        ),
    },
    "/api/wishlist/{product_id}": {
        "delete": _op(
            "removeFromWishlist",
            "Forget a saved product",
            errors=(401, 404),
            path_params=("product_id",),
            auth="required",
        )
    },
    "/api/products/{product_id}/reviews": {
        "get": _op("listReviews", "A product's reviews, newest first", errors=(400, 404), path_params=("product_id",)),
        "post": _op(
            "createReview",
            "Write or edit your review (review_create)",
            body="ReviewRequest",
            errors=(400, 404, 415, 429),
            ok="201",
            path_params=("product_id",),
        ),
    },
    "/api/reviews/{review_id}": {
        "delete": _op(
            "deleteReview",
            "Delete your review (admins: any review)",
            errors=(401, 403, 404),
            path_params=("review_id",),
        )
    },
    "/api/ai/compare": {
        "post": _op(
            "compareProducts", "Compare 2–10 products (compare_products)", body="CompareRequest", errors=(400, 404, 415)
        )
    },
    "/api/orders": {
        "get": _op("listOrders", "The signed-in user's orders", errors=(401,), auth="required"),
        "post": _op(
            "placeOrder",
            "Check out the cart (checkout_proceed); send Idempotency-Key to make retries safe",
            body="CheckoutRequest",
            errors=(400, 401, 409, 415, 422, 429),
            ok="201",
        ),
    },
    "/api/orders/{order_id}": {
        "get": _op(
            "getOrder",
            "One order (owner, guest cart owner, or X-Order-Token holder)",
            errors=(404,),
            path_params=("order_id",),
        )
    },
    "/api/orders/status": {
        "post": _op(
            "orderStatus",
            "Order status by id + email (order_status)",
            body="OrderStatusRequest",
            errors=(400, 404, 415),
            auth="none",
        )
    },
    "/api/orders/track": {
        "post": _op(
            "trackOrder",
            "Shipment by tracking number (order_track)",
            body="OrderTrackRequest",
            errors=(400, 404, 415),
            auth="none",
        )
    },
    "/api/payments/create-intent": {
        "post": _op(
            "createPaymentIntent",
            "Start paying an order; amount from the server total",
            body="CreateIntentRequest",
            errors=(400, 404, 409, 415, 503),
            ok="201",
        )
    },
    "/api/payments/offline/confirm": {
        "post": _op(
            "confirmOfflinePayment",
            "Settle a test payment (offline provider only)",
            body="OfflineConfirmRequest",
            errors=(400, 404, 409, 415),
        )
    },
    "/api/payments/webhook": {
        "post": _op("stripeWebhook", "Stripe events, verified by Stripe-Signature", errors=(400, 404), auth="none")
    },
    "/api/returns": {
        "post": _op(
            "requestReturn",
            "Return delivered items within 30 days",
            body="ReturnRequest",
            errors=(400, 404, 409, 415),
            ok="201",
        )
    },
    "/api/returns/{return_id}": {
        "get": _op("getReturn", "One return request (owner only)", errors=(404,), path_params=("return_id",))
    },
}


def _admin(op_id: str, summary: str, **kwargs) -> dict:
    errors = tuple(sorted({401, 403, *kwargs.pop("errors", (400,))}))
    return _op(op_id, f"{summary} (admins only)", errors=errors, auth="required", **kwargs)


TOOL_PATHS = {
    "/api/tools": {
        "get": _op("listTools", "The tools the caller may use (anonymous: public tools; users; admins: all)", errors=())
    },
    "/api/tools/{name}": {
        "post": {
            **_op(
                "callTool",
                "Run one tool as the caller: exists → schema → permission → service",
                errors=(400, 401, 403, 404, 409, 415),
            ),
            "parameters": [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}],
            "requestBody": {"required": False, "content": {"application/json": {"schema": {"type": "object"}}}},
        }
    },
}

CHAT_PATHS = {
    "/api/ai/chat": {"post": {**_op("chat", "One assistant turn: {message, conversation_id?} → {conversation_id, reply, tool_calls, cards}",
                                    errors=(400, 401, 404, 415)),
                              "requestBody": {"required": True, "content": {"application/json": {"schema": {"type": "object",
                                  "required": ["message"], "properties": {"message": {"type": "string"}, "conversation_id": {"type": "string"}}}}}}}},
    "/api/ai/chat/confirm": {"post": _op("chatConfirm", "Approve or decline a proposed consequential tool call", errors=(400, 404, 415))},
    "/api/ai/conversations": {"get": _op("listConversations", "The caller's conversations", errors=())},
    "/api/ai/conversations/{conversation_id}": {
        "get": {**_op("getConversation", "One conversation's messages", errors=(404,)),
                "parameters": [{"name": "conversation_id", "in": "path", "required": True, "schema": {"type": "string"}}]},
        "delete": {**_op("deleteConversation", "Delete one conversation", errors=(404,)),
                   "parameters": [{"name": "conversation_id", "in": "path", "required": True, "schema": {"type": "string"}}]},
    },
}  # fmt: skip

AGENT_PATHS = {
    "/api/agents/categorize-item": {
        "post": _op(
            "categorizeItem",
            "The category agent (seed 003): {item_name} → {category_id, category_name, explanation, match_method, "
            "match_score, success, suggestions}; Claude with category tools when configured, else the offline rules",
            body="CategorizeItemRequest",
            errors=(400, 401, 415, 429),
            auth="required",
        )
    },
}

ADMIN_PATHS = {
    "/api/admin/products": {
        "get": _admin("adminListProducts", "Products, inactive too: search, category, status, page, per_page"),
        "post": _admin(
            "adminCreateProduct",
            "Create a product (admin_product_create)",
            body="AdminProductCreate",
            ok="201",
            errors=(400, 415),
        ),
    },
    "/api/admin/products/{product_id}": {
        "put": _admin(
            "adminUpdateProduct",
            "Update a product (admin_product_update)",
            body="AdminProductUpdate",
            path_params=("product_id",),
            errors=(400, 404, 415),
        ),
        "delete": _admin(
            "adminDeleteProduct",
            "Soft-delete a product (admin_product_delete)",
            path_params=("product_id",),
            errors=(404,),
        ),
    },
    "/api/admin/products/{product_id}/restore": {
        "post": _admin("adminRestoreProduct", "Restore a hidden product", path_params=("product_id",), errors=(404,))
    },
    "/api/admin/products/{product_id}/variants/{variant_id}": {
        "put": _admin(
            "adminSetVariantStock",
            "Set one variant's stock",
            body="AdminVariantUpdate",
            path_params=("product_id", "variant_id"),
            errors=(400, 404, 415),
        )
    },
    "/api/admin/orders": {
        "get": _admin("adminListOrders", "Orders by page, per_page, status, user_id, search (admin_orders_list)")
    },
    "/api/admin/orders/{order_id}": {
        "get": _admin("adminGetOrder", "One order", path_params=("order_id",), errors=(404,))
    },
    "/api/admin/orders/{order_id}/status": {
        "put": _admin(
            "adminSetOrderStatus",
            "Change status along allowed transitions (admin_order_update_status)",
            body="AdminOrderStatus",
            path_params=("order_id",),
            errors=(400, 404, 409, 415),
        )
    },
    "/api/admin/sales": {
        "get": _admin("adminListSales", "Sales", errors=()),
        "post": _admin(
            "adminCreateSale", "Create a sale (admin_sale_create)", body="AdminSaleCreate", ok="201", errors=(400, 415)
        ),
    },
    "/api/admin/sales/{sale_id}": {
        "put": _admin(
            "adminUpdateSale", "Change a sale", body="AdminSaleUpdate", path_params=("sale_id",), errors=(400, 404, 415)
        ),
        "delete": _admin("adminDeleteSale", "Delete a sale", path_params=("sale_id",), errors=(404,)),
    },
    "/api/admin/sales/{sale_id}/preview": {
        "get": _admin(
            "adminPreviewSale", "Products a sale covers and their new prices", path_params=("sale_id",), errors=(404,)
        )
    },
    "/api/admin/sales/run-automation": {
        "post": _admin("adminRunSaleAutomation", "Run the sale automation (admin_sale_run_automation)", errors=())
    },
    "/api/admin/carts": {"get": _admin("adminListCarts", "Active carts", errors=())},
    "/api/admin/carts/user/{user_id}": {
        "delete": _admin(
            "adminClearUserCart", "Clear a user's cart (admin_cart_clear_user)", path_params=("user_id",), errors=(404,)
        )
    },
    "/api/admin/reviews": {"get": _admin("adminListReviews", "Reviews by rating, product_id, text")},
    "/api/admin/reviews/{review_id}": {
        "delete": _admin(
            "adminDeleteReview", "Delete a review (admin_review_delete)", path_params=("review_id",), errors=(404,)
        )
    },
    "/api/admin/users": {"get": _admin("adminListUsers", "Users by search", errors=())},
    "/api/admin/users/{user_id}/role": {
        "put": _admin(
            "adminSetRole",
            "Grant or revoke admin (superadmins only)",
            body="AdminRole",
            path_params=("user_id",),
            errors=(400, 404, 409, 415),
        )
    },
    "/api/admin/users/{user_id}/disabled": {
        "put": _admin(
            "adminSetDisabled",
            "Disable or enable an account",
            body="AdminDisable",
            path_params=("user_id",),
            errors=(400, 404, 409, 415),
        )
    },
    "/api/admin/users/{user_id}/password-reset": {
        "post": _admin(
            "adminSendReset", "Email a password reset link", ok="202", path_params=("user_id",), errors=(404,)
        )
    },
    "/api/admin/payments": {"get": _admin("adminListPayments", "Payment log by status, provider, order_id")},
    "/api/admin/returns": {"get": _admin("adminListReturns", "Return requests by status", errors=())},
    "/api/admin/returns/{return_id}/decision": {
        "post": _admin(
            "adminDecideReturn",
            "Approve (restock + refund) or reject a return",
            body="AdminReturnDecision",
            path_params=("return_id",),
            errors=(400, 404, 409, 415),
        )
    },
    "/api/admin/dashboard": {
        "get": _admin("adminDashboard", "Revenue per day (days=7–365), orders by status, top products, low stock")
    },
    "/api/admin/audit": {"get": _admin("adminAudit", "The audit log, newest first")},
}


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
            **SHOP_PATHS,
            **ADMIN_PATHS,
            **TOOL_PATHS,
            **CHAT_PATHS,
            **AGENT_PATHS,
            **CITATION_PATHS,
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
                "RegisterRequest": REGISTER_BODY,
                "LoginRequest": LOGIN_BODY,
                "PasswordResetRequest": PASSWORD_RESET_REQUEST_BODY,
                "CartAddRequest": CART_ADD_BODY,
                "CartUpdateRequest": CART_UPDATE_BODY,
                "WishlistAddRequest": WISHLIST_ADD_BODY,
                "ReviewRequest": REVIEW_BODY,
                "CompareRequest": COMPARE_BODY,
                "CheckoutRequest": CHECKOUT_BODY,
                "OrderStatusRequest": ORDER_STATUS_BODY,
                "OrderTrackRequest": ORDER_TRACK_BODY,
                "CreateIntentRequest": CREATE_INTENT_BODY,
                "OfflineConfirmRequest": OFFLINE_CONFIRM_BODY,
                "ReturnRequest": RETURN_BODY,
                "AdminProductCreate": PRODUCT_CREATE_BODY,
                "AdminProductUpdate": PRODUCT_UPDATE_BODY,
                "AdminVariantUpdate": VARIANT_UPDATE_BODY,
                "AdminOrderStatus": ORDER_STATUS_UPDATE_BODY,
                "AdminSaleCreate": SALE_CREATE_BODY,
                "AdminSaleUpdate": SALE_UPDATE_BODY,
                "AdminRole": ROLE_BODY,
                "AdminDisable": DISABLE_BODY,
                "AdminReturnDecision": RETURN_DECISION_BODY,
                "CategorizeItemRequest": CATEGORIZE_ITEM_BODY,
                **CITATION_COMPONENTS,
            },
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}},
        },
    }
