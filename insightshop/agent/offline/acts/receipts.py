"""Acts for the receipts intents: how much the writer spent (item lines of a category or item, or receipt totals of
a merchant or period), their biggest or smallest receipt, one period against another, and finding receipts.

The receipt scope lives in the brief's "receipts" section {date_from, date_to, merchant, category, item, measure}:
a follow-up that only changes part of it ("and the month before?", "what about at Starbucks?") keeps the rest.
An act returns None when the message is not about the writer's receipts (the phrase rules answer it)."""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta
from difflib import get_close_matches

from ....services.receipts.query_words import CATEGORY_WORDS, receipt_filters
from .. import brief as briefs
from ..receipt_requests import BUDGET, ORDER_TALK, RECEIPT_NOUNS, UPLOAD_TALK
from ..rules import Interpretation, PlannedCall
from ..turns import SURE
from . import act
from .service_words import expand, has, starts_with, tokens, words

SCOPE_KEYS = ("date_from", "date_to", "merchant", "category", "item")
ACTS = {"receipts_spending": "spending", "receipts_extreme": "extreme", "receipts_compare": "compare",
        "receipts_find": "find"}  # fmt: skip
ITEM = re.compile(r"\b(?:on|for)\s+((?:[a-z][a-z&'-]*\s*){1,3})")
FOLLOW_UP_WORDS = 7  # an elliptical follow-up is short ("and the month before?")


@act(*ACTS)
def receipts(request, guess) -> Interpretation | None:
    """The writer's receipts: a spending figure, an extreme, a comparison or a list, from the words and the brief."""
    text = expand(request.norm.text)
    plain = text.lower()
    brief = briefs.load(request.context)
    before = brief["receipts"]
    # the words say it, or the classifier is sure ("compare this month with last month", "my largest lunch purchase")
    today = _today(request)
    said = _entities(text, plain, today)
    named = bool(said) or has(plain, "largest") or has(plain, "smallest")  # a scope, or the extreme asked for
    explicit = _about_receipts(plain) or (named and _surely_receipts(request, guess, plain, before))
    follow_up = bool(before) and not explicit and _elliptical(plain)
    if not (explicit or follow_up) or ORDER_TALK.search(plain) or UPLOAD_TALK.search(plain):
        return None
    if BUDGET.search(plain) and not RECEIPT_NOUNS.search(plain):
        return None  # "jeans, I don't want to spend more than 50": a budget for a search
    shifted = _shifted(plain, before) if follow_up else None
    if shifted:
        said |= shifted
    scope = ({k: v for k, v in before.items() if k in SCOPE_KEYS} | said) if follow_up else said
    if follow_up and ("item" in said or "category" in said):
        scope = {k: v for k, v in scope.items() if k not in ("item", "category")} | {
            k: said[k] for k in ("item", "category") if k in said
        }
    kind = _kind(plain, guess.label, before.get("measure") if follow_up else None, scope)
    brief["receipts"] = {k: v for k, v in scope.items() if k in SCOPE_KEYS and v} | {"measure": kind}
    context = briefs.save({k: v for k, v in request.context.items() if k != "pending"}, brief)
    call = _call(kind, scope, plain, today)
    context["last_action"] = call.name
    return Interpretation(calls=[call], context=context)


THE_SHOP = re.compile(r"\b(?:shop|store|insightshop|revenue|sales|customers?|who)\b")


def _surely_receipts(request, guess, plain: str, before: dict) -> bool:
    """A shopper's message the classifier is sure is about their receipts, said in words of its own and naming a period,
    merchant or kind of purchase ("my largest lunch purchase", "compare this month with last month"): never a short follow-up to something else ("vs the month
    before?" after the shop's figures, "how much for 3?" after an add), nor about the shop's own takings."""
    sure = guess.label in ACTS and guess.confidence >= SURE
    following = bool(request.context.get("last_action")) and _elliptical(plain)  # a short follow-up to something else
    return sure and not before and not request.is_admin and not following and not THE_SHOP.search(plain)


def _about_receipts(plain: str) -> bool:
    """The writer's own spending or receipts ("how much did I spend on coffee", "my biggest receipt", "month over
    month spending")."""
    personal = re.search(r"\b(?:my|i|me|i've|ive|mine|we|our)\b", plain)
    return has(plain, "spending_words") and bool(personal or RECEIPT_NOUNS.search(plain) or "spending" in plain)


def _elliptical(plain: str) -> bool:
    short = len(tokens(plain)) <= FOLLOW_UP_WORDS
    return short and (starts_with(plain, "follow_up_leads") or plain.endswith("?") or has(plain, "compare"))


def _today(request) -> date:
    given = request.context.get("today")
    try:
        return date.fromisoformat(given) if isinstance(given, str) else date.today()
    except ValueError:
        return date.today()


# Entities -------------------------------------------------------------------------------------------------------------


def _entities(text: str, plain: str, today: date) -> dict:
    """The scope the words give: period, merchant, category or item (amounts belong to a receipts list)."""
    said = receipt_filters(text, today=today)
    item = _item(plain)
    if item and "category" not in said:
        category = CATEGORY_WORDS.get(item) or _category_name(item)
        said |= {"category": category} if category else {"item": item}
    return {k: v for k, v in said.items() if v not in (None, "")}


