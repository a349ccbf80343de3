"""Acts for looking an order up: its status by number and e-mail ("has my order 22 shipped yet?"), or a parcel by
its tracking number ("where's my package? tracking number is 9400…"). The classifier says which is asked; the
entities (order number, e-mail, tracking number) fill the call, the conversation fills what the message leaves out
(the order just talked about, the signed-in shopper's address), and what is still missing is asked for — the
partial call waits in context["pending"] and the answer completes it (rules.h_pending).

A signed-in shopper's orders without a number ("is my parcel on its way?") are listed when the classifier is sure;
else intent.my_orders reads them. Left to others (None): an admin's order changes ("order 9 has shipped with UPS …"),
a message that adds to the cart."""

from __future__ import annotations

from .. import rules
from ..rule_words import ADD, ANY_TOKEN, TRACK, TRACK_TOKEN
from ..shop_rules import _order_status
from ..turns import QUESTIONS, SURE, Turn, ask, call
from . import act


@act("order_status", "order_track", "orders_mine")
def look_up(request, guess) -> rules.Interpretation | None:
    turn = Turn(request.norm.text, request.context, request.is_admin)
    msg = turn.msg
    if request.is_admin or (msg.types and msg.has(ADD)):
        return None
    token = TRACK_TOKEN.search(msg.raw) or (ANY_TOKEN.search(msg.raw) if msg.has(TRACK) else None)
    if guess.label == "orders_mine" and not token and msg.order_id is None and (turn.user_email or msg.types):
        if turn.user_email and guess.confidence >= SURE:  # "is my parcel on its way", "did you send my jumper yet"
            return call(turn, "orders_list_mine", {})
        return None  # the signed-in shopper's orders are listed (intent.my_orders); a garment is no order
    if msg.has(TRACK) and msg.order_id is None and guess.label != "order_status":
        if token is None:
            return ask(turn, QUESTIONS["order_track"], "order_track", {})
        return call(turn, "order_track", {"tracking_number": token.group(1).upper()})
    return _order_status(turn)
