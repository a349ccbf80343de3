"""The assistant's words around tool results: replies, confirmation summaries, friendly errors."""

from __future__ import annotations

import re

from ..services.actors import Actor
from . import service_replies

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
    if error["code"] in CHOICE_ERRORS and error.get("details"):
        return CHOICE_ERRORS[error["code"]](error["details"])
    return FRIENDLY[error.get("kind", "server")].format(message=error["message"])


def compose(tool_calls: list[dict]) -> str:
    """A short reply describing what happened in this turn."""
    if not tool_calls:
        return "How can I help? I can search the catalog, manage your cart, compare products, check orders and more."
    said = [_sentence(entry) for index, entry in enumerate(tool_calls) if not _read_for(entry, tool_calls[index + 1 :])]
    return " ".join(text if text.endswith((".", "?", "!")) else f"{text}." for text in said)


CART_CHANGES = frozenset({"cart_add_item", "cart_remove_item", "cart_clear"})


def _read_for(entry: dict, later: list[dict]) -> bool:
    """A look at the cart made only to change it ("set the hoodie to 4"): the change says what the cart is now."""
    return entry["name"] == "cart_show" and any(e["name"] in CART_CHANGES for e in later)


def _sentence(entry: dict) -> str:
    if entry["outcome"] == "needs_confirmation":
        # The confirmation card beside the reply spells the action out in full; the reply names it once, briefly.
        return f"Ready to {pending_action(entry)} — approve it to go ahead."
    if entry["outcome"] != "executed":
        return error_text(entry)
    data, name = entry["result"], entry["name"]
    if name == "admin_orders_list":
        return _orders_listed(entry.get("arguments") or {}, data)
    if name == "cart_add_item":
        item = data["added"][0]
        held = f" You have {item['quantity']} of them now." if item["quantity"] != item["quantity_added"] else ""
        return f"Added {item['quantity_added']} × {line_label(item)} to your cart.{held}"
    if name in ("cart_show", "cart_remove_item", "cart_clear"):
        cart = data["cart"]
        prefix = {
            "cart_remove_item": data.get("message", "Removed.") + " ",
            "cart_clear": "Your cart is empty now. ",
        }.get(name, "")
        if not cart["item_count"]:
            return prefix.strip() or "Your cart is empty."
        count = cart["item_count"]
        return f"{prefix}Your cart has {count} item{'' if count == 1 else 's'}, subtotal ${cart['subtotal']}."
    if name == "search_products":
        return search_sentence(data)
    return SIMPLE.get(name, lambda d: "Done.")(data)


DEPARTMENTS = {"men": "Men's", "women": "Women's", "kids": "Kids'"}
SHOWN = 3


def line_label(item: dict) -> str:
    """A product as a shopper recognises it: "Oxford Button-Down Shirt (Men's, White, L)"."""
    details = [DEPARTMENTS.get(item.get("category"), ""), str(item.get("color") or "").capitalize(), item.get("size")]
    details = ", ".join(filter(None, details))
    return f"{item['name']} ({details})" if details else item["name"]


def _product_words(product: dict) -> str:
    color = product.get("matched_color") or product.get("color")
    return ", ".join(filter(None, [product["name"], DEPARTMENTS.get(product.get("category"), ""), color,
                                   f"${product['price']}"]))  # fmt: skip


def search_sentence(data: dict) -> str:
    """Say what the search found, honestly: matches only when products meet every constraint, else the closest."""
    products, suggestions = data.get("products", []), data.get("suggestions", [])
    total = data.get("pagination", {}).get("total", len(products))
    wanted = _shopper_words(data.get("interpreted_as", {}).get("description") or "")
    closest = "; ".join(
        f"{_product_words(s)} ({', '.join(s.get('unmet_reasons') or s.get('unmet') or [])})"
        for s in suggestions[:SHOWN]
    )
    if not products:
        if closest:
            return f"No {wanted}. Closest: {closest}."
        return f"No {wanted}, and nothing close to it either."
    listed = "; ".join(_product_words(p) for p in products[:SHOWN])
    more = f" (and {total - SHOWN} more)" if total > SHOWN else ""
    sentence = f"Here {'is' if total == 1 else 'are'} {total} {wanted}: {listed}{more}."
    if total == 1:
        sentence = f"Here is the one match for {wanted}: {listed}."
    if closest:
        sentence += f" Also close: {closest}."
    return sentence


