"""The phrase rules' cart handlers: add, remove, swap, change a line's count or options, what's in the cart, follow-ups
on the shown list."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ...services.search_terms import singular
from ...services.vocabulary import CLOTHING_TYPES, SIZES, normalise_color, normalise_size
from . import cart_lines
from .admin_fields import product_fields, sale_fields
from .cart_items import BEYOND_SIZES, NEGATIVE_COUNT, NOT_A_WHOLE_COUNT, NUMERIC_SIZE, Item, _item, _with_context, items
from .field_rules import LABELS, STREET_SUFFIX, ZIP, _looks_like_name, address_fields, review_fields
from .message import BARE_SIZE, Msg, _amount, _blank, _number, clothing_type
from .plans import CartCheck, CartStep, Interpretation, PlannedCall
from .rule_words import (
    ADD,
    ANY_TOKEN,
    CART,
    CART_QUESTION,
    CART_RX,
    CART_SHOW,
    CART_TOTAL,
    CATEGORY_OF,
    COUNT_INSTEAD,
    EXCLUDED,
    LETTER_SIZE,
    MAKE_LINE,
    MONEY,
    NOT_A_LINE,
    NUM,
    ONLY_LINE,
    ORDER_TALK,
    ORDINAL,
    PRICE_MAX,
    QTY_CHANGE,
    RATING,
    REFERENCE,
    REFINE,
    REMOVE,
    REMOVE_WORDS,
    SET_LINE,
    SHIP_TO,
    SIZE_WORDS,
    SMALL_TALK,
    SWAP,
    SWAP_ITEMS,
    WANT_COUNT,
    WHATS_LEFT,
    WORD,
    _rx,
)
from .search_rules import _search_call, search_parts
from .shop_rules import _checkout, _order_status
from .turns import Turn, _result, ask, call, calls, finish, say

# "make the hoodie red", "actually make my jeans a large": a line already in the cart, in another colour or size.
MAKE_LOOK = _rx(
    r"^(?:(?:ok(?:ay)?|actually|sorry|oh|wait|no|hmm|please|pls|can\s+you|could\s+you|hey|and|so|now)[\s,]+)*"
    r"make\s+(?:the|my)\s+(?P<old>[a-z][a-z' -]*?)\s+(?:in\s+)?(?:(?:size|an?)\s+)?(?P<new>xxl|xl|xs|s|m|l|small|medium|"
    r"large|[a-z]+)(?:\s+(?:one|ones|instead|please|pls|then|size))*\W*$"
)


# "a size larger", "one size up", "the next size down", "a bigger size": the line's size, one step up or down.
RELATIVE_STEP = re.compile(
    r"(?:(?:a|one|the)\s+)?(?:(?:size|one\s+size)\s+)?(?:(?P<word>bigger|larger|smaller|up|down)|next\s+size\s+"
    r"(?P<next>up|down))(?:\s+size)?(?:\s+(?:please|pls|instead))*"
)


def h_swap(turn: Turn) -> Interpretation | None:
    """ "swap the white shirt for a blue one", "make the hoodie red": read the cart, add the new item (unsaid details
    from the line), then remove the old line once that worked."""
    match = SWAP_ITEMS.search(turn.msg.without_refs) or MAKE_LOOK.match(turn.msg.norm)
    if not match:
        return None
    if match.re is MAKE_LOOK and not (normalise_color(match.group("new")) or normalise_size(match.group("new"))):
        return None
    old, new = _item(match.group(1)), _item(match.group(2))
    step = RELATIVE_STEP.fullmatch(match.group(2).strip(" .!?")) if match.re is SWAP_ITEMS else None
    if step and old.identified:
        # "swap the sneakers for a size larger": the same line, the next of the shop's sizes (read from the cart).
        line = cart_lines.WantedLine(None, old.product_id, old.clothing_type, old.color, old.size, old.category)
        up = (step.group("word") or step.group("next") or "").lower() in ("bigger", "larger", "up")
        return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(line, (("size_step", 1 if up else -1),)))])
    if not old.identified or not (new.identified or new.color or new.size):
        return None
    line = cart_lines.WantedLine(None, old.product_id, old.clothing_type, old.color, old.size, old.category)
    fields = (("product_id", new.product_id), ("clothing_type", new.clothing_type), ("selected_color", new.color),
              ("selected_size", new.size), ("category", new.category))  # fmt: skip
    replacement = tuple((name, value) for name, value in fields if value)
    return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(line, replacement, new.quantity))])


def h_cart_remove(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if not (msg.has(REMOVE) or turn.sure("cart_remove")) or (
        msg.has(ORDER_TALK) and not msg.has(CART_RX) and not msg.types
    ):
        return None
    if msg.has(ADD) and not msg.has(REMOVE_WORDS):  # "add the hoodie, I won't need the receipt": an add
        return None
    found = [i for i in items(msg) if i.identified]
    loose = items(msg)[0]
    loose.size = loose.size or msg.size  # "remove the L one": a capital letter is a size
    if not found and (loose.color or loose.size) and not loose.quantity and not ORDINAL.search(msg.norm):
        # "remove the red thing": the cart's one red line, whatever it is.
        line = cart_lines.WantedLine(0, color=loose.color, size=loose.size)
        return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(line))])
    if not found:
        base = _with_context(turn, loose)
        if base is None:
            return ask(turn, "Which item should I remove from your cart?")
        found = [base]
    named = found[0]
    word = _garment_word(msg, named.clothing_type) if len(found) == 1 and named.product_id is None else None
    if word and not named.quantity:
        # "remove the joggers" with chinos in the cart too: the line whose name has the word the shopper used
        line = cart_lines.WantedLine(0, None, named.clothing_type, named.color, named.size, named.category, word)
        return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(line))])
    if len(found) == 1 and named.category and named.product_id is None and not named.quantity:
        # "remove the women's hoodie": the removal cannot name a department, so the cart's lines decide which one
        line = cart_lines.WantedLine(0, None, named.clothing_type, named.color, named.size, named.category)
        return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(line))])
    planned = []
    for item in found:
        args = item.arguments(remove=True)
        quantity = item.quantity or (1 if re.search(r"\b(?:a|an)\b", msg.norm) and item.clothing_type else None)
        if quantity:
            args["quantity"] = min(quantity, 100)
        planned.append(("cart_remove_item", args))
    return calls(turn, planned)


def _garment_word(msg: Msg, kind: str | None) -> str | None:
    """The shopper's own word for a garment when it is not the shop's type name ("joggers" for pants)."""
    if not kind:
        return None
    for word in WORD.findall(msg.low):
        base = singular(word)
        if clothing_type(word) == kind and base not in (kind, singular(kind)) and base not in CLOTHING_TYPES:
            return base if len(base) >= 4 and base not in ("tshirt", "tee", "tees", "top", "tops") else None
    return None


def h_cart_add(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    wants = WANT_COUNT.search(msg.norm) and msg.types
    in_cart = (
        wants
        or msg.has(CART_RX)
        and re.search(r"\b(?:in|into|to)\s+(?:my|the|our)?\s*(?:shopping\s+)?" + CART, msg.norm)
    )
    # surely an add without an add verb ("I'd like the crew neck tee in navy, L", "throw in two white tees"): a line
    # is said (a size, a count or "it"); "I want the tie neck blouse" alone shows it, to choose a size on
    said = msg.size or msg.has(REFERENCE) or re.search(r"\b(?:\d+|two|three|four|five|six|couple)\b", msg.norm)
    surely = turn.sure("cart_add") and said and "?" not in msg.raw and not CART_QUESTION.search(msg.norm)
    if not (msg.has(ADD) or in_cart or surely) or (
        msg.has(CART_RX) and CART_QUESTION.search(msg.norm) and not msg.has(ADD)
    ):
        return None
    if INSTEAD_OF_IT.search(msg.norm) and turn.ctx.get("last_action") == "cart_add_item" and not msg.types:
        return None  # "can I have it in blue instead?": the line just added changes (h_refine), no second line
    found = [i for i in items(msg) if i.identified]
    if not found:
        loose = items(msg)[0]
        referred = msg.has(REFERENCE) or ORDINAL.search(msg.norm) or loose.quantity or loose.color or loose.size
        item = _with_context(turn, loose) if referred or msg.has(CART_RX) else None
        pronoun = re.search(r"\b(?:it|that|this|them|those|these|same)\b", msg.norm)
        if item is None and (msg.category or msg.colors or msg.max_price) and not (msg.has(CART_RX) or pronoun):
            # "buy me something under 50 in pink for my mum": no garment to add yet, so what fits is shown
            return _search_call(turn, search_parts(msg))
        if item is None:
            return ask(turn, "What would you like me to add to your cart?")
        found = [item]
    return _add(turn, found)


INSTEAD_OF_IT = re.compile(r"\b(?:it|that|this|them|those|one)\b.*\binstead\b")

# "add 2 red shirts, no make it 3": the count said last stands.
RECOUNT = re.compile(
    r"(?:,|\bno\b|\bactually\b|\bsorry\b|\bwait\b|\boops\b)\s*,?\s*(?:no\s*,?\s*)?(?:make\s+(?:it|that|them)|"
    r"i\s+mean|rather)\s+(" + NUM + r")\b"
)


def _add(turn: Turn, found: list[Item]) -> Interpretation:
    recount = RECOUNT.search(turn.msg.norm)
    if recount and len(found) == 1:
        found[0].quantity = _number(recount.group(1)) or found[0].quantity
    if NEGATIVE_COUNT.search(turn.msg.norm) or NOT_A_WHOLE_COUNT.search(turn.msg.low):
        return say(turn, "I can only add items, from 1 to 10 at a time — how many would you like?")
    planned = []
    for item in found:
        args = item.arguments()
        args["quantity"] = item.quantity or 1
        beyond = BEYOND_SIZES.search(turn.msg.low)
        if (NUMERIC_SIZE.search(turn.msg.norm) and not item.size or beyond) and len(found) == 1:
            # Asked like the shop's own "which size?", so that "M" or "large" next adds it.
            asked = (f"We don't make {beyond.group(0).upper()}: our sizes run {SIZES[0]} to {SIZES[-1]}" if beyond
                     else f"Our sizes are letters, not numbers: {', '.join(SIZES)}")  # fmt: skip
            args.pop("selected_size", None)
            result = ask(turn, f"{asked} — which size would you like?")
            quantity = args.pop("quantity")
            result.context.update(
                last_action="cart_add_item", last_item=args, last_quantity=quantity, last_add_failed=True
            )  # nothing added yet: the answer adds, it swaps nothing
            return result
        if args["quantity"] > 10:
            args["quantity"] = 10
            return ask(turn, "I can add at most 10 of an item at a time — shall I add 10?", "cart_add_item", args,
                       confirm=True)  # fmt: skip
        planned.append(("cart_add_item", args))
    return calls(turn, planned)


LINE_IN_STOCK = re.compile(
    r"\b(?:is|are)\s+(?:the\s+|my\s+)?(?P<item>[a-z -]+?)\s+(?:in|from)\s+my\s+(?:cart|basket|bag)\s+(?:still\s+)?"
    r"(?:in\s+stock|available)\b"
)


@dataclass(frozen=True)
class LineStock:
    """Once the cart is read: whether the line named is in stock for its count."""

    line: cart_lines.WantedLine

    def __call__(self, result: dict) -> tuple[list, str | None]:
        found, reason = cart_lines.the_line(result.get("cart") or {}, self.line)
        if found is None:
            return [], reason
        stock, held = int(found.get("stock") or 0), int(found.get("quantity") or 0)
        label = cart_lines.line_label(found)
        if stock >= held:
            return [], f"Yes — {label} is in stock ({stock} left), enough for the {held} in your cart."
        if stock:
            return [], f"Only {stock} of {label} are left, fewer than the {held} in your cart."
        return [], f"{label} is sold out now; it stays in your cart but cannot be ordered until it is back."

    def label(self) -> dict:
        return {"stock_of": {k: v for k, v in vars(self.line).items() if v is not None and k != "count"}}


def h_cart_line_stock(turn: Turn) -> Interpretation | None:
    """ "is the sweater in my cart still in stock?": read the cart and answer from that line's stock."""
    match = LINE_IN_STOCK.search(turn.msg.norm)
    if not match:
        return None
    named = _item(match.group("item"))
    line = cart_lines.WantedLine(None, named.product_id, named.clothing_type, named.color, named.size, named.category)
    return _result(turn, [PlannedCall("cart_show", {}, then=LineStock(line))])


