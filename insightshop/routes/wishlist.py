"""Saved items: the wishlist page and the save/unsave button."""

from __future__ import annotations

from flask import Blueprint, flash, make_response, redirect, url_for
from flask_login import login_required
from jinja2_fragments.flask import render_block

from ..forms.shop import EmptyForm
from ..services import wishlist
from ..services.errors import DomainError
from ..web.auth import current_actor
from ..web.rendering import is_fragment_request, render_page

wishlist_pages = Blueprint("wishlist", __name__, url_prefix="/wishlist")


@wishlist_pages.get("")
@login_required
def show_wishlist():
    return render_page("wishlist/wishlist.html", [], entries=wishlist.list_wishlist(current_actor()),
                       action_form=EmptyForm())  # fmt: skip


@wishlist_pages.post("/<int:product_id>")
@login_required
def toggle(product_id: int):
    actor = current_actor()
    if EmptyForm().validate_on_submit():
        try:
            if product_id in wishlist.saved_product_ids(actor):
                wishlist.remove_from_wishlist(actor, product_id)
            else:
                wishlist.add_to_wishlist(actor, product_id)
        except DomainError as error:
            if not is_fragment_request():
                flash(error.message, "error")
            else:
                return make_response(error.message, error.status)
    if not is_fragment_request():
        return redirect(url_for("shop.show_product", product_id=product_id), 303)
    saved = product_id in wishlist.saved_product_ids(actor)
    return render_block("wishlist/_button.html", "save_button", product_id=product_id, saved=saved, fragment=True)


@wishlist_pages.post("/<int:product_id>/remove")
@login_required
def remove(product_id: int):
    if EmptyForm().validate_on_submit():
        try:
            wishlist.remove_from_wishlist(current_actor(), product_id)
        except DomainError as error:
            flash(error.message, "error")
    return redirect(url_for("wishlist.show_wishlist"), 303)