def _shopper_words(description: str) -> str:
    """The search's description without the search engine's own words (the text it matched: “matching …”)."""
    words = re.sub(r"\s*matching “[^”]*”", "", description).strip()
    return words if words and words != "products" else "products like that"


def _ambiguous_text(details: list) -> str:
    options = "; ".join(
        ", ".join(
            filter(
                None,
                [
                    d.get("name"),
                    DEPARTMENTS.get(d.get("category"), ""),
                    d.get("color"),
                    d.get("price") and f"${d['price']}",
                ],
            )
        )  # fmt: skip
        for d in details[:4]
        if isinstance(d, dict)
    )
    return f"Several products fit equally well: {options}. Which one would you like?"


def _variant_text(details: list) -> str:
    first = details[0] if isinstance(details[0], dict) else {}
    fields = {d.get("field") for d in details if isinstance(d, dict)}
    asks = []
    if "selected_size" in fields and first.get("sizes"):
        asks.append(f"which size ({', '.join(first['sizes'])})")
    if "selected_color" in fields and first.get("colors"):
        asks.append(f"which colour ({', '.join(first['colors'])})")
    if not asks or not first.get("name"):
        return f"I couldn't do that: {first.get('message', 'choose a colour and size')}"
    return f"{first['name']}: {' and '.join(asks)}?{_sold_out(first)}"


def _sold_out(details: dict) -> str:
    """ " XL is sold out.": what a choice leaves out because it has no stock (the service lists it apart)."""
    gone = [*(details.get("sold_out_sizes") or []), *(details.get("sold_out_colors") or [])]
    if not gone:
        return ""
    listed = gone[0] if len(gone) == 1 else ", ".join(gone[:-1]) + " and " + gone[-1]
    return f" {listed} {'is' if len(gone) == 1 else 'are'} sold out."


CHOICE_ERRORS = {"ambiguous": _ambiguous_text, "variant_required": _variant_text}


SIMPLE = {
    "compare_products": lambda d: f"Here are the {len(d['products'])} products side by side.",
    "review_create": lambda d: "Thanks — your review is posted." if d["created"] else "Your review is updated.",
    "checkout_proceed": lambda d: (
        f"Order #{d['order']['id']} is placed (total ${d['order']['total']}). Pay here: {d['payment']['pay_url']}"
    ),
    "order_status": lambda d: f"Order #{d['order']['id']} is {d['order']['status']}.",
    "order_track": lambda d: f"Your parcel with {d['shipment']['carrier']} is {d['shipment']['status']}.",
    "auth_login": lambda d: "You're logged in.",
    "auth_logout": lambda d: "You're logged out." if d["logged_out"] else "You weren't logged in.",
    "admin_order_update_status": lambda d: f"Order #{d['order']['id']} is now {d['order']['status']}.",
    "admin_product_create": lambda d: f"Created {d['product']['name']} (#{d['product']['id']}).",
    "admin_product_update": lambda d: f"Updated {d['product']['name']}.",
    "admin_product_delete": lambda d: f"{d['product']['name']} is hidden from the shop.",
    "admin_orders_list": lambda d: f"{d['pagination']['total']} order(s) match.",
    "admin_sale_create": lambda d: f"Created the sale {d['sale']['name']}.",
    "admin_sale_run_automation": lambda d: (
        f"Sale automation ran: {len(d['created'])} created, {len(d['activated'])} started, "
        f"{len(d['deactivated'])} ended."
    ),
    "admin_cart_clear_user": lambda d: f"Removed {d['removed']} line(s) from that cart.",
    "admin_review_delete": lambda d: "The review is deleted.",
    "search_shop_policies_and_faqs": lambda d: (
        " ".join(a["answer"] for a in d["answers"][:2])
        if d["answers"]
        else "I can only help with shopping here: products, your cart, orders, shipping, returns and sizes."
    ),
    "orders_list_mine": lambda d: _my_orders_sentence(d["orders"]),
    "receipts_list": lambda d: _receipts_sentence(d),
    "admin_dashboard": lambda d: _dashboard_sentence(d),
    "suggest_outfit": lambda d: (
        f"{d['reason']}." if d["products"] else "I couldn't find a matching piece in stock right now."
    ),
    **service_replies.SENTENCES,
}