# "is the hoodie still in my basket?", "can't find my sneakers in the cart, are they there?": whether a line is there.
CART_PRESENCE = _rx(
    r"\b(?:is|are|was|were)\s+(?:the|my|it|they|those|these|that|there)\b[^?.!]*?\b(?:in|inside)\s+(?:my|the|our)\s+"
    r"(?:shopping\s+)?(?:cart|basket|bag|trolley)\b|"
    r"\b(?:can\s*not|cannot|can'?t|could\s*n'?t|do\s*n'?t|do\s+not)\s+(?:find|see)\b[^?.!]*?\b(?:cart|basket|bag|trolley)\b"
)


def h_cart_presence(turn: Turn) -> Interpretation | None:
    """A question whether something is in the cart: read the cart and answer yes or no (never an add)."""
    msg = turn.msg
    if not msg.has(CART_PRESENCE) or msg.has(ADD) or msg.has(REMOVE):
        return None
    named = next((i for i in items(msg) if i.identified), None)
    if named is None:
        return None
    line = cart_lines.WantedLine(None, named.product_id, named.clothing_type, named.color, named.size, named.category)
    return _result(turn, [PlannedCall("cart_show", {}, then=CartCheck(line))])


def h_cart_show(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    question = CART_QUESTION.search(msg.norm)
    if (msg.has(ADD) or msg.has(REMOVE)) and not question:
        return None
    bare = re.fullmatch(
        r"\W*(?:(?:my|the|open|view|show)\s+)?(?:shopping\s+)?(?:cart|basket|bag)"
        r"(?:\s+(?:please|pls|plz|now|again))?\W*",
        msg.norm,
    )
    cart_words = msg.has(CART_RX) and (msg.has(CART_SHOW) or question)
    left = msg.has(WHATS_LEFT) and turn.ctx.get("last_action") in ("cart_remove_item", "cart_add_item", "cart_show")
    left = left or re.search(r"\bhow\s+much\b.*\b(?:all\s+together|altogether|together|in\s+total|total|in\s+all)\b|"
                             r"\b(?:how\s+much|what)\s+(?:does|do|will|would|is)\s+(?:it|that|everything|this|they|"
                             r"those|these|my\s+stuff)\s+(?:all\s+)?(?:come\s+to|add\s+up\s+to|cost\s+(?:all\s+)?together)\b|"
                             r"\bhow\s+much\s+(?:is|does)\s+everything\b|\bwhat\s+do\s+i\s+owe\b",
                             msg.norm)  # fmt: skip
    surely = turn.sure("cart_show")  # "what's the damage?"
    return call(turn, "cart_show", {}) if bare or cart_words or left or surely or msg.has(CART_TOTAL) else None


def h_quantity_change(turn: Turn) -> Interpretation | None:
    """ "make it 3" after adding 1: add (or remove) the difference."""
    match = QTY_CHANGE.match(turn.msg.norm)
    last = turn.ctx.get("last_item")
    if not match or turn.ctx.get("last_action") != "cart_add_item" or not isinstance(last, dict) or not last:
        return None
    wanted, had = _number(match.group(1)), int(turn.ctx.get("last_quantity") or 1)
    if wanted and turn.ctx.get("last_add_failed"):  # nothing was added: ask the shop again, for the new count
        result = call(turn, "cart_add_item", {**last, "quantity": min(wanted, 10)})
        result.context.update(last_quantity=min(wanted, 10), last_action="cart_add_item")
        return result
    if not wanted or wanted == had:
        return say(turn, f"You already have {had} of those in your cart.")
    if wanted > had:
        result = call(turn, "cart_add_item", {**last, "quantity": min(wanted - had, 10)})
    else:
        removal = {k: v for k, v in last.items() if k != "category"}
        result = call(turn, "cart_remove_item", {**removal, "quantity": had - wanted})
    result.context["last_quantity"] = min(wanted, had + 10)
    result.context["last_action"] = "cart_add_item"
    return result


def h_set_line_quantity(turn: Turn) -> Interpretation | None:
    """ "set the grey hoodie to 4": read the cart, then add or remove the difference on that line."""
    match = SET_LINE.match(turn.msg.norm) or ONLY_LINE.match(turn.msg.norm) or MAKE_LINE.match(turn.msg.norm)
    match = match or COUNT_INSTEAD.match(turn.msg.norm.lower())
    if not match or NOT_A_LINE.search(match.group("item")):
        return None
    count = _number(match.group("count"))
    named = _item(match.group("item"))
    if count is None or count > 100:
        return None
    if not (named.product_id or named.clothing_type or named.color):
        last = turn.ctx.get("last_item")
        if not REFERENCE.fullmatch(match.group("item").strip()) or not isinstance(last, dict) or not last:
            return None
        named = Item(product_id=last.get("product_id"), clothing_type=last.get("clothing_type"),
                     color=last.get("selected_color"), size=last.get("selected_size"))  # fmt: skip
    wanted = cart_lines.WantedLine(count, named.product_id, named.clothing_type, named.color, named.size,
                                   named.category)  # fmt: skip
    return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(wanted))])


