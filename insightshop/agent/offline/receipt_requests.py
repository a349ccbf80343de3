"""Stage 3 (intent), receipts: "what did I spend at Whole Foods in October?", "show my receipts over $50",
"how much did I spend on dairy last month?" → receipts_list with merchant, dates, amounts and category.

Dates are resolved against `today` (a month without a year is its latest occurrence not in the future)."""

from __future__ import annotations

import re
from datetime import date

from ...services.receipts.query_words import receipt_filters
from .rules import Interpretation, PlannedCall

RECEIPT_WORDS = re.compile(r"\breceipts?\b|\bexpenses?\b|\bspending\b|\bspen[dt]\b|\bpurchases\s+(?:at|from)\b")
SPENDING = re.compile(r"\bspen[dt]\b|\bspending\b|\bexpenses?\b")
PERSONAL = re.compile(r"\b(?:my|i|me|i've|ive|mine)\b")
DECLINED = re.compile(r"\b(?:don'?t|do\s+not|never|no\s+need\s+to)\s+(?:show|list|tell|give|bother)")
ORDER_TALK = re.compile(r"\border\s*#?\s*\d|\bfor\s+(?:my\s+)?order\b|\border\s+receipt\b")
UPLOAD_TALK = re.compile(r"\b(?:upload|scan|add|attach)\b.{0,20}\breceipt")
# "I don't want to spend more than $50", "happy to spend up to 80": a budget for a search, not past spending.
BUDGET = re.compile(
    r"\b(?:to|wanna|can|could|will|would|gonna|willing|prepared|able)\s+spend\b|"
    r"\bspend\s+(?:up\s+to|at\s+most|no\s+more|less|under|max(?:imum)?|around|about)\b"
)
RECEIPT_NOUNS = re.compile(r"\breceipts?\b|\bexpenses?\b")


def my_receipts(request) -> Interpretation | None:
    """A signed-in shopper asking about their receipts or spending: receipts_list with what the words constrain."""
    plain = request.plain
    if not RECEIPT_WORDS.search(plain) or ORDER_TALK.search(plain) or UPLOAD_TALK.search(plain):
        return None
    if not (SPENDING.search(plain) or PERSONAL.search(plain)):
        return None  # "find a receipt printer" is a search, not the shopper's receipts
    if BUDGET.search(plain) and not RECEIPT_NOUNS.search(plain):
        return None
    if DECLINED.search(plain):
        return Interpretation(reply="Alright, I won't.", context=dict(request.context))
    arguments = receipt_filters(request.norm.original, today=_today(request))
    context = {key: value for key, value in request.context.items() if key != "pending"}
    context["last_action"] = "receipts_list"
    return Interpretation(calls=[PlannedCall("receipts_list", arguments)], context=context)


def _today(request) -> date:
    given = request.context.get("today")
    try:
        return date.fromisoformat(given) if isinstance(given, str) else date.today()
    except ValueError:
        return date.today()
