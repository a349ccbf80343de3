"""Cart items in a message: segments with a count, size, colour, type and department ('2 large white shirts and a navy
hoodie')."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ...services.vocabulary import normalise_color, normalise_size
from .message import Msg, _blank, _category, _number, _product_ids, _size, clothing_type
from .rule_words import (
    AMOUNT,
    EXCLUDED,
    ORDINAL,
    ORDINALS,
    PAIR_TYPES,
    PAIRS,
    PRODUCT_REF,
    QTY,
    SEGMENT_SPLIT,
    SORT_ANY,
    WORD,
)
from .turns import Turn

# Cart items: "2 large white shirts and a pair of black jeans" ------------------------------------------------


@dataclass
class Item:
    product_id: int | None = None
    clothing_type: str | None = None
    color: str | None = None
    size: str | None = None
    category: str | None = None
    quantity: int | None = None

    @property
    def identified(self) -> bool:
        return self.product_id is not None or self.clothing_type is not None

    def fill(self, other: Item) -> None:
        for name in ("color", "size", "category", "quantity"):
            if getattr(self, name) is None:
                setattr(self, name, getattr(other, name))

    def arguments(self, *, remove: bool = False) -> dict:
        args: dict = {}
        if self.product_id is not None:
            args["product_id"] = self.product_id
        if self.clothing_type is not None:
            args["clothing_type"] = self.clothing_type
        if self.color:
            args["selected_color"] = self.color
        if self.size:
            args["selected_size"] = self.size
        if self.category and not remove:
            args["category"] = self.category
        return args


NOT_A_COUNT = re.compile(
    r"\b(?:the|that|this|which|another|other|same|first|second|third|last|1st|2nd|3rd|\w+est|"
    r"blue|black|white|red|green|grey|navy|pink|yellow|beige|brown|purple|orange)\s+ones?\b"
)


# "jeans size 32", "sneakers in a 10": a numbered size (the shop sizes XS–XXL), never a quantity.
NUMERIC_SIZE = re.compile(
    r"\b(?:size|sz|waist)\s*[:=]?\s*(?:(?:us|uk|eu)\s*)?\d{1,2}(?:\.5)?\b|\b(?:us|uk|eu)\s+size\s*\d{1,2}\b|"
    r"\b\d{2,3}\s*(?:cm|inch(?:es)?|in|\")?\s*-?\s*waist\b|"  # "50 waist": a measurement, never a count
    r"\bin\s+(?:an?\s+)?(?:size\s+)?[2-5]\d\b"  # "jeans in 34": no count is that big
)
# Sizes past the shop's range ("XXXL", "3XL", "XXS"): said plainly, never read as the nearest one.
BEYOND_SIZES = re.compile(r"\b(?:x{3,}l|[3-9]xl|x{3,}s|[2-9]xs)\b")
# "add 0 socks", "add 1.5 shirts": no count the cart can hold.
NOT_A_WHOLE_COUNT = re.compile(
    r"\b(?:add|buy|get|put|want|need|order)\s+(?:0|zero|none|\d+\.\d+|half\s+an?(?!\s+dozen))\s+[a-z]"
)
NEGATIVE_COUNT = re.compile(r"(?:^|\s)-\d+\b")


def _quantity(text: str) -> int | None:
    pairs = PAIRS.search(text)
    if pairs:
        count = 1 if pairs.group(1) in ("a", "an") else _number(pairs.group(1))
        kinds = [clothing_type(w) for w in WORD.findall(text[pairs.end() :])]
        kind = next((k for k in kinds if k), None)
        return count if kind in PAIR_TYPES or kind is None else 2 * count
    match = QTY.search(NOT_A_COUNT.sub(" ", text))
    if not match:
        return None
    token = next(g for g in match.groups() if g is not None)
    return _number(token)


def _item(segment: str) -> Item:
    words = WORD.findall(_blank(SORT_ANY, segment))
    kinds = [k for k in map(clothing_type, words) if k]
    ids = _product_ids(segment)
    quantity_text = _blank(NUMERIC_SIZE, _blank(AMOUNT, _blank(PRODUCT_REF, segment)))
    return Item(
        product_id=ids[0] if ids else None,
        clothing_type=kinds[-1] if kinds else None,
        color=next((c for c in map(normalise_color, words) if c), None),
        size=_size(segment) or (_trailing_size(segment) if kinds else None) or _lone_size(segment),
        # "for me" claims no department, and keeps another part's ("1 for my son") off this one ("" is not None).
        category=_category(words) or ("" if re.search(r"\bfor\s+(?:me|myself)\b", segment) else None),
        quantity=_quantity(quantity_text),
    )


# "a black hoodie L, blue jeans M": a size letter right after the garment, ending its item.
TRAILING_SIZE = re.compile(
    r"\b([a-z-]+)\s+(xxl|xl|xs|s|m|l)(?:\s+(?:for\s+(?:me|myself|him|her|them)|please|pls))?\W*$"
)


def _lone_size(segment: str) -> str | None:
    """ "a polo in white, L, and …": a part that is a size letter and nothing else; "product 6 M": a size letter
    right after a product named by its number (a product's name becomes its number before the rules read it)."""
    match = re.fullmatch(r"\W*(xxl|xl|xs|s|m|l)\W*", segment) or re.search(
        r"\b(?:product\s+\d+|ones?)\s+(xxl|xl|xs|s|m|l)\W*$", segment
    )
    return normalise_size(match.group(1)) if match else None


def _trailing_size(segment: str) -> str | None:
    match = TRAILING_SIZE.search(segment)
    return normalise_size(match.group(2)) if match and clothing_type(match.group(1)) else None


# "a white tee S and the same in black": the item before, again, with what this part changes.
SAME_AGAIN = re.compile(
    r"^\W*(?:(?P<same>the\s+same|same\s+(?:one|thing))|another(?:\s+one)?|one\s+more|(?:one|1)(?=\s+in\s)|"
    r"(?:an?|the|\d+|two|three|four|five)\s+(?:[a-z]+\s+)?ones?)\b"
)
# "a navy coat in L, no actually XL": what follows replaces what was said before it.
CHANGED_MIND = re.compile(r"^\W*(?:no|nope|actually|sorry|wait|oops|i\s+mean|rather)\b")


def items(msg: Msg) -> list[Item]:
    """The items a cart message names, attributes between them attached to the nearest item."""
    found: list[Item] = []
    loose = Item()
    correcting = False
    for segment in SEGMENT_SPLIT.split(EXCLUDED.sub(" ", msg.without_refs)):
        item = _item(segment)
        correcting = correcting or bool(CHANGED_MIND.search(segment))
        if item.identified:
            item.fill(loose)
            found.append(item)
            loose = Item()
        elif found and (item.color or item.size) and item.quantity and not correcting:
            # "2 large tees in black and 1 medium in white": a count with other details is another item.
            again = replace(found[-1], quantity=item.quantity)
            again.color, again.size = item.color or again.color, item.size or again.size
            again.category = item.category if item.category is not None else again.category
            found.append(again)
        elif found and (item.color or item.size) and (again_match := SAME_AGAIN.search(segment)):
            same_count = found[-1].quantity if again_match.group("same") else None  # "another one" is one
            again = replace(found[-1], quantity=item.quantity or same_count)
            again.color, again.size = item.color or again.color, item.size or again.size
            again.category = item.category if item.category is not None else again.category
            found.append(again)
        elif found and (item.color or item.size) and correcting and not item.quantity:
            found[-1].color, found[-1].size = item.color or found[-1].color, item.size or found[-1].size
        elif found:
            found[-1].fill(item)
        else:
            loose.fill(item)
    if not found:
        return [loose]
    for item in found:
        item.fill(Item(size=msg.size if len(found) == 1 else None, category=msg.category))
    return found


def _base_item(turn: Turn) -> Item | None:
    """What "it", "another one", "the first one" refer to."""
    msg, ctx = turn.msg, turn.ctx
    ordinal = ORDINAL.search(msg.norm)
    listed = ctx.get("last_product_ids") or []
    if ordinal and listed:
        index = ORDINALS[ordinal.group(1)]
        if index < len(listed):
            return Item(product_id=listed[index])
    if ctx.get("last_action") == "compare_products" and listed:
        picked = [n for n in msg.integers if n in listed]
        if picked:
            return Item(product_id=picked[0])
    if ctx.get("last_action") == "search_products" and len(listed) == 1 and (ctx.get("last_search") or {}).get("terms"):
        # "how much is the silk slip dress?" found one: "add it" is that one, in the size and colour searched for
        search = ctx["last_search"]
        return Item(product_id=listed[0], color=search.get("color"), size=search.get("size"),
                    category=search.get("category"))  # fmt: skip
    if ctx.get("last_action") == "search_products" and (ctx.get("last_search") or {}).get("clothing_type"):
        search = ctx["last_search"]
        return Item(clothing_type=search["clothing_type"], color=search.get("color"), size=search.get("size"),
                    category=search.get("category"))  # fmt: skip
    last = ctx.get("last_item")
    if isinstance(last, dict) and last:
        line = ctx.get("last_line") if isinstance(ctx.get("last_line"), dict) else {}
        # "a white one too" after a men's navy polo: the department the added line went to, when none was said
        department = last.get("category") or (
            line.get("category") if ctx.get("last_action") == "cart_add_item" else None
        )
        return Item(product_id=last.get("product_id"), clothing_type=last.get("clothing_type"),
                    color=last.get("selected_color"), size=last.get("selected_size"), category=department)  # fmt: skip
    return Item(product_id=ctx["last_product_id"]) if isinstance(ctx.get("last_product_id"), int) else None


def _with_context(turn: Turn, item: Item) -> Item | None:
    """An item the message names only by reference, completed from the context ("add another one in blue")."""
    base = _base_item(turn)
    if base is None:
        return None
    base.color = item.color or base.color
    base.size = item.size or base.size
    base.category = item.category or base.category
    base.quantity = item.quantity
    if turn.ctx.get("last_action") == "compare_products" and base.product_id in (
        turn.ctx.get("last_product_ids") or []
    ):
        base.quantity = None if item.quantity == base.product_id else item.quantity
    return base
