"""The understanding pipeline: the message's intent from the classifier (classifier.py), then the act registered
for it (acts/) edits the conversation's brief (brief.py) and plans the calls. An intent with no act, a guess below
the confidence floor, or an act that returns None leaves the message to the phrase rules (rules.py)."""

from __future__ import annotations

from . import acts
from .classifier import Guess, classify
from .rules import Interpretation

CONFIDENCE_FLOOR = 0.5


def understand(request) -> Interpretation | None:
    """An Interpretation for this message, or None when the phrase rules should answer it."""
    text = request.plain.strip()
    if not text or not acts.ACTS:
        return None
    resumed = acts.resume(request)  # the answer to an act's question ("M", "the kids one"): no classifying
    if resumed is not None:
        return resumed
    guess: Guess = classify(text)
    handler = acts.ACTS.get(guess.label)
    if handler is None or guess.confidence < CONFIDENCE_FLOOR:
        return None
    return handler(request, guess)
