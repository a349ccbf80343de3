"""Result cards: what a tool result looks like in the chat (chosen by tool name first, then by the result's shape).
Cards are plain data (the API returns them as JSON; the panel renders them with templates, escaped)."""

from __future__ import annotations

PRODUCT_FIELDS = ("id", "name", "price", "list_price", "on_sale", "image_url", "url", "category", "color", "in_stock")


def _product(product: dict) -> dict:
    return {key: product.get(key) for key in PRODUCT_FIELDS}


def _products(data: dict) -> dict:
    return {"type": "products", "products": [_product(p) for p in data.get("products", [])[:8]],
            "total": (data.get("pagination") or {}).get("total", len(data.get("products", [])))}  # fmt: skip


def _cart(data: dict) -> dict:
    cart = data.get("cart") or {}
    return {
        "type": "cart",
        "items": cart.get("items", []),
        "item_count": cart.get("item_count", 0),
        "subtotal": cart.get("subtotal", "0.00"),
    }


def _comparison(data: dict) -> dict:
    return {"type": "comparison", "products": [_product(p) | {"fabric": p.get("fabric"), "rating": p.get("rating"),
            "available_sizes": p.get("available_sizes")} for p in data.get("products", [])]}  # fmt: skip


def _order(data: dict) -> dict:
    return {"type": "order", "order": data.get("order"), "payment": data.get("payment")}


BY_TOOL = {
    "search_products": _products,
    "cart_add_item": _cart,
    "cart_remove_item": _cart,
    "cart_show": _cart,
    "cart_clear": _cart,
    "compare_products": _comparison,
    "review_create": lambda data: {"type": "review", "review": data.get("review")},
    "checkout_proceed": _order,
    "order_status": _order,
    "admin_order_update_status": _order,
    "order_track": lambda data: {"type": "tracking", "shipment": data.get("shipment")},
    "admin_orders_list": lambda data: {"type": "orders", "orders": data.get("orders", [])},
    "suggest_outfit": lambda data: {**_products(data), "title": data.get("reason")},
}


def card_for(tool: str, data) -> dict | None:
    """The card for one successful tool result, or None when the reply text says it all."""
    if tool in BY_TOOL:
        return BY_TOOL[tool](data)
    if isinstance(data, dict):
        if "products" in data:
            return _products(data)
        if "product" in data:
            return {"type": "products", "products": [_product(data["product"])], "total": 1}
        if "cart" in data:
            return _cart(data)
        if "order" in data:
            return _order(data)
        if "sale" in data:
            return {"type": "sale", "sale": data["sale"]}
    return None


def confirmation_card(confirmation_id: str, tool: str, summary: str) -> dict:
    return {"type": "confirmation", "confirmation_id": confirmation_id, "tool": tool, "summary": summary}


def error_card(message: str) -> dict:
    return {"type": "error", "message": message}


def login_card() -> dict:
    return {"type": "login_form"}
