"""One turn of the phrase rules (Turn): the message with its context, how results are built (call, calls, say, ask) and
what the context remembers."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from ...mcp.tools_registry import registry
from .message import Msg
from .plans import Interpretation, PlannedCall
from .rule_words import EMAIL

SURE = 0.5  # the pipeline's confidence floor: at or above it the classifier is right about 9 times in 10 (bench)

# Results and context ------------------------------------------------------------------------------------------


class Turn:
    """One message being interpreted: its features, the context, and what is pending from the last turn."""

    def __init__(self, message: str, context: dict | None, is_admin: bool):
        self.msg = Msg(message)
        self.ctx = dict(context) if isinstance(context, dict) else {}
        pending = self.ctx.pop("pending", None)
        self.pending = pending if isinstance(pending, dict) and isinstance(pending.get("args"), dict) else None
        self.is_admin = bool(is_admin)
        self.intent: tuple[str, float] = ("", 0.0)  # the classifier's likeliest intent and its probability (rules.py)

    def sure(self, label: str) -> bool:
        """Is the message surely this intent (the classifier's likeliest, at or above SURE)? Then a handler needs no
        verb of its own to act ("ready to buy" is a checkout without the word)."""
        return self.intent[0] == label and self.intent[1] >= SURE

    def pending_args(self, tool: str) -> dict:
        return dict(self.pending["args"]) if self.pending and self.pending.get("tool") == tool else {}

    @property
    def user_email(self) -> str | None:
        email = self.ctx.get("user_email")
        return email if isinstance(email, str) and EMAIL.fullmatch(email) else None


def _result(turn: Turn, calls: list[PlannedCall], **kwargs) -> Interpretation:
    context = dict(turn.ctx)
    for call in calls:
        REMEMBER.get(call.name, _remember_action)(context, call.arguments)
        context["last_action"] = call.name
    return Interpretation(calls=calls, context=context, **kwargs)


def call(turn: Turn, name: str, arguments: dict) -> Interpretation:
    return _result(turn, [PlannedCall(name, arguments)])


def calls(turn: Turn, planned: list[tuple[str, dict]]) -> Interpretation:
    return _result(turn, [PlannedCall(name, args) for name, args in planned])


def say(turn: Turn, text: str, **kwargs) -> Interpretation:
    return Interpretation(reply=text, context=dict(turn.ctx), **kwargs)


def ask(turn: Turn, question: str, tool: str | None = None, args: dict | None = None, **extra) -> Interpretation:
    """A follow-up question; with a tool, the partial call waits in context["pending"] for the answer."""
    context = dict(turn.ctx)
    if tool:
        context["pending"] = {"tool": tool, "args": args or {}, **extra}
    return Interpretation(follow_up=question, context=context)


@lru_cache(maxsize=1)
def _required() -> dict[str, tuple[str, ...]]:
    return {name: tuple(d["input_schema"].get("required", ())) for name, d in registry().definitions.items()}


QUESTIONS = {
    "checkout_proceed": "To place the order I need {missing}. You can write it like: "
                        "\"ship to Jane Doe, 12 Oak St, Springfield, IL 62701, jane@example.com\".",
    "order_status": "Sure — I need {missing} to look the order up.",
    "order_track": "What's the tracking number?",
    "review_create": "Happy to post that review — {missing}?",
    "compare_products": "Which products should I compare? Give me at least two product numbers, e.g. "
                        "\"compare 3 and 8\".",
    "admin_product_create": "To create the product I still need {missing}.",
    "admin_sale_create": "To create the sale I still need {missing}.",
    "admin_order_update_status": "Which order, and what status (pending, processing, shipped, delivered, cancelled)?",
    "admin_product_update": "Which product, and what should change (price, stock, name, …)?",
    "admin_product_delete": "Which product number should I deactivate?",
    "admin_review_delete": "Which review number should I delete?",
    "admin_cart_clear_user": "Which user's cart (user number) should I clear?",
}  # fmt: skip
FIELD_NAMES = {
    "shipping_name": "the recipient's name", "shipping_address": "the street address", "shipping_city": "the city",
    "shipping_state": "the state", "shipping_zip": "the ZIP code", "email": "your email address",
    "order_id": "the order number", "product_id": "which product (its number)", "rating": "how many stars (1–5)",
    "name": "a name", "price": "a price", "category": "a category (men, women or kids)",
    "discount_percentage": "the discount (e.g. 30%)", "start_date": "a start date", "end_date": "an end date",
}  # fmt: skip


def finish(turn: Turn, tool: str, args: dict) -> Interpretation:
    """The call when every required argument is there, else a follow-up that keeps the partial call pending."""
    missing = [key for key in _required().get(tool, ()) if key not in args]
    if not missing:
        return call(turn, tool, args)
    names = [FIELD_NAMES.get(key, key) for key in missing]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return ask(turn, QUESTIONS.get(tool, "I need {missing}.").format(missing=listed), tool, args)


def _remember_action(context: dict, _args: dict) -> None:
    context.pop("pending", None)


def _remember_add(context: dict, args: dict) -> None:
    item = {k: v for k, v in args.items() if k != "quantity"}
    same = context.get("last_action") == "cart_add_item" and context.get("last_item") == item
    context["last_quantity"] = args.get("quantity", 1) + (int(context.get("last_quantity") or 0) if same else 0)
    context["last_item"] = item
    if "product_id" in args:
        context["last_product_id"] = args["product_id"]


def _remember_product(context: dict, args: dict) -> None:
    context["last_product_id"] = args["product_id"]


def _remember_compare(context: dict, args: dict) -> None:
    context["last_product_ids"] = list(args["product_ids"])


def _remember_order(context: dict, args: dict) -> None:
    context["last_order_id"] = args["order_id"]


def _remember_remove(context: dict, args: dict) -> None:
    context["last_item"] = {k: v for k, v in args.items() if k != "quantity"}


REMEMBER: dict[str, Callable[[dict, dict], None]] = {
    "cart_add_item": _remember_add,
    "cart_remove_item": _remember_remove,
    "review_create": _remember_product,
    "admin_product_update": _remember_product,
    "compare_products": _remember_compare,
    "order_status": _remember_order,
    "admin_order_update_status": _remember_order,
}
