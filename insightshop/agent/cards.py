"""Result cards: what a tool result looks like in the chat (chosen by tool name first, then by the result's shape).
Cards are plain data (the API returns them as JSON; the panel renders them with templates, escaped)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from . import service_replies
from .admin_cards import ADMIN_CARDS
from .citation_links import receipts_list_card

PRODUCT_FIELDS = ("id", "name", "price", "list_price", "on_sale", "image_url", "url", "category", "color", "in_stock")
MAX_PRODUCTS, MAX_SUGGESTIONS, MAX_CANDIDATES = 8, 4, 6
CHOICE_ERRORS = ("variant_required", "ambiguous", "out_of_stock")
UNMET_LABELS = {"color": "other colour", "clothing_type": "other kind", "category": "other department",
                "size": "not in your size", "min_price": "below your price", "max_price": "above your budget",
                "on_sale": "not on sale", "in_stock": "sold out"}  # fmt: skip


def _product(product: dict) -> dict:
    """A product as a card shows it: what the shopper reads, and the sizes and colours its buttons offer."""
    card = {key: product.get(key) for key in PRODUCT_FIELDS}
    card["url"], card["image_url"] = _safe_url(card["url"]), _safe_url(card["image_url"])
    variants = [v for v in product.get("variants") or [] if isinstance(v, dict)]
    card["sizes"] = list(product.get("available_sizes") or product.get("sizes") or [])
    card["colors"] = list(product.get("available_colors") or product.get("colors") or [])
    if variants:  # sizes sold out in every colour are shown, but cannot be picked
        in_stock = {v.get("size") for v in variants if v.get("in_stock", (v.get("stock") or 0) > 0)}
        card["sold_out_sizes"] = [size for size in card["sizes"] if size not in in_stock]
    else:
        card["sold_out_sizes"] = []
    card["shown_color"] = _shown_color(product, card["colors"])
    return card


def _safe_url(url) -> str | None:
    """Only the shop's own paths and web addresses become links (never javascript: or data: URLs)."""
    text = str(url or "")
    return text if text.startswith(("/", "https://", "http://")) and not text.startswith("//") else None


def _shown_color(product: dict, colors: list[str]) -> str | None:
    """The colour the card's picture shows (a search shows the variant that matched): the colour its buttons add."""
    shown = (
        product.get("matched_color")
        or parse_qs(urlsplit(str(product.get("image_url") or "")).query).get("color", [None])[0]
    )
    return shown if shown in colors else None


def _products(data: dict) -> dict | None:
    """The products found and the closest ones; None when there are neither (a page past the last one, a search with
    nothing near): the reply says so, and an empty card would only say how many there were."""
    products = data.get("products", [])
    if not products and not data.get("suggestions"):
        return None
    card = {"type": "products", "products": [_product(p) for p in products[:MAX_PRODUCTS]],
            "total": (data.get("pagination") or {}).get("total", len(products))}  # fmt: skip
    suggestions = [s for s in data.get("suggestions") or [] if isinstance(s, dict)]
    if suggestions:  # the closest products, each saying what it misses ("colour", "max price")
        card["suggestions"] = [_suggestion(s) for s in suggestions[:MAX_SUGGESTIONS]]
    return card


def _titled(card: dict | None, title: str | None) -> dict | None:
    return {**card, "title": title} if card else None


def _suggestion(product: dict) -> dict:
    unmet = [str(name) for name in product.get("unmet") or []]
    return _product(product) | {
        "unmet": unmet,
        "misses": ", ".join(UNMET_LABELS.get(n, n.replace("_", " ")) for n in unmet),
    }


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
    "suggest_outfit": lambda data: _titled(_products(data), data.get("reason")),
    "receipts_list": receipts_list_card,
    **ADMIN_CARDS,  # tables of figures for the admin tools (new stock, new prices), never a shopper's card
    **service_replies.CARDS,
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


