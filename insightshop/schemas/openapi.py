"""The OpenAPI 3.1 description of the JSON API, assembled from the same schemas the API validates with and the
output shapes its serializers produce (each shape lives next to its serializer)."""

from __future__ import annotations

from ..models.orders import ORDER_STATUSES
from ..services.vocabulary import CATEGORIES
from .admin import (
    ACTIVE_CART_SCHEMA,
    ADMIN_USER_SCHEMA,
    AUDIT_ENTRY_SCHEMA,
    AUTOMATION_REPORT_SCHEMA,
    DASHBOARD_SCHEMA,
    DISABLE_BODY,
    ORDER_STATUS_UPDATE_BODY,
    PAYMENT_SCHEMA,
    PRODUCT_CREATE_BODY,
    PRODUCT_UPDATE_BODY,
    RETURN_DECISION_BODY,
    ROLE_BODY,
    SALE_CREATE_BODY,
    SALE_PREVIEW_SCHEMA,
    SALE_SCHEMA,
    SALE_UPDATE_BODY,
    VARIANT_UPDATE_BODY,
)
from .assistant import (
    CARD_SCHEMA,
    CHAT_BODY,
    CHAT_TURN_SCHEMA,
    CONFIRM_BODY,
    CONVERSATION_LIST_SCHEMA,
    CONVERSATION_SCHEMA,
    TOOL_CALL_SCHEMA,
    TOOL_LIST_SCHEMA,
    TOOL_RESULT_SCHEMA,
)
from .catalog import BROWSE_PARAMS_SCHEMA, SEARCH_BODY_SCHEMA
from .categories import CATEGORIZE_ITEM_BODY, CATEGORIZE_ITEM_RESULT
from .citations_openapi import CITATION_COMPONENTS, CITATION_PATHS
from .orders import (
    CHECKOUT_BODY,
    CREATE_INTENT_BODY,
    OFFLINE_CONFIRM_BODY,
    ORDER_EVENT_SCHEMA,
    ORDER_ITEM_SCHEMA,
    ORDER_LOOKUP_SCHEMA,
    ORDER_SCHEMA,
    ORDER_STATUS_BODY,
    ORDER_SUMMARY_SCHEMA,
    ORDER_TRACK_BODY,
    PAYMENT_INTENT_SCHEMA,
    RETURN_BODY,
    RETURN_SCHEMA,
    RETURN_STATUSES,
    SHIPMENT_SCHEMA,
)
from .products import (
    DATE_TIME,
    FACET_COUNTS_SCHEMA,
    PAGINATION_SCHEMA,
    PRODUCT_PAGE_SCHEMA,
    PRODUCT_SCHEMA,
    VARIANT_SCHEMA,
)
from .receipts import RECEIPT_COMPONENTS, RECEIPT_LIST_PARAMS
from .shop import (
    CART_ADD_BODY,
    CART_ITEM_SCHEMA,
    CART_SCHEMA,
    CART_UPDATE_BODY,
    COMPARE_BODY,
    LOGIN_BODY,
    PASSWORD_RESET_REQUEST_BODY,
    REGISTER_BODY,
    REVIEW_BODY,
    REVIEW_SCHEMA,
    USER_SCHEMA,
    WISHLIST_ADD_BODY,
    WISHLIST_ITEM_SCHEMA,
)
from .validation import DB_INT_MAX

ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "details"],
            "properties": {
                "code": {
                    "type": "string",
                    "pattern": "^[a-z][a-z0-9_]*$",
                    "examples": ["validation_error", "not_found"],
                },
                "message": {"type": "string", "minLength": 1},
                "details": {"type": "array", "items": {}, "description": "e.g. [{field, message}] for invalid input"},
            },
        }
    },
}

ERROR_DESCRIPTIONS = {
    400: "Invalid input: the body, a parameter, a control character anywhere in the request, a failed CSRF check",
    401: "Not authenticated, or the bearer token is invalid, expired or revoked",
    403: "Not allowed for this caller",
    404: "Not found (or not the caller's)",
    409: "Conflict with the current state (out of stock, already paid, not allowed in this status, …)",
    413: "The body is larger than MAX_REQUEST_BYTES",
    415: "The body is not JSON (Content-Type: application/json)",
    422: "Idempotency-Key reused with a different request",
    429: "Too many requests: wait Retry-After seconds",
    503: "A service the shop depends on (the database, the payment provider, the AI service) is unavailable or not "
    "configured; retry after Retry-After seconds when given",
}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _list(name: str) -> dict:
    return {"type": "array", "items": _ref(name)}


