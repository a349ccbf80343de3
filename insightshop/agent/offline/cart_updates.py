"""A change to a line of the cart said with no line just added ("make it 3", "swap my medium for an XL", "can I change
the colour to black", "update the shirt to large"): the classifier says it is a change (cart_update); this reads what
changes — the new count, or the new size or colour and the old one — and plans reading the cart, then changing its one
line, or the line named (several alike: the reply asks which)."""

from __future__ import annotations

import re

from ...services.vocabulary import normalise_color, normalise_size
from . import cart_lines
from .cart_items import _item
from .plans import CartStep, Interpretation, PlannedCall
from .rule_words import NUM_WORDS
from .turns import Turn, _result

THE_LINE = re.compile(r"(?i)\b(?:the|my|that|this|those|these|it|them|one)\b")
MAX_COUNT = 20  # a larger number in a change is a size ("a 32 waist"), not a count
TOKEN = re.compile(r"[a-z0-9]+")
NEW_MARK = frozenset(["for", "with", "to", "into", "an", "a"])  # "swap the large for a medium": what follows is new
OLD_MARK = frozenset(["not", "from", "instead"])  # "in black not grey": what follows is old


def _count(words: list[str]) -> int | None:
    """The count the line should have: after "to" ("up it to 5"), else the first one not negated ("one, not two")."""
    numbers = [(at, int(w) if w.isdigit() else NUM_WORDS.get(w)) for at, w in enumerate(words)]
    numbers = [(at, n) for at, n in numbers if n is not None and 0 < n <= MAX_COUNT]
    after_to = [n for at, n in numbers if at and words[at - 1] == "to"]
    kept = [n for at, n in numbers if not (at and words[at - 1] == "not")]
    return (after_to or kept or [None])[0]


def _attribute(words: list[str], read) -> tuple[str | None, str | None]:
    """(new, old) of a size or colour said once or twice: the one marked new ("for", "with", "to"), or not negated."""
    said = [(at, read(w)) for at, w in enumerate(words) if read(w)]
    if not said:
        return None, None
    old = next((v for at, v in said if at and words[at - 1] in OLD_MARK), None)
    new = next((v for at, v in said if at and words[at - 1] in NEW_MARK and v != old), None)
    if new is None:
        new = next((v for _at, v in reversed(said) if v != old), None)
    if old is None and len(said) > 1:
        old = next((v for _at, v in said if v != new), None)
    return new, old


def _size(word: str) -> str | None:
    return normalise_size(word) if word in ("xs", "s", "m", "l", "xl", "xxl", "small", "medium", "large") else None


def h_cart_line_update(turn: Turn) -> Interpretation | None:
    if not turn.sure("cart_update"):
        return None
    words = TOKEN.findall(turn.msg.norm.lower())
    named = _item(turn.msg.norm)
    if named.identified and not THE_LINE.search(turn.msg.norm):
        return None  # "I only want 1 black hoodie" names no line of the cart ("the", "my"): no change to one
    size, old_size = _attribute(words, _size)
    color, old_color = _attribute(words, normalise_color)
    if size or color:
        line = cart_lines.WantedLine(None, named.product_id, named.clothing_type, old_color, old_size, named.category)
        fields = (("selected_color", color), ("selected_size", size))
        replacement = tuple((name, value) for name, value in fields if value)
        return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(line, replacement, None))])
    count = _count(words)
    if count is None:
        return None
    line = cart_lines.WantedLine(count, named.product_id, named.clothing_type, named.color, None, named.category)
    return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(line))])
