"""The admin JSON API under /api/admin: the same services as the panel and the admin tools."""

from __future__ import annotations

from flask import Blueprint, request

from ...extensions import csrf
from ...schemas.admin import (
    DISABLE_BODY,
    ORDER_STATUS_UPDATE_BODY,
    PRODUCT_CREATE_BODY,
    PRODUCT_UPDATE_BODY,
    RETURN_DECISION_BODY,
    ROLE_BODY,
    SALE_CREATE_BODY,
    SALE_UPDATE_BODY,
    VARIANT_UPDATE_BODY,
    admin_user_to_dict,
    payment_to_dict,
    sale_to_dict,
)  # fmt: skip
from ...schemas.orders import order_to_dict, return_to_dict
from ...schemas.products import pagination_to_dict, product_to_dict, variant_to_dict
from ...schemas.shop import review_to_dict
from ...schemas.validation import DB_INT_MAX, query_int, validate
from ...services import admin_orders, admin_products, admin_shop, admin_users, audit, dashboard
from ...web.account_mail import send_password_reset
from ...web.admin_access import require_admin
from ...web.auth import current_actor
from . import json_body, protect_cookie_sessions

admin_api = Blueprint("admin_api", __name__, url_prefix="/api/admin")
csrf.exempt(admin_api)
admin_api.before_request(protect_cookie_sessions)
admin_api.before_request(require_admin)


def _int_arg(name: str, default: int | None = None, *, low: int = 1, high: int = DB_INT_MAX) -> int | None:
    return query_int(request.args, name, default, low=low, high=high)


@admin_api.get("/products")
def list_products():
    page = admin_products.list_products(search=request.args.get("search", ""), category=request.args.get("category"),
                                        status=request.args.get("status", "all"), page=_int_arg("page", 1, high=10_000),
                                        per_page=_int_arg("per_page", 25, high=100))  # fmt: skip
    return {"products": [product_to_dict(p) for p in page.products], "pagination": pagination_to_dict(page)}


@admin_api.post("/products")
def create_product():
    body = validate(json_body(), PRODUCT_CREATE_BODY, what="product")
    return {"product": product_to_dict(admin_products.create_product(current_actor(), body))}, 201


@admin_api.put("/products/<int:product_id>")
def update_product(product_id: int):
    body = validate(json_body(), PRODUCT_UPDATE_BODY, what="product")
    return {"product": product_to_dict(admin_products.update_product(current_actor(), product_id, body))}


@admin_api.delete("/products/<int:product_id>")
def delete_product(product_id: int):
    return {"product": product_to_dict(admin_products.set_active(current_actor(), product_id, False))}


@admin_api.post("/products/<int:product_id>/restore")
def restore_product(product_id: int):
    return {"product": product_to_dict(admin_products.set_active(current_actor(), product_id, True))}


@admin_api.put("/products/<int:product_id>/variants/<int:variant_id>")
def update_variant(product_id: int, variant_id: int):
    body = validate(json_body(), VARIANT_UPDATE_BODY, what="variant")
    return {
        "variant": variant_to_dict(
            admin_products.set_variant_stock(current_actor(), product_id, variant_id, body["stock"])
        )
    }


@admin_api.get("/orders")
def list_orders():
    page = admin_orders.list_orders(page=_int_arg("page", 1, high=10_000), per_page=_int_arg("per_page", 20, high=100),
                                    status=request.args.get("status") or None, user_id=_int_arg("user_id"),
                                    search=request.args.get("search") or None)  # fmt: skip
    return {"orders": [order_to_dict(o, full=False) for o in page.orders], "pagination": pagination_to_dict(page)}


@admin_api.get("/orders/<int:order_id>")
def get_order(order_id: int):
    return {"order": order_to_dict(admin_orders.get_order(order_id))}


@admin_api.put("/orders/<int:order_id>/status")
def update_order_status(order_id: int):
    body = validate(json_body(), ORDER_STATUS_UPDATE_BODY, what="status change")
    order = admin_orders.change_status(current_actor(), order_id, body["status"], carrier=body.get("carrier"),
                                       tracking_number=body.get("tracking_number"), note=body.get("note", ""))  # fmt: skip
    return {"order": order_to_dict(order)}


@admin_api.get("/sales")
def list_sales():
    return {"sales": [sale_to_dict(s) for s in admin_shop.list_sales()]}


@admin_api.post("/sales")
def create_sale():
    body = validate(json_body(), SALE_CREATE_BODY, what="sale")
    return {"sale": sale_to_dict(admin_shop.create_sale(current_actor(), body))}, 201


@admin_api.put("/sales/<int:sale_id>")
def update_sale(sale_id: int):
    body = validate(json_body(), SALE_UPDATE_BODY, what="sale")
    return {"sale": sale_to_dict(admin_shop.update_sale(current_actor(), sale_id, body))}


