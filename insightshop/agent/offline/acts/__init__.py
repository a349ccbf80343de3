"""Acts: an intent (from the classifier) plus the message's entities and the conversation's brief → edits to the
brief and tool calls (an Interpretation), or None to let the phrase rules answer. One module per area registers
its acts with @act("intent_label"); pipeline.py calls them."""

from __future__ import annotations

from collections.abc import Callable

ACTS: dict[str, Callable] = {}


def act(*labels: str):
    """Register the decorated function as the act for these intent labels: fn(request, guess) -> Interpretation | None."""

    def register(function: Callable) -> Callable:
        for label in labels:
            if label in ACTS:
                raise ValueError(f"two acts for {label}")
            ACTS[label] = function
        return function

    return register


def resume(request):
    """An answer to a question an act asked last turn (kept in the brief), before any classifying: an Interpretation,
    or None when there is no open question or this message is no answer to it."""
    return admin.resume(request) or catalog.resume(request)


from . import account, admin, catalog, order_lookup, orders, outfits, products, receipts, shopper  # noqa: E402,F401 — each registers its acts
