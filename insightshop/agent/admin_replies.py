"""The assistant's words for the admin tools of insight_shop_admin_tools.json: the sentence after each result (the
figure asked for, never a canned dashboard text), and what a proposed change will do — every product or variant
listed with its figure before → after. replies.py merges these tables into its own."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

DEPARTMENTS = {"men": "men's", "women": "women's", "kids": "kids'"}
PERIODS = {"today": "Today", "week": "In the last 7 days", "month": "In the last 30 days",
           "year": "In the last 12 months", "all": "Since the shop opened"}  # fmt: skip
BEFORE = {"today": "the day before", "week": "the 7 days before", "month": "the 30 days before",
          "year": "the 12 months before"}  # fmt: skip
GROUP_WORDS = {"department": "department", "clothing_type": "clothing type"}
SORT_WORDS = {"price_desc": "priciest first", "price_asc": "cheapest first", "stock_asc": "least stock first",
              "stock_desc": "most stock first", "newest": "newest first", "oldest": "oldest first", "name": "by name"}  # fmt: skip
SHOWN = 8


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _product(p: dict) -> str:
    """ "Fleece Hoodie (men's, #27)" """
    return f"{p['name']} ({DEPARTMENTS.get(p.get('category'), p.get('category') or '')}, #{p.get('id') or p.get('product_id')})"


def stock_read_sentence(data: dict) -> str:
    products = data.get("products") or []
    said = " / ".join(x for x in (data.get("color"), data.get("size")) if x)
    if not products:
        return f"No product has a {said} variant, so there is no stock to read." if said else "No product matches that."
    if len(products) == 1 and len(products[0]["variants"]) == 1:
        v = products[0]["variants"][0]
        return f"{_product(products[0])}, {v['color']} / {v['size']}: {v['stock']} in stock."
    parts = []
    for p in products[:SHOWN]:
        variants = ", ".join(f"{v['color']} / {v['size']} {v['stock']}" for v in p["variants"][:12])
        parts.append(f"{_product(p)}: {p['stock']} ({variants})")
    more = f" and {len(products) - SHOWN} more products" if len(products) > SHOWN else ""
    scope = f" in {said}" if said else ""
    return f"Stock{scope}: " + "; ".join(parts) + f"{more} — {data['total_stock']} in all."


def stock_change_sentence(data: dict) -> str:
    rows = ", ".join(f"{v['color']} / {v['size']} {v['before']} → {v['stock']}" for v in data["variants"][:12])
    more = f" and {len(data['variants']) - 12} more" if len(data["variants"]) > 12 else ""
    return f"Stock of {_product(data['product'])} is now: {rows}{more}."


def stock_report_sentence(data: dict) -> str:
    scope = " ".join(x for x in (DEPARTMENTS.get(data.get("category") or ""), data.get("clothing_type")) if x)
    state = "out of stock" if data["threshold"] == 0 else f"at {data['threshold']} or fewer in stock"
    what = f"{scope} variants" if scope else "variants"
    if not data["total"]:
        return f"No {what} are {state}." if scope else f"Nothing is {state}."
    listed = "; ".join(f"{v['name']} ({DEPARTMENTS.get(v.get('category'), '')}, #{v['product_id']}) {v['color']} / "
                       f"{v['size']}: {v['stock']}" for v in data["variants"][:12])  # fmt: skip
    more = f" and {data['total'] - 12} more" if data["total"] > 12 else ""
    return f"{_plural(data['total'], scope + ' variant' if scope else 'variant')} {'is' if data['total'] == 1 else 'are'} {state}: {listed}{more}."


def rule_words(rule: dict) -> str:
    """ "10% off", "up 5%", "+$5.00", "to $49.00" """
    if rule.get("set_to") is not None:
        return f"to ${Decimal(str(rule['set_to'])):.2f}"
    if rule.get("percent") is not None:
        percent = Decimal(str(rule["percent"]))
        return f"{-percent:g}% off" if percent < 0 else f"up {percent:g}%"
    amount = Decimal(str(rule.get("amount") or 0))
    return f"-${-amount:.2f}" if amount < 0 else f"+${amount:.2f}"


def price_change_sentence(data: dict) -> str:
    listed = "; ".join(f"{_product(c)} ${c['old_price']} → ${c['new_price']}" for c in data["changes"])
    rounding = f" ({data['rounding']})" if data.get("percent") is not None else ""
    return f"New prices, {rule_words(data)}{rounding}: {listed}."


def _money_change(now: str, before: str) -> str:
    difference = Decimal(now) - Decimal(before)
    if not difference:
        return "the same"
    word = "up" if difference > 0 else "down"
    percent = f" ({abs(difference) / Decimal(before) * 100:.1f}%)" if Decimal(before) else ""
    return f"{word} ${abs(difference):.2f}{percent}"


def _group_name(key: str, group_by: str) -> str:
    if group_by == "department":
        return {"men": "Men's", "women": "Women's", "kids": "Kids'"}.get(key, key.capitalize())
    return key.capitalize()


def sales_report_sentence(data: dict) -> str:
    period = (
        _month_of(data.get("from")) if data["period"] == "last_month" else PERIODS.get(data["period"], data["period"])
    )
    text = (f"{period}: revenue ${data['revenue']} from {_plural(data['orders'], 'paid order')}, "
            f"average ${data['average_order_value']}.")  # fmt: skip
    previous = data.get("previous")
    if previous:
        before = (
            _month_of(previous.get("from"))
            if data["period"] == "last_month"
            else BEFORE.get(data["period"], "the period before")
        )
        text += (f" {before[:1].upper()}{before[1:]}: ${previous['revenue']} from "
                 f"{_plural(previous['orders'], 'paid order')} — revenue {_money_change(data['revenue'], previous['revenue'])}.")  # fmt: skip
    if data.get("group_by"):
        text += " " + _groups_sentence(data)
    return text


def _month_of(first_day: str | None) -> str:
    """ "In October 2026" for a calendar month's first day (ISO)."""
    return f"In {date.fromisoformat(first_day):%B %Y}" if first_day else "Last month"


