"""The assistant's words around tool results: replies, confirmation summaries, friendly errors."""

from __future__ import annotations

from ..services.actors import Actor

FRIENDLY = {
    "auth": "Sorry, I can't do that for you — {message}",
    "validation": "I couldn't do that: {message}",
    "not_found": "I couldn't find that: {message}",
    "server": "Something went wrong on our side; please try again in a moment.",
}


def error_text(entry: dict) -> str:
    error = entry["error"]
    if error["code"] == "forbidden":
        return "Sorry, that's something only the shop's admins can do."
    if error["code"] == "unauthorized":
        return "Please log in (or keep shopping as a guest) and ask me again."
    return FRIENDLY[error.get("kind", "server")].format(message=error["message"])


def compose(tool_calls: list[dict]) -> str:
    """A short reply describing what happened in this turn."""
    if not tool_calls:
        return "How can I help? I can search the catalog, manage your cart, compare products, check orders and more."
    return " ".join(_sentence(entry) for entry in tool_calls)


def _sentence(entry: dict) -> str:
    if entry["outcome"] == "needs_confirmation":
        return f"Please confirm: {entry['summary']}"
    if entry["outcome"] != "executed":
        return error_text(entry)
    data, name = entry["result"], entry["name"]
    if name == "cart_add_item":
        item = data["added"][0]
        return f"I've added {item['quantity_added']} × {item['name']} ({item['color'].capitalize()} / {item['size']}) to your cart."
    if name in ("cart_show", "cart_remove_item", "cart_clear"):
        cart = data["cart"]
        prefix = {"cart_remove_item": data.get("message", "Removed.") + " ", "cart_clear": "Your cart is empty now. "}.get(name, "")
        if not cart["item_count"]:
            return prefix or "Your cart is empty."
        return f"{prefix}Your cart has {cart['item_count']} item(s), subtotal ${cart['subtotal']}."
    if name == "search_products":
        total = data["pagination"]["total"]
        return f"Here {'is' if total == 1 else 'are'} {total} match{'es' if total != 1 else ''}." if total else "I couldn't find anything like that."
    return SIMPLE.get(name, lambda d: "Done.")(data)


SIMPLE = {
    "compare_products": lambda d: f"Here are the {len(d['products'])} products side by side.",
    "review_create": lambda d: "Thanks — your review is posted." if d["created"] else "Your review is updated.",
    "checkout_proceed": lambda d: f"Order #{d['order']['id']} is placed (total ${d['order']['total']}). Pay here: {d['payment']['pay_url']}",
    "order_status": lambda d: f"Order #{d['order']['id']} is {d['order']['status']}.",
    "order_track": lambda d: f"Your parcel with {d['shipment']['carrier']} is {d['shipment']['status']}.",
    "auth_login": lambda d: "You're logged in.",
    "auth_logout": lambda d: "You're logged out.",
    "admin_order_update_status": lambda d: f"Order #{d['order']['id']} is now {d['order']['status']}.",
    "admin_product_create": lambda d: f"Created {d['product']['name']} (#{d['product']['id']}).",
    "admin_product_update": lambda d: f"Updated {d['product']['name']}.",
    "admin_product_delete": lambda d: f"{d['product']['name']} is hidden from the shop.",
    "admin_orders_list": lambda d: f"{d['pagination']['total']} order(s) match.",
    "admin_sale_create": lambda d: f"Created the sale {d['sale']['name']}.",
    "admin_sale_run_automation": lambda d: f"Sale automation ran: {len(d['created'])} created, {len(d['activated'])} started, "
    f"{len(d['deactivated'])} ended.",
    "admin_cart_clear_user": lambda d: f"Removed {d['removed']} line(s) from that cart.",
    "admin_review_delete": lambda d: "The review is deleted.",
}


def summarise(name: str, arguments: dict, actor: Actor) -> str:
    """Exactly what a consequential call will do, for the confirmation card."""
    if name == "cart_clear":
        return "Remove every item from your cart."
    if name == "checkout_proceed":
        return (f"Place an order for everything in your cart, shipped to {arguments['shipping_name']}, {arguments['shipping_address']}, "
                f"{arguments['shipping_city']} {arguments['shipping_zip']}, receipt to {arguments['email']}, and start payment.")  # fmt: skip
    if name == "admin_order_update_status":
        return f"Change the status of order #{arguments['order_id']} to {arguments['status']}."
    if name == "admin_product_delete":
        return f"Hide product #{arguments['product_id']} from the shop."
    if name == "admin_product_update":
        changes = ", ".join(f"{k} → {v}" for k, v in arguments.items() if k != "product_id")
        return f"Update product #{arguments['product_id']}: {changes}."
    if name == "admin_product_create":
        return f"Create the product {arguments['name']} ({arguments['category']}, ${arguments['price']})."
    if name == "admin_sale_create":
        return (f"Create the sale {arguments['name']}: {arguments['discount_percentage']}% off from "
                f"{arguments['start_date']} to {arguments['end_date']}.")  # fmt: skip
    if name == "admin_sale_run_automation":
        return "Run the sale automation (start and end sales on their dates, add the coming holiday sales)."
    if name == "admin_cart_clear_user":
        return f"Empty the cart of user #{arguments['user_id']}."
    if name == "admin_review_delete":
        return f"Delete review #{arguments['review_id']}."
    return f"Run {name}."