def _item(plain: str) -> str | None:
    """ "on coffee", "for groceries": the thing spent on (a category word or an item), typos put right."""
    lexicon = words()
    for match in ITEM.finditer(plain):
        kept = []
        for word in match.group(1).split():
            if word in lexicon["item_stop"] or re.fullmatch(r"\d+", word):
                break
            kept.append(word)
        phrase = " ".join(kept).strip(" '")
        if phrase and phrase not in lexicon["item_not"] and not re.search(r"\b(?:receipts?|me|you)\b", phrase):
            return _corrected(phrase)
    return _known_thing(plain)


def _known_thing(plain: str) -> str | None:
    """ "my coffee habit", "what about dairy?": a category word or a known item named anywhere in the message."""
    from ....services.receipts.analytics import ITEM_FAMILIES

    said = set(tokens(plain))
    return next((word for word in (*ITEM_FAMILIES, *CATEGORY_WORDS) if " " not in word and word in said), None)


def _corrected(phrase: str) -> str:
    from ....services.receipts.analytics import ITEM_FAMILIES

    known = [*CATEGORY_WORDS, *ITEM_FAMILIES]
    close = get_close_matches(phrase, known, n=1, cutoff=0.8)
    return close[0] if close else phrase


def _category_name(word: str) -> str | None:
    names = {name.lower(): name for name in CATEGORY_WORDS.values()}
    return names.get(word.lower()) or names.get(word.lower().rstrip("s"))


def _shifted(plain: str, before: dict) -> dict | None:
    """ "the month before", "the previous week", "a year earlier": the brief's period moved back by that unit."""
    if not before.get("date_from") or not has(plain, "shift_back"):
        return None
    unit = next((words()["units"][t] for t in tokens(plain) if t in words()["units"]), None)
    start, end = (
        date.fromisoformat(before["date_from"]),
        date.fromisoformat(before.get("date_to") or before["date_from"]),
    )
    if unit is None:
        return None
    return {k: v.isoformat() for k, v in zip(("date_from", "date_to"), _back(start, end, unit), strict=True)}


def _back(start: date, end: date, unit: str) -> tuple[date, date]:
    if unit == "month":
        year, month = (start.year, start.month - 1) if start.month > 1 else (start.year - 1, 12)
        return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])
    if unit == "year":
        return date(start.year - 1, 1, 1), date(start.year - 1, 12, 31)
    delta = timedelta(days=7 if unit == "week" else (end - start).days + 1)
    return start - delta, end - delta


# The act -------------------------------------------------------------------------------------------------------------


def _kind(plain: str, label: str, previous: str | None, scope: dict) -> str:
    if has(plain, "largest") or has(plain, "smallest"):
        return "extreme"
    if has(plain, "compare"):
        return "compare"
    if label == "receipts_find" or any(k in scope for k in ("min_amount", "max_amount")):
        return "find"
    if label in ACTS and label != "receipts_spending":
        return ACTS[label]
    return previous if previous in ("spending", "extreme") else "spending"


def _call(kind: str, scope: dict, plain: str, today: date) -> PlannedCall:
    narrowed = {k: scope[k] for k in ("merchant", "category", "item") if scope.get(k)}
    period = {k: scope[k] for k in ("date_from", "date_to") if scope.get(k)}
    if kind == "find":
        amounts = {k: scope[k] for k in ("min_amount", "max_amount") if k in scope}
        kept = {k: v for k, v in narrowed.items() if k != "item"}
        return PlannedCall("receipts_list", kept | period | amounts)
    if kind == "extreme":
        which = "smallest" if has(plain, "smallest") and not has(plain, "largest") else "largest"
        return PlannedCall("receipts_extreme", {"which": which} | narrowed | period)
    if kind == "compare":
        return PlannedCall("receipts_compare", {"periods": _periods(plain, scope, today)} | narrowed)
    grouped = _group(plain)
    if not (grouped or scope.get("category") or scope.get("item")):
        # whole receipts of a merchant or period: the receipts list adds up their totals, each cited
        return PlannedCall("receipts_list", narrowed | period)
    return PlannedCall("receipts_spending", narrowed | period | ({"group_by": grouped} if grouped else {}))


def _group(plain: str) -> str | None:
    if not has(plain, "group_cues"):
        return None
    said = tokens(plain)
    for index, token in enumerate(said):
        if token in words()["group_cues"] and index + 1 < len(said) and said[index + 1] in words()["group_by"]:
            return words()["group_by"][said[index + 1]]
    return None


def _periods(plain: str, scope: dict, today: date) -> list[dict]:
    """Newest first: two months named ("march vs april"), else the scope's period (this month by default) and the
    same length just before it."""
    months = re.findall(r"\b(" + "|".join(m for m in calendar.month_name[1:]).lower() + r")\b", plain)
    if len(months) >= 2:
        spans = [receipt_filters(f"in {m}", today=today) for m in months[:2]]
        spans.sort(key=lambda s: s["date_from"], reverse=True)
        return [{"date_from": s["date_from"], "date_to": s["date_to"]} for s in spans]
    start = date.fromisoformat(scope["date_from"]) if scope.get("date_from") else today.replace(day=1)
    end = date.fromisoformat(scope["date_to"]) if scope.get("date_to") else today
    unit = "year" if "year" in plain else "week" if "week" in plain else "month"
    if start.day == 1 and start.month == 1 and (end - start).days > 40:
        unit = "year"
    earlier = _back(start, end, unit)
    return [{"date_from": start.isoformat(), "date_to": end.isoformat()},
            {"date_from": earlier[0].isoformat(), "date_to": earlier[1].isoformat()}]  # fmt: skip
