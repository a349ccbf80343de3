"""The admin's catalog: delete, change (hide, show again, rename, describe, reprice, move) or create one product — by
its number, by its name ("the pea coat"), or from the admin's selection ("the first of those", "that product"). The
classifier says which of the three is meant; this reads the product and the fields. One product: the call, which the
admin approves. Several fit: one short question listing them (the answer completes it). None: says so, changes
nothing. A shopper's request is planned the same way and the guard refuses it."""

from __future__ import annotations

import re

from ..admin_fields import product_fields, update_fields
from ..admin_requests import _candidates
from ..intent import Request
from ..message import Msg
from ..normalise import normalise
from ..plans import Interpretation, PlannedCall
from ..turns import SURE, Turn, finish
from . import act
from .admin import _admin, _plan, _referenced, _say

LABELS = {"men": "men's", "women": "women's", "kids": "kids'"}
NOT_THE_PRODUCT = re.compile(r"\b(?:cart|basket|bag|trolley|reviews?|ratings?|comments?|orders?|sales?|discounts?)\b")
HIDE = re.compile(r"\b(?:hide|hidden|unlist|take\s+(?:it\s+)?(?:down|off)|deactivate|disable|archive|pull)\b")
SHOW = re.compile(r"\b(?:show|unhide|re-?activate|activate|re-?enable|enable|restore|relist|back\s+on|bring\s+back)\b")
SHOWN_AGAIN = re.compile(r"\b(?:again|back)\b")
RENAMED = re.compile(r"(?i)\b(?:re-?name[ds]?|(?:change|update|set)\s+the\s+name\s+of)\b|\bto\s+.+$")  # the new name
MAX_CHOICES = 6


def _meant(guess, label: str) -> bool:
    return guess.label == label and guess.confidence >= SURE


def _products(request, msg: Msg) -> tuple[list, str | None]:
    """The products meant: the selection's item pointed at, else by number or name (_candidates)."""
    _brief, section = _admin(request)
    referenced = _referenced(request, section)
    if referenced is not None:
        ids = [item["product_id"] for item in referenced]
        return [p for p in request.vocabulary.products if p.id in ids], None
    products, name = _candidates(request, msg)
    coloured = [p for p in products if msg.colors and msg.colors[0] in p.colors]
    return coloured or products, name


def _label(product) -> str:
    return f"#{product.id} {product.name}, {LABELS.get(product.category, product.category)}, ${product.price:.2f}"


def _decide(request, products: list, name: str | None, tool: str, arguments: dict, what: str) -> Interpretation:
    brief, _section = _admin(request)
    if not products:
        said = f'"{name}"' if name else "that"
        return _say(request, brief, f"I can't find a product called {said} in the catalog, so I changed nothing. Give "
                                    "me its number (\"product 12\") or its name as the shop lists it.")  # fmt: skip
    if len(products) > 1:
        shown = products[:MAX_CHOICES]
        options = "; ".join(_label(p) for p in shown)
        pending = {"tool": tool, "args": arguments, "choices": [p.id for p in shown], "act": "catalog"}
        context = {**request.context, "pending": pending}
        return Interpretation(follow_up=f"Several products fit — which one should I {what}? {options}. Say its number "
                                        "(\"#12\") or the department.", context=context)  # fmt: skip
    return _plan(request, brief, [PlannedCall(tool, {"product_id": products[0].id, **arguments})])


@act("admin_product_delete")
def product_delete(request, guess) -> Interpretation | None:
    """ "delete the pea coat", "take product 3 off the shop permanently", "delete that product"."""
    if not _meant(guess, "admin_product_delete") or NOT_THE_PRODUCT.search(request.plain):
        return None
    msg = Msg(request.norm.text)
    products, name = _products(request, msg)
    if not products and not name and not msg.types:
        return None  # nothing named: the phrase rules ask which
    return _decide(request, products, name, "admin_product_delete", {}, "delete")


def _visibility(plain: str) -> dict:
    if HIDE.search(plain):
        return {"is_active": False}
    if SHOW.search(plain) and (SHOWN_AGAIN.search(plain) or not re.match(r"\W*show\b", plain)):
        return {"is_active": True}  # "show the trench coat on the shop again"; "show product 9" alone is a look
    return {}


@act("admin_product_update")
def product_update(request, guess) -> Interpretation | None:
    """ "rename the navy hoodie to Midnight Hoodie", "hide the pea coat", "show the trench coat on the shop again",
    "update product 8's description to …"."""
    if not _meant(guess, "admin_product_update") or NOT_THE_PRODUCT.search(request.plain):
        return None
    msg = Msg(request.norm.text)
    changes = {**update_fields(msg), **_visibility(request.plain)}
    if not changes:
        return None
    named_in = request
    if "name" in changes:  # "rename the navy hoodie to Midnight Hoodie": the product is named before the new name
        old_name = RENAMED.sub(" ", request.norm.text)
        named_in = Request(normalise(old_name, request.vocabulary), request.context, True, request.vocabulary)
        msg = Msg(named_in.norm.text)
    products, name = _products(named_in, msg)
    if changes == {"is_active": False}:  # hiding a product is the soft delete
        return _decide(request, products, name, "admin_product_delete", {}, "take off the shop")
    return _decide(request, products, name, "admin_product_update", changes, "change")


@act("admin_product_create")
def product_create(request, guess) -> Interpretation | None:
    """ "list a new item: Velvet Blazer for women, $120, black", "add a product": the fields said; what the tool
    still needs is asked for, one question (the answer completes it)."""
    if not _meant(guess, "admin_product_create") or NOT_THE_PRODUCT.search(request.plain):
        return None
    turn = Turn(request.norm.original, request.context, request.is_admin)
    fields = {**turn.pending_args("admin_product_create"), **product_fields(turn.msg)}
    return finish(turn, "admin_product_create", fields)


CHOICE = re.compile(r"#\s*(\d+)|\bproduct\s*(\d+)|^\W*(\d+)\W*$")
ANSWER_WORDS = 6  # "#37", "the women's one", "product 103": an answer is short; anything longer is a new request


def resume(request) -> Interpretation | None:
    """The admin's answer to "Several products fit — which one?": the product by its number or department, then the
    waiting call; any other message drops the question and is read as it stands."""
    pending = request.pending
    if not isinstance(pending, dict) or pending.get("act") != "catalog" or not pending.get("choices"):
        return None
    request.context.pop("pending", None)
    if len(request.plain.split()) > ANSWER_WORDS:
        return None
    products = [p for p in request.vocabulary.products if p.id in pending["choices"]]
    number = CHOICE.search(request.plain)
    msg = Msg(request.norm.text)
    if number:
        products = [p for p in products if p.id == int(next(g for g in number.groups() if g))]
    elif msg.category:
        products = [p for p in products if p.category == msg.category]
    else:
        return None
    brief, _section = _admin(request)
    if len(products) != 1:
        return None
    call = PlannedCall(pending["tool"], {"product_id": products[0].id, **(pending.get("args") or {})})
    return _plan(request, brief, [call])