def h_pending(turn: Turn) -> Interpretation | None:
    """The answer to last turn's follow-up question: fill the waiting call."""
    if not turn.pending or (SMALL_TALK.search(turn.msg.norm) and not re.search(r"\d|@", turn.msg.norm)):
        return None
    fill = PENDING_FILLERS.get(turn.pending.get("tool"))
    return fill(turn) if fill else None


def _addressy(msg: Msg, *, name_missing: bool) -> bool:
    """Does the message carry shipping details (not just any words while a checkout waits)?"""
    if msg.emails or ZIP.search(msg.raw) or LABELS.search(msg.raw) or SHIP_TO.search(msg.low):
        return True
    if re.search(r"\bmy\s+name\s+is\b|^\s*\d+[a-z]?\s+(?:\w+\s+){0,3}" + STREET_SUFFIX + r"(?:\W|$)", msg.low):
        return True
    vocabulary = msg.types or msg.colors or msg.category or msg.size or msg.product_ids
    return name_missing and not vocabulary and _looks_like_name(msg.raw.strip(" .!"))


def _fill_checkout(turn: Turn) -> Interpretation | None:
    before = turn.pending_args("checkout_proceed")
    if not _addressy(turn.msg, name_missing="shipping_name" not in before):
        return None
    found = address_fields(turn.msg, bare_name="shipping_name" not in before)
    return (
        _checkout(turn, bare_name="shipping_name" not in before)
        if found and any(before.get(k) != v for k, v in found.items())
        else None
    )


