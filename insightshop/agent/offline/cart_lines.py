"""Changes to a line already in the cart: its count ("set the hoodie to 4", "update the shirts to 2") and what it
holds ("swap the white shirt for a blue one", "replace the hoodie with a jacket").

The tools add or remove a number of units; none sets a count or swaps a line. So the engine reads the cart first
(cart_show) and, from what the cart really holds, plans the calls on the one line the shopper named: the difference
added or removed; or the new item added (unsaid details taken from the line) and only then the old line removed.
What the message says is matched against the lines (garment, colour, size, department, product); with no line or
several, nothing changes and the reply says why."""

from __future__ import annotations

from dataclasses import dataclass

from ...models.cart import MAX_LINE_QUANTITY
from ..replies import line_label


@dataclass(frozen=True)
class WantedLine:
    """The line a shopper named and the count it should end with."""

    count: int | None = None  # None: the line is only named (a swap)
    product_id: int | None = None
    clothing_type: str | None = None
    color: str | None = None
    size: str | None = None
    category: str | None = None
    word: str | None = None  # a word of the product's name the shopper used ("the joggers"): decides between lines

    def fits(self, line: dict) -> bool:
        return all(
            wanted is None or line.get(field) == wanted
            for field, wanted in (("product_id", self.product_id), ("clothing_type", self.clothing_type),
                                  ("color", self.color), ("size", self.size), ("category", self.category))
        )  # fmt: skip

    def described(self) -> str:
        department = {"men": "men's", "women": "women's", "kids": "kids'"}.get(self.category or "")
        words = [department, self.color, self.clothing_type or "item"]
        size = f" in size {self.size}" if self.size else ""
        return " ".join(filter(None, words)) + size


Step = tuple[str, dict, bool]  # a tool, its arguments, and whether it waits for the step before it to succeed


def the_line(cart: dict, wanted: WantedLine) -> tuple[dict | None, str | None]:
    """The one cart line the shopper named, or None and why not."""
    lines = cart.get("items") or []
    fitting = [line for line in lines if wanted.fits(line)]
    if len(fitting) > 1 and wanted.word:
        fitting = [line for line in fitting if wanted.word in str(line.get("name", "")).lower()] or fitting
    if not lines:
        return None, "Your cart is empty, so there is nothing to change."
    if not fitting:
        held = "; ".join(f"{line['quantity']} × {line_label(line)}" for line in lines)
        return None, f"Your cart has no {wanted.described()}. It holds {held}."
    if len(fitting) > 1:
        listed = "; ".join(f"{line['quantity']} × {line_label(line)}" for line in fitting)
        return None, f"Your cart has {len(fitting)} lines like that: {listed}. Which one should I change?"
    return fitting[0], None


def presence(cart: dict, wanted: WantedLine) -> tuple[list[Step], str | None]:
    """ "is the hoodie still in my basket?": whether the cart holds such a line, from what it really holds."""
    lines = cart.get("items") or []
    fitting = [line for line in lines if wanted.fits(line)]
    if fitting:
        listed = "; ".join(f"{line['quantity']} × {line_label(line)}" for line in fitting)
        return [], f"Yes — your cart has {listed}."
    held = "; ".join(f"{line['quantity']} × {line_label(line)}" for line in lines)
    return [], f"No — your cart has no {wanted.described()}." + (f" It holds {held}." if held else " It is empty.")


def next_step(cart: dict, wanted: WantedLine) -> tuple[list[Step], str | None]:
    """The call that brings the named line to the wanted count, or no call and the reason."""
    line, reason = the_line(cart, wanted)
    if line is None:
        return [], reason
    have = int(line["quantity"])
    if wanted.count == have:
        return [], f"You already have {have} × {line_label(line)} in your cart."
    key = _line_key(line)
    if wanted.count == 0:
        return [("cart_remove_item", key, False)], None
    if wanted.count > have:
        # Past the cart's limit per line, the shop itself refuses and says what the limit is.
        return [("cart_add_item", {**key, "quantity": min(wanted.count - have, MAX_LINE_QUANTITY)}, False)], None
    return [("cart_remove_item", {**key, "quantity": have - wanted.count}, False)], None


def swap_steps(cart: dict, old: WantedLine, new: dict, quantity: int | None) -> tuple[list[Step], str | None]:
    """Replace the named line by `new` (cart_add_item arguments as far as the message gave them): the same product
    when only colour or size change, the line's size, department and count where the message is silent. The old
    line goes only once the new item is in: a variant the shop lacks leaves the cart as it was."""
    line, reason = the_line(cart, old)
    if line is None:
        return [], reason
    new = dict(new)
    step = new.pop("size_step", None)
    if step:
        from ...services.vocabulary import SIZES

        index = SIZES.index(line["size"]) + step if line.get("size") in SIZES else -1
        if not 0 <= index < len(SIZES):
            edge = "largest" if step > 0 else "smallest"
            return [], f"{line_label(line)} in {line.get('size')} is already the {edge} size we have, so I left it."
        new["selected_size"] = SIZES[index]
    if "product_id" not in new and new.get("clothing_type") in (None, line["clothing_type"]):
        new.pop("clothing_type", None)
        new.pop("category", None)
        new["product_id"] = line["product_id"]
        new.setdefault("selected_color", line["color"])
    elif "product_id" not in new:
        new.setdefault("category", line["category"])
    new.setdefault("selected_size", line["size"])
    if (new.get("product_id"), new.get("selected_color"), new["selected_size"]) == (
        line["product_id"],
        line["color"],
        line["size"],
    ):
        return [], f"That's what your cart already holds: {line['quantity']} × {line_label(line)}."
    added = {**new, "quantity": min(quantity or int(line["quantity"]), MAX_LINE_QUANTITY)}
    return [("cart_add_item", added, False), ("cart_remove_item", _line_key(line), True)], None


def _line_key(line: dict) -> dict:
    return {"product_id": line["product_id"], "selected_color": line["color"], "selected_size": line["size"]}


def keep_only(cart: dict, kept: WantedLine) -> tuple[list[Step], str | None]:
    """ "empty my cart except the socks": remove every line but the ones named; none named, nothing changes."""
    lines = cart.get("items") or []
    keep = [line for line in lines if kept.fits(line)]
    if not keep:
        held = "; ".join(f"{line['quantity']} × {line_label(line)}" for line in lines)
        return [], (
            f"Your cart has no {kept.described()}, so I left it as it is." + (f" It holds {held}." if held else "")
        )
    gone = [line for line in lines if line not in keep]
    if not gone:
        return [], "Your cart only holds those already: " + "; ".join(
            f"{line['quantity']} × {line_label(line)}" for line in keep
        ) + "."
    return [("cart_remove_item", _line_key(line), False) for line in gone], None