def choice_card(tool: str, arguments: dict, error: dict) -> dict | None:
    """For a cart_add_item that failed only for want of a choice (variant_required, ambiguous): a card whose buttons
    make the choice. None for any other failure (the caller shows the error once, as text or an error card)."""
    if tool != "cart_add_item" or not isinstance(error, dict) or error.get("code") not in CHOICE_ERRORS:
        return None
    arguments = arguments if isinstance(arguments, dict) else {}
    wanted = {"quantity": arguments.get("quantity") or 1, "size": arguments.get("selected_size"),
              "color": arguments.get("selected_color")}  # fmt: skip
    if error["code"] == "ambiguous":
        candidates = [_candidate(c) for c in _detail_dicts(error.get("details")) if c.get("product_id") or c.get("id")]
        if not candidates:
            return None
        return {"type": "choices", **wanted, "candidates": candidates[:MAX_CANDIDATES]}
    product = _variant_product(arguments, error.get("details"))
    if product is None or (error["code"] == "out_of_stock" and not product.get("sizes")):
        return None
    if error["code"] == "out_of_stock":  # the size asked for is sold out: the sizes left in that colour are offered
        wanted["size"] = None
        wanted["color"] = next((d.get("color") for d in _detail_dicts(error.get("details")) if d.get("color")),
                               wanted["color"])  # fmt: skip
    return {"type": "variant_choice", **wanted, "product": product}


def _detail_dicts(details) -> list[dict]:
    if isinstance(details, dict):
        nested = details.get("candidates")
        return [d for d in nested if isinstance(d, dict)] if isinstance(nested, list) else [details]
    return [d for d in details or [] if isinstance(d, dict)]


def _candidate(detail: dict) -> dict:
    return {
        "product_id": detail.get("product_id") or detail.get("id"),
        "name": detail.get("name"),
        "category": detail.get("category"),
        "color": detail.get("color"),
        "price": detail.get("price"),
        "sizes": list(detail.get("sizes") or detail.get("available_sizes") or []),
        "colors": list(detail.get("colors") or detail.get("colours") or detail.get("available_colors") or []),
    }


def _variant_product(arguments: dict, details) -> dict | None:
    """The product a variant_required error is about: from the error's details (product_id, sizes, colours),
    completed from the catalog so the card shows a name, a price and a picture, never a bare id."""
    merged: dict = {}
    for detail in _detail_dicts(details):
        merged.update({k: v for k, v in detail.items() if v not in (None, [], "")})
    product_id = merged.get("product_id") or arguments.get("product_id")
    if not isinstance(product_id, int):
        return None
    shown = _catalog_product(product_id) or {"id": product_id, "name": merged.get("name")}
    for key in ("sizes", "colors"):
        given = merged.get(key) or (merged.get("colours") if key == "colors" else None)
        if given and not shown.get(key):
            shown[key] = list(given)
    if "sold_out_sizes" in merged or "sizes" in merged:  # the service decided what is in stock: only that is offered
        shown["sizes"] = list(merged.get("sizes") or [])
        shown["colors"] = list(merged.get("colors") or shown.get("colors") or [])
        shown["sold_out_sizes"] = []
    return shown if shown.get("name") else None


def _catalog_product(product_id: int) -> dict | None:
    from ..schemas.products import product_to_dict
    from ..services.catalog import get_product
    from ..services.errors import DomainError

    try:
        return _product(product_to_dict(get_product(product_id)))
    except (DomainError, RuntimeError):  # unknown product, or no request to build its URLs in
        return None


def confirmation_card(confirmation_id: str, tool: str, summary: str) -> dict:
    return {"type": "confirmation", "confirmation_id": confirmation_id, "tool": tool, "summary": summary}


def error_card(message: str) -> dict:
    return {"type": "error", "message": message}


def login_card() -> dict:
    return {"type": "login_form"}


def suggestions_card(options) -> dict | None:
    """Buttons that each send one message ("Did you mean …?"): [{"label", "message"}], at most three."""
    kept = [{"label": str(o["label"])[:60], "message": str(o["message"])[:200]}
            for o in (options if isinstance(options, list) else [])
            if isinstance(o, dict) and o.get("label") and o.get("message")][:3]  # fmt: skip
    return {"type": "suggestions", "options": kept} if kept else None