def _fields(**fields) -> dict:
    """An object whose listed fields are all required: a str names a component, a dict is a schema."""
    properties = {name: _ref(value) if isinstance(value, str) else value for name, value in fields.items()}
    return {"type": "object", "required": list(fields), "properties": properties}


OK_SCHEMA = _fields(ok={"const": True})
MESSAGE_SCHEMA = _fields(ok={"const": True}, message={"type": "string"})
TOKEN_FIELDS = {"token": {"type": "string", "minLength": 20}, "expires_at": DATE_TIME}

# Every response body of the API, by component name (the operations below refer to them).
RESPONSE_SCHEMAS = {
    "Ok": OK_SCHEMA,
    "Message": MESSAGE_SCHEMA,
    "Login": _fields(**TOKEN_FIELDS, user="User"),
    "GuestToken": _fields(**TOKEN_FIELDS, guest_id={"type": "string"}),
    "UserResponse": _fields(user="User"),
    "ProductResponse": _fields(product="Product"),
    "ProductList": _fields(products=_list("Product")),
    "CartResponse": _fields(cart="Cart"),
    "CartLineResponse": _fields(item="CartItem", cart="Cart"),
    "CartCleared": _fields(removed={"type": "integer", "minimum": 0, "description": "Lines removed"}, cart="Cart"),
    "Wishlist": _fields(items=_list("WishlistItem")),
    "WishlistItemResponse": _fields(item="WishlistItem"),
    "ReviewList": _fields(reviews=_list("Review")),
    "ReviewSaved": _fields(review="Review", created={"type": "boolean", "description": "false: an edit"}),
    "PlacedOrder": _fields(
        order="Order",
        order_token={"type": "string", "description": "Send as X-Order-Token to open this order without logging in"},
        replayed={"type": "boolean", "description": "true: the Idempotency-Key matched an earlier order"},
    ),
    "OrderResponse": _fields(order="Order"),
    "OrderLookupResponse": _fields(order="OrderLookup"),
    "OrderList": _fields(orders=_list("OrderSummary")),
    "ShipmentResponse": _fields(shipment="Shipment"),
    "WebhookReceipt": {
        **_fields(received={"const": True}, duplicate={"type": "boolean"}),
        "properties": {"received": {"const": True}, "duplicate": {"type": "boolean"}, "type": {"type": "string"}},
    },
    "ReturnResponse": _fields(**{"return": "Return"}),
    "AdminProductPage": _fields(products=_list("Product"), pagination="Pagination"),
    "VariantResponse": _fields(variant="Variant"),
    "AdminOrderPage": _fields(orders=_list("OrderSummary"), pagination="Pagination"),
    "SaleList": _fields(sales=_list("Sale")),
    "SaleResponse": _fields(sale="Sale"),
    "ActiveCarts": _fields(carts=_list("ActiveCart")),
    "CartRemoved": _fields(removed={"type": "integer", "minimum": 0, "description": "Lines removed"}),
    "AdminUserList": _fields(users=_list("AdminUser")),
    "AdminUserResponse": _fields(user="AdminUser"),
    "PaymentList": _fields(payments=_list("Payment")),
    "ReturnList": _fields(returns=_list("Return")),
    "AuditLog": _fields(entries=_list("AuditEntry")),
    "OpenApiDocument": _fields(
        openapi={"type": "string", "pattern": "^3\\.1\\."},
        info={"type": "object"},
        paths={"type": "object"},
        components={"type": "object"},
    ),
}


def _error_responses(statuses) -> dict:
    return {
        str(status): {
            "description": ERROR_DESCRIPTIONS[status],
            "content": {"application/json": {"schema": _ref("Error")}},
        }
        for status in sorted(set(statuses))
    }


def _path_parameter(name: str, kind: str = "integer") -> dict:
    schema = {"type": "integer", "minimum": 1} if kind == "integer" else {"type": "string", "maxLength": 64}
    return {"name": name, "in": "path", "required": True, "schema": schema}


def _query(name: str, schema: dict, description: str | None = None) -> dict:
    parameter = {"name": name, "in": "query", "required": False, "schema": schema}
    return {**parameter, "description": description} if description else parameter


