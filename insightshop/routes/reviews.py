"""Writing, editing and deleting reviews on the product page."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, url_for

from ..forms.shop import EmptyForm, ReviewForm
from ..services import catalog, reviews
from ..services.errors import DomainError
from ..services.page_cache import SEARCHES
from ..web.auth import client_address, current_actor, ensure_guest
from ..web.forms import show_error
from ..web.page_cache import budget_of, remember
from ..web.product_page import ProductPage, product_page, review_form_view
from ..web.rendering import is_fragment_request, render_page

review_pages = Blueprint("reviews", __name__)


@review_pages.post("/products/<int:product_id>/reviews")
def save_review(product_id: int):
    product = catalog.get_product(product_id)
    form = ReviewForm()
    status, notice = 422, None
    if form.validate_on_submit():
        try:
            # A browser visitor gets a session guest identity: one review per guest, counted per client.
            _, created = reviews.save_review(ensure_guest(), product.id, form.rating.data, form.comment.data,
                                             form.user_name.data, client=client_address())  # fmt: skip
        except DomainError as error:
            show_error(form, error)
        else:
            status, notice = 200, "Thanks for your review!" if created else "Your review is updated."
            form = None
    if not is_fragment_request():
        flash(notice or "Your review could not be saved: " + _errors(form), "success" if notice else "error")
        return redirect(url_for("shop.show_product", product_id=product.id) + "#reviews", 303)
    # The header's stars and count come along (out of band): a counted review changes them at once.
    page = shared_product_page(product.id)
    return render_page("shop/product.html", ["reviews", "product_rating"], status=status, rating_out_of_band=True,
                       **review_context(page, form, notice))  # fmt: skip


@review_pages.post("/reviews/<int:review_id>/delete")
def delete_review(review_id: int):
    review_product = reviews.product_of_review(review_id)
    if EmptyForm().validate_on_submit():
        try:
            reviews.delete_review(current_actor(), review_id)
        except DomainError as error:
            flash(error.message, "error")
        else:
            flash("Your review is deleted.", "info")
    return redirect(url_for("shop.show_product", product_id=review_product) + "#reviews", 303)


def review_context(page: ProductPage, form: ReviewForm | None = None, notice: str | None = None) -> dict:
    """What the reviews block of the product page shows: the shared list, and this visitor's own review and form."""
    own = reviews.review_by(current_actor(), page.product.id)
    return {
        "product": page.product,
        "reviews": page.reviews,
        "own_review": own,
        "review_form": review_form_view(form, own),
        "review_notice": notice,
    }


def shared_product_page(product_id: int, color: str | None = None, size: str | None = None,
                        picture: str | None = None) -> ProductPage:  # fmt: skip
    """The product page's part every visitor sees alike, from the data cache (keyed by the raw choices)."""
    # Made-up choices (?color=<anything>) are kept in the searches' budget: they cannot push out real pages.
    budget = budget_of("shop.show_product", {"color": color, "size": size, "view": picture})
    choices = (product_id, color, size, picture)
    return remember("product", choices, lambda: product_page(*choices), typed=budget == SEARCHES)


def _errors(form) -> str:
    messages = [m for field in (form or {}) for m in getattr(field, "errors", [])] + list(
        getattr(form, "form_errors", [])
    )
    return " ".join(messages) or "please check the form."
