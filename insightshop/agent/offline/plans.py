"""What the rule stage plans: tool calls (PlannedCall), the steps decided from a call's result (CartStep, CartCheck,
PriceAnswer) and the Interpretation returned."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from . import cart_lines


@dataclass
class PlannedCall:
    name: str  # a registry tool name
    arguments: dict  # validates against the tool's input schema
    after_success: bool = False  # run only if the call before it succeeded (a swap removes only once it added)
    # Calls decided by this one's result, and the reply when there are none ("set the hoodie to 4" reads the cart
    # first): run next, if this call succeeded.
    then: Callable[[dict], tuple[list[PlannedCall], str | None]] | None = None  # CartStep, OptionsQuestion


@dataclass(frozen=True)
class CartStep:
    """What a cart_show call is for: once the cart is read, the calls that set a line's count or swap a line
    (cart_lines decides them from what the cart holds), or no call and the reply saying why."""

    line: cart_lines.WantedLine
    replacement: tuple[tuple[str, object], ...] | None = None  # a swap: the new item's cart_add_item arguments
    quantity: int | None = None  # a swap's count, when the message gives one

    def __call__(self, result: dict) -> tuple[list[PlannedCall], str | None]:
        cart = result.get("cart") or {}
        if self.replacement is None:
            steps, reply = cart_lines.next_step(cart, self.line)
        else:
            steps, reply = cart_lines.swap_steps(cart, self.line, dict(self.replacement), self.quantity)
        return [PlannedCall(name, args, after_success=waits) for name, args, waits in steps], reply

    def label(self) -> dict:
        """The step in words for the labelled corpus: the line named, and its new count or replacement."""
        named = {k: v for k, v in vars(self.line).items() if v is not None and k != "count"}
        if self.replacement is None:
            return {"line": named, "count": self.line.count}
        return {"line": named, "replace_with": dict(self.replacement), "quantity": self.quantity}


@dataclass(frozen=True)
class CartCheck:
    """What a cart_show call is for when the shopper asks whether a line is there: the reply says yes or no."""

    line: cart_lines.WantedLine

    def __call__(self, result: dict) -> tuple[list[PlannedCall], str | None]:
        return cart_lines.presence(result.get("cart") or {}, self.line)

    def label(self) -> dict:
        return {"line": {k: v for k, v in vars(self.line).items() if v is not None and k != "count"}, "check": True}


@dataclass(frozen=True)
class PriceAnswer:
    """ "which is cheaper, the oxford shirt or the linen shirt?": the comparison, and the reply gives both prices."""

    cheaper: bool = True

    def __call__(self, result: dict) -> tuple[list[PlannedCall], str | None]:
        departments = {"men": "Men's", "women": "Women's", "kids": "Kids'"}
        priced = []
        for product in result.get("products") or []:
            try:
                priced.append((float(product["price"]), product))
            except (KeyError, TypeError, ValueError):
                return [], None
        if len(priced) < 2:
            return [], None
        priced.sort(key=lambda pair: pair[0], reverse=not self.cheaper)
        listed = "; ".join(
            f"{p['name']} ({departments.get(p.get('category'), p.get('category'))}, {p.get('color')}): ${p['price']}"
            for _, p in priced
        )
        if priced[0][0] == priced[1][0]:
            return [], f"They cost the same: {listed}."
        word = "cheaper" if self.cheaper else "pricier"
        return [], f"The {priced[0][1]['name']} is {word} — {listed}."

    def label(self) -> dict:
        return {"answer": "cheaper" if self.cheaper else "pricier"}


@dataclass
class Interpretation:
    calls: list[PlannedCall] = field(default_factory=list)
    reply: str | None = None
    follow_up: str | None = None
    wants_login_form: bool = False
    context: dict = field(default_factory=dict)
