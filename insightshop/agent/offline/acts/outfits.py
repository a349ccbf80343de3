"""The act for a whole look (outfit_suggest): "what goes with the second one", "complete the look", "put together an
outfit for a wedding". A product pointed at (its number, its place in the last list, "it" after one was shown) or the
cart ("style what's in my basket") is styled with suggest_outfit; an occasion or need ("for a wedding", "for the
gym") is the shopping brief's search for it; nothing to go on asks what the look is for."""

from __future__ import annotations

import re

from .. import brief
from ..message import Msg
from ..plans import Interpretation, PlannedCall
from ..sizes import _pointed_at
from ..turns import SURE
from . import act
from .shopper import _need_search, read

CART_THINGS = re.compile(r"\b(?:cart|basket|bag|trolley|bought|ordered|my\s+(?:stuff|things|clothes|items))\b")
THIS_ONE = re.compile(r"\b(?:it|this|that|this\s+one|that\s+one)\b")
ASK = ("Happy to put a look together — what is it for (a wedding, the office, a holiday, the gym), and for men, women "
       "or kids? Or point me at a product (\"what goes with the second one?\").")  # fmt: skip


def _product(request, msg: Msg) -> int | None:
    context = request.context
    if msg.product_ids:
        return msg.product_ids[0]
    shown = [p for p in context.get("last_shown") or [] if isinstance(p, dict)]
    pointed = _pointed_at(request.plain, shown)
    if pointed is not None:
        return pointed
    last = context.get("last_product_id")
    return last if isinstance(last, int) and THIS_ONE.search(request.plain) else None


def _styled(request, arguments: dict) -> Interpretation:
    context = {k: v for k, v in request.context.items() if k != "pending"}
    context["last_action"] = "suggest_outfit"
    return Interpretation(calls=[PlannedCall("suggest_outfit", arguments)], context=context)


@act("outfit_suggest")
def outfit(request, guess) -> Interpretation | None:
    if guess.label != "outfit_suggest" or guess.confidence < SURE or request.pending:
        return None
    msg = Msg(request.norm.text)
    product_id = _product(request, msg)
    if product_id is not None:
        return _styled(request, {"product_id": product_id})
    if CART_THINGS.search(request.plain):
        return _styled(request, {"from_cart": True})
    reading = read(request.plain)
    if reading.needs or msg.category or msg.types:
        return _need_search(request, brief.load(request.context), reading, msg)
    return Interpretation(reply=ASK, context={k: v for k, v in request.context.items() if k != "pending"})
