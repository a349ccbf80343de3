"""Admin: dashboard, products (list, form, inline stock) and sales."""

from __future__ import annotations

from flask import render_template, request, url_for

from ...services import admin_products, admin_shop, dashboard
from ...services.errors import DomainError, Invalid
from ...services.vocabulary import CATEGORIES, CLOTHING_TYPES, COLORS, FABRICS, SEASONS, SIZES
from ...web import charts
from ...web.auth import current_actor
from ...web.rendering import render_page
from . import admin
from .helpers import PRODUCT_FIELD_HINTS, back, csrf_ok, field_problems, form_dict, whole_number

PRODUCT_FIELDS = (
    "name",
    "description",
    "price",
    "category",
    "clothing_type",
    "fabric",
    "season",
    "color",
    "stock_quantity",
)
VOCABULARY = {"categories": CATEGORIES, "types": CLOTHING_TYPES, "colors": COLORS, "sizes": SIZES, "fabrics": FABRICS,
              "seasons": SEASONS}  # fmt: skip


@admin.get("")
def show_dashboard():
    days = 90 if request.args.get("days") == "90" else 30
    revenue = dashboard.revenue_by_day(days)
    statuses = dashboard.orders_by_status()
    return render_template(
        "admin/dashboard.html",
        days=days,
        revenue=revenue,
        days_with_orders=[d for d in reversed(revenue) if d.orders],  # newest first
        revenue_total=sum(d.revenue for d in revenue),
        order_count=sum(d.orders for d in revenue),
        revenue_chart=charts.bar_chart(
            [(d.day.strftime("%d %b"), d.revenue) for d in revenue],
            label_every=5 if days == 30 else 15,
            title=f"Revenue per day, last {days} days",
        ),  # fmt: skip
        status_chart=charts.horizontal_bars(
            [(s.capitalize(), n) for s, n in statuses.items()], title="Orders by status"
        ),
        statuses=statuses,
        top=dashboard.top_products(),
        uplift=dashboard.sale_uplift(),
        low_stock=admin_shop.low_stock_variants(),
    )


@admin.get("/products")
def list_products():
    page_number = request.args.get("page", "1")
    page = admin_products.list_products(search=request.args.get("search", ""), category=request.args.get("category") or None,
                                        status=request.args.get("status", "all"), low_stock="low_stock" in request.args,
                                        page=whole_number(page_number, 1, low=1))  # fmt: skip
    return render_page("admin/products.html", ["product_table"], page=page, args=request.args, **VOCABULARY)


@admin.route("/products/new", methods=["GET", "POST"])
def new_product():
    error = None
    if request.method == "POST" and csrf_ok():
        try:
            product = admin_products.create_product(current_actor(), _product_form())
        except DomainError as problem:
            error = problem
        else:
            return back(url_for("admin.edit_product", product_id=product.id), message=f"Created {product.name}.")
    status = 422 if request.method == "POST" else 200
    return render_template("admin/product_form.html", product=None, error=error, values=request.form,
                           field_errors=field_problems(error, PRODUCT_FIELD_HINTS), **VOCABULARY), status  # fmt: skip


@admin.route("/products/<int:product_id>", methods=["GET", "POST"])
def edit_product(product_id: int):
    product = admin_products.get_any_product(product_id)
    error = None
    if request.method == "POST" and csrf_ok():
        try:
            admin_products.update_product(current_actor(), product_id, _product_form())
        except DomainError as problem:
            error = problem
        else:
            return back(url_for("admin.edit_product", product_id=product_id), message="Saved.")
    status = 422 if error else 200
    return render_template("admin/product_form.html", product=product, error=error, values=request.form,
                           field_errors=field_problems(error, PRODUCT_FIELD_HINTS), **VOCABULARY), status  # fmt: skip


@admin.post("/products/<int:product_id>/active")
def toggle_product(product_id: int):
    if csrf_ok():
        product = admin_products.set_active(current_actor(), product_id, request.form.get("active") == "1")
        return back(request.referrer or url_for("admin.list_products"),
                    message=f"{product.name} is {'back in the shop' if product.is_active else 'hidden from the shop'}.")  # fmt: skip
    return back(url_for("admin.list_products"))


@admin.post("/products/<int:product_id>/variants/<int:variant_id>")
def update_stock(product_id: int, variant_id: int):
    error, value = None, request.form.get("stock", "")
    if csrf_ok():
        try:
            variant = admin_products.set_variant_stock(current_actor(), product_id, variant_id, whole_number(value, -1))
        except DomainError as problem:
            error = problem.message
    product = admin_products.get_any_product(product_id)
    variant = next(v for v in product.variants if v.id == variant_id)
    return render_page("admin/product_form.html", ["variant_row"], status=422 if error else 200, product=product,
                       variant=variant, row_error=error, saved=error is None, error=None, values={}, **VOCABULARY)  # fmt: skip


@admin.route("/sales", methods=["GET", "POST"])
def list_sales():
    error = None
    if request.method == "POST" and csrf_ok():
        data = form_dict("name", "description", "discount_percentage", "start_date", "end_date", numbers=("discount_percentage",),
                         lists=("categories", "clothing_types"), flags=("is_active", "auto_activate"))  # fmt: skip
        try:
            missing = [k for k in ("name", "discount_percentage", "start_date", "end_date") if k not in data]
            if missing:
                raise Invalid(f"{missing[0].replace('_', ' ').capitalize()} is required")
            admin_shop.create_sale(current_actor(), data)
        except (DomainError, ValueError) as problem:
            error = getattr(problem, "message", "Dates must look like 2026-11-27")
        else:
            return back(url_for("admin.list_sales"), message="Sale created.")
    return render_template("admin/sales.html", sales=admin_shop.list_sales(), error=error, values=request.form,
                           **VOCABULARY), 422 if error else 200  # fmt: skip


@admin.get("/sales/<int:sale_id>")
def preview_sale(sale_id: int):
    sale = admin_shop.get_sale(sale_id)
    count, rows = admin_shop.preview_sale(sale)
    return render_template("admin/sale_preview.html", sale=sale, count=count, rows=rows)


@admin.post("/sales/<int:sale_id>/active")
def toggle_sale(sale_id: int):
    if csrf_ok():
        try:
            admin_shop.set_sale_active(current_actor(), sale_id, request.form.get("active") == "1")
        except DomainError as problem:
            return back(url_for("admin.list_sales"), problem)
    return back(url_for("admin.list_sales"), message="Sale updated.")


@admin.post("/sales/<int:sale_id>/delete")
def delete_sale(sale_id: int):
    if csrf_ok():
        admin_shop.delete_sale(current_actor(), sale_id)
    return back(url_for("admin.list_sales"), message="Sale deleted.")


@admin.post("/sales/run-automation")
def run_automation():
    if not csrf_ok():
        return back(url_for("admin.list_sales"))
    report = admin_shop.run_automation(current_actor())
    changes = len(report.created) + len(report.activated) + len(report.deactivated)
    return back(
        url_for("admin.list_sales"),
        message=f"Automation ran: {changes} change(s)." if changes else "Automation ran: nothing to change.",
    )


def _product_form() -> dict:
    data = form_dict(*PRODUCT_FIELDS, numbers=("stock_quantity",), lists=("available_colors", "available_sizes"),
                     flags=("is_active",))  # fmt: skip
    if not data["available_colors"]:
        data.pop("available_colors")
    if not data["available_sizes"]:
        data.pop("available_sizes")
    return data
