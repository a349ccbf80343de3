"""Stage 3 — intent: what the shopper wants done, before the detailed rules run. Decides the cases the phrase rules
cannot: negated and hypothetical actions ("please don't clear my basket yet", "I almost removed the sneakers — no,
leave them": nothing is done), shop questions (→ search_shop_policies_and_faqs), out-of-scope questions (a short
polite answer), the logged-in shopper's own orders, the admin dashboard, and searches whose words merely contain
"drop" or "delete". Each decider returns an Interpretation, a rewritten message for the rule stage, or None."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...services.shop_vocabulary import ShopVocabulary
from ...services.vocabulary import CLOTHING_TYPE_LABELS, COLORS
from . import entities, lexicon
from .admin_requests import admin_request
from .normalise import Normalised, normalise
from .receipt_requests import my_receipts
from .rules import CORRECTION as _CORRECTION
from .rules import QTY_CHANGE as _QTY_CHANGE
from .rules import Interpretation, PlannedCall

NEGATED = re.compile(lexicon.NEGATED_ACTION)
NEGATION_EXCEPTIONS = re.compile(lexicon.NEGATION_EXCEPTIONS)
HYPOTHETICAL = re.compile(lexicon.HYPOTHETICAL + r".{0,40}?\b" + lexicon.ACTION_VERBS)
KEEP = re.compile(lexicon.KEEP_AS_IS)
CONSIDERING = re.compile(
    r"\b(?:i\s+(?:was|am|have\s+been)\s+)?(?:thinking\s+(?:of|about)|considering|looking\s+at)\s+(?:buying|getting|ordering|"
    r"adding|purchasing)\s+"
)
WANT_NOT = re.compile(r"\b(?:do\s+not|did\s+not)\s+(?:want|need|ask)\s+(?:you|u)\s+to\s+" + lexicon.ACTION_VERBS)
BREAKS = re.compile(lexicon.CLAUSE_BREAKS)
CORRECTION = re.compile(_CORRECTION)
ACTION = re.compile(r"\b" + lexicon.ACTION_VERBS + r"\w*\b")
POLICY = tuple((topic, re.compile(pattern)) for topic, pattern in lexicon.POLICY_TOPICS.items())
QUESTION = re.compile(lexicon.QUESTION_CUES)
OUT_OF_SCOPE = re.compile(lexicon.OUT_OF_SCOPE)
DASHBOARD = re.compile(lexicon.DASHBOARD)
MY_ORDERS = re.compile(lexicon.MY_ORDERS)
ORDER_NUMBER = re.compile(r"\border\s*(?:number|no\.?|#)?\s*#?\s*\d+|#\s*\d+")
SEARCH_LEAD = re.compile(
    r"^(?:please\s+|hey\s+|hi\s+)?(?:show(?:\s+me)?|find(?:\s+me)?|search(?:\s+for)?|look(?:ing)?\s+for|browse|"
    r"do\s+you\s+(?:have|sell|carry)|got\s+any|any|i\s+(?:want|need)\s+(?:a|an|some)|recommend)\b"
)
# Things people wear or carry that the shop does not sell (words the catalog's types and synonyms do not cover).
NOT_SOLD = re.compile(
    r"\b(?:belts?|scarf|scarves|hats?|caps?|beanies?|gloves?|mittens?|sunglasses|eyeglasses|ties|bow\s*ties?|"
    r"underwear|boxers|briefs|bras?|lingerie|swimsuits?|swimwear|bikinis?|watches|jewell?e?ry|earrings?|"
    r"necklaces?|bracelets?|umbrellas?|wallets?|purses?|handbags?|backpacks?|boots|sandals|heels|slippers|"
    r"flip\s*flops|tuxedos?|perfumes?|makeup|cosmetics|leggings|tights|stockings|bodysuits?|jumpsuits?|overalls|"
    r"dungarees|rompers?|tracksuits?|kimonos?|ponchos?|aprons?)\b"
)
# "what goes with my brown boots?": the thing is what they own, not what they ask for.
WORN_WITH = re.compile(r"\b(?:with|match(?:es|ing)?|for|under|over)\s+(?:\w+\s+){0,3}$")
# "looking for black leggings": what they look for, not what they own.
LOOKING_FOR = re.compile(r"\b(?:look(?:ing)?|search(?:ing)?|shop(?:ping)?|hunting)\s+for\s+(?:\w+\s+){0,2}$")
CART_WORDS = re.compile(r"\b(?:cart|basket|bag|trolley|checkout)\b")
REMOVAL_WORDS = re.compile(r"\b(?:drop|delete|remove|clear|empty|wipe)\b")
SHOP_WORDS = re.compile(
    r"\b(?:cart|basket|order|orders|checkout|product|products|size|sizes|price|prices|ship|shipping|return|returns|"
    r"buy|add|remove|review|compare|sale|deal|stock|colour|color|item|items)\b"
)
ADDRESSY = re.compile(
    r"\b\d{5}(?:-\d{4})?\b|\bship\s+(?:it\s+|them\s+)?to\s+\w+\s+\w+|\b\d+\s+\w+\s+(?:st|street|rd|road|ave|avenue|blvd|lane|ln|dr|drive)\b",
    re.I,
)


@dataclass
class Request:
    """One message after normalisation, with the conversation it belongs to."""

    norm: Normalised
    context: dict
    is_admin: bool
    vocabulary: ShopVocabulary
    notes: dict = field(default_factory=dict)

    @property
    def plain(self) -> str:
        return self.norm.plain

    @property
    def pending(self) -> dict | None:
        pending = self.context.get("pending")
        return pending if isinstance(pending, dict) else None


def reply(request: Request, text: str) -> Interpretation:
    context = dict(request.context)
    return Interpretation(reply=text, context=context)


def one_call(request: Request, name: str, arguments: dict, **remember) -> Interpretation:
    context = {k: v for k, v in request.context.items() if k != "pending"}
    context.update(remember, last_action=name)
    return Interpretation(calls=[PlannedCall(name, arguments)], context=context)


def ask(request: Request, question: str, tool: str, arguments: dict) -> Interpretation:
    context = dict(request.context)
    context["pending"] = {"tool": tool, "args": arguments}
    return Interpretation(follow_up=question, context=context)


# Negation and hypotheticals -------------------------------------------------------------------------------------


def _declined(clause: str) -> bool:
    """A clause whose action is negated or only imagined ("don't clear it", "I almost removed …")."""
    if WANT_NOT.search(clause):
        return True
    if NEGATION_EXCEPTIONS.search(clause) and not NEGATED.search(NEGATION_EXCEPTIONS.sub(" ", clause)):
        return False
    return bool(NEGATED.search(clause) or HYPOTHETICAL.search(clause))


def _clauses_kept(plain: str) -> tuple[list[str], bool]:
    """The clauses still asking for something, and whether any clause said not to (or only imagined it)."""
    kept, dropped = [], False
    for clause in (c for c in BREAKS.split(plain) if c and c.strip(" ,.!?")):
        if _declined(clause) or KEEP.search(clause) and not ACTION.search(KEEP.sub(" ", clause)):
            dropped = True
            after = _after_a_pause(clause)
            if after:
                kept.append(after)  # "no wait just one": the pause is dropped, the new count is what is asked
        elif not re.fullmatch(r"\W*(?:no|nope|ok|okay|fine|oh|wait|hmm|sorry|actually)\W*", clause):
            kept.append(clause.strip(" ,"))
    return kept, dropped


PAUSE = re.compile(r"^\W*(?:(?:no|nope|oh|hmm+|sorry|oops)\W+)*(?:wait|hold\s+on)\W+")


def _after_a_pause(clause: str) -> str | None:
    """ "no wait just one", "hold on, make it 2": what follows the pause, when it changes what was just asked for."""
    pause = PAUSE.match(clause)
    rest = clause[pause.end() :].strip(" ,") if pause else ""
    if rest and (_QTY_CHANGE.match(rest) or CORRECTION.search(rest)):
        return rest
    return None


KEEP_WHILE_CLEARING = re.compile(r"\bkeep(?:ing)?\s+(?=(?:the|my|only)\s+\w+)")


def clear_but_keep(request: Request) -> str | None:
    """ "clear my basket but keep the hoodie": everything but the hoodie goes (rules.h_cart_clear reads "except"),
    instead of the keep being read as "leave it as it is"."""
    plain = request.plain
    if not re.search(r"\b(?:empty|clear|wipe|reset)\b", plain) or not KEEP_WHILE_CLEARING.search(plain):
        return None
    if NEGATED.search(plain) or HYPOTHETICAL.search(plain):
        return None
    return KEEP_WHILE_CLEARING.sub("except ", plain)


def negation(request: Request) -> Interpretation | str | None:
    """Drop the clauses that say not to do something; what remains (if anything) goes on to the rules."""
    plain = request.plain
    if not (NEGATED.search(plain) or HYPOTHETICAL.search(plain) or KEEP.search(plain) or WANT_NOT.search(plain)):
        return None
    if request.pending and KEEP.fullmatch(plain.strip(" .!")):
        return None  # "never mind" answers the pending question (the rules drop it)
    if ("?" in plain or QUESTION.search(plain)) and any(pattern.search(plain) for _, pattern in POLICY):
        return None  # "if I return it, do I get a refund?" is a shop question
    interest = CONSIDERING.search(plain)
    if interest and not NEGATED.search(plain):
        return "show me " + plain[interest.end() :]  # "I was thinking of buying the red dress": show it
    kept, dropped = _clauses_kept(plain)
    if not dropped:
        return None
    rest = ", ".join(kept).strip()
    if rest and _still_asks(rest):
        return rest
    if "?" in plain and HYPOTHETICAL.search(plain):
        return reply(request, "That's up to you — just tell me what to do (for example \"remove the sneakers\") and "
                              "I'll do it.")  # fmt: skip
    undone = _undo_last_add(request)
    if undone is not None:
        return undone
    return reply(request, "Okay — I'll leave everything as it is.")


def _still_asks(rest: str) -> bool:
    """What is left after the declined clauses still asks for something the rules do."""
    if CORRECTION.search(rest) or _QTY_CHANGE.match(rest) or re.match(r"(?:make|change)\s+(?:it|that|them)\b", rest):
        return True  # "no wait, I meant XL", "no wait, just one": the rules change what was just asked for
    if ACTION.search(rest) or re.search(r"\b(?:show|find|search|what|how|where)\b", rest):
        return True
    # "i don't want the socks but keep the jeans": the socks go
    return bool(NEGATION_EXCEPTIONS.search(rest) and NAMED_LINE.search(rest) and not EVERYTHING.search(rest))


# "don't add that" once it was added: take it out again.
UNDO_ADD = re.compile(
    r"\b(?:do\s+not|don'?t|did\s+not|didn'?t|never)\s+(?:want\s+(?:you\s+)?to\s+|mean\s+to\s+|ask\s+(?:you\s+)?to\s+)?"
    r"add(?:ed)?\s+(?:that|it|this|those|them|these)\b"
)


NAMED_LINE = re.compile(r"\b(?:the|my|those|these)\s+(?!cart\b|basket\b|bag\b|order\b)[a-z]+")
EVERYTHING = re.compile(r"\b(?:anything|everything|nothing|else)\b")


def _undo_last_add(request: Request) -> Interpretation | None:
    context, last = request.context, request.context.get("last_item")
    if (
        not UNDO_ADD.search(request.plain)
        or context.get("last_action") != "cart_add_item"
        or context.get("last_add_failed")
    ):
        return None
    if not isinstance(last, dict) or not last:
        return None
    removal = {key: value for key, value in last.items() if key != "category"}
    line = context.get("last_line")
    if isinstance(line, dict) and line.get("product_id") and line.get("color") and line.get("size"):
        # The product the add really put in, not its description (another line may fit that too).
        removal = {"product_id": line["product_id"], "selected_color": line["color"], "selected_size": line["size"]}
    quantity = context.get("last_quantity")
    if isinstance(quantity, int) and quantity > 0:
        removal["quantity"] = quantity
    return one_call(request, "cart_remove_item", removal)


# Shop knowledge, out of scope, orders, dashboard -----------------------------------------------------------------


def policy_question(request: Request) -> Interpretation | None:
    plain = request.plain
    shopper_cancels = not request.is_admin and re.search(r"\bcancel\s+my\s+order\b", plain) and QUESTION.search(plain)
    # "can you cancel my order 3?": how a shopper cancels (only the shop changes an order's status)
    changing_an_order = (
        re.search(
            r"\b(?:change|update|edit|modify|correct)\s+(?:my\s+|the\s+)?(?:shipping\s+|delivery\s+)?"
            r"address\b|\b(?:return|refund|exchange|send\s+back)\b",
            plain,
        )
        or shopper_cancels
    )
    # "change my shipping address on order 3", "I want to return my order 12": how that is done
    if not changing_an_order and (
        ADDRESSY.search(request.norm.text) or ORDER_NUMBER.search(plain) or entities.tracking_number(request.norm.text)
    ):
        return None
    if request.pending and request.pending.get("tool") == "checkout_proceed" and "?" not in plain:
        return None
    topics = [topic for topic, pattern in POLICY if pattern.search(plain)]
    if topics == ["sizes"] and _unsold_things(plain):
        return None  # "how's the sizing on the chelsea boots?": the shop sells no boots (not_sold says so)
    asks_for_a_code = re.search(r"\b(?:apply|use|redeem|enter|add)\b.*\b(?:coupon|voucher|promo|discount\s+code|code)\b|"
                                r"\b(?:give|get|send)\s+(?:me\s+|us\s+)?(?:a\s+|an\s+|any\s+|some\s+)?(?:discount|coupon|"
                                r"voucher|promo)\b", plain)  # fmt: skip
    account_request = re.search(r"\b(?:delete|close|remove|cancel|deactivate)\s+my\s+account\b", plain)
    # "I want a refund for my last order": a wish, not a question, answered the same way
    wants_it_undone = re.search(r"\b(?:want|need|like|get|request)\s+(?:a\s+|my\s+)?(?:refund|money\s+back)\b", plain)
    if not topics or not (QUESTION.search(plain) or asks_for_a_code or account_request or wants_it_undone):
        return None
    if topics == ["returns"] and re.search(r"\b(?:return|send\s+back)\s+(?:the|my|this|it)\b.*\bcart\b", plain):
        return None
    return one_call(request, "search_shop_policies_and_faqs", {"query": request.norm.text[:500]})


STRONG = re.compile(lexicon.OUT_OF_SCOPE_STRONG)
CODE_LIKE = re.compile(lexicon.CODE_LIKE, re.I)
SHOP_ACTION = re.compile(r"\b(?:add|buy|remove|cart|basket|checkout|order\s+\d|product\s+\d)\b")


OVERRIDE = re.compile(lexicon.OVERRIDE_ATTEMPT)
CATALOG_WIPE = re.compile(lexicon.CATALOG_WIPE)


def out_of_scope(request: Request) -> Interpretation | None:
    plain = request.plain
    if CODE_LIKE.search(request.norm.original):
        return reply(request, "I can't run that. " + lexicon.OUT_OF_SCOPE_REPLY)
    wipe = CATALOG_WIPE.search(plain)
    if wipe and not re.search(
        r"\b(?:my|the)\s+(?:cart|basket|bag)\b|\bfrom\s+(?:my|the)\s+(?:cart|basket|bag)\b", plain
    ):
        if not request.is_admin:
            return reply(request, lexicon.CATALOG_WIPE_REPLY)
        return reply(request, "I won't delete the whole catalog at once — nothing was changed. Delete products one at a "
                              "time by number (\"delete product 12\").")  # fmt: skip
    if STRONG.search(plain) and not SHOP_ACTION.search(plain):
        return reply(request, lexicon.OUT_OF_SCOPE_REPLY)
    if OUT_OF_SCOPE.search(plain) and not CART_WORDS.search(plain) and not _names_products(request):
        return reply(request, lexicon.OUT_OF_SCOPE_REPLY)
    return None


def _unsold_things(plain: str) -> list[re.Match]:
    """The things named that the shop does not sell ("belts"), not those worn with what is asked for."""
    from .rules import clothing_type

    return [m for m in NOT_SOLD.finditer(plain)
            if not clothing_type(m.group(0)) and (not WORN_WITH.search(plain[: m.start()])
                                                  or LOOKING_FOR.search(plain[: m.start()]))]  # fmt: skip


def not_sold(request: Request) -> Interpretation | str | None:
    """ "add a black belt", "do you sell hats?": say what the shop does carry, instead of asking what to add. With
    something it does sell in the same message ("a white shirt and a black belt"), the rest goes on without the
    unsold item, and the reply says plainly that the shop has none (request.notes["not_sold"])."""
    from .rules import clothing_type

    plain = request.plain
    if CART_WORDS.search(plain) and not ACTION.search(plain):
        return None
    unsold = [m for m in NOT_SOLD.finditer(plain)
              if not clothing_type(m.group(0)) and (not WORN_WITH.search(plain[: m.start()])
                                                    or LOOKING_FOR.search(plain[: m.start()]))]  # fmt: skip
    if not unsold:
        return None
    missing = unsold[0].group(0)
    if _names_products(request):
        rest = _without_unsold(request.norm.text, [m.group(0) for m in unsold])
        if rest is None or not _names_products(Request(normalise(rest, request.vocabulary), request.context,
                                                       request.is_admin, request.vocabulary)):  # fmt: skip
            return None
        request.notes["not_sold"] = list(dict.fromkeys(_plural(m.group(0)) for m in unsold))
        return rest
    carried = [
        CLOTHING_TYPE_LABELS[kind].lower().replace("t-shirts", "T-shirts") for kind in request.vocabulary.clothing_types
    ]
    listed = ", ".join(carried[:-1]) + " and " + carried[-1] if len(carried) > 1 else "".join(carried)
    return reply(
        request, f"Sorry, we don't sell {_plural(missing)} — InsightShop carries {listed}, for men, women and kids."
    )


# The parts of a request that name several things: "a white shirt and a black belt", "shirts, belts and socks".
PARTS = re.compile(r"\s*(?:,|;|&|\band\b|\bplus\b|\bas\s+well\s+as\b|\balong\s+with\b|\bwith\b)\s*", re.I)
# Words that may describe the unsold thing right before it ("a black leather belt", "two pairs of sunglasses").
DESCRIBING = re.compile(r"^(?:a|an|some|the|one|two|three|four|five|\d+|pairs?|of|couple|leather|wool|woolen|woollen|"
                        r"silk|cotton|denim|knit|knitted|matching|nice|cute|warm|plain|striped|" + "|".join(COLORS) + r")$",
                        re.I)  # fmt: skip


def _without_unsold(text: str, nouns: list[str]) -> str | None:
    """The text with each unsold thing and the words describing it taken out, or None when nothing was."""
    unsold = {re.sub(r"\W", "", noun.lower()) for noun in nouns}
    kept, changed = [], False
    for piece in PARTS.split(text):
        words = piece.split()
        at = next((i for i, word in enumerate(words) if re.sub(r"\W", "", word.lower()) in unsold), None)
        if at is None:
            kept.append(piece)
            continue
        start = at
        while start > 0 and DESCRIBING.match(re.sub(r"[^\w]", "", words[start - 1])):
            start -= 1
        left = " ".join(words[:start] + words[at + 1 :]).strip()
        changed = True
        if left:
            kept.append(left)
    if not changed:
        return None
    return re.sub(r"\s+", " ", " and ".join(p for p in kept if p.strip(" ,.!?"))).strip(" ,")


def _plural(noun: str) -> str:
    if noun.endswith(("s", "ry", "wear", "up", "ie")) and not noun.endswith(("ss",)):
        return noun  # already plural, or uncountable (jewellery, swimwear, makeup, lingerie)
    if noun == "scarf":
        return "scarves"
    return noun + ("es" if noun.endswith(("ch", "sh", "x")) else "s")


def _names_products(request: Request) -> bool:
    from .rules import Msg

    msg = Msg(request.norm.text)
    return bool(msg.types or msg.product_ids or entities.product_mentions(request.norm.text, request.vocabulary, None))


def my_orders(request: Request) -> Interpretation | None:
    """A logged-in shopper asking after their orders without a number: list their recent orders."""
    plain = request.plain
    if not request.context.get("user_email") or not MY_ORDERS.search(plain):
        return None
    if ORDER_NUMBER.search(plain) or re.search(r"\border\s+\d+", plain) or entities.tracking_number(request.norm.text):
        return None
    if re.search(r"\b(?:add|put|cart|basket)\b", plain):
        return None
    return one_call(request, "orders_list_mine", {})


LOW_STOCK = re.compile(r"\bstock\b|\brestock|running\s+(?:low|out)|\blow\s+on\b|\bunits?\b")


def dashboard(request: Request) -> Interpretation | None:
    """Admin: revenue, order counts and low stock for a period."""
    plain = request.plain
    if not request.is_admin or not DASHBOARD.search(plain) or re.search(r"\bproduct\s*#?\s*\d+", plain):
        return None
    if re.search(r"\b(?:set|change|update|mark)\b.*\bstock\b", plain):
        return None  # "set the stock of product 3 to zero" is a product update
    arguments: dict = {"period": entities.period(plain) or ("all" if LOW_STOCK.search(plain) else "week")}
    threshold = re.search(r"\b(?:below|under|less\s+than|fewer\s+than)\s+(\d{1,4})\b", plain)
    if threshold and re.search(r"\bstock|\bunits?\b|\bleft\b", plain):
        arguments["low_stock_threshold"] = int(threshold.group(1))
    return one_call(request, "admin_dashboard", arguments)


def search_not_removal(request: Request) -> Interpretation | None:
    """ "show me drop-waist dresses": a search whose words contain a removal verb stays a search."""
    plain = request.plain
    if SEARCH_LEAD.search(plain) and REMOVAL_WORDS.search(plain) and not CART_WORDS.search(plain):
        from .rules import Turn, _search_call, search_parts

        turn = Turn(request.norm.text, request.context, request.is_admin)
        return _search_call(turn, search_parts(turn.msg))
    return None


SHIPPED = re.compile(
    r"\b(?:shipped|dispatched|ship|sent\s+out|went\s+out|left\s+the\s+warehouse|on\s+its\s+way|"
    r"handed\s+(?:over\s+)?to)\b"
)
ORDER_ID = re.compile(r"\border\s*(?:number|no\.?|#)?\s*#?\s*(\d+)\b")


def shipped_with_tracking(request: Request) -> Interpretation | None:
    """ "order 8 shipped via FedEx, tracking number 1234…": an admin status change with its shipment details."""
    text = request.norm.original
    order = ORDER_ID.search(request.plain)
    if not order or not SHIPPED.search(request.plain) or "?" in text:
        return None
    carrier = entities.carrier(text)
    tracking = entities.tracking_number(ORDER_ID.sub(" ", text))
    if not (carrier or tracking):
        return None
    from .slots import _shipping

    outcome = _shipping(PlannedCall("admin_order_update_status", {"order_id": int(order.group(1)), "status": "shipped"}),
                        request)  # fmt: skip
    if isinstance(outcome, Interpretation):
        return outcome
    return one_call(request, outcome.name, outcome.arguments, last_order_id=outcome.arguments["order_id"])


CLOSING = re.compile(lexicon.CLOSINGS)


def closing(request: Request) -> Interpretation | None:
    """ "nah I'm good", "that's all for now": a friendly close, no action."""
    if request.pending or not CLOSING.fullmatch(request.plain.strip(" .!,")):
        return None
    return reply(request, "Alright — I'm here if you need anything else. Happy shopping!")


DECIDERS = (
    closing,
    clear_but_keep,
    negation,
    shipped_with_tracking,
    admin_request,
    dashboard,
    my_receipts,
    policy_question,
    my_orders,
    not_sold,
    out_of_scope,
    search_not_removal,
)
