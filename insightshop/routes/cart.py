"""Cart pages: the cart with quantity steppers, add/update/remove/clear — htmx fragments or plain redirects."""

from __future__ import annotations

from flask import Blueprint, flash, make_response, redirect, request, url_for
from jinja2_fragments.flask import render_blocks

from ..forms.shop import AddToCartForm, EmptyForm, QuantityForm
from ..services import cart, pricing
from ..services.errors import DomainError
from ..web.auth import current_actor, ensure_guest
from ..web.rendering import is_fragment_request, render_page

cart_pages = Blueprint("cart", __name__, url_prefix="/cart")


@cart_pages.get("")
def show_cart():
    return _cart_page()


@cart_pages.post("/add")
def add_to_cart():
    form = AddToCartForm()
    if not form.validate_on_submit():
        return _add_result(None, "Choose a quantity from 1 to 10.", form.product_id.data)
    try:
        line = cart.add_item(ensure_guest(), form.product_id.data, form.quantity.data, form.color.data or None,
                             form.size.data or None)  # fmt: skip
    except DomainError as error:
        return _add_result(None, error.message, form.product_id.data)
    return _add_result(line, None, line.product.id)


@cart_pages.post("/<int:item_id>/quantity")
def update_quantity(item_id: int):
    form = QuantityForm()
    if not form.validate_on_submit():
        return _cart_page(error="Choose a quantity from 1 to 10.", status=422)
    try:
        cart.update_quantity(current_actor(), item_id, form.quantity.data)
    except DomainError as error:
        return _cart_page(error=error.message, status=404 if error.status in (401, 404) else 422)
    return _cart_page()


@cart_pages.post("/<int:item_id>/remove")
def remove_item(item_id: int):
    if EmptyForm().validate_on_submit():
        try:
            cart.remove_item(current_actor(), item_id)
        except DomainError as error:
            return _cart_page(error=error.message, status=404 if error.status in (401, 404) else 422)
    return _cart_page(notice="Removed from your cart.")


@cart_pages.post("/clear")
def clear_cart():
    if EmptyForm().validate_on_submit() and current_actor().has_owner:
        cart.clear_cart(current_actor())
    return _cart_page(notice="Your cart is empty now.")


def _cart_page(error: str | None = None, notice: str | None = None, status: int = 200):
    """The cart page; for htmx the cart block plus the header badge, out of band."""
    if request.method == "POST" and not is_fragment_request():
        if error or notice:
            flash(error or notice, "error" if error else "info")
        return redirect(url_for("cart.show_cart"), 303)
    actor = current_actor()
    current = cart.get_cart(actor)
    context = {"cart": current, "cart_error": error, "cart_notice": notice, "action_form": EmptyForm(),
               "cart_count": cart.item_count(actor), "free_shipping": pricing.free_shipping_progress(current.subtotal)}  # fmt: skip
    response = render_page("cart/cart.html", ["cart", "cart_badge"], status=status, **context)
    if request.method == "POST":
        response.headers["HX-Trigger"] = "cart-changed"
    return response


def _add_result(line, error: str | None, product_id):
    """After "Add to cart": a status message and the badge for htmx, a redirect otherwise."""
    if not is_fragment_request():
        if error:
            flash(error, "error")
            target = url_for("shop.show_product", product_id=product_id) if product_id else url_for("cart.show_cart")
            return redirect(target, 303)
        flash(f"Added {line.product.name} ({line.variant.color} / {line.variant.size}) to your cart.", "success")
        return redirect(url_for("cart.show_cart"), 303)
    body = render_blocks("cart/_add_status.html", ["add_status", "cart_badge"], line=line, error=error,
                         cart_count=cart.item_count(current_actor()), fragment=True)  # fmt: skip
    response = make_response(body, 422 if error else 200)
    if not error:
        response.headers["HX-Trigger"] = "cart-changed"
    return response