def _header(name: str, schema: dict, description: str) -> dict:
    return {"name": name, "in": "header", "required": False, "schema": schema, "description": description}


def _count(low: int = 1, high: int = DB_INT_MAX) -> dict:
    return {"type": "integer", "minimum": low, "maximum": high}


SECURITY = {"required": [{"bearer": []}], "optional": [{"bearer": []}, {}], "none": []}


def _op(
    operation_id: str,
    summary: str,
    ok: str,
    *,
    status: int | tuple[int, ...] = 200,
    body: str | dict | None = None,
    errors=(),
    path_params: tuple = (),
    params: tuple[dict, ...] = (),
    auth: str = "optional",
    body_required: bool = True,
    json_only: bool = True,
) -> dict:
    """One operation: its success answer (a component name; one or more statuses) and its errors. Every operation
    can answer 400 (the request guard refuses control characters anywhere); one with a body also 413, and 415 unless
    it reads the raw body (json_only=False); one that needs a login 401; and every one 503 while the database is
    unreachable."""
    statuses = {400, 503, *errors} | ({413} if body else set()) | ({415} if body and json_only else set())
    statuses |= {401} if auth == "required" else set()
    success = {"description": "Success", "content": {"application/json": {"schema": _ref(ok)}}}
    operation = {
        "operationId": operation_id,
        "summary": summary,
        "responses": {
            **{str(code): success for code in (status if isinstance(status, tuple) else (status,))},
            **_error_responses(statuses),
        },
        "security": SECURITY[auth],
    }
    parameters = [_path_parameter(*p) if isinstance(p, tuple) else _path_parameter(p) for p in path_params]
    if parameters or params:
        operation["parameters"] = parameters + list(params)
    if body:
        schema = _ref(body) if isinstance(body, str) else body
        operation["requestBody"] = {"required": body_required, "content": {"application/json": {"schema": schema}}}
    return operation


def _browse_parameters() -> tuple[dict, ...]:
    parameters = []
    for name, schema in BROWSE_PARAMS_SCHEMA["properties"].items():
        parameter = _query(name, schema)
        if schema.get("type") == "array":
            parameter.update(style="form", explode=True)
        parameters.append(parameter)
    return tuple(parameters)


IDEMPOTENCY_KEY = _header(
    "Idempotency-Key",
    {"type": "string", "minLength": 8, "maxLength": 64},
    "A retried checkout with the same key and body returns the first order",
)
ORDER_TOKEN = _header(
    "X-Order-Token",
    {"type": "string"},
    "The order_token of a guest's order (order_token in the body wins): opens it without logging in",
)

PRODUCT_PATHS = {
    "/api/products": {
        "get": _op(
            "listProducts",
            "Browse and search active products with filters, sort and pagination",
            "ProductPage",
            params=_browse_parameters(),
            auth="none",
        )
    },
    "/api/products/facets": {
        "get": _op(
            "productFacets",
            "Facet value counts for the same query parameters",
            "FacetCounts",
            params=_browse_parameters(),
            auth="none",
        )
    },
    "/api/products/search": {
        "post": _op(
            "searchProducts",
            "Search products (the search_products tool's input)",
            "ProductPage",
            body="SearchRequest",
            auth="none",
        )
    },
    "/api/products/{product_id}": {
        "get": _op(
            "getProduct",
            "One active product with its variants and per-variant stock",
            "ProductResponse",
            errors=(404,),
            path_params=("product_id",),
            auth="none",
        )
    },
}

