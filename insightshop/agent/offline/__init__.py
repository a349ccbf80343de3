"""The offline assistant's language engine: one message (plus the conversation's context) → tool calls, a reply, or
a follow-up question. Pure and deterministic: no database writes, no network.

A pipeline of stages, each a module with one responsibility:
  normalise  (normalise.py)  Unicode, shorthand, typos against the shop's words and product names, numbers in words
  entities   (entities.py)   products by name, carriers, tracking numbers, the writer's name, price floors, periods
  intent     (intent.py)     negation/hypotheticals, shop questions, out-of-scope, my orders, admin dashboard
  slots      (slots.py)      follow-ups from the conversation (last shown list, last cart line, pending question)
  rules      (rules.py)      the phrase rules for the shop's tools (cart, search, checkout, reviews, admin …)
Vocabularies and phrasings are data (lexicon.py, services/vocabulary.py, services/search_terms.py); the shop's
product names come from services/shop_vocabulary.py (the live catalog, or the demo catalog without an app).
"""

from __future__ import annotations

import re

from ...services import shop_vocabulary
from ...services.shop_vocabulary import ShopVocabulary
from . import entities, intent, rules, slots
from .normalise import Normalised, normalise
from .rules import Interpretation, PlannedCall

__all__ = ["Interpretation", "PlannedCall", "interpret", "load_vocabulary"]

CHECKOUT_FIELDS = ("email", "shipping_name", "shipping_address", "shipping_city", "shipping_state", "shipping_zip",
                   "shipping_country", "shipping_phone")  # fmt: skip
ADDRESS_FIELDS = ("shipping_address", "shipping_city", "shipping_state", "shipping_zip", "shipping_country")
RECIPIENT = re.compile(r",?\s*\bfor\s+([A-Z][a-z'-]+(?:\s+[A-Z][a-z'-]+){1,3})\b(?=\s*[,.;!]?\s*(?:$|,))")
SUBSTITUTE_FOR = re.compile(
    r"\b(?:compare|vs|versus|difference|review|rate|rating|stars?|add|buy|put|get|take|order)\b"
)


def load_vocabulary() -> ShopVocabulary:
    """The live catalog's vocabulary inside an app (cached per process), else the demo catalog's."""
    from flask import has_app_context

    if has_app_context():
        try:
            return shop_vocabulary.current()
        except Exception:  # noqa: BLE001 — no products table yet: the demo words still help
            return shop_vocabulary.demo_vocabulary()
    return shop_vocabulary.demo_vocabulary()


def interpret(
    message: str, context: dict | None = None, *, is_admin: bool = False, vocabulary: ShopVocabulary | None = None
) -> Interpretation:
    """Map one message (plus the previous turn's context) to tool calls, a reply, or a follow-up question.
    is_admin never unlocks anything (the guard decides); it only shapes admin phrasings and the help text."""
    vocabulary = vocabulary or load_vocabulary()
    context = dict(context) if isinstance(context, dict) else {}
    request = intent.Request(normalise(message, vocabulary), context, bool(is_admin), vocabulary)
    if not request.plain.strip(" .!?"):
        return rules.interpret("", context, is_admin=is_admin)
    for decide in (slots.fill_shipping, *intent.DECIDERS):
        outcome = decide(request)
        if isinstance(outcome, Interpretation):
            return _checked(outcome, request)
        if isinstance(outcome, str):  # the message minus what it said not to do
            request = intent.Request(normalise(outcome, vocabulary), context, bool(is_admin), vocabulary)
    for follow_up in slots.FOLLOW_UPS:
        outcome = follow_up(request)
        if outcome is not None:
            return _checked(outcome, request)
    text = _prepare(request)
    if "department_question" in request.notes:
        return request.notes["department_question"]
    result = rules.interpret(text, context, is_admin=is_admin)
    result = slots.complete(result, request)
    result = _checkout_defaults(result, request)
    return _checked(_out_of_scope_search(result, request), request)


def _prepare(request: intent.Request) -> str:
    """The text the rules read: the writer's name and the recipient's taken out, named products as their ids."""
    text = request.norm.text
    msg = rules.Msg(text)
    if rules.RATING.search(msg.low) or rules.REVIEW_VERB.search(msg.core):
        found = entities.self_name(text)
        if found:
            request.notes["self_name"] = found[0]
            start, end = found[1]
            text = (text[:start] + (", " if start else "") + text[end:]).strip(" ,")
    checkout = (
        msg.has(rules.CHECKOUT)
        or rules.SHIP_TO.search(msg.low)
        or (request.pending or {}).get("tool") == "checkout_proceed"
    )
    recipient = RECIPIENT.search(text) if checkout else None
    if recipient and not re.search(r"\b(?:kids|men|women|him|her)\b", recipient.group(1), re.I):
        request.notes["recipient"] = recipient.group(1)
        text = (text[: recipient.start()] + text[recipient.end() :]).strip(" ,")
    if SUBSTITUTE_FOR.search(request.plain) and not msg.product_ids:
        text = _products_as_ids(text, request, msg)
    return text


