"""Stage 4 — slots: fill a call from the conversation. Follow-ups that point at what was just shown or added —
"the second one in medium", "the cheapest one", "take the less expensive one", "make that 3", "order them
cheapest first", "fine, clear it" — and, after the rules ran, the arguments the message leaves out: products by
name, the guest reviewer's name, carrier and tracking for shipping, the last shipping address at checkout."""

from __future__ import annotations

import re

from . import entities, lexicon
from .intent import Request, ask, one_call, reply
from .rules import (
    ADD,
    COMPARE,
    OPTIONS_ASPECT,
    OPTIONS_VALUE,
    ORDINAL,
    ORDINALS,
    RATING,
    REMOVE,
    Interpretation,
    Msg,
    PlannedCall,
    Turn,
    _quantity,
    _search_call,
)

CHEAPER = re.compile(lexicon.CHEAPER)
# Superlatives only: "nothing more expensive than $50" is a price bound, not "the priciest".
CHEAPEST = re.compile(r"\b(?:cheapest|least\s+expensive|lowest[\s-]priced|lowest\s+price)\b")
PRICIEST = re.compile(r"\b(?:priciest|most\s+expensive|highest[\s-]priced|highest\s+price|dearest)\b")
PRICIER = re.compile(lexicon.PRICIER)
QUESTION_CUE = re.compile(r"\?|^\W*(?:what|which|how|is|are|does|do|can|could|will|would)\b")
PICK_WORDS = re.compile(
    r"\b(?:one|ones|item|product|option|result|match|of\s+(?:them|those|these|the\s+two)|pick|take|want|get|grab|choose|"
    r"go\s+(?:with|for)|i'?ll\s+have|i\s+will\s+(?:have|take|get))\b"
)
SORT_TARGET = re.compile(r"\b(?:them|those|these|results?|list|it|first|sort|sorted|order|arrange|rank)\b")
CLEAR_IT = re.compile(
    r"^(?:\W*(?:ok|okay|fine|alright|all\s+right|yes|yeah|sure|go\s+ahead|then|just|please|so|right|well|ugh)\b\W*)*"
    r"(?:clear|empty|wipe|reset)\s+(?:it|everything|all|it\s+all|it\s+out|them\s+all)\b(?:\s+(?:out|then|please|now))*\W*$"
)
QTY_TARGET = re.compile(
    r"^(?:(?:actually|ok|okay|oh|sorry|wait|no|hmm|and|please|can\s+you|could\s+you|hey)[\s,]+)*"
    r"(?:make\s+(?:it|that|them|those|this)|change\s+(?:it|that|the\s+quantity|quantity)\s+to|set\s+(?:it|the\s+"
    r"quantity|quantity)\s+to|i\s+(?:want|need)|let'?s\s+(?:do|make\s+it)|update\s+(?:it|the\s+quantity)\s+to|"
    r"just|only)"
    r"\s*(\d+)(?:\s+(?:of\s+them|instead|then|please|in\s+total|total|units?|pieces?))*\W*$"
)


def _price(entry: dict) -> float | None:
    price = entry.get("price")
    return float(price) if isinstance(price, int | float) else None