def _orders_listed(arguments: dict, data: dict) -> str:
    """An admin's order list: how many match the filters said, then the first five."""
    what = " ".join(w for w in (arguments.get("status"), "orders") if w)
    if arguments.get("search"):
        what += f" for {arguments['search']}"
    if arguments.get("user_id"):
        what += f" of user #{arguments['user_id']}"
    total = (data.get("pagination") or {}).get("total", 0)
    if not total:
        return f"There are no {what}."
    listed = "; ".join(f"#{o['id']} {o.get('email') or o.get('shipping_name') or ''} — ${o.get('total')}, {o.get('status')}"
                       .replace("  ", " ") for o in (data.get("orders") or [])[:5])  # fmt: skip
    more = f" (and {total - 5} more)" if total > 5 else ""
    return f"{total} {what.replace('orders', 'order', 1) if total == 1 else what}: {listed}{more}."


def _my_orders_sentence(found: list[dict]) -> str:
    if not found:
        return "I can't find any orders for you yet."
    parts = []
    for order in found[:3]:
        items = f"{order['item_count']} item{'' if order['item_count'] == 1 else 's'}"
        text = f"#{order['id']} ({items}, ${order['total']}) is {order['status']}"
        if order.get("tracking_number"):
            text += f", {order['carrier']} tracking {order['tracking_number']}"
        parts.append(text)
    return f"Your recent order{'s' if len(found) > 1 else ''}: " + "; ".join(parts) + "."


def _receipts_sentence(data: dict) -> str:
    """The spending per currency, then each shown receipt's total quoting its citation and how far to trust it."""
    if not data["total_count"]:
        return "I found no receipts matching that."
    spent = " and ".join(f"{_amount(s['total'], s['currency'])} on {s['receipts']} receipt{'s' if s['receipts'] != 1 else ''}"
                         for s in data["spent"])  # fmt: skip
    shown = data["receipts"][:SHOWN]
    more = f" (and {data['total_count'] - SHOWN} more)" if data["total_count"] > SHOWN else ""
    unread = "" if data["spent"] else " None of them has a total yet."
    listed = "; ".join(_receipt_phrase(r) for r in shown)
    return f"You spent {spent}. " * bool(data["spent"]) + f"Receipts: {listed}{more}.{unread}{_verified_note(shown)}"


def _receipt_phrase(receipt: dict) -> str:
    """One receipt: "$45.67 at Whole Foods on 2025-10-03 [receipt-12.jpg, line 9] (unverified, 62% confidence)"."""
    cited = receipt.get("total_citation")
    merchant = receipt["merchant_name"]
    if cited and cited.get("method") == "order_record":
        where = " from your InsightShop order"
    else:
        where = f" at {merchant}" if merchant else ""
    day = f" on {receipt['purchase_date']}" if receipt["purchase_date"] else ""
    if not receipt["total_amount"]:
        return f"an unread receipt{where}{day}"
    text = f"{_amount(receipt['total_amount'], receipt['currency'])}{where}{day}"
    return f"{text} {cited['short']}{trust_note(cited)}" if cited else text


def trust_note(cited: dict) -> str:
    """The flag " (unverified, 62% confidence)" for a value nobody checked; nothing for verified ones, the shop's own order
    records and values typed by hand (their citation already says so)."""
    if cited["verified"] or cited.get("method") in ("order_record", "manual"):
        return ""
    if cited.get("confidence") is None:
        return " (unverified)"
    return f" (unverified, {cited['confidence']:.0%} confidence)"