def _products_as_ids(text: str, request: intent.Request, msg: rules.Msg) -> str:
    """ "compare the Oxford Button-Down Shirt with the Crisp Poplin Dress Shirt" → "compare product 1 with product 2"."""
    mentions = entities.product_mentions(text, request.vocabulary, msg.types or None)
    if not mentions:
        return text
    adding = not (msg.has(rules.COMPARE) or rules.RATING.search(msg.low) or rules.REVIEW_VERB.search(msg.core))
    if adding and len(mentions) > 1:
        return text
    spans = []
    for mention in mentions:
        fitting = entities.choose(mention.products, msg.colors[0] if msg.colors else None, msg.category)
        departments = {p.category: p.id for p in reversed(fitting)}
        named = mention.score == 1 or mention.telling
        if adding and named and len(departments) > 1 and len(fitting) == len(departments):
            request.notes["department_question"] = _which_department(request, msg, mention, departments)
            return text
        if not fitting or (adding and (len(fitting) != 1 or not named)):
            continue
        span = _span(text, mention.name)
        if span:
            spans.append((span, fitting[0].id))
    for (start, end), product_id in sorted(spans, reverse=True):
        text = f"{text[:start]}product {product_id}{text[end:]}"
    return text


def _which_department(request: intent.Request, msg: rules.Msg, mention, departments: dict) -> Interpretation:
    """The same product name in several departments: ask which, keeping the rest of the request."""
    item = rules.items(msg)[0]
    arguments = {"quantity": min(item.quantity or 1, 10)}
    if msg.size:
        arguments["selected_size"] = msg.size
    if msg.colors:
        arguments["selected_color"] = msg.colors[0]
    labels = {"men": "men's", "women": "women's", "kids": "kids'"}
    options = " or ".join(labels[c] for c in departments)
    name = mention.products[0].name
    context = dict(request.context)
    context["pending"] = {"tool": "cart_add_item", "args": arguments, "choices": departments}
    return Interpretation(follow_up=f"We have the {name} as {options} — which one?", context=context)


def _span(text: str, name: str) -> tuple[int, int] | None:
    """Where the name (or most of it) is written in the text: the run of its words, typos allowed."""
    from rapidfuzz import fuzz

    name_words = set(re.findall(r"[a-z0-9]+", name))
    tokens = list(re.finditer(r"[A-Za-z0-9]+", text))
    inside = [
        t for t in tokens
        if t.group(0).lower() in name_words or any(len(w) >= 5 and fuzz.ratio(t.group(0).lower(), w) >= 85 for w in name_words)
    ]  # fmt: skip
    if not inside:
        return None
    runs, run = [], [inside[0]]
    for token in inside[1:]:
        between = text[run[-1].end() : token.start()]
        if re.fullmatch(r"[\s'-]*", between):
            run.append(token)
        else:
            runs.append(run)
            run = [token]
    runs.append(run)
    best = max(runs, key=len)
    return best[0].start(), best[-1].end()


def _checkout_defaults(result: Interpretation, request: intent.Request) -> Interpretation:
    """Checkout by chat: the recipient from "…, for Dana Lee", missing fields from the shopper's last order."""
    pending = result.context.get("pending") if isinstance(result.context.get("pending"), dict) else None
    planned = next((c for c in result.calls if c.name == "checkout_proceed"), None)
    if planned is None and not (pending and pending.get("tool") == "checkout_proceed" and result.follow_up):
        return result
    arguments = dict(planned.arguments if planned else pending.get("args") or {})
    if request.notes.get("recipient"):
        arguments["shipping_name"] = request.notes["recipient"]
    last = request.context.get("last_shipping") if isinstance(request.context.get("last_shipping"), dict) else {}
    given_address = any(key in arguments for key in ADDRESS_FIELDS)
    for key in CHECKOUT_FIELDS:
        if key in arguments or not last.get(key):
            continue
        if key in ADDRESS_FIELDS and given_address:
            continue
        arguments[key] = str(last[key])
    if "email" not in arguments and isinstance(request.context.get("user_email"), str):
        arguments["email"] = request.context["user_email"]
    required = ("email", "shipping_name", "shipping_address", "shipping_city", "shipping_state", "shipping_zip")
    if all(arguments.get(k) for k in required):
        context = {k: v for k, v in result.context.items() if k != "pending"}
        context["last_action"] = "checkout_proceed"
        others = [c for c in result.calls if c.name != "checkout_proceed"]
        return Interpretation(calls=[*others, PlannedCall("checkout_proceed", arguments)], context=context)
    if pending is not None:
        result.context["pending"] = {**pending, "args": arguments}
    return result


def _out_of_scope_search(result: Interpretation, request: intent.Request) -> Interpretation:
    """A question that only became a text search with no shop word in it is not a shopping request."""
    if len(result.calls) != 1 or result.calls[0].name != "search_products":
        return result
    arguments = result.calls[0].arguments
    if set(arguments) != {"query"} or not intent.QUESTION.search(request.plain):
        return result
    if re.search(r"\b(?:recommend|suggest|wear|outfit|looking\s+for|shopping\s+for|need|want)\b", request.plain):
        return result  # "what do you recommend for a beach holiday?" is shopping
    from .normalise import _targets

    words = set(re.findall(r"[a-z]+", arguments["query"]))
    shop_words = set(_targets(request.vocabulary))
    if words & shop_words or any(w.rstrip("s") in shop_words for w in words):
        return result
    return intent.reply(request, rules_reply_out_of_scope())


def rules_reply_out_of_scope() -> str:
    from .lexicon import OUT_OF_SCOPE_REPLY

    return OUT_OF_SCOPE_REPLY


def _checked(result: Interpretation, request: intent.Request) -> Interpretation:
    """Every planned call passes the registry's strict schema (the guard still decides permission)."""
    from ...mcp.tools_registry import validate_tool_call

    for planned in result.calls:
        valid, error = validate_tool_call(planned.name, planned.arguments, True)
        if not valid:
            return Interpretation(follow_up=f"I couldn't turn that into a valid request ({error}). Could you rephrase it?",
                                  context=dict(request.context))  # fmt: skip
    return result


_ = Normalised  # re-exported type for stage tests