@admin_api.delete("/sales/<int:sale_id>")
def delete_sale(sale_id: int):
    admin_shop.delete_sale(current_actor(), sale_id)
    return {"ok": True}


@admin_api.get("/sales/<int:sale_id>/preview")
def preview_sale(sale_id: int):
    sale = admin_shop.get_sale(sale_id)
    count, rows = admin_shop.preview_sale(sale)
    return {"sale": sale_to_dict(sale), "products_covered": count,
            "sample": [{"product_id": r.product.id, "name": r.product.name, "price": f"{r.price:.2f}",
                        "sale_price": f"{r.sale_price:.2f}"} for r in rows]}  # fmt: skip


@admin_api.post("/sales/run-automation")
def run_automation():
    report = admin_shop.run_automation(current_actor())
    return {"created": report.created, "activated": report.activated, "deactivated": report.deactivated}


@admin_api.get("/carts")
def list_carts():
    return {"carts": [{"owner": c.owner, "user_id": c.user_id, "guest_id": c.guest_id, "lines": c.lines, "units": c.units,
                       "value": f"{c.value:.2f}", "last_activity": c.last_activity.isoformat()} for c in admin_shop.active_carts()]}  # fmt: skip


@admin_api.delete("/carts/user/<int:user_id>")
def clear_user_cart(user_id: int):
    return {"removed": admin_shop.clear_user_cart(current_actor(), user_id)}


@admin_api.get("/reviews")
def list_reviews():
    found = admin_shop.list_reviews(rating=_int_arg("rating", high=5), product_id=_int_arg("product_id"),
                                    text=request.args.get("text") or None)  # fmt: skip
    return {"reviews": [review_to_dict(r) for r in found]}


@admin_api.delete("/reviews/<int:review_id>")
def delete_review(review_id: int):
    admin_shop.delete_review(current_actor(), review_id)
    return {"ok": True}


@admin_api.get("/users")
def list_users():
    return {"users": [admin_user_to_dict(u) for u in admin_users.list_users(request.args.get("search", ""))]}


@admin_api.put("/users/<int:user_id>/role")
def set_role(user_id: int):
    body = validate(json_body(), ROLE_BODY, what="role")
    user = admin_users.set_role(
        current_actor(), user_id, admin=body["is_admin"], superadmin=body.get("is_superadmin", False)
    )
    return {"user": admin_user_to_dict(user)}


@admin_api.put("/users/<int:user_id>/disabled")
def set_disabled(user_id: int):
    body = validate(json_body(), DISABLE_BODY, what="request")
    return {"user": admin_user_to_dict(admin_users.set_disabled(current_actor(), user_id, body["disabled"]))}


@admin_api.post("/users/<int:user_id>/password-reset")
def send_reset(user_id: int):
    user = admin_users.user_for_reset(current_actor(), user_id)
    send_password_reset(user)
    admin_users.record_reset_sent(current_actor(), user)
    return {"ok": True}, 202


@admin_api.get("/payments")
def list_payments():
    logs = admin_orders.list_payments(status=request.args.get("status") or None, provider=request.args.get("provider") or None,
                                      order_id=_int_arg("order_id"))  # fmt: skip
    return {"payments": [payment_to_dict(log) for log in logs]}


@admin_api.get("/returns")
def list_returns():
    return {"returns": [return_to_dict(r) for r in admin_orders.list_returns(request.args.get("status") or None)]}


@admin_api.post("/returns/<int:return_id>/decision")
def decide_return(return_id: int):
    body = validate(json_body(), RETURN_DECISION_BODY, what="decision")
    return {
        "return": return_to_dict(
            admin_orders.decide_return(current_actor(), return_id, body["approve"], body.get("note", ""))
        )
    }


@admin_api.get("/dashboard")
def show_dashboard():
    days = _int_arg("days", 30, low=7, high=365)
    return {
        "revenue_by_day": [{"day": d.day.isoformat(), "revenue": f"{d.revenue:.2f}", "orders": d.orders} for d in dashboard.revenue_by_day(days)],
        "orders_by_status": dashboard.orders_by_status(),
        "top_products": [{"name": n, "units": u, "revenue": f"{r:.2f}"} for n, u, r in dashboard.top_products()],
        "low_stock": [{"sku": v.sku, "product_id": v.product_id, "stock": v.stock} for v in admin_shop.low_stock_variants()],
    }  # fmt: skip


@admin_api.get("/audit")
def list_audit():
    entries = audit.list_entries(action=request.args.get("action") or None, limit=_int_arg("limit", 50, high=500))
    return {"entries": [{"id": e.id, "at": e.created_at.isoformat(), "actor": e.actor_label, "action": e.action,
                         "target_type": e.target_type, "target_id": e.target_id, "before": e.before, "after": e.after,
                         "outcome": e.outcome} for e in entries]}  # fmt: skip
