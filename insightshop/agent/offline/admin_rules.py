"""The phrase rules' admin handlers: sales, products, reviews, users' carts, orders' statuses and lists, sign-in and
sign-out."""

from __future__ import annotations

import re

from .admin_fields import product_fields, update_fields
from .message import Msg
from .plans import Interpretation
from .rule_words import (
    AUTOMATION,
    CANCEL_PENDING,
    CART_RX,
    CLEAR_ALL,
    CLEAR_VERB,
    DELETE_VERB,
    IMPERATIVE_STATUS,
    MARK_HASH,
    ORDER_STATEMENT,
    ORDER_STATUSES,
    PRODUCT_CREATE,
    PRODUCT_DELETE,
    RATING,
    STATUS_RX,
    STATUS_VERBS,
    UPDATE_ORDER,
    UPDATE_VERB,
    YES,
    _rx,
)
from .turns import QUESTIONS, Turn, ask, call, finish, say

# Intent handlers: each returns an Interpretation, or None when the message is not for it ----------------------


def h_cancel_pending(turn: Turn) -> Interpretation | None:
    if turn.pending and CANCEL_PENDING.search(turn.msg.norm):
        return say(turn, "Okay, I've dropped that.")
    return None


def h_confirm_pending(turn: Turn) -> Interpretation | None:
    pending = turn.pending
    if pending and pending.get("confirm") and YES.search(turn.msg.norm):
        return call(turn, pending["tool"], pending["args"])
    return None


def h_sale_automation(turn: Turn) -> Interpretation | None:
    return call(turn, "admin_sale_run_automation", {}) if turn.msg.has(AUTOMATION) else None


def h_product_create(turn: Turn) -> Interpretation | None:
    if not turn.msg.has(PRODUCT_CREATE):
        return None
    return finish(
        turn, "admin_product_create", {**turn.pending_args("admin_product_create"), **product_fields(turn.msg)}
    )


def h_review_delete(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if not (msg.has(DELETE_VERB) and re.search(r"\breviews?\b", msg.norm)) or RATING.search(msg.norm):
        return None
    if msg.review_id is None:
        return ask(turn, QUESTIONS["admin_review_delete"])
    return call(turn, "admin_review_delete", {"review_id": msg.review_id})


def h_cart_clear_user(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if msg.user_id is None or not msg.has(CART_RX) or not (msg.has(CLEAR_VERB) or msg.has(CLEAR_ALL)):
        return None
    return call(turn, "admin_cart_clear_user", {"user_id": msg.user_id})


def _order_status_word(msg: Msg) -> str | None:
    match = STATUS_RX.search(msg.norm)
    if match:
        return ORDER_STATUSES[" ".join(match.group(1).split())]
    verb = IMPERATIVE_STATUS.search(msg.norm)
    return STATUS_VERBS[verb.group(1)] if verb else None


def h_order_update(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    imperative = IMPERATIVE_STATUS.search(msg.norm)
    statement = turn.is_admin and ORDER_STATEMENT.search(msg.norm) and "?" not in msg.norm
    hashed = MARK_HASH.search(msg.norm)
    refund = turn.is_admin and REFUND_ORDER.search(msg.norm)
    if not (refund or imperative or statement or hashed or (msg.has(UPDATE_ORDER) and STATUS_RX.search(msg.norm))):
        return None
    status = STATUS_VERBS[imperative.group(1)] if imperative else _order_status_word(msg)
    if refund:
        status = "cancelled"
    order_id = (
        msg.order_id
        or (int(hashed.group(1)) if hashed else None)
        or (msg.integers[0] if len(msg.integers) == 1 else None)
    )
    if order_id is None:
        return ask(
            turn, f"Which order number should be marked {status}?", "admin_order_update_status", {"status": status}
        )
    result = call(turn, "admin_order_update_status", {"order_id": order_id, "status": status})
    if refund:
        result.context["offline_note"] = ("A refund is made by cancelling the order: cancelling a paid order "
                                          "refunds its payment and puts its items back in stock.")  # fmt: skip
    return result


# An admin's "refund order 3": the shop refunds by cancelling (a paid order's payment is refunded on cancel).
REFUND_ORDER = _rx(
    r"^(?:please\s+|can\s+you\s+|could\s+you\s+|go\s+ahead\s+and\s+)*(?:refund|issue\s+a\s+refund\s+(?:for|on))\s+"
    r"(?:the\s+|this\s+)?order\b"
)


def h_product_delete(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if not msg.has(PRODUCT_DELETE) or msg.has(CART_RX) or len(msg.product_ids) != 1:
        return None
    if re.search(r"\b(?:reviews?|ratings?|comments?|photos?|images?|sales?|discounts?)\b", msg.norm):
        return None  # "delete the reviews of product 3" is about its reviews, never the product itself
    return call(turn, "admin_product_delete", {"product_id": msg.product_ids[0]})


PRICE_CHANGE = re.compile(r"\bprice\b.*\bto\s+\$?\s*\d|\b(?:reprice|mark\s+down|discount)\b.*\bto\s+\$?\s*\d")


def h_product_update(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if not msg.product_ids and msg.has(UPDATE_VERB) and PRICE_CHANGE.search(msg.norm) and not msg.has(CART_RX):
        # "set the price of the grey hoodie to 1 dollar": a catalog change, never a search.
        if not turn.is_admin:
            return say(turn, "Sorry, only the shop's admins can change prices — you always pay the price the shop "
                             "shows, with any running sale taken off.")  # fmt: skip
        return ask(turn, "Which product should I reprice? Give me its number (\"set the price of product 30 to "
                         "59.99\").")  # fmt: skip
    if len(msg.product_ids) != 1 or not msg.has(UPDATE_VERB) or msg.has(CART_RX) or _is_question(msg):
        return None
    changes = update_fields(msg)
    return call(turn, "admin_product_update", {"product_id": msg.product_ids[0], **changes}) if changes else None


def _is_question(msg: Msg) -> bool:
    return "?" in msg.norm or re.match(r"(?:does|do|is|are|how|what|whats|which|can|could)\b", msg.norm) is not None
