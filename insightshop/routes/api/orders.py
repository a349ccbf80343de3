"""Orders, payments and returns for API clients (seed 001 checkout_proceed, order_status, order_track)."""

from __future__ import annotations

from flask import current_app, request

from ...schemas.orders import (
    CHECKOUT_BODY,
    CREATE_INTENT_BODY,
    OFFLINE_CONFIRM_BODY,
    ORDER_STATUS_BODY,
    ORDER_TRACK_BODY,
    RETURN_BODY,
    order_lookup_to_dict,
    order_to_dict,
    return_to_dict,
    tracking_to_dict,
)  # fmt: skip
from ...schemas.validation import validate
from ...services import orders, payments, returns
from ...services.errors import Invalid, NotFound
from ...services.payments import offline, stripe_provider
from ...web.auth import client_address, current_actor
from . import api, json_body


def _order_token(body: dict | None = None) -> str | None:
    # The X-Order-Token header (or the JSON body), never the query string: URLs end up in access logs.
    return (body or {}).get("order_token") or request.headers.get("X-Order-Token")


@api.post("/orders")
def place_order():
    body = validate(json_body(), CHECKOUT_BODY, what="checkout")
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 8 <= len(key) <= 64:
        raise Invalid(
            "Idempotency-Key must be 8–64 characters",
            details=[{"field": "Idempotency-Key", "message": "8–64 characters"}],
        )
    placed = orders.checkout(current_actor(), orders.ShippingDetails(**body), key, client=client_address())
    order = placed.order
    return {"order": order_to_dict(order), "order_token": order.guest_token, "replayed": placed.replayed}, (
        200 if placed.replayed else 201
    )


@api.get("/orders")
def list_orders():
    return {"orders": [order_to_dict(o, full=False) for o in orders.list_orders(current_actor())]}


@api.get("/orders/<int:order_id>")
def get_order(order_id: int):
    return {"order": order_to_dict(orders.get_order(current_actor(), order_id, _order_token()))}


@api.post("/orders/status")
def order_status():
    body = validate(json_body(), ORDER_STATUS_BODY, what="request")
    order = orders.order_status(body["order_id"], body["email"], client=client_address())
    return {"order": order_lookup_to_dict(order)}


@api.post("/orders/track")
def track_order():
    body = validate(json_body(), ORDER_TRACK_BODY, what="request")
    return {"shipment": tracking_to_dict(orders.track_order(body["tracking_number"]))}


@api.post("/payments/create-intent")
def create_intent():
    body = validate(json_body(), CREATE_INTENT_BODY, what="request")
    order = orders.get_order(current_actor(), body["order_id"], _order_token(body))
    intent = payments.create_intent(order)
    return {"provider": intent.provider, "payment_intent_id": intent.payment_intent_id,
            "client_secret": intent.client_secret, "amount": f"{intent.amount:.2f}", "currency": intent.currency}, 201  # fmt: skip


@api.post("/payments/offline/confirm")
def confirm_offline_payment():
    if payments.provider_name() != offline.NAME:
        raise NotFound("The offline test provider is not active")
    body = validate(json_body(), OFFLINE_CONFIRM_BODY, what="payment")
    order = offline.find_order(body["payment_intent_id"])
    if not orders.can_access(current_actor(), order, _order_token(body)):
        raise NotFound("No payment with that id")
    order = offline.confirm(order, body["card_number"])
    return {"order": order_to_dict(order)}


@api.post("/payments/webhook")
def stripe_webhook():
    if not current_app.config.get("STRIPE_SECRET_KEY"):
        raise NotFound("Stripe is not configured")
    return stripe_provider.handle_webhook(request.get_data(), request.headers.get("Stripe-Signature"))


@api.post("/returns")
def request_return():
    body = validate(json_body(), RETURN_BODY, what="return")
    created = returns.request_return(current_actor(), body["order_id"], body["items"], _order_token(body))
    return {"return": return_to_dict(created)}, 201


@api.get("/returns/<int:return_id>")
def get_return(return_id: int):
    return {"return": return_to_dict(returns.get_return(current_actor(), return_id))}
