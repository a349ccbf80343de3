"""The understanding pipeline: the message's intent from the classifier (classifier.py), then the act registered
for it (acts/) edits the conversation's brief (brief.py) and plans the calls.

- understand(request): the first decider of offline.interpret(). A guess at or above CONFIDENCE_FLOOR whose label
  has an act goes to that act; anything else (no act, a lower confidence, an act that returns None) is left to the
  phrase rules (rules.py). While a question waits for its answer (context["pending"]), the answer goes to whoever
  asked: the act named in pending["act"], else the rules ("Jane Doe" is a name for the checkout, not an intent).
- clarify(request, result): the last step of interpret(). When nothing understood the message (the rules' "Sorry,
  I didn't get that"), one short question offers the two or three likely meanings as buttons (data/clarify.json);
  each button sends a message that says that meaning plainly. The buttons travel in the context under
  SUGGESTIONS_KEY for this turn only (the chat service turns them into a "suggestions" card).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from . import acts
from .classifier import LIKELY, PLAINLY_ADMIN, Guess, classify
from .rules import Interpretation

CONFIDENCE_FLOOR = 0.5  # calibrated: at 0.5 and above the classifier is right about 9 times in 10 (bench)
ASK_FLOOR = 0.2  # below this even the likeliest meaning is a guess in the dark: the rules' help text stays
OFFER_FLOOR = 0.1  # a meaning offered as a button must be at least this likely
NEXT_FLOOR = 0.15  # the second meaning's act is tried (after the first act declined) only if at least this likely
MAX_OFFERS = 3
NEEDS_A_LIST = {"refine_results", "product_compare"}  # meanings that only exist after products were shown
FALLBACK = "Sorry, I didn't get that"  # the rules' reply when nothing matched (rules.h_fallback)
SUGGESTIONS_KEY = "offline_suggestions"  # this turn's buttons: [{"label", "message"}] (not remembered)
GUESS_NOTE = "intent_guess"  # request.notes: the classifier's guess, once made


@cache
def offers() -> dict[str, dict]:
    """label -> {"label": button words, "message": what the button sends} (data/clarify.json)."""
    raw = json.loads((Path(__file__).with_name("data") / "clarify.json").read_text())
    return {k: v for k, v in raw.items() if not k.startswith("_")}


def guess_for(request) -> Guess | None:
    """The classifier's guess for this message (made once per request). It reads the message as written, as the
    examples are: the normaliser's rewrites ("my son" -> "for kids") would make it a different text."""
    text = (request.norm.original or request.plain).strip()
    if not text:
        return None
    if GUESS_NOTE not in request.notes:
        request.notes[GUESS_NOTE] = classify(text, is_admin=request.is_admin)
    return request.notes[GUESS_NOTE]


def likely(request, labels: set[str]) -> bool:
    """Is one of these intents at least LIKELY for this message? (No message to classify: nothing rules it out.)"""
    guess = guess_for(request)
    return guess is None or any(label in labels and p >= LIKELY for label, p in guess.ranked)


def _admin_reading(request) -> Interpretation | None:
    """A shopper's message that is plainly an admin request ("knock 10% off all kids' jackets") goes to the admin
    act, which plans the admin call for the guard to refuse, saying why — never a search for "knock off". The act
    may still leave it (a shopper asking how many are left is asking about stock to buy). Unlocks nothing."""
    if request.is_admin or request.pending:
        return None
    text = (request.norm.original or request.plain).strip()
    unmasked = classify(text)
    if not unmasked.label.startswith("admin_") or unmasked.confidence < PLAINLY_ADMIN:
        return None
    handler = acts.ACTS.get(unmasked.label)
    return handler(request, unmasked) if handler is not None else None


def understand(request) -> Interpretation | None:
    """An Interpretation for this message, or None when the phrase rules should answer it."""
    if not acts.ACTS:
        return None
    resumed = acts.resume(request)  # the answer to an act's question kept in the brief ("M", "the kids one")
    if resumed is not None:
        return resumed
    if request.pending:  # the answer to a question: an act's own (pending["act"]) goes back to it, else the rules'
        owner = acts.ACTS.get(request.pending.get("act"))
        guess = guess_for(request)
        return owner(request, guess) if owner is not None and guess is not None else None
    admin_request = _admin_reading(request)
    if admin_request is not None:
        return admin_request
    guess = guess_for(request)
    if guess is None or guess.confidence < CONFIDENCE_FLOOR:
        return None
    handler = acts.ACTS.get(guess.label)
    result = handler(request, guess) if handler is not None else None
    return result if result is not None else _next_meaning(request, guess)


def _next_meaning(request, guess: Guess) -> Interpretation | None:
    """When the likeliest meaning's act finds nothing to do with the message, the second likeliest's act, if it is
    likely enough ("vs the month before?" after the shop's figures reads like a receipts comparison, but there are no
    receipts in scope: the admin's figures act takes it from the conversation)."""
    if len(guess.ranked) < 2:
        return None
    label, probability = guess.ranked[1]
    handler = acts.ACTS.get(label)
    if handler is None or probability < NEXT_FLOOR or handler is acts.ACTS.get(guess.label):
        return None
    return handler(request, guess)


def clarify(request, result: Interpretation) -> Interpretation:
    """The rules' "didn't get that" turned into one question with the likely meanings as buttons; any other
    result unchanged."""
    if result.calls or result.follow_up or not (result.reply or "").startswith(FALLBACK) or request.pending:
        return result
    guess = guess_for(request)
    if guess is None or guess.confidence < ASK_FLOOR:
        return result
    options = suggestions(guess, request.norm.text, shown=_listed(request.context), shop_words=_shop_words(request))
    if not options:
        return result
    question = "Did you mean this?" if len(options) == 1 else "I'm not sure what you meant. Did you mean one of these?"
    # a reply, not a pending question: the next message is read afresh (a button's, or anything typed)
    return Interpretation(reply=question, context={**result.context, SUGGESTIONS_KEY: options})


def suggestions(guess: Guess, text: str, *, shown: bool = False, shop_words: bool = False) -> list[dict]:
    """Up to MAX_OFFERS buttons for the likely meanings of a message: {"label", "message"}. A meaning that acts on
    the last list needs one (shown); one that repeats the shopper's words needs them to name something the shop
    has (shop_words): "show me asdfgh" is no meaning."""
    words = " ".join(text.split()).strip(" ?!.,")[:120]
    options: list[dict] = []
    for label, probability in guess.ranked:
        offer = offers().get(label)
        if offer is None or probability < OFFER_FLOOR or (label in NEEDS_A_LIST and not shown):
            continue
        if "{text}" in offer["message"] and not (words and shop_words):
            continue
        message = offer["message"].replace("{text}", words)
        if message.lower() == words.lower():  # a button that sends the same words again would answer the same
            continue
        if message not in (o["message"] for o in options):
            options.append({"label": offer["label"], "message": message})
        if len(options) == MAX_OFFERS:
            break
    return options


def _listed(context: dict) -> bool:
    return bool(context.get("last_shown") or context.get("last_product_ids"))


def _shop_words(request) -> bool:
    """Does the message name a garment, colour, fabric or product word of the shop's?"""
    from ...services.search_terms import SYNONYMS
    from ...services.vocabulary import FABRICS

    vocabulary = request.vocabulary
    known = {*vocabulary.clothing_types, *vocabulary.colors, *vocabulary.name_words, *FABRICS, *SYNONYMS}
    words = set(re.findall(r"[a-z][a-z-]+", request.plain))
    return bool(words & known or {w.rstrip("s") for w in words} & known)
