"""The phrase rules' shop handlers: checkout, clearing the cart, reviews, comparisons, tracking and order status."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...services.vocabulary import CLOTHING_TYPE_LABELS
from . import cart_lines
from .cart_items import _item
from .field_rules import address_fields, review_fields
from .message import _blank, _number
from .plans import Interpretation, PlannedCall, PriceAnswer
from .rule_words import (
    CART,
    CHECKOUT,
    CLEAR_ALL,
    COMPARE,
    NUM_WORDS,
    PRODUCT_REF,
    RATING,
    REVIEW_READ,
    REVIEW_VERB,
    SHIP_TO,
    WORD,
    _rx,
)
from .search_rules import _search_call, search_parts
from .turns import QUESTIONS, Turn, _result, ask, call, finish, say


def h_checkout(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    explicit = msg.has(CHECKOUT) and not (re.search(r"\bcheck\s+out\b", msg.norm) and msg.types)
    address = SHIP_TO.search(msg.low) and re.search(r"\d", msg.low)
    surely = turn.sure("checkout") and not (msg.types or msg.product_ids)  # "ready to buy", "let's wrap this up"
    if not (explicit or address or surely):
        return None
    return _checkout(turn)


def _checkout(turn: Turn, *, bare_name: bool = False) -> Interpretation:
    args = turn.pending_args("checkout_proceed")
    args.update(address_fields(turn.msg, bare_name=bare_name))
    if "email" not in args and turn.user_email:
        args["email"] = turn.user_email
    return finish(turn, "checkout_proceed", args)


# "delete all reviews", "remove all my orders": everything of something else, never the cart.
NOT_THE_CART = re.compile(
    r"\b(?:reviews?|orders?|products|users?|customers?|accounts?|sales?|receipts?|wishlist|"
    r"favou?rites|addresses|history|data)\b"
)


def h_cart_clear(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    clear = re.search(
        r"\b(?:empty|clear|wipe|reset|clean\s+out|dump)\s+(?:out\s+)?(?:(?:my|the|our|your|this|entire|"
        r"whole|shopping|every|all|all\s+the|any)\s+)*(?:carts?|baskets?|bags?|trolley)\b",
        msg.norm,
    )
    spared_all = re.search(
        r"\b(?:remove|delete|drop|take\s+out)\s+(?:everything|all(?:\s+(?:the\s+)?(?:items|things|rest))?)\s+"
        r"(?:except|but|apart\s+from|other\s+than|besides|save)\b",
        msg.norm,
    )
    everything = (
        spared_all
        or (msg.has(CLEAR_ALL) or re.search(r"\bclear\s+(?:it\s+)?(?:all|everything)\b", msg.norm))
        and not (msg.types or msg.product_ids or NOT_THE_CART.search(msg.norm))
    )
    emptied = re.search(CART + r".*\b(?:emptied|cleared)\b", msg.norm)
    # "bin everything in the bag": surely a clear, unless it names a user's cart or something else to delete
    surely = turn.sure("cart_clear") and msg.user_id is None and not NOT_THE_CART.search(msg.norm)
    if not (clear or everything or emptied or surely):
        return None
    spared = KEEP_EXCEPT.search(msg.norm)
    kept = _item(spared.group(1)) if spared else None
    if kept is not None and (kept.identified or kept.color):
        # "empty my cart except the socks": read the cart, then remove every other line (never a whole clear)
        line = cart_lines.WantedLine(None, kept.product_id, kept.clothing_type, kept.color, kept.size, kept.category)
        return _result(turn, [PlannedCall("cart_show", {}, then=KeepOnlyStep(line))])
    return call(turn, "cart_clear", {})


KEEP_EXCEPT = re.compile(
    r"\b(?:except(?:\s+for)?|but(?:\s+not)?|apart\s+from|other\s+than|besides|save|keep(?:ing)?)\s+"
    r"(?:for\s+)?(?:the\s+|my\s+)?(.+)$"
)


@dataclass(frozen=True)
class KeepOnlyStep:
    """Once the cart is read: remove every line but the one(s) the shopper keeps."""

    line: cart_lines.WantedLine

    def __call__(self, result: dict) -> tuple[list[PlannedCall], str | None]:
        steps, reply = cart_lines.keep_only(result.get("cart") or {}, self.line)
        return [PlannedCall(name, args, after_success=waits) for name, args, waits in steps], reply

    def label(self) -> dict:
        return {"keep": {k: v for k, v in vars(self.line).items() if v is not None and k != "count"}}


def h_review(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    pending = turn.pending_args("review_create")
    rating = RATING.search(msg.low)
    verb = REVIEW_VERB.search(msg.core)
    if msg.has(REVIEW_READ) and not rating:
        return say(turn, "Reviews are shown on each product's page; I can post one for you — e.g. "
                         "\"5 stars for product 3: great fit\".")  # fmt: skip
    about = (
        msg.product_ids
        or pending
        or re.search(r"\b(?:give|leave|it|this)\b", msg.norm)
        or (len(msg.words) <= 3 and not msg.types)
    )
    if not (verb or (rating and about)):
        return None
    if not verb and not pending and re.match(r"\W*(?:please\s+)?(?:show|find|search|browse|list|any)\b", msg.norm):
        return None  # "show me 5 star stuff": what is rated 5 stars, not a review
    if rating is None and msg.types and not msg.product_ids:
        return None
    return finish(turn, "review_create", {**pending, **review_fields(turn, rating)})


def h_compare(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if not (msg.has(COMPARE) or turn.sure("product_compare")):
        return None
    ids = list(dict.fromkeys(n for n in msg.integers if n >= 1))
    if RANKED_COUNT.search(msg.norm) and not msg.product_ids:
        ids = []  # "compare the 2 cheapest": a count of products, not product 2
    listed = [n for n in turn.ctx.get("last_product_ids") or [] if isinstance(n, int)]
    first = re.search(r"\b(?:first|top)\s+(\d|two|three|four|five)\b", msg.norm)
    if len(ids) < 2 and first and len(listed) >= 2:
        ids = listed[: _number(first.group(1))]
    elif len(ids) < 2 and re.search(r"\b(?:them|these|those|they|both|all)\b", msg.norm) and len(listed) >= 2:
        ids = listed
    elif len(ids) == 1 and isinstance(turn.ctx.get("last_product_id"), int) and turn.ctx["last_product_id"] != ids[0]:
        ids = [turn.ctx["last_product_id"], ids[0]]
    if len(ids) < 2:
        ranked = _compare_ranked(turn)
        return ranked if ranked is not None else ask(turn, QUESTIONS["compare_products"])
    asked = WHICH_PRICIER.search(msg.norm)
    if asked:
        cheaper = not re.search(r"pricier|dearer|more\s+expensive", asked.group(0))
        return _result(turn, [PlannedCall("compare_products", {"product_ids": ids[:10]}, then=PriceAnswer(cheaper))])
    return call(turn, "compare_products", {"product_ids": ids[:10]})


# "compare the two cheapest jeans", "compare the 3 best rated dresses": how many of a ranked search to compare.
RANKED_COUNT = _rx(
    r"\b(?:the\s+)?(2|3|4|5|two|three|four|five)\s+(?:\w+\s+){0,2}?(?:cheapest|least|most|priciest|dearest|"
    r"best|top|highest|newest|latest)\b|\b(?:cheapest|priciest|best|top|newest)\s+(2|3|4|5|two|three|four|five)\b"
)


@dataclass(frozen=True)
class CompareFirst:
    """What a search is for when the shopper asked to compare the first few of it: compare those products."""

    count: int = 2
    what: str = "products"  # "cheapest jeans"

    def __call__(self, result: dict) -> tuple[list[PlannedCall], str | None]:
        found = [p for p in result.get("products") or [] if isinstance(p, dict) and isinstance(p.get("id"), int)]
        if len(found) < 2:
            return [], None  # the search's own reply says what (little) it found
        chosen = found[: self.count]
        departments = {"men": "Men's", "women": "Women's", "kids": "Kids'"}
        named = [f"{p.get('name')} ({departments.get(p.get('category'), p.get('category'))}, {p.get('color')}, "
                 f"${p.get('price')})" for p in chosen]  # fmt: skip
        listed = ", ".join(named[:-1]) + " and " + named[-1]
        reply = f"Here are the {len(chosen)} {self.what} side by side: {listed}."
        return [PlannedCall("compare_products", {"product_ids": [p["id"] for p in chosen]})], reply

    def label(self) -> dict:
        return {"compare_first": self.count}


def _compare_ranked(turn: Turn) -> Interpretation | None:
    """ "compare the two cheapest jeans", "compare the 2 most expensive hoodies": that search, sorted, and its first
    products compared. With no garment, colour or department said, the last search sorted so."""
    msg = turn.msg
    counted = RANKED_COUNT.search(msg.norm)
    if (
        not msg.sort_by
        or msg.sort_by == "relevance"
        or not (
            counted
            or re.search(
                r"\b(?:cheapest|priciest|most\s+"
                r"expensive|best)\b",
                msg.norm,
            )
        )
    ):
        return None
    count = _number((counted.group(1) or counted.group(2)) if counted else None) or 2
    parts = search_parts(msg)
    parts["terms"] = [t for t in parts.get("terms") or [] if t not in NUM_WORDS and not t.isdigit()
                      and not COMPARE.search(t)]  # fmt: skip
    described = any(v for k, v in parts.items() if k not in ("sort_by",))
    if not described:
        last = turn.ctx.get("last_search")
        if not isinstance(last, dict) or not last:
            return None
        parts = {**last, "sort_by": msg.sort_by}
    result = _search_call(turn, parts)
    planned = result.calls[0]
    kind = planned.arguments.get("clothing_type")
    noun = (
        CLOTHING_TYPE_LABELS[kind].lower().replace("t-shirts", "T-shirts")
        if kind in CLOTHING_TYPE_LABELS
        else "products"
    )
    what = f"{RANK_WORDS.get(parts.get('sort_by'), 'first')} {noun}"
    result.calls[0] = PlannedCall(planned.name, planned.arguments, then=CompareFirst(min(max(count, 2), 10), what))
    return result


RANK_WORDS = {"price_low": "cheapest", "price_high": "most expensive", "rating": "best-rated", "newest": "newest"}


WHICH_PRICIER = _rx(
    r"\b(?:which|what)(?:'?s|\s+is|\s+one\s+is|s)?\s+(?:cheaper|pricier|dearer|(?:more|less)\s+expensive)\b"
)


def h_compare_list(turn: Turn) -> Interpretation | None:
    """A bare list of product numbers ("items 1, 2 and 4") is a comparison."""
    msg = turn.msg
    leftover = set(WORD.findall(_blank(PRODUCT_REF, msg.norm))) - {"and", "or", "please", "the", "vs", "with"}
    if len(msg.product_ids) >= 2 and not leftover:
        return call(turn, "compare_products", {"product_ids": msg.product_ids[:10]})
    return None


def _order_status(turn: Turn) -> Interpretation:
    msg = turn.msg
    args = turn.pending_args("order_status")
    order_id = msg.order_id or (msg.integers[0] if len(msg.integers) == 1 else None)
    if order_id is None and "order_id" not in args and isinstance(turn.ctx.get("last_order_id"), int):
        order_id = turn.ctx["last_order_id"]
    if order_id:
        args["order_id"] = order_id
    email = msg.emails[0] if msg.emails else args.get("email") or turn.user_email
    if email:
        args["email"] = email
    return finish(turn, "order_status", args)
