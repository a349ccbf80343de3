"""Product reviews (seed 001 review_create) and product comparison (compare_products)."""

from __future__ import annotations

from flask import request

from ...schemas.products import product_to_dict
from ...schemas.shop import COMPARE_BODY, REVIEW_BODY, review_to_dict
from ...schemas.validation import query_int, validate
from ...services import compare, reviews
from ...web.auth import client_address, current_actor
from . import api, json_body


@api.get("/products/<int:product_id>/reviews")
def list_reviews(product_id: int):
    limit = query_int(request.args, "limit", 50, high=100)
    offset = query_int(request.args, "offset", 0, low=0, high=999_999_999)
    found = reviews.list_reviews(product_id, limit=limit, offset=offset)
    return {"reviews": [review_to_dict(r) for r in found]}


@api.post("/products/<int:product_id>/reviews")
def create_review(product_id: int):
    body = validate(json_body(), REVIEW_BODY, what="review")
    review, created = reviews.save_review(current_actor(), product_id, body["rating"], body.get("comment", ""),
                                          body.get("user_name"), client=client_address())  # fmt: skip
    return {"review": review_to_dict(review), "created": created}, 201 if created else 200


@api.delete("/reviews/<int:review_id>")
def delete_review(review_id: int):
    reviews.delete_review(current_actor(), review_id)
    return {"ok": True}


@api.post("/ai/compare")
def compare_products():
    body = validate(json_body(), COMPARE_BODY, what="comparison")
    products = compare.compare_products(body["product_ids"])
    return {"products": [product_to_dict(p) for p in products]}