def _fill_order_status(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    return _order_status(turn) if msg.emails or msg.order_id or len(msg.integers) == 1 else None


def _fill_track(turn: Turn) -> Interpretation | None:
    match = ANY_TOKEN.search(turn.msg.raw) or re.fullmatch(r"\s*([A-Za-z0-9-]{5,100})\s*", turn.msg.raw)
    return call(turn, "order_track", {"tracking_number": match.group(1).upper()}) if match else None


def _fill_review(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    rating = RATING.search(msg.low) or re.fullmatch(r"\s*([1-5](?:\.5)?)\s*[.!]*\s*", msg.low)
    pending = turn.pending_args("review_create")
    if rating is None and not msg.product_ids and not msg.integers:
        return None
    args = {**pending, **review_fields(turn, rating)}
    if "product_id" not in args and msg.integers and rating is None:
        args["product_id"] = msg.integers[0]
    return finish(turn, "review_create", args)


def _fill_order_update(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    order_id = msg.order_id or (msg.integers[0] if len(msg.integers) == 1 else None)
    if order_id is None:
        return None
    return call(
        turn, "admin_order_update_status", {**turn.pending_args("admin_order_update_status"), "order_id": order_id}
    )


def _fill_compare(turn: Turn) -> Interpretation | None:
    ids = list(dict.fromkeys(turn.msg.integers))
    return call(turn, "compare_products", {"product_ids": ids[:10]}) if len(ids) >= 2 else None


def _fill_sale(turn: Turn) -> Interpretation | None:
    found = sale_fields(turn)
    return finish(turn, "admin_sale_create", {**turn.pending_args("admin_sale_create"), **found}) if found else None


def _fill_product(turn: Turn) -> Interpretation | None:
    found = product_fields(turn.msg)
    pending = turn.pending_args("admin_product_create")
    bare_price = re.fullmatch(r"\s*\$?\s*" + MONEY + r"\s*", turn.msg.norm)
    if "price" not in pending and "price" not in found and bare_price:
        found["price"] = _amount(bare_price.group(1))
    if "name" not in pending and "name" not in found and not re.search(r"\d", turn.msg.norm) and not found:
        found["name"] = turn.msg.raw.strip(" .!\"'")[:255]
    return finish(turn, "admin_product_create", {**pending, **found}) if found else None


PENDING_FILLERS: dict[str, Callable[[Turn], Interpretation | None]] = {
    "checkout_proceed": _fill_checkout,
    "order_status": _fill_order_status,
    "order_track": _fill_track,
    "admin_order_update_status": _fill_order_update,
    "review_create": _fill_review,
    "compare_products": _fill_compare,
    "admin_sale_create": _fill_sale,
    "admin_product_create": _fill_product,
}


CHANGE_ASPECT = re.compile(
    r"^(?:(?:can|could)\s+you\s+|please\s+|pls\s+)?(?:change|switch|swap|update)\s+(?:the\s+|my\s+)?(?:(?P<item>[a-z-]+)(?:'?s)?\s+)?"
    r"(?:size|colou?r)\s+(?:of\s+(?:the\s+|my\s+)?(?P<of>[a-z-]+)\s+)?(?:to|into)\s+"
)


def h_change_cart_line(turn: Turn) -> Interpretation | None:
    """ "change the size to XL" with nothing just added: read the cart and change its one line (or the one named)."""
    msg = turn.msg
    match = CHANGE_ASPECT.match(msg.norm)
    if not match or (turn.ctx.get("last_action") == "cart_add_item" and turn.ctx.get("last_item")):
        return None
    if turn.ctx.get("last_action") == "search_products" and not re.search(CART, msg.norm):
        return None  # after a list, "change the size to XL" narrows that search (h_refine)
    changes = _attribute_changes(msg)
    if not (changes.get("size") or changes.get("color")):
        return None
    kind = clothing_type(match.group("item") or "") or clothing_type(match.group("of") or "")
    line = cart_lines.WantedLine(None, clothing_type=kind)
    fields = (("selected_color", changes.get("color")), ("selected_size", changes.get("size")))
    replacement = tuple((name, value) for name, value in fields if value)
    return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(line, replacement, None))])


