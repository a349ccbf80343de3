"""Handlers of the admin tools of insight_shop_admin_tools.json: each calls one service and shapes its result
(money as strings with two decimals). utils.agent_executor runs them behind the guard (HANDLERS, PRECONDITIONS)."""

from __future__ import annotations

from ..services import admin_find, admin_prices, admin_stock, sales_report


def _variant(variant, **extra) -> dict:
    return {"color": variant.color, "size": variant.size, "sku": variant.sku, "stock": variant.stock, **extra}


def _product_head(product) -> dict:
    return {"id": product.id, "name": product.name, "category": product.category,
            "clothing_type": product.clothing_type, "price": f"{product.price:.2f}", "is_active": product.is_active}  # fmt: skip


def admin_stock_read(_actor, args, _token):
    products = admin_stock.find_products(product_ids=args.get("product_ids"), clothing_type=args.get("clothing_type"),
                                         category=args.get("category"), name=args.get("name"),
                                         color=args.get("color"))  # fmt: skip
    shown = []
    for product in products:
        variants = admin_stock.variants_of(product, args.get("color"), args.get("size"))
        if variants:
            shown.append(_product_head(product) | {"variants": [_variant(v) for v in variants],
                                                   "stock": sum(v.stock for v in variants)})  # fmt: skip
    return {"products": shown, "color": args.get("color"), "size": args.get("size"),
            "total_stock": sum(p["stock"] for p in shown)}  # fmt: skip


def _stock_arguments(args: dict) -> dict:
    return {key: args.get(key) for key in ("change", "set_to", "color", "size")}


def admin_stock_change(actor, args, _token):
    done = admin_stock.change_stock(actor, args["product_id"], **_stock_arguments(args))
    return {"product": _product_head(done.product) | {"stock": done.product.stock_quantity},
            "change": args.get("change"), "set_to": args.get("set_to"),
            "variants": [_variant(r.variant, before=r.before, stock=r.after) for r in done.rows]}  # fmt: skip


def admin_stock_report(_actor, args, _token):
    threshold = args.get("threshold", 0)
    total, variants = admin_stock.stock_report(threshold=threshold, category=args.get("category"),
                                               clothing_type=args.get("clothing_type"), limit=args.get("limit", 50))  # fmt: skip
    return {"threshold": threshold, "category": args.get("category"), "clothing_type": args.get("clothing_type"),
            "total": total, "variants": [_variant(v, product_id=v.product_id, name=v.product.name,
                                                  category=v.product.category) for v in variants]}  # fmt: skip


def _price_rule(args: dict) -> dict:
    return {key: args.get(key) for key in ("percent", "amount", "set_to")}


def admin_price_change(actor, args, _token):
    changes = admin_prices.change_prices(actor, args["product_ids"], **_price_rule(args))
    return {"rounding": admin_prices.ROUNDING_RULE, **_price_rule(args),
            "changes": [{"product_id": c.product.id, "name": c.product.name, "category": c.product.category,
                         "old_price": f"{c.old:.2f}", "new_price": f"{c.new:.2f}"} for c in changes]}  # fmt: skip


def _window(window) -> dict:
    return {"from": window.start.isoformat() if window.start else None, "to": window.end.isoformat(),
            "revenue": f"{window.revenue:.2f}", "orders": window.orders,
            "average_order_value": f"{window.average_order_value:.2f}"}  # fmt: skip


def _groups(groups) -> list[dict]:
    return [{"key": g.key, "revenue": f"{g.revenue:.2f}", "units": g.units, "orders": g.orders} for g in groups]


def admin_sales_report(_actor, args, _token):
    report = sales_report.sales_report(args.get("period", "week"), compare=args.get("compare", False),
                                       group_by=args.get("group_by"))  # fmt: skip
    data = {"period": report.period, "currency": "USD", **_window(report.current), "group_by": report.group_by,
            "groups": _groups(report.groups)}  # fmt: skip
    if report.previous is not None:
        change = sales_report.change_percent(report.current.revenue, report.previous.revenue)
        data["previous"] = _window(report.previous) | {"groups": _groups(report.previous_groups)}
        data["revenue_change"] = f"{report.current.revenue - report.previous.revenue:.2f}"
        data["revenue_change_percent"] = None if change is None else f"{change}"
    return data


def admin_products_find(_actor, args, _token):
    total, found = admin_find.find_products(query=args.get("query"), category=args.get("category"),
                                            clothing_type=args.get("clothing_type"), color=args.get("color"),
                                            status=args.get("status", "active"), stock_at_most=args.get("stock_at_most"),
                                            sort=args.get("sort", "name"), limit=args.get("limit", 20))  # fmt: skip
    return {"total": total, "sort": args.get("sort", "name"),
            "products": [_product_head(p) | {"stock": stock, "colors": p.available_colors, "sizes": p.available_sizes}
                         for p, stock in found]}  # fmt: skip


ADMIN_HANDLERS = {
    "admin_stock_read": admin_stock_read,
    "admin_stock_change": admin_stock_change,
    "admin_stock_report": admin_stock_report,
    "admin_price_change": admin_price_change,
    "admin_sales_report": admin_sales_report,
    "admin_products_find": admin_products_find,
}

# Checked before a change is proposed (nothing written): a change that could not run is refused at once.
ADMIN_PRECONDITIONS = {
    "admin_stock_change": lambda _actor, a: admin_stock.plan_stock_change(a["product_id"], **_stock_arguments(a)),
    "admin_price_change": lambda _actor, a: admin_prices.plan_price_change(a["product_ids"], **_price_rule(a)),
}