def _verified_note(receipts: list[dict]) -> str:
    """Verified totals are said once, not after every value."""
    cited = [r["total_citation"] for r in receipts if r["total_amount"] and r.get("total_citation")]
    verified = sum(1 for c in cited if c["verified"])
    if not verified:
        return ""
    if verified == len(cited):
        return " That total is verified." if verified == 1 else " All of these totals are verified."
    return f" {verified} of these totals {'is' if verified == 1 else 'are'} verified."


def _amount(total: str, currency: str | None) -> str:
    symbol = {"USD": "$", "EUR": "€", "GBP": "£"}.get(currency or "USD")
    return f"{symbol}{total}" if symbol else f"{currency} {total}"


def _dashboard_sentence(data: dict) -> str:
    period = {"today": "Today", "week": "In the last 7 days", "month": "In the last 30 days",
              "year": "In the last 12 months", "all": "So far"}.get(data["period"], data["period"])  # fmt: skip
    text = (f"{period}: revenue ${data['revenue']} from {data['orders']} paid order(s), "
            f"average ${data['average_order_value']}.")  # fmt: skip
    low = data.get("low_stock") or []
    if low:
        shown = ", ".join(f"{v['name']} ({v['color']} / {v['size']}: {v['stock']})" for v in low[:5])
        text += f" Low on stock: {shown}" + (f" and {len(low) - 5} more." if len(low) > 5 else ".")
    else:
        text += " Nothing is low on stock."
    return text


def _checkout_summary(arguments: dict, actor: Actor) -> str:
    """Exactly what will be ordered, for how much, and where it goes: the cart's lines, the quote's total (the
    checkout's own pricing) and the address with the recipient's name."""
    from ..services import cart, orders, shop_policies

    method = arguments.get("shipping_method", "standard")
    lines = cart.get_cart(actor).lines if actor.has_owner else []
    items = ", ".join(f"{line.item.quantity} × {line.product.name} ({line.variant.color.capitalize()} / "
                      f"{line.variant.size}, ${line.line_total:.2f})" for line in lines) or "your cart (it is empty)"  # fmt: skip
    totals = orders.quote(actor, method) if lines else None
    cost = (f" Total ${totals.total:.2f} (shipping ${totals.shipping:.2f}, tax ${totals.tax:.2f})."
            if totals else "")  # fmt: skip
    place = ", ".join(str(arguments[k]).strip() for k in ("shipping_address", "shipping_city") if arguments.get(k))
    region = " ".join(str(arguments[k]).strip() for k in ("shipping_state", "shipping_zip") if arguments.get(k))
    address = ", ".join(p for p in (place, region, arguments.get("shipping_country") or "US") if p)
    phone = f", phone {arguments['shipping_phone']}" if arguments.get("shipping_phone") else ""
    delivery = shop_policies.delivery_label(method) if method in shop_policies.DELIVERY_OPTIONS else method
    return (f"Place an order for {items}.{cost} Ship {delivery} to {arguments.get('shipping_name', '?')}, "
            f"{address}{phone}; receipt to {arguments.get('email', '?')}. Then start payment.")  # fmt: skip


def _status_summary(arguments: dict, _actor: Actor) -> str:
    from ..services import admin_orders
    from ..services.errors import DomainError

    text = f"Change the status of order #{arguments['order_id']} to {arguments['status']}"
    try:
        order = admin_orders.get_order(arguments["order_id"])
    except DomainError:
        order = None
    if order is not None:
        text += f" (now {order.status}; {order.shipping_name}, ${order.total:.2f})"
    if arguments.get("carrier") or arguments.get("tracking_number"):
        text += f", shipped with {arguments.get('carrier', '?')}, tracking {arguments.get('tracking_number', '?')}"
    if arguments.get("note"):
        text += f"; note: {arguments['note']}"
    return text + "."


# Summaries that need to look at the shop (the cart, the order) to say exactly what will happen.
ACTOR_SUMMARIES = {
    "checkout_proceed": _checkout_summary,
    "admin_order_update_status": _status_summary,
    "order_cancel_mine": service_replies.cancel_summary,
}