def h_refine(turn: Turn) -> Interpretation | None:
    """ "what about in blue?", "in medium instead", "under $30?": the last search or cart add, adjusted."""
    msg = turn.msg
    if msg.types or msg.product_ids:
        return None
    changes = _attribute_changes(msg)
    if not changes:
        return None
    if turn.ctx.get("last_action") == "cart_add_item" and isinstance(turn.ctx.get("last_item"), dict):
        if not (msg.has(REFINE) or _only_attributes(msg)) or EXCLUDED.search(msg.norm):
            return None  # "no red", "grey should be fine": not a change to what was just added
        if BARE_SIZE.fullmatch(msg.core) and not turn.ctx.get("last_add_failed"):
            return None  # a lone "L" after a successful add: which line, and add or change? unclear
        return _refine_add(turn, changes)
    if not (msg.has(REFINE) or _only_attributes(msg, SEARCH_FILLER)):
        return None
    if not turn.ctx.get("last_search") and turn.sure("cart_update"):
        return None  # "actually make it a small" with no list shown: a change to the cart's line (cart_updates.py)
    search = dict(turn.ctx.get("last_search") or {})
    search.update(changes)
    return _search_call(turn, search)


def _attribute_changes(msg: Msg) -> dict:
    changes = {"color": msg.colors[0] if msg.colors else None, "size": msg.size, "category": msg.category,
               "max_price": msg.max_price, "sort_by": msg.sort_by, "min_price": msg.min_price,
               "on_sale": msg.on_sale or None}  # fmt: skip
    return {k: v for k, v in changes.items() if v is not None}


