"""The product page's shared part (the product, its pickers and its reviews, display-ready) and its review form.

Everything here but the review form is what every visitor sees alike, so the product route keeps it in the data
cache for a catalog generation: loading the product, its variants, the running sales and fifty reviews, and
formatting them, was half a product page's cost. A review write bumps the generation, so the list is never stale
by more than the cache's lifetime for changes the generation does not see (a reviewer renaming their account)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from markupsafe import Markup

from ..forms.shop import ReviewForm
from ..models.catalog import Product
from ..models.reviews import Review
from ..services import catalog, reviews
from .display import ProductView, product_view
from .filters import stars


@dataclass(frozen=True)
class ProductFacts:
    """What the page says about the product itself (its heading, description and rating)."""

    id: int
    name: str
    category: str
    fabric: str | None
    description: str
    rating_count: int
    stars: str
    rating: str  # "4.5"
    reviews_label: str  # "3 reviews"


@dataclass(frozen=True)
class ReviewLine:
    id: int
    rating: str  # as the review states it: "4.0"
    stars: str
    author_name: str
    is_verified_purchase: bool
    date: str  # "05 Mar 2026"
    comment: str


@dataclass(frozen=True)
class ProductPage:
    product: ProductFacts
    view: ProductView
    reviews: list[ReviewLine]


def product_page(product_id: int, color: str | None, size: str | None, picture: str | None) -> ProductPage:
    """The product page as every visitor sees it for this colour, size and picture (NotFound if not for sale)."""
    product = catalog.get_product(product_id)
    return ProductPage(
        product=_facts(product),
        view=product_view(product, color, size, picture),
        reviews=[_review_line(review) for review in reviews.list_reviews(product.id)],
    )


def _facts(product: Product) -> ProductFacts:
    count = product.rating_count
    return ProductFacts(
        id=product.id,
        name=product.name,
        category=product.category,
        fabric=product.fabric,
        description=product.description,
        rating_count=count,
        stars=stars(product.rating),
        rating=f"{float(product.rating):.1f}",  # as Jinja's "%.1f"|format printed it
        reviews_label=f"{count} review{'' if count == 1 else 's'}",
    )


def _review_line(review: Review) -> ReviewLine:
    return ReviewLine(
        id=review.id,
        rating=str(review.rating),
        stars=stars(review.rating),
        author_name=review.author_name,
        is_verified_purchase=review.is_verified_purchase,
        date=review.created_at.strftime("%d %b %Y"),
        comment=review.comment,
    )


@dataclass(frozen=True)
class ReviewFormView:
    """The review form's fields as markup (label and control), with their messages."""

    rating: Markup
    comment: Markup
    user_name: Markup
    form_errors: str = ""
    comment_errors: str = ""
    user_name_errors: str = ""


def review_form_view(form: ReviewForm | None, own: Review | None) -> ReviewFormView:
    """The form as submitted (with its errors), else prefilled with the visitor's own review, else blank."""
    if form is None and own is None:
        return _blank_review_form()
    if form is None:
        form = ReviewForm(formdata=None, rating=str(int(own.rating)), comment=own.comment)
    return _render(form)


@cache
def _blank_review_form() -> ReviewFormView:
    # Most visitors see the same blank form: rendered once per process, it holds nobody's data (the CSRF token
    # is written by the template, per request).
    return _render(ReviewForm(formdata=None, rating="5", comment="", meta={"csrf": False}))


def _render(form: ReviewForm) -> ReviewFormView:
    return ReviewFormView(
        rating=form.rating.label() + form.rating(),
        comment=form.comment.label() + form.comment(rows=4, maxlength=2000),
        user_name=form.user_name.label() + form.user_name(autocomplete="name"),
        form_errors=" ".join(form.form_errors),
        comment_errors=" ".join(form.comment.errors),
        user_name_errors=" ".join(form.user_name.errors),
    )
