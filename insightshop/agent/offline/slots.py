"""Stage 4 — slots: fill a call from the conversation. Follow-ups that point at what was just shown or added —
"the second one in medium", "the cheapest one", "take the less expensive one", "make that 3", "order them
cheapest first", "fine, clear it" — and, after the rules ran, the arguments the message leaves out: products by
name, the guest reviewer's name, carrier and tracking for shipping, the last shipping address at checkout."""

from __future__ import annotations

import re
from decimal import Decimal

from ...services.pricing import line_total, quantize
from ...services.shop_vocabulary import fold
from ...services.vocabulary import COLORS, SIZES, normalise_color, normalise_size
from . import entities, lexicon
from .colour_exclusions import AdultsFirst, WithoutColour, colours_ruled_out, not_this_colour  # noqa: F401 — read as slots.*
from .intent import Request, ask, one_call, reply
from .rules import (
    ADD,
    COMPARE,
    NUMERIC_SIZE,
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
    r"^\W*which\s+(?:is|are|one|of|would|should|do)\b|"  # "which is cheapest?": one of the list, by price
    r"\b(?:one|ones|item|product|option|result|match|of\s+(?:them|those|these|the\s+two)|pick|take|want|get|grab|choose|"
    r"go\s+(?:with|for)|i'?ll\s+have|i\s+will\s+(?:have|take|get))\b"
)
# "the 3rd", "second please": a position in the list just shown, said alone.
BARE_ORDINAL = re.compile(
    r"\W*(?:(?:ok|okay|um+|hmm+)\W+)?(?:the\s+)?(?:first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)"
    r"(?:\s+(?:please|pls|plz|thanks))?\W*"
)
SORT_TARGET = re.compile(
    r"\b(?:them|those|these|results?|list|it|first|sort|sorted|order|arrange|rank)\b|"
    r"^\W*which\s+ones\b"
)
CLEAR_IT = re.compile(
    r"^(?:\W*(?:ok|okay|fine|alright|all\s+right|yes|yeah|sure|go\s+ahead|then|just|please|so|right|well|ugh)\b\W*)*"
    r"(?:clear|empty|wipe|reset)\s+(?:it|everything|all|it\s+all|it\s+out|them\s+all)\b(?:\s+(?:out|then|please|now))*\W*$"
)
QTY_TARGET = re.compile(
    r"^(?:(?:actually|ok|okay|oh|sorry|wait|no|hmm|and|please|can\s+you|could\s+you|hey)[\s,]+)*"
    r"(?:make\s+(?:it|that|them|those|this)|change\s+(?:it|that|the\s+quantity|quantity)\s+to|set\s+(?:it|the\s+"
    r"quantity|quantity)\s+to|i\s+(?:want|need)|let'?s\s+(?:do|make\s+it)|update\s+(?:it|the\s+quantity)\s+to|"
    r"just|only|i\s+(?:will|shall)\s+(?:take|have|get)|i\s+(?:would|will)\s+like)"
    r"\s*(\d+)(?:\s+(?:of\s+them|instead|then|please|in\s+total|total|units?|pieces?))*\W*$"
)


def _price(entry: dict) -> float | None:
    price = entry.get("price")
    return float(price) if isinstance(price, int | float) else None


