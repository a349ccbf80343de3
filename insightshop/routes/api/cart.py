"""Cart endpoints (seed 001 cart_* tools): the caller's own cart only."""

from __future__ import annotations

from ...schemas.shop import CART_ADD_BODY, CART_UPDATE_BODY, cart_line_to_dict, cart_to_dict
from ...schemas.validation import validate
from ...services import cart
from ...web.auth import current_actor
from . import api, json_body


def _owner():
    actor = current_actor()
    actor.require_owner()
    return actor


@api.get("/cart")
def show_cart():
    return {"cart": cart_to_dict(cart.get_cart(_owner()))}


@api.post("/cart")
def add_to_cart():
    actor = _owner()
    body = validate(json_body(), CART_ADD_BODY, what="cart item")
    line = cart.add_item(
        actor, body["product_id"], body.get("quantity", 1), body.get("selected_color"), body.get("selected_size")
    )
    return {"item": cart_line_to_dict(line), "cart": cart_to_dict(cart.get_cart(actor))}, 201


@api.patch("/cart/<int:item_id>")
def update_cart_item(item_id: int):
    actor = _owner()
    body = validate(json_body(), CART_UPDATE_BODY, what="cart item")
    line = cart.update_quantity(actor, item_id, body["quantity"])
    return {"item": cart_line_to_dict(line), "cart": cart_to_dict(cart.get_cart(actor))}


@api.delete("/cart/<int:item_id>")
def remove_cart_item(item_id: int):
    actor = _owner()
    cart.remove_item(actor, item_id)
    return {"cart": cart_to_dict(cart.get_cart(actor))}


@api.delete("/cart/clear")
def clear_cart():
    actor = _owner()
    removed = cart.clear_cart(actor)
    return {"removed": removed, "cart": cart_to_dict(cart.get_cart(actor))}