def _groups_sentence(data: dict) -> str:
    group_by = data["group_by"]
    words = GROUP_WORDS[group_by]
    if not data["groups"]:
        return f"No item sales to break down by {words}."
    before = {g["key"]: g["revenue"] for g in (data.get("previous") or {}).get("groups", [])}
    parts = []
    for g in data["groups"]:
        part = f"{_group_name(g['key'], group_by)} ${g['revenue']} ({_plural(g['units'], 'item')})"
        if data.get("previous"):
            part += (
                f", {_money_change(g['revenue'], before.get(g['key'], '0.00'))}" if before.get(g["key"]) else ", new"
            )
        parts.append(part)
    return f"By {words} (item sales, before shipping and tax): " + "; ".join(parts) + "."


def products_find_sentence(data: dict) -> str:
    products = data.get("products") or []
    if not products:
        return "No product matches that."
    listed = "; ".join(f"{_product(p)} ${p['price']}, stock {p['stock']}{'' if p.get('is_active', True) else ', hidden'}"
                       for p in products[:SHOWN])  # fmt: skip
    more = f" and {data['total'] - SHOWN} more" if data["total"] > SHOWN else ""
    if data["total"] == 1:
        return f"One product fits: {listed}."
    return f"{data['total']} products ({SORT_WORDS.get(data.get('sort'), '')}): {listed}{more}."


def product_now_sentence(data: dict) -> str:
    """After an approved product update: the figures it has now (its list price and stock per variant)."""
    product = data["product"]
    variants = [v for v in product.get("variants") or [] if isinstance(v, dict)]
    stock = ", ".join(f"{v.get('color')} / {v.get('size')} {v.get('stock')}" for v in variants[:12])
    more = f" and {len(variants) - 12} more" if len(variants) > 12 else ""
    price = product.get("list_price") or product.get("price")
    hidden = "" if product.get("is_active", True) else " It is hidden from the shop."
    return f"Updated {_product(product)}: price ${price}; stock {stock}{more}.{hidden}"


