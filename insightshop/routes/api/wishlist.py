"""Wishlist endpoints for signed-in users."""

from __future__ import annotations

from ...schemas.shop import WISHLIST_ADD_BODY, wishlist_entry_to_dict
from ...schemas.validation import validate
from ...services import wishlist
from ...web.auth import current_actor
from . import api, json_body


@api.get("/wishlist")
def show_wishlist():
    return {"items": [wishlist_entry_to_dict(e) for e in wishlist.list_wishlist(current_actor())]}


@api.post("/wishlist")
def add_to_wishlist():
    actor = current_actor()
    actor.require_user()
    body = validate(json_body(), WISHLIST_ADD_BODY, what="wishlist item")
    return {"item": wishlist_entry_to_dict(wishlist.add_to_wishlist(actor, body["product_id"]))}, 201


@api.delete("/wishlist/<int:product_id>")
def remove_from_wishlist(product_id: int):
    wishlist.remove_from_wishlist(current_actor(), product_id)
    return {"ok": True}