SUMMARIES = {
    "cart_clear": lambda a: "Remove every item from your cart.",
    "admin_product_delete": lambda a: f"Hide product #{a['product_id']} from the shop.",
    "admin_product_update": lambda a: _product_update_summary(a),
    "admin_product_create": lambda a: f"Create the product {a['name']} ({a['category']}, ${a['price']}).",
    "admin_sale_create": lambda a: (
        f"Create the sale {a['name']}: {a['discount_percentage']}% off from {a['start_date']} to {a['end_date']}."
    ),
    "admin_sale_run_automation": lambda a: (
        "Run the sale automation (start and end sales on their dates, add the coming holiday sales)."
    ),
    "admin_cart_clear_user": lambda a: f"Empty the cart of user #{a['user_id']}.",
    "admin_review_delete": lambda a: f"Delete review #{a['review_id']}.",
}


# What a pending confirmation will do, in a few words for the reply (its card holds the full summary).
PENDING_ACTIONS = {
    "cart_clear": "empty your cart",
    "checkout_proceed": "place your order",
    "admin_product_delete": "hide product #{product_id}",
    "admin_product_update": "update product #{product_id}",
    "admin_product_create": "create the product {name}",
    "admin_sale_create": "create the sale {name}",
    "admin_sale_run_automation": "run the sale automation",
    "admin_cart_clear_user": "empty the cart of user #{user_id}",
    "admin_review_delete": "delete review #{review_id}",
    "admin_order_update_status": "set order #{order_id} to {status}",
    "order_cancel_mine": "cancel order #{order_id}",
}


def _variant_stock(a: dict) -> str | None:
    """One size's stock (admin_products.update_product sets only that size, in the colour given)."""
    if a.get("stock_quantity") is None or not a.get("size") or a.get("available_sizes") or a.get("available_colors"):
        return None
    variant = " / ".join(str(a[k]) for k in ("color", "size") if a.get(k))
    return f"set the {variant} stock of product #{a['product_id']} to {a['stock_quantity']}"


def _product_update_summary(a: dict) -> str:
    stock = _variant_stock(a)
    rest = {k: v for k, v in a.items() if k not in ("product_id", "stock_quantity", "size", "color")}
    if stock:
        others = " (its other sizes and colours keep their stock)"
        extra = "; " + ", ".join(f"{k} → {v}" for k, v in rest.items()) if rest else ""
        return stock[0].upper() + stock[1:] + others + extra + "."
    return (
        f"Update product #{a['product_id']}: "
        + ", ".join(f"{k} → {v}" for k, v in a.items() if k != "product_id")
        + "."
    )


def _product_update_action(a: dict) -> str:
    stock = _variant_stock(a)
    if stock:
        return stock
    changes = ", ".join(f"{k.replace('_', ' ')} → {v}" for k, v in a.items() if k != "product_id")
    return f"update product #{a['product_id']} ({changes})" if changes else f"update product #{a['product_id']}"


def pending_action(entry: dict) -> str:
    if (entry.get("name") or entry.get("tool")) == "admin_product_update" and (entry.get("arguments") or {}).get(
        "product_id"
    ):
        return _product_update_action(entry["arguments"])
    template = PENDING_ACTIONS.get(entry.get("name") or entry.get("tool") or "")
    try:
        return template.format(**(entry.get("arguments") or {})) if template else "do that"
    except (KeyError, IndexError, ValueError):
        return "do that"


# The admin tools' words (admin_replies.py): sentences after results, summaries of proposed changes.
from .admin_replies import ACTOR_SUMMARIES as _ADMIN_SUMMARIES  # noqa: E402
from .admin_replies import PENDING_ACTIONS as _ADMIN_PENDING  # noqa: E402
from .admin_replies import SENTENCES as _ADMIN_SENTENCES  # noqa: E402

SIMPLE.update(_ADMIN_SENTENCES)
ACTOR_SUMMARIES.update(_ADMIN_SUMMARIES)
PENDING_ACTIONS.update(_ADMIN_PENDING)


def summarise(name: str, arguments: dict, actor: Actor) -> str:
    """Exactly what a consequential call will do, for the confirmation card."""
    if name in ACTOR_SUMMARIES:
        return ACTOR_SUMMARIES[name](arguments, actor)
    return SUMMARIES.get(name, lambda a: f"Run {name}.")(arguments)