SHOP_PATHS = {
    "/api/auth/register": {
        "post": _op(
            "register",
            "Sign up: 202 {ok, message} whether the address is new (a confirmation link is mailed) or already has an "
            "account (its owner is mailed a notice), so accounts cannot be discovered; then log in",
            "Message",
            status=202,
            body="RegisterRequest",
            errors=(429,),
            auth="none",
        )
    },
    "/api/auth/login": {
        "post": _op(
            "login",
            "Log in (auth_login); a guest token sent along merges its cart. Failures are limited per account and per "
            "client across every door (429 rate_limited, Retry-After)",
            "Login",
            body="LoginRequest",
            errors=(401, 429),
        )
    },
    "/api/auth/logout": {"post": _op("logout", "Revoke the bearer token (auth_logout)", "Ok", auth="required")},
    "/api/auth/logout-all": {
        "post": _op(
            "logoutEverywhere",
            "Revoke every token, browser session and remember cookie of the signed-in user",
            "Message",
            auth="required",
        )
    },
    "/api/auth/me": {"get": _op("me", "The signed-in user", "UserResponse", auth="required")},
    "/api/auth/guest": {
        "post": _op(
            "guestToken",
            "A token for an anonymous cart (limited per client)",
            "GuestToken",
            status=201,
            errors=(429,),
            auth="none",
        )
    },
    "/api/auth/password-reset": {
        "post": _op(
            "requestPasswordReset",
            "Email a password reset link (the same answer for unknown addresses)",
            "Message",
            status=202,
            body="PasswordResetRequest",
            errors=(429,),
            auth="none",
        )
    },
    "/api/cart": {
        "get": _op("showCart", "The caller's cart (cart_show)", "CartResponse", errors=(401,)),
        "post": _op(
            "addToCart",
            "Add a product variant (cart_add_item)",
            "CartLineResponse",
            status=201,
            body="CartAddRequest",
            errors=(401, 404, 409),
        ),
    },
    "/api/cart/{item_id}": {
        "patch": _op(
            "updateCartItem",
            "Set a line's quantity",
            "CartLineResponse",
            body="CartUpdateRequest",
            errors=(401, 404, 409),
            path_params=("item_id",),
        ),
        "delete": _op(
            "removeCartItem",
            "Remove a line (cart_remove_item)",
            "CartResponse",
            errors=(401, 404),
            path_params=("item_id",),
        ),
    },
    "/api/cart/clear": {"delete": _op("clearCart", "Empty the cart (cart_clear)", "CartCleared", errors=(401,))},
    "/api/wishlist": {
        "get": _op("showWishlist", "Saved products with price drops and back-in-stock", "Wishlist", auth="required"),
        "post": _op(
            "addToWishlist",
            "Save a product",
            "WishlistItemResponse",
            status=201,
            body="WishlistAddRequest",
            errors=(404,),
            auth="required",
        ),
    },
    "/api/wishlist/{product_id}": {
        "delete": _op(
            "removeFromWishlist",
            "Forget a saved product",
            "Ok",
            errors=(404,),
            path_params=("product_id",),
            auth="required",
        )
    },
    "/api/products/{product_id}/reviews": {
        "get": _op(
            "listReviews",
            "A product's reviews, newest first",
            "ReviewList",
            errors=(404,),
            path_params=("product_id",),
            auth="none",
            params=(_query("limit", _count(1, 100)), _query("offset", _count(0, 999_999_999))),
        ),
        "post": _op(
            "createReview",
            "Write your review (201), or edit it (200: created is false) (review_create)",
            "ReviewSaved",
            status=(201, 200),
            body="ReviewRequest",
            errors=(401, 404, 429),
            path_params=("product_id",),
        ),
    },
    "/api/reviews/{review_id}": {
        "delete": _op(
            "deleteReview",
            "Delete your review (admins: any review)",
            "Ok",
            errors=(401, 403, 404),
            path_params=("review_id",),
        )
    },
    "/api/ai/compare": {
        "post": _op(
            "compareProducts",
            "Compare 2–10 products (compare_products)",
            "ProductList",
            body="CompareRequest",
            errors=(404,),
            auth="none",
        )
    },
    "/api/orders": {
        "get": _op("listOrders", "The signed-in user's orders", "OrderList", auth="required"),
        "post": _op(
            "placeOrder",
            "Check out the cart (checkout_proceed); send Idempotency-Key to make retries safe "
            "(a replay answers 200 with replayed: true)",
            "PlacedOrder",
            status=(201, 200),
            body="CheckoutRequest",
            errors=(401, 404, 409, 422, 429),
            params=(IDEMPOTENCY_KEY,),
        ),
    },
    "/api/orders/{order_id}": {
        "get": _op(
            "getOrder",
            "One order (owner, guest cart owner, or X-Order-Token holder)",
            "OrderResponse",
            errors=(401, 404),
            path_params=("order_id",),
            params=(ORDER_TOKEN,),
        )
    },
    "/api/orders/status": {
        "post": _op(
            "orderStatus",
            "Order status by id + email (order_status): what a receipt shows, never the card, tracking number or "
            "address (the buyer opens the whole order with GET /api/orders/{order_id}). Failed lookups are limited "
            "per client, per order number and per email (429 rate_limited, Retry-After)",
            "OrderLookupResponse",
            body="OrderStatusRequest",
            errors=(404, 429),
            auth="none",
        )
    },
    "/api/orders/track": {
        "post": _op(
            "trackOrder",
            "Shipment by tracking number (order_track)",
            "ShipmentResponse",
            body="OrderTrackRequest",
            errors=(404,),
            auth="none",
        )
    },
    "/api/payments/create-intent": {
        "post": _op(
            "createPaymentIntent",
            "Start paying an order; amount from the server total",
            "PaymentIntent",
            status=201,
            body="CreateIntentRequest",
            errors=(401, 404, 409, 503),
            params=(ORDER_TOKEN,),
        )
    },
    "/api/payments/offline/confirm": {
        "post": _op(
            "confirmOfflinePayment",
            "Settle a test payment (offline provider only)",
            "OrderResponse",
            body="OfflineConfirmRequest",
            errors=(401, 404, 409),
            params=(ORDER_TOKEN,),
        )
    },
    "/api/payments/webhook": {
        "post": _op(
            "stripeWebhook",
            "Stripe events, verified by Stripe-Signature (404 unless Stripe is configured)",
            "WebhookReceipt",
            body={"type": "object", "description": "A Stripe event"},
            errors=(404, 503),
            auth="none",
            json_only=False,
        )
    },
    "/api/returns": {
        "post": _op(
            "requestReturn",
            "Return delivered items within 30 days",
            "ReturnResponse",
            status=201,
            body="ReturnRequest",
            errors=(401, 404, 409),
            params=(ORDER_TOKEN,),
        )
    },
    "/api/returns/{return_id}": {
        "get": _op(
            "getReturn",
            "One return request (owner only)",
            "ReturnResponse",
            errors=(401, 404),
            path_params=("return_id",),
        )
    },
}

