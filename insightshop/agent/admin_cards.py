"""Cards of the admin tools: tables of figures (stock per variant, old → new prices, revenue by group), never a
shopper's product card with cart buttons. cards.py merges ADMIN_CARDS into its BY_TOOL."""

from __future__ import annotations

DEPARTMENTS = {"men": "Men's", "women": "Women's", "kids": "Kids'"}


def _head(product: dict) -> dict:
    return {"id": product.get("id") or product.get("product_id"), "name": product.get("name"),
            "department": DEPARTMENTS.get(product.get("category"), "")}  # fmt: skip


def stock_card(data: dict) -> dict:
    """Stock per variant of each product read (admin_stock_read)."""
    products = [_head(p) | {"rows": [{"variant": f"{v['color']} / {v['size']}", "stock": v["stock"]}
                                     for v in p.get("variants") or []], "stock": p.get("stock")}
                for p in data.get("products") or []]  # fmt: skip
    return {"type": "admin_stock", "title": "Stock by variant", "products": products, "total": data.get("total_stock")}


def stock_change_card(data: dict) -> dict:
    """The new stock after a change, each variant with what it had before."""
    product = _head(data.get("product") or {})
    rows = [{"variant": f"{v['color']} / {v['size']}", "before": v.get("before"), "stock": v["stock"]}
            for v in data.get("variants") or []]  # fmt: skip
    return {"type": "admin_stock", "title": "New stock", "products": [product | {"rows": rows}]}


def stock_report_card(data: dict) -> dict:
    rows = [{"name": v["name"], "id": v["product_id"], "department": DEPARTMENTS.get(v.get("category"), ""),
             "variant": f"{v['color']} / {v['size']}", "stock": v["stock"]} for v in data.get("variants") or []]  # fmt: skip
    title = "Out of stock" if data.get("threshold") == 0 else f"At {data.get('threshold')} or fewer in stock"
    return {"type": "admin_stock_list", "title": title, "rows": rows, "total": data.get("total", len(rows))}


def price_card(data: dict) -> dict:
    rows = [_head(c) | {"old": c["old_price"], "new": c["new_price"]} for c in data.get("changes") or []]
    return {"type": "admin_prices", "title": "New prices", "rows": rows, "note": data.get("rounding")}


def figures_card(data: dict) -> dict:
    rows = [{"label": "Revenue", "value": f"${data['revenue']}"}, {"label": "Paid orders", "value": data["orders"]},
            {"label": "Average order", "value": f"${data['average_order_value']}"}]  # fmt: skip
    previous = data.get("previous")
    if previous:
        for row, key in zip(rows, ("revenue", "orders", "average_order_value"), strict=True):
            row["before"] = f"${previous[key]}" if key != "orders" else previous[key]
    groups = [{"label": DEPARTMENTS.get(g["key"], g["key"].capitalize()), "value": f"${g['revenue']}",
               "units": g["units"]} for g in data.get("groups") or []]  # fmt: skip
    return {"type": "admin_figures", "period": data.get("period"), "from": data.get("from"), "to": data.get("to"),
            "rows": rows, "compared": bool(previous), "groups": groups}  # fmt: skip


def products_card(data: dict) -> dict:
    rows = [_head(p) | {"price": p["price"], "stock": p["stock"], "active": p.get("is_active", True)}
            for p in data.get("products") or []]  # fmt: skip
    return {"type": "admin_products", "rows": rows, "total": data.get("total", len(rows))}


def product_card(data: dict) -> dict:
    """A product after an admin's create, update or hide: its price, state and stock per variant."""
    product = data.get("product") or {}
    rows = [{"variant": f"{v.get('color')} / {v.get('size')}", "stock": v.get("stock")}
            for v in product.get("variants") or [] if isinstance(v, dict)]  # fmt: skip
    return {"type": "admin_stock", "title": "Product now", "products": [_head(product) | {
        "price": product.get("list_price") or product.get("price"), "active": product.get("is_active", True),
        "rows": rows}]}  # fmt: skip


ADMIN_CARDS = {
    "admin_stock_read": stock_card,
    "admin_stock_change": stock_change_card,
    "admin_stock_report": stock_report_card,
    "admin_price_change": price_card,
    "admin_sales_report": figures_card,
    "admin_products_find": products_card,
    "admin_product_update": product_card,
    "admin_product_create": product_card,
    "admin_product_delete": product_card,
}