SENTENCES = {
    "admin_product_update": product_now_sentence,
    "admin_stock_read": stock_read_sentence,
    "admin_stock_change": stock_change_sentence,
    "admin_stock_report": stock_report_sentence,
    "admin_price_change": price_change_sentence,
    "admin_sales_report": sales_report_sentence,
    "admin_products_find": products_find_sentence,
}


# Confirmations: what will change, every line with its figure now and after -------------------------------------


def stock_change_summary(arguments: dict, _actor) -> str:
    from ..services import admin_stock
    from ..services.errors import DomainError

    rule = (f"Set the stock to {arguments['set_to']}" if arguments.get("set_to") is not None
            else f"{'Add' if arguments.get('change', 0) > 0 else 'Remove'} {abs(arguments.get('change') or 0)} units")  # fmt: skip
    try:
        plan = admin_stock.plan_stock_change(arguments["product_id"], change=arguments.get("change"),
                                             set_to=arguments.get("set_to"), color=arguments.get("color"),
                                             size=arguments.get("size"))  # fmt: skip
    except DomainError:
        return f"{rule} of product #{arguments['product_id']}."
    head = {"name": plan.product.name, "category": plan.product.category, "id": plan.product.id}
    rows = "; ".join(f"{r.variant.color} / {r.variant.size} {r.before} → {r.after}" for r in plan.rows)
    each = " each" if len(plan.rows) > 1 and arguments.get("change") is not None else ""
    return f"{rule}{each} of {_product(head)}: {rows}."


def price_change_summary(arguments: dict, _actor) -> str:
    from ..services import admin_prices
    from ..services.errors import DomainError

    rule = rule_words(arguments)
    rounding = f", {admin_prices.ROUNDING_RULE}" if arguments.get("percent") is not None else ""
    try:
        changes = admin_prices.plan_price_change(arguments["product_ids"], percent=arguments.get("percent"),
                                                 amount=arguments.get("amount"), set_to=arguments.get("set_to"))  # fmt: skip
    except DomainError:
        return f"Change the price of {_plural(len(arguments['product_ids']), 'product')} {rule}{rounding}."
    listed = "; ".join(f"{c.product.name} (#{c.product.id}) ${c.old:.2f} → ${c.new:.2f}" for c in changes)
    return f"Change {_plural(len(changes), 'price')} ({rule}{rounding}): {listed}."


def sale_summary(arguments: dict, _actor) -> str:
    """The sale's discount, window and scope: departments, clothing types or the products by name."""
    scope = []
    if arguments.get("categories"):
        scope.append(", ".join(DEPARTMENTS.get(c, c) for c in arguments["categories"]))
    if arguments.get("clothing_types"):
        scope.append(", ".join(arguments["clothing_types"]))
    if arguments.get("product_ids"):
        scope.append(_product_names(arguments["product_ids"]))
    on = " ".join(scope) if scope else "everything"
    return (f"Create the sale {arguments['name']}: {arguments['discount_percentage']}% off {on}, from "
            f"{arguments['start_date']} to {arguments['end_date']}.")  # fmt: skip


def _product_names(ids: list[int]) -> str:
    from ..extensions import db
    from ..models.catalog import Product

    names = []
    for product_id in ids[:20]:
        product = db.session.get(Product, product_id)
        names.append(f"{product.name} (#{product_id})" if product else f"product #{product_id}")
    more = f" and {len(ids) - 20} more" if len(ids) > 20 else ""
    return ", ".join(names) + more


ACTOR_SUMMARIES = {
    "admin_stock_change": stock_change_summary,
    "admin_price_change": price_change_summary,
    "admin_sale_create": sale_summary,
}

PENDING_ACTIONS = {
    "admin_stock_change": "change the stock of product #{product_id}",
    "admin_price_change": "change the prices listed",
}