# Query parameters of the admin lists.
PAGE = _query("page", _count(1, 10_000))
PER_PAGE = _query("per_page", _count(1, 100))
SEARCH = _query("search", {"type": "string"}, "Part of a name or email; a number also finds that id")


def _admin(op_id: str, summary: str, ok: str, **kwargs) -> dict:
    errors = (401, 403, *kwargs.pop("errors", ()))
    return _op(op_id, f"{summary} (admins only)", ok, errors=errors, auth="required", **kwargs)


AGENT_PATHS = {
    "/api/agents/categorize-item": {
        "post": _op(
            "categorizeItem",
            "The category agent (seed 003): {item_name} → {category_id, category_name, explanation, match_method, "
            "match_score, success, suggestions}; Claude with category tools when configured, else the offline rules",
            "CategorizeItemResult",
            body="CategorizeItemRequest",
            errors=(400, 401, 415, 429),
            auth="required",
        )
    },
}

RECEIPT_ID = ("receipt_id",)
RECEIPT_PATHS = {
    "/api/receipts": {
        "post": {
            **_op(
                "uploadReceipt",
                "Upload a receipt (multipart field `file`: JPEG, PNG, WebP, PDF or text, ≤ 10 MB, "
                "10 a minute): 201 when already read, 202 while it is read in the background",
                "ReceiptResponse",
                status=(201, 202),
                errors=(409, 413, 415, 429),
                auth="required",
            ),  # fmt: skip
            "requestBody": {
                "required": True,
                "content": {"multipart/form-data": {"schema": _ref("ReceiptUpload")}},
            },  # fmt: skip
        },
        "get": _op(
            "listReceipts",
            "The caller's receipts, newest purchase first, with filters",
            "ReceiptPage",
            auth="required",
            params=tuple(_query(name, schema) for name, schema in RECEIPT_LIST_PARAMS["properties"].items()),
        ),  # fmt: skip
    },
    "/api/receipts/{receipt_id}": {
        "get": _op(
            "getReceipt",
            "One receipt with its items and seed 000's result (owner only)",
            "ReceiptResponse",
            errors=(404,),
            path_params=RECEIPT_ID,
            auth="required",
        ),  # fmt: skip
        "delete": _op(
            "deleteReceipt",
            "Delete a receipt, its items and its file",
            "ReceiptDeleted",
            errors=(404,),
            path_params=RECEIPT_ID,
            auth="required",
        ),  # fmt: skip
    },
    "/api/receipts/{receipt_id}/reprocess": {
        "post": _op(
            "reprocessReceipt",
            "Read the receipt again (verified values are kept)",
            "ReceiptResponse",
            status=(200, 202),
            errors=(404, 409),
            path_params=RECEIPT_ID,
            auth="required",
        ),  # fmt: skip
    },
    "/api/receipts/{receipt_id}/file": {
        "get": {
            **_op(
                "getReceiptFile",
                "The uploaded file itself (owner only; served sandboxed)",
                "Error",
                errors=(404,),
                path_params=RECEIPT_ID,
                auth="required",
            ),  # fmt: skip
            "responses": {
                "200": {
                    "description": "The file",
                    "content": {
                        t: {"schema": {"type": "string", "format": "binary"}}
                        for t in ("image/jpeg", "image/png", "image/webp", "application/pdf", "text/plain")
                    },
                },
                **_error_responses({400, 401, 404, 503}),
            },
        },
    },
}

