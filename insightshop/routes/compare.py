"""The compare tray (kept in the session) and the side-by-side comparison page."""

from __future__ import annotations

from flask import Blueprint, flash, make_response, redirect, request, url_for
from jinja2_fragments.flask import render_blocks

from ..forms.shop import EmptyForm
from ..services import compare
from ..services.errors import DomainError
from ..web import display
from ..web.compare_tray import compare_tray, save_tray
from ..web.rendering import is_fragment_request, render_page

compare_pages = Blueprint("compare", __name__, url_prefix="/compare")


@compare_pages.get("")
def show_comparison():
    ids = compare_tray()
    products, error = [], None
    if len(ids) >= compare.MIN_COMPARE:
        try:
            products = compare.compare_products(ids)
        except DomainError as problem:
            error = problem.message
    return render_page("compare/compare.html", [], table=display.comparison(products), error=error,
                       action_form=EmptyForm())  # fmt: skip


@compare_pages.post("/<int:product_id>")
def toggle(product_id: int):
    error = None
    if EmptyForm().validate_on_submit():
        try:
            save_tray(compare.toggle_in_tray(compare_tray(), product_id))
        except DomainError as problem:
            error = problem.message
    if not is_fragment_request():
        if error:
            flash(error, "error")
        return redirect(request.referrer if _same_site(request.referrer) else url_for("compare.show_comparison"), 303)
    body = render_blocks("compare/_toggle.html", ["compare_button", "compare_tray"], product_id=product_id,
                         compare_ids=compare_tray(), error=error, fragment=True)  # fmt: skip
    return make_response(body, 422 if error else 200)


@compare_pages.post("/clear")
def clear():
    if EmptyForm().validate_on_submit():
        save_tray([])
    if is_fragment_request():  # the tray's own close button: swap in the (now empty) tray
        return render_blocks("compare/_toggle.html", ["compare_tray"], compare_ids=compare_tray(), fragment=False)
    return redirect(url_for("compare.show_comparison"), 303)


def _same_site(url: str | None) -> bool:
    return bool(url) and url.startswith(request.host_url)
