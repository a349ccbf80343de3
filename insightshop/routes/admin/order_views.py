"""Admin: orders (filtered list, detail, status changes), payments and returns."""

from __future__ import annotations

from flask import render_template, request, url_for

from ...models.orders import ORDER_STATUSES
from ...services import admin_orders
from ...services.errors import DomainError
from ...web.auth import current_actor
from ...web.rendering import render_page
from . import admin
from .helpers import back, csrf_ok, whole_number


@admin.get("/orders")
def list_orders():
    status = request.args.get("status") if request.args.get("status") in ORDER_STATUSES else None
    page_number = request.args.get("page", "1")
    page = admin_orders.list_orders(status=status, search=request.args.get("search") or None,
                                    page=whole_number(page_number, 1, low=1))  # fmt: skip
    return render_page("admin/orders.html", ["order_table"], page=page, statuses=ORDER_STATUSES, args=request.args)


@admin.get("/orders/<int:order_id>")
def show_order(order_id: int):
    order = admin_orders.get_order(order_id)
    payments = admin_orders.list_payments(order_id=order.id)
    return render_template("admin/order.html", order=order, payments=payments, statuses=ORDER_STATUSES)


@admin.post("/orders/<int:order_id>/status")
def change_status(order_id: int):
    target = url_for("admin.show_order", order_id=order_id)
    if not csrf_ok():
        return back(target)
    try:
        order = admin_orders.change_status(current_actor(), order_id, request.form.get("status", ""),
                                           carrier=request.form.get("carrier"), tracking_number=request.form.get("tracking_number"),
                                           note=request.form.get("note", "").strip()[:500])  # fmt: skip
    except DomainError as problem:
        return back(target, problem)
    return back(target, message=f"Order #{order.id} is now {order.status}.")


@admin.get("/payments")
def list_payments():
    order_id = request.args.get("order_id", "")
    logs = admin_orders.list_payments(status=request.args.get("status") or None, provider=request.args.get("provider") or None,
                                      order_id=whole_number(order_id))  # fmt: skip
    return render_page("admin/payments.html", ["payment_table"], logs=logs, args=request.args)


@admin.get("/returns")
def list_returns():
    return render_template("admin/returns.html", returns=admin_orders.list_returns(request.args.get("status") or None))


@admin.post("/returns/<int:return_id>")
def decide_return(return_id: int):
    if not csrf_ok():
        return back(url_for("admin.list_returns"))
    try:
        request_ = admin_orders.decide_return(current_actor(), return_id, request.form.get("approve") == "1",
                                              request.form.get("note", "").strip()[:1000])  # fmt: skip
    except DomainError as problem:
        return back(url_for("admin.list_returns"), problem)
    return back(url_for("admin.list_returns"), message=f"Return #{request_.id} {request_.status}.")