ADMIN_PATHS = {
    "/api/admin/products": {
        "get": _admin(
            "adminListProducts",
            "Products, inactive too, newest first",
            "AdminProductPage",
            params=(
                SEARCH,
                _query("category", {"type": "string", "enum": list(CATEGORIES)}),
                _query("status", {"type": "string", "enum": ["all", "active", "inactive"]}),
                PAGE,
                PER_PAGE,
            ),
        ),
        "post": _admin(
            "adminCreateProduct",
            "Create a product (admin_product_create)",
            "ProductResponse",
            status=201,
            body="AdminProductCreate",
        ),
    },
    "/api/admin/products/{product_id}": {
        "put": _admin(
            "adminUpdateProduct",
            "Update a product (admin_product_update)",
            "ProductResponse",
            body="AdminProductUpdate",
            path_params=("product_id",),
            errors=(404,),
        ),
        "delete": _admin(
            "adminDeleteProduct",
            "Soft-delete a product (admin_product_delete)",
            "ProductResponse",
            path_params=("product_id",),
            errors=(404,),
        ),
    },
    "/api/admin/products/{product_id}/restore": {
        "post": _admin(
            "adminRestoreProduct",
            "Restore a hidden product",
            "ProductResponse",
            path_params=("product_id",),
            errors=(404,),
        )
    },
    "/api/admin/products/{product_id}/variants/{variant_id}": {
        "put": _admin(
            "adminSetVariantStock",
            "Set one variant's stock",
            "VariantResponse",
            body="AdminVariantUpdate",
            path_params=("product_id", "variant_id"),
            errors=(404,),
        )
    },
    "/api/admin/orders": {
        "get": _admin(
            "adminListOrders",
            "Orders, newest first (admin_orders_list)",
            "AdminOrderPage",
            params=(
                PAGE,
                PER_PAGE,
                _query("status", {"type": "string", "enum": list(ORDER_STATUSES)}),
                _query("user_id", _count()),
                SEARCH,
            ),
        )
    },
    "/api/admin/orders/{order_id}": {
        "get": _admin("adminGetOrder", "One order", "OrderResponse", path_params=("order_id",), errors=(404,))
    },
    "/api/admin/orders/{order_id}/status": {
        "put": _admin(
            "adminSetOrderStatus",
            "Change status along allowed transitions (admin_order_update_status)",
            "OrderResponse",
            body="AdminOrderStatus",
            path_params=("order_id",),
            errors=(404, 409, 503),
        )
    },
    "/api/admin/sales": {
        "get": _admin("adminListSales", "Sales", "SaleList"),
        "post": _admin(
            "adminCreateSale", "Create a sale (admin_sale_create)", "SaleResponse", status=201, body="AdminSaleCreate"
        ),
    },
    "/api/admin/sales/{sale_id}": {
        "put": _admin(
            "adminUpdateSale",
            "Change a sale",
            "SaleResponse",
            body="AdminSaleUpdate",
            path_params=("sale_id",),
            errors=(404,),
        ),
        "delete": _admin("adminDeleteSale", "Delete a sale", "Ok", path_params=("sale_id",), errors=(404,)),
    },
    "/api/admin/sales/{sale_id}/preview": {
        "get": _admin(
            "adminPreviewSale",
            "Products a sale covers and their new prices",
            "SalePreview",
            path_params=("sale_id",),
            errors=(404,),
        )
    },
    "/api/admin/sales/run-automation": {
        "post": _admin(
            "adminRunSaleAutomation", "Run the sale automation (admin_sale_run_automation)", "AutomationReport"
        )
    },
    "/api/admin/carts": {"get": _admin("adminListCarts", "Active carts, most recent first", "ActiveCarts")},
    "/api/admin/carts/user/{user_id}": {
        "delete": _admin(
            "adminClearUserCart",
            "Clear a user's cart (admin_cart_clear_user)",
            "CartRemoved",
            path_params=("user_id",),
            errors=(404,),
        )
    },
    "/api/admin/reviews": {
        "get": _admin(
            "adminListReviews",
            "Reviews, newest first",
            "ReviewList",
            params=(
                _query("rating", _count(1, 5)),
                _query("product_id", _count()),
                _query("text", {"type": "string"}, "Part of the comment"),
            ),
        )
    },
    "/api/admin/reviews/{review_id}": {
        "delete": _admin(
            "adminDeleteReview",
            "Delete a review (admin_review_delete)",
            "Ok",
            path_params=("review_id",),
            errors=(404,),
        )
    },
    "/api/admin/users": {"get": _admin("adminListUsers", "Users, newest first", "AdminUserList", params=(SEARCH,))},
    "/api/admin/users/{user_id}/role": {
        "put": _admin(
            "adminSetRole",
            "Grant or revoke admin (superadmins only)",
            "AdminUserResponse",
            body="AdminRole",
            path_params=("user_id",),
            errors=(404, 409),
        )
    },
    "/api/admin/users/{user_id}/disabled": {
        "put": _admin(
            "adminSetDisabled",
            "Disable or enable an account",
            "AdminUserResponse",
            body="AdminDisable",
            path_params=("user_id",),
            errors=(404, 409),
        )
    },
    "/api/admin/users/{user_id}/password-reset": {
        "post": _admin(
            "adminSendReset", "Email a password reset link", "Ok", status=202, path_params=("user_id",), errors=(404,)
        )
    },
    "/api/admin/payments": {
        "get": _admin(
            "adminListPayments",
            "Payment log, newest first",
            "PaymentList",
            params=(
                _query("status", {"type": "string"}, "The provider's status, e.g. succeeded"),
                _query("provider", {"type": "string", "enum": ["offline", "stripe"]}),
                _query("order_id", _count()),
            ),
        )
    },
    "/api/admin/returns": {
        "get": _admin(
            "adminListReturns",
            "Return requests, newest first",
            "ReturnList",
            params=(_query("status", {"type": "string", "enum": RETURN_STATUSES}),),
        )
    },
    "/api/admin/returns/{return_id}/decision": {
        "post": _admin(
            "adminDecideReturn",
            "Approve (restock + refund) or reject a return",
            "ReturnResponse",
            body="AdminReturnDecision",
            path_params=("return_id",),
            errors=(404, 409, 503),
        )
    },
    "/api/admin/dashboard": {
        "get": _admin(
            "adminDashboard",
            "Revenue per day, orders by status, top products, low stock",
            "Dashboard",
            params=(_query("days", _count(7, 365)),),
        )
    },
    "/api/admin/audit": {
        "get": _admin(
            "adminAudit",
            "The audit log, newest first",
            "AuditLog",
            params=(_query("action", {"type": "string"}, "e.g. product.update"), _query("limit", _count(1, 500))),
        )
    },
}

