"""Admin: users, carts, reviews and the audit log."""

from __future__ import annotations

from flask import render_template, request, url_for

from ...services import admin_shop, admin_users, audit
from ...services.errors import DomainError
from ...web.account_mail import send_password_reset
from ...web.auth import current_actor
from ...web.rendering import render_page
from . import admin
from .helpers import back, csrf_ok, whole_number


@admin.get("/users")
def list_users():
    users = admin_users.list_users(request.args.get("search", ""))
    return render_page("admin/users.html", ["user_table"], users=users, args=request.args)


@admin.post("/users/<int:user_id>/role")
def set_role(user_id: int):
    if csrf_ok():
        role = request.form.get("role", "customer")
        try:
            admin_users.set_role(
                current_actor(), user_id, admin=role in ("admin", "superadmin"), superadmin=role == "superadmin"
            )
        except DomainError as problem:
            return back(url_for("admin.list_users"), problem)
    return back(url_for("admin.list_users"), message="Role updated.")


@admin.post("/users/<int:user_id>/disabled")
def set_disabled(user_id: int):
    if csrf_ok():
        try:
            admin_users.set_disabled(current_actor(), user_id, request.form.get("disabled") == "1")
        except DomainError as problem:
            return back(url_for("admin.list_users"), problem)
    return back(url_for("admin.list_users"), message="Account updated.")


@admin.post("/users/<int:user_id>/password-reset")
def send_reset(user_id: int):
    if csrf_ok():
        try:
            user = admin_users.user_for_reset(current_actor(), user_id)
        except DomainError as problem:
            return back(url_for("admin.list_users"), problem)
        send_password_reset(user)
        admin_users.record_reset_sent(current_actor(), user)
        return back(url_for("admin.list_users"), message=f"Sent a reset link to {user.email}.")
    return back(url_for("admin.list_users"))


@admin.get("/carts")
def list_carts():
    return render_template("admin/carts.html", carts=admin_shop.active_carts())


@admin.post("/carts/user/<int:user_id>/clear")
def clear_cart(user_id: int):
    if csrf_ok():
        try:
            removed = admin_shop.clear_user_cart(current_actor(), user_id)
        except DomainError as problem:
            return back(url_for("admin.list_carts"), problem)
        return back(url_for("admin.list_carts"), message=f"Removed {removed} line(s).")
    return back(url_for("admin.list_carts"))


@admin.get("/reviews")
def list_reviews():
    rating = request.args.get("rating", "")
    product_id = request.args.get("product_id", "")
    found = admin_shop.list_reviews(rating=int(rating) if rating in {"1", "2", "3", "4", "5"} else None,
                                    product_id=whole_number(product_id),
                                    text=request.args.get("text") or None)  # fmt: skip
    return render_page("admin/reviews.html", ["review_table"], reviews=found, args=request.args)


@admin.post("/reviews/<int:review_id>/delete")
def delete_review(review_id: int):
    if csrf_ok():
        try:
            admin_shop.delete_review(current_actor(), review_id)
        except DomainError as problem:
            return back(url_for("admin.list_reviews"), problem)
    return back(request.referrer or url_for("admin.list_reviews"), message="Review deleted.")


@admin.get("/audit")
def show_audit():
    found = audit.page_of_entries(action=request.args.get("action") or None, actor_label=request.args.get("actor") or None,
                                  since=_day(request.args.get("since")), until=_day(request.args.get("until")),
                                  page=whole_number(request.args.get("page"), 1, low=1))  # fmt: skip
    rows = [(entry, audit.changes(entry)) for entry in found.entries]
    return render_template("admin/audit.html", found=found, rows=rows, actions=audit.actions(), args=request.args,
                           page_url=lambda page: url_for("admin.show_audit", **{**request.args, "page": page}))  # fmt: skip


def _day(raw: str | None):
    from datetime import date

    try:
        return date.fromisoformat(raw) if raw else None
    except ValueError:
        return None


@admin.route("/assistant", methods=["GET", "POST"])
def assistant_settings():
    from flask import current_app

    from ...agent.engines import engine_status, test_connection

    result = None
    if request.method == "POST" and csrf_ok():
        result = test_connection(current_app.config)
    turns = audit.list_entries(action=None, limit=300)
    tool_turns = [e for e in turns if e.action.startswith("tool.")][:50]
    return render_template(
        "admin/assistant.html", status=engine_status(current_app.config), result=result, turns=tool_turns
    )
