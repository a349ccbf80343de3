"""What a conversation remembers between turns (the products just shown or added, pending questions), so follow-ups
like "add the first one", "the cheapest one" or "make that 3" point at real things. Engine-independent.

Keys written here (all JSON-safe):
- last_shown: the products of the last list shown, in the order shown: [{id, name, price, category, colors, sizes}]
  (price a float); last_product_ids is the same ids (older readers), last_product_id the first or last added one.
- last_line: the cart line last added {product_id, size, color, quantity, name, unit_price, category} (quantity = what the
  line now holds; unit_price a string, the price the cart charges).
- last_add_failed: whether the last cart_add_item failed (out of stock, a choice to make), so a new count retries it.
- pending: a question waiting for the shopper's answer ({tool, args}); written by the engine, kept here.
"""

from __future__ import annotations

MAX_SHOWN = 10


def _shown(product: dict) -> dict:
    try:
        price = float(product.get("price"))
    except (TypeError, ValueError):
        price = None
    return {
        "id": product["id"],
        "name": product.get("name"),
        "price": price,
        "category": product.get("category"),
        "colors": list(product.get("available_colors") or product.get("colors") or [product.get("color")]),
        "sizes": list(product.get("available_sizes") or product.get("sizes") or []),
    }


def _add_failed(context: dict, entry: dict) -> bool:
    """Whether this failed add is the one the engine last asked for (a named product's department, read from the
    message, is not among its arguments)."""
    asked = {k: v for k, v in (entry.get("arguments") or {}).items() if k != "quantity"}
    last = context.get("last_item")
    if "product_id" in asked and isinstance(last, dict):
        last = {k: v for k, v in last.items() if k != "category"}
    return entry.get("outcome") != "executed" and asked == last


def remember(context: dict, tool_calls: list[dict]) -> dict:
    """Products the shopper just saw or added, so "add the first one" or "compare them" point at real ids."""
    context.pop("choice_for", None)
    for entry in tool_calls:
        _remember_choice(context, entry)
        if entry.get("name") == "cart_add_item":  # "make it 2" after an add that failed adds 2, removes nothing
            context["last_add_failed"] = _add_failed(context, entry)
        if entry.get("outcome") != "executed" or not isinstance(entry.get("result"), dict):
            continue
        result = entry["result"]
        products = [p for p in result.get("products", []) if isinstance(p, dict) and "id" in p]
        if not products and entry.get("name") == "search_products":
            products = [p for p in result.get("suggestions", []) if isinstance(p, dict) and "id" in p]
        if products:
            shown = [_shown(p) for p in products[:MAX_SHOWN]]
            context["last_shown"] = shown
            context["last_product_ids"] = [p["id"] for p in shown]
            context["last_product_id"] = shown[0]["id"]
        for added in result.get("added", []):
            if not isinstance(added, dict) or "product_id" not in added:
                continue
            context["last_product_id"] = added["product_id"]
            context["last_line"] = {"product_id": added["product_id"], "size": added.get("size"),
                                    "color": added.get("color"), "quantity": added.get("quantity"),
                                    "name": added.get("name"), "unit_price": added.get("unit_price"),
                                    "category": added.get("category")}  # fmt: skip
        removed = result.get("removed")
        if isinstance(removed, dict) and context.get("last_line", {}).get("product_id") == removed.get("product_id"):
            line = [
                i for i in (result.get("cart") or {}).get("items", []) if i.get("product_id") == removed["product_id"]
            ]
            if line:
                context["last_line"] = {**context["last_line"], "quantity": line[0].get("quantity")}
            else:
                context.pop("last_line", None)
    return context


def _remember_choice(context: dict, entry: dict) -> None:
    """An add that several products fit equally ("which one would you like?"): they become the list shown, and
    the add's size, colour and quantity wait in choice_for, so "the first one" or "the black ones" completes it."""
    error = entry.get("error") or {}
    if entry.get("name") != "cart_add_item" or error.get("code") != "ambiguous":
        return
    candidates = [d for d in error.get("details") or [] if isinstance(d, dict) and isinstance(d.get("product_id"), int)]
    if not candidates:
        return
    shown = [_shown({**d, "id": d["product_id"]}) for d in candidates[:MAX_SHOWN]]
    context["last_shown"] = shown
    context["last_product_ids"] = [p["id"] for p in shown]
    arguments = entry.get("arguments") or {}
    context["choice_for"] = {key: arguments[key] for key in ("selected_size", "selected_color", "quantity")
                             if key in arguments}  # fmt: skip