TOOL_PATHS = {
    "/api/tools": {
        "get": _op(
            "listTools",
            "The tools the caller may use (anonymous: public tools; users; admins: all)",
            "ToolList",
            errors=(401,),
        )
    },
    "/api/tools/{name}": {
        "post": _op(
            "callTool",
            "Run one tool as the caller: exists → schema → permission → service. The body is the tool's arguments "
            "(its input_schema in GET /api/tools); data matches its output_schema",
            "ToolResult",
            body={"type": "object"},
            body_required=False,
            errors=(401, 403, 404, 409, 429, 503),
            path_params=(("name", "string"),),
        )
    },
}

CHAT_PATHS = {
    "/api/ai/chat": {
        "post": _op(
            "chat",
            "One assistant turn: {message, conversation_id?} → {conversation_id, reply, tool_calls, "
            "cards}; tool errors are part of the turn, not of the HTTP status",
            "ChatTurn",
            body="ChatRequest",
            errors=(401, 404),
        )
    },
    "/api/ai/chat/confirm": {
        "post": _op(
            "chatConfirm",
            "Approve or decline a proposed consequential tool call (400 already_decided once decided)",
            "ChatTurn",
            body="ChatConfirmRequest",
            errors=(401, 404),
        )
    },
    "/api/ai/conversations": {
        "get": _op("listConversations", "The caller's conversations", "ConversationList", errors=(401,))
    },
    "/api/ai/conversations/{conversation_id}": {
        "get": _op(
            "getConversation",
            "One conversation's messages",
            "Conversation",
            errors=(401, 404),
            path_params=(("conversation_id", "string"),),
        ),
        "delete": _op(
            "deleteConversation",
            "Delete one conversation",
            "Ok",
            errors=(401, 404),
            path_params=(("conversation_id", "string"),),
        ),
    },
}