# Words around attributes that change nothing: "in medium instead", "no wait, I meant XL", "change the size to L".
_ATTRIBUTE_FILLER_WORDS = """
    what about how in a an the for please ones one them it size this that these those got any available come comes
    does is are instead version colour color maybe then show me do you have only but with and sorted sort by i
    meant mean wait sorry oops actually should been be say to my bad mistake change switch swap update its make
    rather prefer
"""
ATTRIBUTE_FILLER = frozenset(_ATTRIBUTE_FILLER_WORDS.split())
# Narrowing a search may also be asked for: "I'd like to see the red ones only".
SEARCH_FILLER = ATTRIBUTE_FILLER | {"like", "see", "id", "d", "would", "want", "just", "let", "look", "at", "no"}


def _only_attributes(msg: Msg, filler: frozenset[str] = ATTRIBUTE_FILLER) -> bool:
    text = _blank(LETTER_SIZE, _blank(PRICE_MAX, msg.core))
    words = [w for w in WORD.findall(text) if w not in filler and not w.isdigit()]
    letters = {"s", "m", "l"} if msg.size else set()  # "M please" after "which size?"
    return all(normalise_color(w) or w in SIZE_WORDS or w in letters or w in CATEGORY_OF for w in words)


def _refine_add(turn: Turn, changes: dict) -> Interpretation | None:
    last = dict(turn.ctx["last_item"])
    quantity = int(turn.ctx.get("last_quantity") or 1)
    keys = {"color": "selected_color", "size": "selected_size", "category": "category"}
    new = {**last, **{keys[k]: v for k, v in changes.items() if k in keys}}
    if new == last:
        return None
    line = turn.ctx.get("last_line") if isinstance(turn.ctx.get("last_line"), dict) else {}
    if set(changes) == {"size"} and isinstance(line.get("product_id"), int):
        # Another size of the very product added, not whichever garment of that type fits it.
        new = {"product_id": line["product_id"], **({"selected_color": line["color"]} if line.get("color") else {}),
               "selected_size": changes["size"]}  # fmt: skip
    elif line.get("category") and "category" not in changes:
        new["category"] = line["category"]  # another colour stays in the department of the line it replaces
    add = ("cart_add_item", {**new, "quantity": quantity})
    if turn.msg.has(SWAP) and not turn.ctx.get("last_add_failed"):
        # The new line first: if the shop has no such variant, the line already in the cart stays.
        removal = _last_line_removal(turn.ctx) or {k: v for k, v in last.items() if k != "category"}
        result = calls(turn, [add])
        result.calls.append(PlannedCall("cart_remove_item", {**removal, "quantity": quantity}, after_success=True))
        return result
    return calls(turn, [add])


def _last_line_removal(ctx: dict) -> dict | None:
    """The cart line the last add made (product, size, colour), as cart_remove_item arguments."""
    line = ctx.get("last_line")
    if not isinstance(line, dict) or not isinstance(line.get("product_id"), int):
        return None
    keys = (("product_id", "product_id"), ("size", "selected_size"), ("color", "selected_color"))
    return {target: line[source] for source, target in keys if line.get(source)}