def pick_from_shown(request: Request) -> Interpretation | None:  # noqa: C901 — one table of pick cues
    """ "the second one in medium", "the cheapest one", "take the less expensive one": a product just shown."""
    shown = [p for p in request.context.get("last_shown") or [] if isinstance(p, dict) and isinstance(p.get("id"), int)]
    if not shown:
        return None
    msg = Msg(request.norm.text)
    plain = request.plain
    if msg.has(COMPARE) or msg.has(REMOVE) or RATING.search(msg.low) or msg.product_ids or msg.types:
        return None
    if msg.has(OPTIONS_ASPECT) or msg.has(OPTIONS_VALUE):
        return None  # "what sizes does the second one come in?" asks about it (rules.h_product_options)
    more_of_the_list = re.search(r"\b(?:ones|any|anything|something|others)\b", plain) and not ORDINAL.search(msg.norm)
    if more_of_the_list and (CHEAPER.search(plain) or PRICIER.search(plain)):
        return None  # "cheaper ones?", "anything cheaper?": more of the list, not one of it
    chosen = None
    ordinal = ORDINAL.search(msg.norm)
    priced = [p for p in shown if _price(p) is not None]
    choice = request.context.get("choice_for") if isinstance(request.context.get("choice_for"), dict) else None
    if choice is not None and QUESTION_CUE.search(plain):
        choice = None  # "what colours does the second one come in?" asks; it does not choose
    by_color = [p for p in shown if msg.colors and msg.colors[0] in (p.get("colors") or [])]
    if choice is not None and len(by_color) == 1 and not ordinal:
        chosen = by_color[0]  # "the black ones" after "which one would you like?"
    elif len(by_color) == 1 and not ordinal and msg.size and re.search(r"\bones?\b", plain):
        chosen = by_color[0]  # "the purple one in M" after a list: the one purple product shown
    elif ordinal and PICK_WORDS.search(plain):
        index = ORDINALS[ordinal.group(1)]
        chosen = shown[index] if -len(shown) <= index < len(shown) else None
    elif priced and CHEAPER.search(plain) and PICK_WORDS.search(plain):
        chosen = min(priced, key=_price)
    elif priced and PRICIER.search(plain) and PICK_WORDS.search(plain):
        chosen = max(priced, key=_price)
    if chosen is None:
        return None
    size, color = msg.size, (msg.colors[0] if msg.colors else None)
    quantity = _quantity(
        re.sub(
            r"\b(?:first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)\b|\b(?:of\s+)?(?:the|these|"
            r"those|them)\s+(?:two|2|three|3)\b|\bboth\b",
            " ",
            msg.norm,
        )
    )
    if choice is not None:  # the add that asked which one: its size, colour and quantity stand
        size, color = size or choice.get("selected_size"), color or choice.get("selected_color")
        counted = re.search(r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\b", msg.norm)
        quantity = (quantity if counted else None) or choice.get("quantity")  # "the cheaper one": which, not how many
    wants = msg.has(ADD) or re.search(r"\b(?:take|get|grab|want|buy|go\s+with|go\s+for|have)\b", plain) or choice
    if not (wants or size or color or quantity):
        name = chosen.get("name") or f"product {chosen['id']}"
        price = f" at ${_price(chosen):.2f}" if _price(chosen) is not None else ""
        result = reply(request, f"That's the {name}{price}. Shall I add it to your cart? (You can say a size too.)")
        result.context.update(last_product_id=chosen["id"],
                              pending={"tool": "cart_add_item", "args": {"product_id": chosen["id"], "quantity": 1},
                                       "confirm": True})  # fmt: skip
        return result
    arguments: dict = {"product_id": chosen["id"]}
    if size:
        arguments["selected_size"] = size
    elif len(chosen.get("sizes") or []) == 1:
        arguments["selected_size"] = chosen["sizes"][0]
    if color:
        arguments["selected_color"] = color
    arguments["quantity"] = min(quantity or 1, 10)
    item = {k: v for k, v in arguments.items() if k != "quantity"}
    return one_call(request, "cart_add_item", arguments, last_item=item, last_quantity=arguments["quantity"],
                    last_product_id=chosen["id"])  # fmt: skip


def add_it_after_pick(request: Request) -> Interpretation | None:
    """ "add it" / "yes" after "the cheapest one": the picked product."""
    pending = request.pending
    if not pending or pending.get("tool") != "cart_add_item" or not pending.get("confirm"):
        return None
    msg = Msg(request.norm.text)
    if msg.types or msg.product_ids:
        return None
    yes = re.match(r"^\W*(?:yes|yeah|yep|sure|ok|okay|please|do\s+it|go\s+ahead|add\s+(?:it|that|this|that\s+one|this"
                   r"\s+one)|i'?ll\s+take\s+it|take\s+it|buy\s+it|get\s+it)\b", request.plain)  # fmt: skip
    if not (yes or (msg.has(ADD) and re.search(r"\b(?:it|that|this|one)\b", request.plain))):
        return None
    arguments = dict(pending.get("args") or {})
    if msg.size:
        arguments["selected_size"] = msg.size
    if msg.colors:
        arguments["selected_color"] = msg.colors[0]
    quantity = _quantity(msg.norm)
    if quantity:
        arguments["quantity"] = min(quantity, 10)
    item = {k: v for k, v in arguments.items() if k != "quantity"}
    return one_call(request, "cart_add_item", arguments, last_item=item, last_quantity=arguments.get("quantity", 1))


def sort_follow_up(request: Request) -> Interpretation | None:
    """ "order them cheapest first": the last search again, sorted."""
    last = request.context.get("last_search")
    if not isinstance(last, dict):
        return None
    msg = Msg(request.norm.text)
    if not msg.sort_by or msg.types or msg.product_ids or msg.colors or not SORT_TARGET.search(request.plain):
        return None
    if re.search(r"\b(?:one|item)\b", request.plain) and not re.search(r"\bfirst\b", request.plain):
        return None
    turn = Turn(request.norm.text, request.context, request.is_admin)
    return _search_call(turn, {**last, "sort_by": msg.sort_by})


def clear_it(request: Request) -> Interpretation | None:
    """ "fine, clear it": empty the cart (the guard asks for confirmation)."""
    return one_call(request, "cart_clear", {}) if CLEAR_IT.match(request.plain) else None


def quantity_target(request: Request) -> Interpretation | None:
    """ "make that 3": bring the cart line last added to that quantity (add or remove the difference)."""
    line = request.context.get("last_line")
    match = QTY_TARGET.match(request.plain)
    if not match or not isinstance(line, dict) or not isinstance(line.get("product_id"), int):
        return None
    if request.context.get("last_action") not in (None, "cart_add_item", "cart_remove_item"):
        return None
    wanted, had = int(match.group(1)), int(line.get("quantity") or 1)
    target = {"product_id": line["product_id"]}
    if line.get("size"):
        target["selected_size"] = line["size"]
    if line.get("color"):
        target["selected_color"] = line["color"]
    if wanted == had:
        return reply(request, f"You already have {had} of those in your cart.")
    if wanted < 1:
        return one_call(request, "cart_remove_item", target)
    if wanted > had:
        return one_call(request, "cart_add_item", {**target, "quantity": min(wanted - had, 10)}, last_quantity=wanted)
    return one_call(request, "cart_remove_item", {**target, "quantity": had - wanted}, last_quantity=wanted)


def department_answer(request: Request) -> Interpretation | None:
    """ "men's" after "We have the Oxford Button-Down Shirt as men's or women's — which one?"."""
    pending = request.pending
    if not pending or pending.get("tool") != "cart_add_item" or not isinstance(pending.get("choices"), dict):
        return None
    msg = Msg(request.norm.text)
    chosen = pending["choices"].get(msg.category) if msg.category else None
    if chosen is None:
        return None
    arguments = {"product_id": chosen, **(pending.get("args") or {})}
    if msg.size:
        arguments["selected_size"] = msg.size
    item = {k: v for k, v in arguments.items() if k != "quantity"}
    return one_call(request, "cart_add_item", arguments, last_item=item, last_quantity=arguments.get("quantity", 1),
                    last_product_id=chosen)  # fmt: skip


PRICE_QUESTION = re.compile(r"\b(?:how\s+much|price|cost|costs)\b.*\b(?:it|that|this|that\s+one|this\s+one|the\s+"
                            r"(?:first|second|third|last)(?:\s+one)?)\b")  # fmt: skip


def price_of_shown(request: Request) -> Interpretation | None:
    """ "how much is it?", "what does the second one cost?": answered from the list just shown."""
    shown = [p for p in request.context.get("last_shown") or [] if isinstance(p, dict) and _price(p) is not None]
    if not PRICE_QUESTION.search(request.plain):
        return None
    msg = Msg(request.norm.text)
    if msg.product_ids or msg.types or msg.has(ADD):
        return None
    if re.search(r"\b(?:total|together|altogether|all|in\s+all|come\s+to|everything)\b", request.plain):
        return None  # the cart's total, not one price
    line = request.context.get("last_line")
    if isinstance(line, dict) and line.get("unit_price") and line.get("product_id") == request.context.get(
        "last_product_id"
    ) and not ORDINAL.search(msg.norm):
        # "how much is it?" right after adding it: the price the cart charges (sales included)
        return reply(request, f"The {line.get('name') or 'item'} is ${line['unit_price']} each.")
    if not shown:
        return None
    ordinal = ORDINAL.search(msg.norm)
    if ordinal:
        index = ORDINALS[ordinal.group(1)]
        chosen = shown[index] if -len(shown) <= index < len(shown) else None
    else:
        last = request.context.get("last_product_id")
        chosen = next((p for p in shown if p["id"] == last), shown[0] if len(shown) == 1 else None)
    if chosen is None:
        return None
    result = reply(request, f"The {chosen.get('name') or 'product'} is ${_price(chosen):.2f}.")
    result.context["last_product_id"] = chosen["id"]
    return result


BOTH = re.compile(r"\b(?:both(?:\s+of\s+them)?|all\s+(?:of\s+)?(?:them|those|these|three|two)|each\s+of\s+them)\b")
OTHER = re.compile(r"\b(?:the\s+other\s+(?:one|item|product)|the\s+other)\b")
MORE = re.compile(r"^\W*(?:(?:ok|okay|and|actually|please)\W+)*(?:(\d+)\s+more|another(?:\s+one)?)(?:\s+(?:please|of\s+(?:those|them|"
                  r"that|it)|then))*\W*$")  # fmt: skip


def both_or_other(request: Request) -> Interpretation | None:
    """ "add both" (every product just shown, up to three) or "the other one" (of two)."""
    shown = [p for p in request.context.get("last_shown") or [] if isinstance(p, dict) and isinstance(p.get("id"), int)]
    msg = Msg(request.norm.text)
    if not shown or msg.types or msg.product_ids or msg.has(REMOVE) or msg.has(COMPARE):
        return None
    if BOTH.search(request.plain) and msg.has(ADD) and len(shown) <= 3:
        chosen = shown
    elif (
        OTHER.search(request.plain)
        and len(shown) == 2
        and request.context.get("last_product_id") in {p["id"] for p in shown}
    ):
        chosen = [p for p in shown if p["id"] != request.context["last_product_id"]]
    else:
        return None
    calls = []
    for product in chosen:
        arguments: dict = {"product_id": product["id"]}
        if msg.size:
            arguments["selected_size"] = msg.size
        if msg.colors:
            arguments["selected_color"] = msg.colors[0]
        calls.append(PlannedCall("cart_add_item", {**arguments, "quantity": 1}))
    context = {k: v for k, v in request.context.items() if k != "pending"}
    context.update(last_action="cart_add_item", last_product_id=chosen[-1]["id"])
    return Interpretation(calls=calls, context=context)


def more_of_the_line(request: Request) -> Interpretation | None:
    """ "2 more please", "another one": more of the cart line last added."""
    line = request.context.get("last_line")
    match = MORE.match(request.plain)
    if not match or not isinstance(line, dict) or not isinstance(line.get("product_id"), int):
        return None
    extra = int(match.group(1) or 1)
    arguments = {"product_id": line["product_id"]}
    if line.get("size"):
        arguments["selected_size"] = line["size"]
    if line.get("color"):
        arguments["selected_color"] = line["color"]
    return one_call(request, "cart_add_item", {**arguments, "quantity": min(extra, 10)},
                    last_quantity=int(line.get("quantity") or 0) + extra)  # fmt: skip


FOLLOW_UPS = (
    more_of_the_line,
    both_or_other,
    price_of_shown,
    department_answer,
    add_it_after_pick,
    quantity_target,
    clear_it,
    sort_follow_up,
    pick_from_shown,
)


# After the rules: arguments the message leaves out ------------------------------------------------------------


def complete(result: Interpretation, request: Request) -> Interpretation:
    """Fill what the rule stage left out of its calls (see module doc)."""
    calls = []
    for planned in result.calls:
        filler = COMPLETERS.get(planned.name)
        outcome = filler(planned, request) if filler else planned
        if isinstance(outcome, Interpretation):
            return outcome  # a question instead of the call
        calls.append(outcome)
    result.calls = calls
    return result


def _review(planned: PlannedCall, request: Request) -> PlannedCall:
    arguments = dict(planned.arguments)
    if request.notes.get("self_name") and not request.context.get("user_email"):
        arguments["user_name"] = request.notes["self_name"]
    return PlannedCall(planned.name, arguments)


def _shipping(planned: PlannedCall, request: Request) -> PlannedCall | Interpretation:
    arguments = dict(planned.arguments)
    if arguments.get("status") != "shipped":
        return planned
    text = request.norm.original
    carrier = entities.carrier(text)
    tracking = entities.tracking_number(re.sub(r"(?i)\border\s*#?\s*\d+", " ", text))
    if carrier:
        arguments["carrier"] = carrier
    if tracking:
        arguments["tracking_number"] = tracking
    missing = [label for key, label in (("carrier", "the carrier (e.g. UPS)"), ("tracking_number", "the tracking number"))
               if key not in arguments]  # fmt: skip
    # Only an admin is asked for the details; anyone else's call goes to the guard, which refuses it plainly.
    if missing and request.is_admin:
        return ask(request, f"To mark order {arguments['order_id']} as shipped I need {' and '.join(missing)}.",
                   "admin_order_update_status", arguments)  # fmt: skip
    return PlannedCall(planned.name, arguments)


def fill_shipping(request: Request) -> Interpretation | None:
    """The answer to "I need the carrier and the tracking number"."""
    pending = request.pending
    if not pending or pending.get("tool") != "admin_order_update_status":
        return None
    arguments = dict(pending.get("args") or {})
    if arguments.get("status") != "shipped" or "order_id" not in arguments:
        return None
    found = {"carrier": entities.carrier(request.norm.original),
             "tracking_number": entities.tracking_number(request.norm.original)}  # fmt: skip
    if not any(found.values()):
        return None
    arguments.update({k: v for k, v in found.items() if v})
    outcome = _shipping(PlannedCall("admin_order_update_status", arguments), request)
    if isinstance(outcome, Interpretation):
        return outcome
    return one_call(request, outcome.name, outcome.arguments, last_order_id=arguments["order_id"])


def _by_id(planned: PlannedCall, request: Request) -> PlannedCall:
    """A product chosen by id needs no department or type any more. "The cheapest hoodie in small" names one:
    the lowest-priced of that garment in the asked colour, size and department (the priciest for "most
    expensive"), instead of a question about which."""
    if "product_id" not in planned.arguments:
        planned = _by_price(planned, request)
    if "product_id" not in planned.arguments:
        return planned
    return PlannedCall(
        planned.name, {k: v for k, v in planned.arguments.items() if k not in ("category", "clothing_type")}
    )


def _by_price(planned: PlannedCall, request: Request) -> PlannedCall:
    args = planned.arguments
    cheapest, priciest = CHEAPEST.search(request.plain), PRICIEST.search(request.plain)
    if not (cheapest or priciest) or cheapest and priciest or not args.get("clothing_type"):
        return planned
    if entities.product_mentions(request.norm.text, request.vocabulary, [args["clothing_type"]]):
        return planned  # "the cheapest zip hoodie": the name narrows it, and the service resolves it
    fitting = [
        p for p in request.vocabulary.products
        if p.clothing_type == args["clothing_type"]
        and (not args.get("category") or p.category == args["category"])
        and (not args.get("selected_color") or args["selected_color"] in p.colors)
        and (not args.get("selected_size") or args["selected_size"] in p.sizes)
    ]  # fmt: skip
    if not args.get("category"):  # adults' before kids', as the shop resolves a garment with no department said
        fitting = [p for p in fitting if p.category != "kids"] or fitting
    if not fitting:
        return planned  # the service says honestly that none is in stock
    chosen = (min if cheapest else max)(fitting, key=lambda p: (p.price, p.id))
    return PlannedCall(planned.name, {**args, "product_id": chosen.id})


COMPLETERS = {"cart_add_item": _by_id, "review_create": _review, "admin_order_update_status": _shipping}