COMPONENT_SCHEMAS = {
    "Error": ERROR_SCHEMA,
    **RECEIPT_COMPONENTS,
    **CITATION_COMPONENTS,
    "CategorizeItemRequest": CATEGORIZE_ITEM_BODY,
    "CategorizeItemResult": CATEGORIZE_ITEM_RESULT,
    # Shapes shared by many answers
    "Product": PRODUCT_SCHEMA,
    "Variant": VARIANT_SCHEMA,
    "Pagination": PAGINATION_SCHEMA,
    "ProductPage": PRODUCT_PAGE_SCHEMA,
    "FacetCounts": FACET_COUNTS_SCHEMA,
    "User": USER_SCHEMA,
    "AdminUser": ADMIN_USER_SCHEMA,
    "CartItem": CART_ITEM_SCHEMA,
    "Cart": CART_SCHEMA,
    "WishlistItem": WISHLIST_ITEM_SCHEMA,
    "Review": REVIEW_SCHEMA,
    "OrderSummary": ORDER_SUMMARY_SCHEMA,
    "OrderLookup": ORDER_LOOKUP_SCHEMA,
    "Order": ORDER_SCHEMA,
    "OrderItem": ORDER_ITEM_SCHEMA,
    "OrderEvent": ORDER_EVENT_SCHEMA,
    "Shipment": SHIPMENT_SCHEMA,
    "Return": RETURN_SCHEMA,
    "PaymentIntent": PAYMENT_INTENT_SCHEMA,
    "Payment": PAYMENT_SCHEMA,
    "Sale": SALE_SCHEMA,
    "SalePreview": SALE_PREVIEW_SCHEMA,
    "AutomationReport": AUTOMATION_REPORT_SCHEMA,
    "ActiveCart": ACTIVE_CART_SCHEMA,
    "AuditEntry": AUDIT_ENTRY_SCHEMA,
    "Dashboard": DASHBOARD_SCHEMA,
    "ToolCall": TOOL_CALL_SCHEMA,
    "Card": CARD_SCHEMA,
    "ChatTurn": CHAT_TURN_SCHEMA,
    "ConversationList": CONVERSATION_LIST_SCHEMA,
    "Conversation": CONVERSATION_SCHEMA,
    "ToolList": TOOL_LIST_SCHEMA,
    "ToolResult": TOOL_RESULT_SCHEMA,
    **RESPONSE_SCHEMAS,
    # Request bodies
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
    "ChatRequest": CHAT_BODY,
    "ChatConfirmRequest": CONFIRM_BODY,
    "AdminProductCreate": PRODUCT_CREATE_BODY,
    "AdminProductUpdate": PRODUCT_UPDATE_BODY,
    "AdminVariantUpdate": VARIANT_UPDATE_BODY,
    "AdminOrderStatus": ORDER_STATUS_UPDATE_BODY,
    "AdminSaleCreate": SALE_CREATE_BODY,
    "AdminSaleUpdate": SALE_UPDATE_BODY,
    "AdminRole": ROLE_BODY,
    "AdminDisable": DISABLE_BODY,
    "AdminReturnDecision": RETURN_DECISION_BODY,
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
            **PRODUCT_PATHS,
            **SHOP_PATHS,
            **ADMIN_PATHS,
            **TOOL_PATHS,
            **CHAT_PATHS,
            **AGENT_PATHS,
            **CITATION_PATHS,
            **RECEIPT_PATHS,
            "/api/openapi.json": {"get": _op("openapi", "This document", "OpenApiDocument", auth="none")},
        },
        "components": {
            "schemas": COMPONENT_SCHEMAS,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}},
        },
    }
