"""Acts for the writer's own orders: cancel one that has not shipped, where its refund stands, whether it can still
be returned. The order in scope lives in the brief's "order" section {order_id}: "cancel it", "can I still return
it" after an order was named or looked at mean that order. With none, the tools take the writer's most recent
fitting order ("cancel my last order" first looks the last order up, so the confirmation names it exactly).

An act returns None when the message is not about the writer's own order (a policy question, an admin's order
change, a guest's order other than their latest: the phrase rules answer). A guest's orders are their cart's."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import brief as briefs
from ..rules import Interpretation, PlannedCall
from ..turns import SURE
from . import act
from .service_words import expand, has

ORDER_NUMBER = re.compile(r"(?:\border\s*(?:number|no\.?|#)?\s*#?\s*|#\s*)(\d{1,9})\b")
PERSONAL = re.compile(r"\b(?:my|i|me|mine|i've|ive|i'd|we|our)\b")
DEICTIC = re.compile(r"\b(?:it|this|that|them|these|those|the\s+order|that\s+order|this\s+order)\b")
TOOLS = {"order_cancel": "order_cancel_mine", "refund_status": "order_refund_status",
         "return_eligibility": "order_return_eligibility"}  # fmt: skip


@dataclass(frozen=True)
class RememberOrder:
    """After a servicing tool ran: its order becomes the brief's order in scope (the context is this turn's own)."""

    context: dict

    def __call__(self, result: dict) -> tuple[list, None]:
        order = (result or {}).get("order") or {}
        if isinstance(order.get("id"), int):
            brief = briefs.load(self.context)
            brief["order"] = {"order_id": order["id"]}
            self.context.update(briefs.save(self.context, brief))
        return [], None

    def label(self) -> str:
        return "remember_order"


@dataclass(frozen=True)
class CancelLatest:
    """ "cancel my last order": once the writer's newest order is read, propose cancelling exactly that one."""

    context: dict

    def __call__(self, result: dict) -> tuple[list, str | None]:
        found = (result or {}).get("orders") or []
        if not found:
            if self.context.get("user_email"):
                return [], "I can't find any orders of yours to cancel."
            return [], (
                "I can't find an order placed from this browser. If you ordered as a guest on another "
                "device, look it up under 'Order status' with its number and email, or sign in."
            )
        RememberOrder(self.context)({"order": found[0]})
        return [PlannedCall("order_cancel_mine", {"order_id": found[0]["id"]}, then=RememberOrder(self.context))], None

    def label(self) -> str:
        return "cancel_latest"


@act(*TOOLS)
def my_order(request, guess) -> Interpretation | None:
    """Cancel, refund status or return eligibility of the writer's own order (by number, in scope, or the latest)."""
    plain = expand(request.plain)
    brief = briefs.load(request.context)
    in_scope = brief["order"].get("order_id")
    number = ORDER_NUMBER.search(plain)
    kind = _kind(plain, guess.label)
    if kind is None and guess.label in TOOLS and guess.confidence >= SURE and not has(plain, "hypothetical"):
        kind = (
            guess.label
        )  # the words are the shopper's own ("is my order still returnable", "am I within the 30 days")
    if kind is None:
        return None
    # a guest's "cancel my last order": the newest order of their cart, if any (the tools check whose it is)
    guests_latest = kind == "order_cancel" and not number and PERSONAL.search(plain) and _latest(plain)
    if not (_mine(request, plain, in_scope, number) or guests_latest):
        return None
    order_id = int(number.group(1)) if number else in_scope if DEICTIC.search(plain) or not _latest(plain) else None
    context = briefs.save({k: v for k, v in request.context.items() if k != "pending"}, brief)
    context["last_action"] = TOOLS[kind]
    if kind == "order_cancel" and order_id is None:
        return Interpretation(calls=[PlannedCall("orders_list_mine", {"limit": 1}, then=CancelLatest(context))],
                              context=context)  # fmt: skip
    arguments = {"order_id": order_id} if order_id else {}
    return Interpretation(calls=[PlannedCall(TOOLS[kind], arguments, then=RememberOrder(context))], context=context)


def _kind(plain: str, label: str) -> str | None:
    """What is asked, when the words say it: cancelling, a refund, or whether a return is still possible."""
    if has(plain, "hypothetical"):
        return None  # "if I return it, do I get a refund?", "what's your returns policy": the shop's policy
    cancel, refund, back = has(plain, "cancel"), has(plain, "refund"), has(plain, "return")
    if cancel and (label == "order_cancel" or not (refund or back)):
        return "order_cancel"
    if back and has(plain, "eligibility") and not refund:
        return "return_eligibility"
    if refund or (back and label == "refund_status"):
        return "refund_status"
    return None


def _mine(request, plain: str, in_scope, number) -> bool:
    """The writer's own order: said as theirs ("my order", "I ordered") or the order in scope ("it"), never an
    order number alone (an admin's "cancel order 14" changes someone's order through the admin tools)."""
    signed_in = bool(request.context.get("user_email"))
    if PERSONAL.search(plain):
        return signed_in or bool(in_scope)
    looked_at = request.context.get("last_action") in ("orders_list_mine", *TOOLS.values())
    return (bool(in_scope) or signed_in and looked_at) and bool(DEICTIC.search(plain)) and not number


def _latest(plain: str) -> bool:
    return has(plain, "latest")