def pick_from_shown(request: Request) -> Interpretation | None:  # noqa: C901 — one table of pick cues
    """ "the second one in medium", "the cheapest one", "take the less expensive one": a product just shown."""
    shown = [p for p in request.context.get("last_shown") or [] if isinstance(p, dict) and isinstance(p.get("id"), int)]
    excluded = request.context.get("excluded_colour")
    if excluded and request.context.get("last_action") == "search_products":
        ruled_out = set(excluded) if isinstance(excluded, list) else {excluded}
        shown = [p for p in shown if set(p.get("colors") or []) - ruled_out]  # the list as it was said
    if not shown:
        return None
    msg = Msg(request.norm.text)
    plain = request.plain
    if msg.has(COMPARE) or msg.has(REMOVE) or RATING.search(msg.low) or msg.product_ids or msg.types:
        return None
    if msg.has(OPTIONS_ASPECT) or msg.has(OPTIONS_VALUE):
        return None  # "what sizes does the second one come in?" asks about it (acts.products.product_details)
    more_of_the_list = re.search(r"\b(?:ones|any|anything|something|others)\b", plain) and not ORDINAL.search(msg.norm)
    if more_of_the_list and (CHEAPER.search(plain) or PRICIER.search(plain)):
        return None  # "cheaper ones?", "anything cheaper?": more of the list, not one of it
    chosen = None
    ordinal = ORDINAL.search(msg.norm)
    priced = [p for p in shown if _price(p) is not None]
    choice = request.context.get("choice_for") if isinstance(request.context.get("choice_for"), dict) else None
    pending = request.pending
    if choice is None and pending and pending.get("pick") and isinstance(pending.get("args"), dict):
        choice = pending["args"]  # "which one would you like?" asked by the engine about a name several products carry
    if choice is not None and QUESTION_CUE.search(plain):
        choice = None  # "what colours does the second one come in?" asks; it does not choose
    by_color = [p for p in shown if msg.colors and msg.colors[0] in (p.get("colors") or [])]
    if choice is not None and msg.category:
        by_color = [p for p in (by_color if msg.colors else shown) if p.get("category") == msg.category]
    if choice is not None and len(by_color) == 1 and not ordinal:
        chosen = by_color[0]  # "the black ones" (or "the women's") after "which one would you like?"
    elif pending and pending.get("pick") and len(by_color) > 1 and not ordinal and msg.colors:
        return _ask_again(request, by_color, msg.colors[0], msg.size)  # "pink" when two of those come in pink
    elif (
        len(by_color) == 1
        and not ordinal
        and (msg.size or NUMERIC_SIZE.search(msg.norm))
        and re.search(r"\bones?\b", plain)
    ):
        chosen = by_color[0]  # "the purple one in M" after a list: the one purple product shown
    elif not ordinal and re.search(r"\bones?\b", plain) and _by_name_word(request, shown):
        chosen = _by_name_word(request, shown)  # "the dinosaur one in S": a word only that name has, in the list
        if isinstance(chosen, list):  # "the smocked one" when two Smocked Sundresses were shown: which of them?
            return _ask_again(request, chosen, msg.colors[0] if msg.colors else None, msg.size)
    elif ordinal and (PICK_WORDS.search(plain) or BARE_ORDINAL.fullmatch(plain)):
        index = ORDINALS[ordinal.group(1)]
        chosen = shown[index] if -len(shown) <= index < len(shown) else None
    elif priced and CHEAPER.search(plain) and PICK_WORDS.search(plain):
        chosen = min(priced, key=_price)
    elif priced and PRICIER.search(plain) and PICK_WORDS.search(plain):
        chosen = max(priced, key=_price)
    if chosen is None:
        return None
    size, color = msg.size, (msg.colors[0] if msg.colors else None)
    searched = request.context.get("last_search") if isinstance(request.context.get("last_search"), dict) else {}
    if choice is not None or request.context.get("last_action") not in ("search_products", "cart_add_item"):
        searched = {}  # the list shown was not that search's
    if color is None and searched.get("color") in (chosen.get("colors") or []) and len(chosen.get("colors") or []) > 1:
        color = searched["color"]  # picked from a list of black jeans: the black ones
    if size is None and searched.get("size") in (chosen.get("sizes") or []):
        size = searched["size"]
    counting = NUMERIC_SIZE.sub(
        " ",
        re.sub(
            r"\b(?:first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)\b|\b(?:of\s+)?(?:the|these|"
            r"those|them)\s+(?:two|2|three|3)\b|\bboth\b",
            " ",
            msg.norm,
        ),
    )
    # "the tulle one size XS x2": the count is the 2, not the "one" that names the pick
    quantity = _quantity(re.sub(r"\b(?:the|that|this)\s+(?:[a-z-]+\s+){0,2}ones?\b", " ", counting)) or _quantity(
        counting
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
    if NUMERIC_SIZE.search(msg.norm) and not msg.size:
        # "the 2nd one in size 10": a numbered size, never a count; asked like the shop's "which size?"
        item = {"product_id": chosen["id"], **({"selected_color": color} if color else {})}
        result = reply(request, f"Our sizes are letters, not numbers: {', '.join(SIZES)} — which size would you like?")
        result.context.update(last_action="cart_add_item", last_item=item, last_quantity=min(quantity or 1, 10),
                              last_add_failed=True, last_product_id=chosen["id"])  # fmt: skip
        return result
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


def plural_name(name: str) -> str:
    """ "Smocked Sundress" → "Smocked Sundresses", "Slim Selvedge Jeans" stays, "Oxford Shirt" → "Oxford Shirts"."""
    if name.endswith(("ss", "sh", "ch", "x")):
        return name + "es"
    return name if name.endswith("s") else name + "s"


def _ask_again(request: Request, fitting: list[dict], color: str | None, size: str | None = None) -> Interpretation:
    """Several of the products offered fit the answer ("pink", "the smocked one"): keep what it said and ask which
    of those."""
    labels = {"men": "men's", "women": "women's", "kids": "kids'"}
    same_name = len({p.get("name") for p in fitting}) == 1
    options = [f"the {labels.get(p.get('category'), p.get('category') or '')} "
               + (f"one in {'/'.join(p.get('colors') or [])}" if same_name else str(p.get("name")))
               + f" (${_price(p) or 0:.2f})" for p in fitting]  # fmt: skip
    context = dict(request.context)
    context["last_shown"] = fitting
    context["last_product_ids"] = [p["id"] for p in fitting]
    pending = dict(request.pending or {"tool": "cart_add_item", "args": {"quantity": 1}, "pick": True})
    chosen = {"selected_color": color, "selected_size": size}
    pending["args"] = {**(pending.get("args") or {}), **{k: v for k, v in chosen.items() if v}}
    context["pending"] = pending
    listed = ", ".join(options[:-1]) + " or " + options[-1]
    lead = f"In {color} there are" if color else f"There are {len(fitting)} {plural_name(str(fitting[0].get('name')))}:"
    return Interpretation(follow_up=f"{lead} {listed} — which one?", context=context)


def _by_name_word(request: Request, shown: list[dict]) -> dict | None:
    """The one product of the list whose name has a word the message uses (not a garment, colour or department)."""
    words = {w for w in re.findall(r"[a-z]+", request.plain) if len(w) >= 4}
    if not words:
        return None
    names = entities.distinctive_words(request.vocabulary)
    fitting = [p for p in shown if words & names.get(fold(str(p.get("name") or "").lower()), frozenset())]
    colors = [c for c in (normalise_color(w) for w in re.findall(r"[a-z]+", request.plain)) if c]
    if colors and len(fitting) > 1:  # "the merino ones in grey": of those, the ones made in grey
        fitting = [p for p in fitting if colors[0] in (p.get("colors") or [])] or fitting
    if len({p["id"] for p in fitting}) == 1:
        return fitting[0]
    return fitting if fitting and len({p.get("name") for p in fitting}) == 1 else None


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
    if match and request.context.get("last_action") == "search_products":
        return _take_the_one_found(request, int(match.group(1)))
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


def _take_the_one_found(request: Request, wanted: int) -> Interpretation | None:
    """ "make it 2" after a search that found one product: that product, in the colour and size searched for."""
    listed = request.context.get("last_product_ids") or []
    search = request.context.get("last_search") if isinstance(request.context.get("last_search"), dict) else {}
    if len(listed) != 1 or not isinstance(listed[0], int) or wanted < 1:
        return None
    arguments: dict = {"product_id": listed[0]}
    if search.get("size"):
        arguments["selected_size"] = search["size"]
    if search.get("color"):
        arguments["selected_color"] = search["color"]
    arguments["quantity"] = min(wanted, 10)
    item = {k: v for k, v in arguments.items() if k != "quantity"}
    return one_call(request, "cart_add_item", arguments, last_item=item, last_quantity=arguments["quantity"],
                    last_product_id=listed[0])  # fmt: skip


def department_answer(request: Request) -> Interpretation | None:
    """ "men's" after "We have the Oxford Button-Down Shirt as men's or women's — which one?"."""
    pending = request.pending
    if not pending or pending.get("tool") != "cart_add_item" or not isinstance(pending.get("choices"), dict):
        return None
    msg = Msg(request.norm.text)
    chosen = pending["choices"].get(msg.category) if msg.category else None
    if chosen is None:
        return None
    if isinstance(chosen, dict):  # "men's" after "a 32-inch waist is a men's M or a women's L": that department's size
        arguments = {**(pending.get("args") or {}), **chosen}
        if msg.size:
            arguments["selected_size"] = msg.size
        item = {k: v for k, v in arguments.items() if k != "quantity"}
        return one_call(request, "cart_add_item", arguments, last_item=item, last_quantity=arguments.get("quantity", 1))
    arguments = {"product_id": chosen, **(pending.get("args") or {})}
    if msg.size:
        arguments["selected_size"] = msg.size
    item = {k: v for k, v in arguments.items() if k != "quantity"}
    return one_call(request, "cart_add_item", arguments, last_item=item, last_quantity=arguments.get("quantity", 1),
                    last_product_id=chosen)  # fmt: skip


PRICE_QUESTION = re.compile(r"\b(?:how\s+much|price|cost|costs)\b.*\b(?:it|that|this|that\s+one|this\s+one|the\s+"
                            r"(?:first|second|third|last)(?:\s+one)?)\b|"
                            r"\bhow\s+much\s+(?:for|would|will|do|does|is|are)\s+(?:\w+\s+){0,2}?\d+\b")  # fmt: skip
# "how much for 2 of the first one", "what would 3 of them cost": the count the price is for.
PRICE_COUNT = re.compile(
    r"\b(?:for|would|will|are|is|do|does|buy|get)\s+(?:\w+\s+)?(\d{1,2})\b(?!\s*(?:\$|dollars?|bucks|%))|"
    r"\b(\d{1,2})\s+(?:of\s+(?:them|those|these|it|that|the\b)|pairs?\b|units?\b|pieces?\b|x\b)"
)


def _priced(name: str, unit: float, count: int | None) -> str:
    price = quantize(Decimal(str(unit)))  # the context keeps prices as JSON numbers; money is counted in Decimal
    if count and count > 1:
        return f"The {name} is ${price} each, so {count} come to ${line_total(price, count)}."
    return f"The {name} is ${price}."


def price_of_shown(request: Request) -> Interpretation | None:
    """ "how much is it?", "what does the second one cost?": answered from the list just shown."""
    shown = [p for p in request.context.get("last_shown") or [] if isinstance(p, dict) and _price(p) is not None]
    if not PRICE_QUESTION.search(request.plain):
        return None
    msg = Msg(request.norm.text)
    if msg.product_ids or msg.types or msg.has(ADD):
        return None
    counted = PRICE_COUNT.search(msg.norm)
    count = int(counted.group(1) or counted.group(2)) if counted else None
    if re.search(r"\b(?:total|together|altogether|all|in\s+all|everything)\b", request.plain) or (
        not count and re.search(r"\bcome\s+to\b", request.plain)
    ):
        return None  # the cart's total, not one price
    line = request.context.get("last_line")
    if (
        isinstance(line, dict)
        and line.get("unit_price")
        and line.get("product_id") == request.context.get("last_product_id")
        and not ORDINAL.search(msg.norm)
    ):
        # "how much is it?" right after adding it: the price the cart charges (sales included)
        if count and count > 1:
            return reply(request, _priced(line.get("name") or "item", float(line["unit_price"]), count))
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
    result = reply(request, _priced(chosen.get("name") or "product", _price(chosen), count))
    result.context["last_product_id"] = chosen["id"]
    return result


BOTH = re.compile(r"\b(?:both(?:\s+of\s+them)?|all\s+(?:of\s+)?(?:them|those|these|three|two)|each\s+of\s+them)\b")
OTHER = re.compile(r"\b(?:the\s+other\s+(?:one|item|product)|the\s+other)\b")
_COLOURS = "|".join(sorted(COLORS, key=len, reverse=True))
MORE_COUNT = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
# "2 more please", "another one of those", "one more of the same", "same again", "can I get another?", "add one more
# but in blue": more of the cart line last added (in another colour or size when the message says one).
MORE = re.compile(
    r"^\W*(?:(?:ok|okay|and|actually|please|pls|yes|yeah|great|perfect|cool|nice|oh|so|also|then)\W+)*"
    r"(?:(?:can|could|may)\s+(?:i|you|we)\s+(?:get|have|add|grab|put\s+in)\s+|(?:please\s+)?(?:add|get|grab|give\s+me|"
    r"put\s+in|throw\s+in)\s+|i'?ll\s+(?:take|have)\s+|i\s+(?:want|need|would\s+like|'?d\s+like)\s+|"
    r"let\s+me\s+(?:get|have)\s+)?"
    r"(?:(\d+|" + "|".join(MORE_COUNT) + r")\s+more(?:\s+(?:one|ones|pairs?))?|"
    r"another(?:\s+(?:one|pair))?|(?:the\s+)?same\s+(?:one\s+|thing\s+)?again)"
    r"(?:\s+(?:please|pls|plz|then|too|as\s+well|again|of\s+(?:the\s+)?(?:same(?:\s+(?:one|thing))?|those|them|that|it|"
    r"these|this)(?:\s+ones?)?|(?:to|in|into)\s+(?:my|the)\s+(?:cart|basket|bag)))*"
    r"(?:\s*,?\s*(?:but\s+|only\s+|just\s+)?(?:in\s+)?(?:(?:a\s+)?(?:size\s+)?(?P<size>xxl|xl|xs|s|m|l|small|medium|large)|"
    r"(?P<color>" + _COLOURS + r"))(?:\s+(?:instead|please|pls|this\s+time))*)?\W*$"
)


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
    """ "2 more please", "another one", "same again": more of the cart line last added; "one more but in blue": the
    same product and size in that colour (when the product is made in it), as a line of its own."""
    line = request.context.get("last_line")
    match = MORE.match(request.plain)
    if not match or not isinstance(line, dict) or not isinstance(line.get("product_id"), int):
        return None
    counted = match.group(1)
    extra = int(counted) if counted and counted.isdigit() else MORE_COUNT.get(counted or "", 1)
    arguments = {"product_id": line["product_id"]}
    if line.get("size"):
        arguments["selected_size"] = line["size"]
    if line.get("color"):
        arguments["selected_color"] = line["color"]
    color, size = match.group("color"), match.group("size")
    if color or size:
        product = next((p for p in request.vocabulary.products if p.id == line["product_id"]), None)
        color = normalise_color(color) if color else None
        if color and (product is None or color not in product.colors):
            return None  # not made in that colour: the rules look for that garment in it
        if color:
            arguments["selected_color"] = color
        if size:
            arguments["selected_size"] = normalise_size(size)
        item = dict(arguments)
        return one_call(request, "cart_add_item", {**arguments, "quantity": min(extra, 10)}, last_item=item,
                        last_quantity=min(extra, 10), last_product_id=line["product_id"])  # fmt: skip
    return one_call(request, "cart_add_item", {**arguments, "quantity": min(extra, 10)},
                    last_quantity=int(line.get("quantity") or 0) + extra)  # fmt: skip


ADD_IT_AGAIN = re.compile(
    r"^\W*(?:(?:ok(?:ay)?|yes|yeah|great|perfect|cool|nice|please|pls|so|and|then|now)\W+)*(?:(?:can|could|would)\s+you\s+)?"
    r"(?:add|put|buy|get)\s+(?:it|that|this|that\s+one|this\s+one)(?:\s+(?:to|in|into)\s+(?:my|the)\s+(?:cart|basket|bag))?"
    r"(?:\s+(?:please|pls|then|now|too))*\W*$"
)


def already_added(request: Request) -> Interpretation | None:
    """ "add it" right after the add that put it in: it is there already; another is asked for with "one more"."""
    context = request.context
    line = context.get("last_line")
    if not ADD_IT_AGAIN.match(request.plain) or context.get("last_action") != "cart_add_item":
        return None
    if context.get("last_add_failed") or request.pending or not isinstance(line, dict) or not line.get("product_id"):
        return None
    details = ", ".join(str(v) for v in (line.get("color"), line.get("size")) if v)
    what = f"{line.get('name') or 'item'}" + (f" ({details})" if details else "")
    held = line.get("quantity") or 1
    return reply(request, f"The {what} is already in your cart — you have {held}. Say \"one more\" if you'd like "
                          "another.")  # fmt: skip


NAMED_INSTEAD = re.compile(
    r"^\W*(?:(?:actually|no|nope|sorry|oops|wait|hmm+|oh)\W+)*(?:i\s+meant\s+|make\s+it\s+|i\s+want\s+|rather\s+)?"
    r"the\s+(?P<word>[a-z-]+)\s+(?:one|ones|[a-z-]+\s+instead|instead)(?:\s+instead)?(?:\s+please)?\W*$"
)


def named_instead(request: Request) -> Interpretation | None:
    """ "actually the linen one" right after an add: the product of that name, same garment, department, colour and
    size, replaces the line just added (the new line first; the old one goes only once it is in)."""
    context, line = request.context, request.context.get("last_line")
    match = NAMED_INSTEAD.match(request.plain)
    if not match or context.get("last_action") != "cart_add_item" or not isinstance(line, dict):
        return None
    products = {p.id: p for p in request.vocabulary.products}
    current = products.get(line.get("product_id"))
    if current is None:
        return None
    word, names = match.group("word"), entities.distinctive_words(request.vocabulary)
    fitting = [p for p in request.vocabulary.products
               if p.clothing_type == current.clothing_type and p.category == current.category and p.id != current.id
               and word in names.get(fold(p.name.lower()), frozenset()) and (not line.get("color") or line["color"] in p.colors)]  # fmt: skip
    if len(fitting) != 1:
        return None
    quantity = int(line.get("quantity") or 1)
    added = {"product_id": fitting[0].id, "quantity": min(quantity, 10)}
    added |= {k: line[v] for k, v in (("selected_color", "color"), ("selected_size", "size")) if line.get(v)}
    removal = {"product_id": current.id, "quantity": quantity}
    removal |= {k: line[v] for k, v in (("selected_color", "color"), ("selected_size", "size")) if line.get(v)}
    result = one_call(request, "cart_add_item", added, last_item={k: v for k, v in added.items() if k != "quantity"},
                      last_quantity=added["quantity"], last_product_id=fitting[0].id)  # fmt: skip
    result.calls.append(PlannedCall("cart_remove_item", removal, after_success=True))
    return result


ADULT_WORDS = frozenset(["adult", "adults", "grown", "grownup", "grownups", "up", "ups", "grown-up", "grown-ups"])
# Words around "for adults" that ask for nothing else: "do you have these for adults?", "what about adult sizes".
ADULT_FILLER = frozenset(
    """
    what how about and so also now but then ok okay hmm do does you u have got any anything is are there these those
    them it this that the same some ones one similar something like for in an a size sizes version versions range
    options too as well please pls instead show me can could i see let look at would id d want need
""".split()  # noqa: SIM905 — a word list reads best as text
)


def for_adults(request: Request) -> Interpretation | None:
    """ "what about for adults?", "do you have these for grown-ups?" after a search (kids' things, say): the same
    search in the adult departments that carry that garment, one search each (a search takes one department)."""
    words = re.findall(r"[a-z]+(?:-[a-z]+)*", request.plain)
    if not any(w in ADULT_WORDS and w not in ("up", "ups") for w in words):
        return None
    msg = Msg(request.norm.text)
    last = request.context.get("last_search") if isinstance(request.context.get("last_search"), dict) else None
    if msg.product_ids or msg.has(REMOVE) or msg.has(COMPARE) or len(set(msg.types)) > 1 or not (last or msg.types):
        return None
    if msg.has(ADD) and not msg.types:
        return None
    rest = [w for w in words if w not in ADULT_WORDS and w not in ADULT_FILLER and not normalise_color(w)]
    if any(not re.fullmatch(r"[a-z]+", w) or w not in _type_words(msg) for w in rest):
        return None  # more is asked than the department ("adult sizing advice", "adults only events")
    parts = {k: v for k, v in (last or {}).items() if k != "category"} if not msg.types else {"terms": []}
    if msg.types:
        parts["clothing_type"] = msg.types[0]
    if msg.colors:
        parts["color"] = msg.colors[0]
    if msg.size:
        parts["size"] = msg.size
    kind = parts.get("clothing_type")
    departments = [c for c in ("men", "women")
                   if not kind or any(p.clothing_type == kind and p.category == c for p in request.vocabulary.products)]  # fmt: skip
    if not departments:
        return None
    turn = Turn(request.norm.text, request.context, request.is_admin)
    searches = [_search_call(turn, {**parts, "category": department}) for department in departments]
    result = searches[0]
    for other in searches[1:]:
        result.calls += other.calls
    result.context["last_search"] = {k: v for k, v in parts.items() if v}
    return result


def _type_words(msg: Msg) -> set[str]:
    from .rules import clothing_type

    return {w for w in msg.words if clothing_type(w)}


FOLLOW_UPS = (
    already_added,
    named_instead,
    not_this_colour,
    more_of_the_line,
    both_or_other,
    price_of_shown,
    department_answer,
    add_it_after_pick,
    quantity_target,
    clear_it,
    sort_follow_up,
    for_adults,
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
    arguments = {k: v for k, v in planned.arguments.items() if k not in ("category", "clothing_type")}
    return PlannedCall(planned.name, _sibling_in_colour(arguments, request))


def _sibling_in_colour(arguments: dict, request: Request) -> dict:
    """A product asked for in a colour it is not made in, when the shop sells the same name in the same department
    in that colour ("and a black one" after the red Wrap Midi Dress): that one."""
    color = arguments.get("selected_color")
    products = {p.id: p for p in request.vocabulary.products}
    current = products.get(arguments["product_id"])
    if not color or current is None or color in current.colors:
        return arguments
    siblings = [p for p in request.vocabulary.by_name.get(fold(current.name.lower()), ())
                if p.category == current.category and color in p.colors]  # fmt: skip
    return {**arguments, "product_id": siblings[0].id} if len(siblings) == 1 else arguments


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
