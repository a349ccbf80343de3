"""Acts for the admin intents (see acts/__init__.py): stock read per variant, stock changes (add, remove, set),
stock reports, price changes over a set, sales on any scope, figures with breakdowns and comparisons, product and
order finders. The admin's words are data (data/lexicons/admin_verbs.json); references ("the priciest coat", "the
first of those", "all kids' jackets") are resolved by a find first, and a `then` step decides the change from what
was found. The admin's selection and period live in the brief's "admin" section, so follow-ups work ("restock the
first of those", "vs the week before?", "and by department?").

A shopper's change or figures request is planned the same way, for the guard to refuse; a shopper's stock question
is left to the shopper's rules. An act returns None when it is not sure (the phrase rules answer)."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from functools import cache
from pathlib import Path

from .. import brief as briefs
from .. import entities
from ..admin_fields import orders_list_fields, sale_fields
from ..rules import Interpretation, Msg, PlannedCall
from ..turns import Turn, finish
from . import act
from .products import stock_of_a_kind

LEXICON = Path(__file__).resolve().parent.parent / "data" / "lexicons" / "admin_verbs.json"
DEPARTMENTS = {"men": "men's", "women": "women's", "kids": "kids'"}
CART = re.compile(r"\b(?:cart|basket|bag|trolley|checkout|wishlist)\b")
PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*(?:%|percent\b|per\s+cent\b|pct\b)")
MONEY = re.compile(r"\$\s*(\d+(?:\.\d{1,2})?)|(\d+(?:\.\d{1,2})?)\s*(?:\$|dollars?\b|bucks\b|usd\b)")
PLAIN_NUMBER = re.compile(r"(?<![#\w.$])(\d{1,6})(?![\w.%$])")
MAX_SELECTION = 20


@cache
def lexicon() -> dict:
    return {k: v for k, v in json.loads(LEXICON.read_text()).items() if not k.startswith("_")}


@cache
def _pattern(phrase: str) -> re.Pattern:
    return re.compile(r"(?<![\w$%])" + re.escape(phrase) + r"(?![\w])" if phrase[-1].isalnum() else re.escape(phrase))


def said(plain: str, key: str) -> bool:
    """Whether the message says one of the lexicon's phrases for this meaning."""
    return any(_pattern(p).search(plain) for p in lexicon()[key])


def meaning(plain: str, key: str):
    """The meaning of the longest phrase of a lexicon table the message says (None: none)."""
    found = [(len(p), v) for p, v in lexicon()[key].items() if _pattern(p).search(plain)]
    return max(found, key=lambda pair: pair[0])[1] if found else None


# The brief's admin section and the context ---------------------------------------------------------------------


def _admin(request) -> tuple[dict, dict]:
    """(the brief, its admin section): edited in place by acts and their steps."""
    brief = briefs.load(request.context)
    return brief, brief["admin"]


def _context(request, brief: dict, action: str | None = None) -> dict:
    context = briefs.save({k: v for k, v in request.context.items() if k != "pending"}, brief)
    context["brief"]["admin"] = brief["admin"]  # the same dict: steps that run later record the selection in it
    if action:
        context["last_action"] = action
    return context


def _plan(request, brief: dict, calls: list[PlannedCall], reply: str | None = None) -> Interpretation:
    brief["admin"].pop("pending", None)
    return Interpretation(calls=calls, reply=reply, context=_context(request, brief, calls[0].name if calls else None))


def _say(request, brief: dict, text: str, *, pending: dict | None = None) -> Interpretation:
    if pending is None:
        brief["admin"].pop("pending", None)
    else:
        brief["admin"]["pending"] = pending
    return Interpretation(reply=text, context=_context(request, brief))


class Remember:
    """A step that keeps what a read found as the admin's selection (the products, or variants, in the order shown)."""

    def __init__(self, section: dict, reply=None):
        self.section, self.reply = section, reply

    def __call__(self, result: dict) -> tuple[list, str | None]:
        self.section["selection"] = selection_of(result)[:MAX_SELECTION]
        return [], self.reply(result) if self.reply else None

    def label(self) -> dict:
        return {"remember": "selection"}


def selection_of(result: dict) -> list[dict]:
    if result.get("variants") and not result.get("products"):  # a stock report: variants
        return [{"product_id": v["product_id"], "name": v["name"], "color": v["color"], "size": v["size"]}
                for v in result["variants"]]  # fmt: skip
    return [{"product_id": p["id"], "name": p["name"]} for p in result.get("products") or [] if "id" in p]


# What the message refers to ---------------------------------------------------------------------------------------


def _referenced(request, section: dict) -> list[dict] | None:
    """The items of the admin's selection (or the last list shown) the message points at: "the first of those",
    "them"; None when it points at none."""
    items = section.get("selection") or [{"product_id": p["id"], "name": p.get("name")}
                                         for p in request.context.get("last_shown") or [] if "id" in p]  # fmt: skip
    if not items:
        return None
    plain = request.plain
    index = meaning(plain, "ordinals")
    if index is not None and (said(plain, "references") or re.search(r"\b(?:one|of\s+(?:those|them|these))\b", plain)
                              or len(plain.split()) <= 6):  # fmt: skip
        return [items[index]] if -len(items) <= index < len(items) else None
    if said(plain, "references") and not Msg(request.norm.text).types:
        return items
    return None


def _scope(msg: Msg) -> dict:
    """The find filters the message says: department, clothing type, colour."""
    scope = {}
    if msg.category:
        scope["category"] = msg.category
    if msg.types:
        scope["clothing_type"] = msg.types[0]
    if msg.colors:
        scope["color"] = msg.colors[0]
    return scope


def _scope_words(scope: dict) -> str:
    kind = scope.get("clothing_type")
    noun = (kind if kind.endswith("s") else f"{kind}s") if kind else "products"
    return " ".join(w for w in (DEPARTMENTS.get(scope.get("category", "")), scope.get("color"), noun) if w)


def _named(request, msg: Msg) -> list | None:
    """Products named in the message ("the denim jacket"), narrowed by colour and department; None: no name."""
    if msg.product_ids:
        return [p for p in request.vocabulary.products if p.id in msg.product_ids] or None
    mentions = entities.product_mentions(request.norm.text, request.vocabulary, msg.types or None)
    if not mentions:
        return None
    mention = mentions[0]
    if not (mention.score == 1 or mention.telling or mention.hits >= 2):
        return None
    color = msg.colors[0] if msg.colors else None
    fitting = [p for p in mention.products if (color is None or color in p.colors)
               and (msg.category is None or p.category == msg.category)]  # fmt: skip
    return fitting or None


def _numbers(request, msg: Msg) -> list[int]:
    """Whole numbers said, without product ids, sizes, prices, percents or years."""
    text = re.sub(r"#\s*\d+|\bproduct\s*#?\s*\d+|\bsize\s+\d+", " ", request.plain)
    text = PERCENT.sub(" ", MONEY.sub(" ", text))
    return [int(n) for n in PLAIN_NUMBER.findall(text) if int(n) < 100_000]


# Stock -------------------------------------------------------------------------------------------------------------


@act("admin_stock_read")
def stock_read(request, _guess) -> Interpretation | None:
    """ "how many navy hoodies in M are left", "stock of product 12", "how many of the first one are left"."""
    if CART.search(request.plain):
        return None
    msg = Msg(request.norm.text)
    if not request.is_admin:  # a shopper's stock question is about buying: what is left of that kind, to buy
        return stock_of_a_kind(request, msg) if said(request.plain, "stock_words") else None
    if said(request.plain, "out_of_stock") or said(request.plain, "low_stock") and not (msg.size or msg.product_ids):
        return stock_report(request, _guess)
    if not said(request.plain, "stock_words"):
        return None  # "show me red dresses in S" is a search
    brief, section = _admin(request)
    variant = {k: v for k, v in (("color", msg.colors[0] if msg.colors else None), ("size", msg.size)) if v}
    referenced = _referenced(request, section)
    named = _named(request, msg)
    if referenced:
        arguments = {"product_ids": list(dict.fromkeys(i["product_id"] for i in referenced))[:20], **variant}
    elif named:
        arguments = {"product_ids": [p.id for p in named][:20], **variant}
    elif msg.types:
        arguments = {k: v for k, v in _scope(msg).items()} | ({"size": msg.size} if msg.size else {})
    else:
        return None
    return _plan(request, brief, [PlannedCall("admin_stock_read", arguments, then=Remember(section))])


@act("admin_stock_report")
def stock_report(request, _guess) -> Interpretation | None:
    """ "what's out of stock", "which kids' jackets are running low", "anything below 3 units?"."""
    plain = request.plain
    if not request.is_admin or CART.search(plain):
        return None
    out, low = said(plain, "out_of_stock"), said(plain, "low_stock")
    if not out:
        return None  # low stock with no kind: the dashboard's low-stock list (the phrase rules plan it)
    msg = Msg(request.norm.text)
    if msg.types:
        return None  # "which dresses are out of stock?": the phrase rules read that kind's variants, department by department
    threshold = 0 if out and not low else 5
    below = re.search(r"\b(?:below|under|less\s+than|fewer\s+than)\s+(\d{1,4})\b", plain)
    at_most = re.search(r"\b(\d{1,4})\s+or\s+(?:fewer|less)\b|\bat\s+most\s+(\d{1,4})\b", plain)
    if below:
        threshold = max(0, int(below.group(1)) - 1)
    elif at_most:
        threshold = int(next(g for g in at_most.groups() if g))
    arguments = {"threshold": threshold, **{k: v for k, v in _scope(msg).items() if k != "color"}}
    brief, section = _admin(request)
    return _plan(request, brief, [PlannedCall("admin_stock_report", arguments, then=Remember(section))])


def _stock_rule(request, msg: Msg) -> dict | None:
    """{"change": ±n} or {"set_to": n} from the admin's words and the number said; {} when no number was said."""
    plain = request.plain
    numbers = _numbers(request, msg)
    if said(plain, "stock_set") and not said(plain, "stock_add") or re.search(r"\b(?:to|with|w/?)\s+\d", plain):
        return {"set_to": numbers[-1]} if numbers else {}
    if re.search(r"\b(?:to\s+)?zero\b|\bsold\s+out\b", plain) and said(plain, "stock_set"):
        return {"set_to": 0}
    if not numbers:
        return {}
    sign = -1 if said(plain, "stock_remove") and not said(plain, "stock_add") else 1
    return {"change": sign * numbers[0]} if numbers[0] else None


def _label(product) -> str:
    return f"{product.name} ({DEPARTMENTS.get(product.category, product.category)}, #{product.id})"


def _variants_line(product) -> str:
    return ", ".join(f"{c} / {s}" for c in product.colors for s in product.sizes)


@act("admin_stock_change")
def stock_change(request, _guess) -> Interpretation | None:
    """ "add 30 to the denim jacket stock", "remove 5 from the navy hoodie M", "restock the first of those",
    "set the black hoodie L to 0": one product, its variants by colour and size, one confirmation."""
    plain = request.plain
    if not _says_stock_change(request, plain):
        return None
    msg = Msg(request.norm.text)
    rule = _stock_rule(request, msg)
    if rule is None:
        return None
    brief, section = _admin(request)
    if "set_to" in rule and _referenced(request, section) is None:
        return None  # "restock the white oxford shirt size M with 20 units": a new total, the phrase rules propose it
    variant = {k: v for k, v in (("color", msg.colors[0] if msg.colors else None), ("size", msg.size)) if v}
    referenced = _referenced(request, section)
    if referenced is not None:
        if len(referenced) != 1:
            return _say(request, brief, "Which of them? Say \"the first\", \"the second\"… — I change one product's "
                                        "stock at a time.")  # fmt: skip
        item = referenced[0]
        variant = {**{k: item[k] for k in ("color", "size") if item.get(k)}, **variant}
        products = [p for p in request.vocabulary.products if p.id == item["product_id"]]
    else:
        products = _named(request, msg) or []
        if not products and msg.types:
            products = [p for p in request.vocabulary.products if p.clothing_type == msg.types[0]
                        and (msg.category is None or p.category == msg.category)
                        and (not msg.colors or msg.colors[0] in p.colors)]  # fmt: skip
    if not products:
        if not request.is_admin:
            return None
        return _say(request, brief, "I can't tell which product's stock to change, so I changed nothing. Name it "
                                    "(\"the men's denim jacket\") or give its number (\"product 32\").")  # fmt: skip
    return decide_stock(request, brief, products, rule, variant)


def _says_stock_change(request, plain: str) -> bool:
    """A restock, or a stock word with a verb that adds, removes or sets; never a cart or a price."""
    restock = said(plain, "restock")
    if CART.search(plain) or PERCENT.search(plain) or MONEY.search(plain):
        return False
    verb = any(said(plain, k) for k in ("stock_add", "stock_remove", "stock_set"))
    arrived = request.is_admin and said(plain, "arrivals") and said(plain, "stock_add")  # "we got 15 more of …"
    if not (restock or arrived or said(plain, "stock_words") and verb):
        return False
    # a shopper's "add item 31, size L, quantity 3" is a cart add: only the words stock or inventory count
    return request.is_admin or restock or bool(re.search(r"\b(?:stock|inventory)\b", plain))


def decide_stock(request, brief: dict, products: list, rule: dict, variant: dict) -> Interpretation:
    """One product, its units and its variants known: the change; else one short question (kept as pending)."""
    color, size = variant.get("color"), variant.get("size")
    fitting = [p for p in products if (not color or color in p.colors) and (not size or size in p.sizes)]
    products = fitting or products
    pending = {"kind": "stock", "choices": [p.id for p in products[:8]], "rule": rule, "variant": variant}
    if len(products) > 1:
        options = "; ".join(_label(p) for p in products[:8])
        return _say(request, brief, f"Several products fit — which one? {options}. Say its number (\"#12\") or the "
                                    "department.", pending=pending)  # fmt: skip
    product = products[0]
    if (color and color not in product.colors) or (size and size not in product.sizes):
        wanted = " / ".join(x for x in (color, size) if x)
        return _say(request, brief, f"{_label(product)} has no {wanted} variant — it comes in {_variants_line(product)}. "
                                    "I changed nothing.")  # fmt: skip
    if not rule:
        what = " / ".join(x for x in (color, size) if x)
        return _say(request, brief, f"How many units of {_label(product)}{' ' + what if what else ''}? Say \"add 20\", "
                                    "\"remove 5\" or \"set it to 12\".", pending=pending)  # fmt: skip
    each = said(request.plain, "each")
    several = len(product.sizes) > 1 and not size or len(product.colors) > 1 and not color
    if several and not each:
        sizes = size or ", ".join(product.sizes)
        amount = f"{rule['change']:+d}" if "change" in rule else f"a stock of {rule['set_to']}"
        return _say(request, brief, f"Which size of {_label(product)} gets {amount}? It comes in {sizes}"
                                    f"{' and ' + ', '.join(product.colors) if len(product.colors) > 1 and not color else ''}. "
                                    "Say a size, or \"each size\".", pending=pending)  # fmt: skip
    arguments = {"product_id": product.id, **rule, **variant}
    return _plan(request, brief, [PlannedCall("admin_stock_change", arguments)])


def resume(request) -> Interpretation | None:
    """The admin's short answer to the act's question ("M", "each size", "the kids one", "20", "#98"); any other
    message drops the question and is read as it stands."""
    brief, section = _admin(request)
    pending = section.get("pending")
    if not request.is_admin or not isinstance(pending, dict) or pending.get("kind") != "stock":
        return None
    plain = request.plain
    if len(plain.split()) > 6 or CART.search(plain):
        section.pop("pending", None)
        request.context["brief"] = brief
        return None
    msg = Msg(request.norm.text)
    products = [p for p in request.vocabulary.products if p.id in pending["choices"]]
    number = re.search(r"#\s*(\d+)|\bproduct\s*(\d+)", plain)
    if number:
        products = [p for p in products if p.id == int(next(g for g in number.groups() if g))]
    elif msg.category:
        products = [p for p in products if p.category == msg.category]
    variant = dict(pending.get("variant") or {})
    if msg.size:
        variant["size"] = msg.size
    if msg.colors:
        variant["color"] = msg.colors[0]
    rule = dict(pending.get("rule") or {})
    if not rule and not number:
        rule = _stock_rule(request, msg) or {}
    answered = number or msg.category or msg.size or msg.colors or rule != pending.get("rule") or said(plain, "each")
    if not answered or not products:
        section.pop("pending", None)
        request.context["brief"] = brief
        return None
    if said(plain, "each") and "change" in rule:
        return _plan(request, brief, [PlannedCall("admin_stock_change", {"product_id": products[0].id, **rule,
                                                                         **variant})]) if len(products) == 1 else \
            decide_stock(request, brief, products, rule, variant)  # fmt: skip
    return decide_stock(request, brief, products, rule, variant)


# Prices ------------------------------------------------------------------------------------------------------------


def price_rule(plain: str) -> dict | None:
    """{"percent": ±p}, {"amount": ±a} or {"set_to": x} from the admin's words; None when no figure was said."""
    percent, money = PERCENT.search(plain), MONEY.search(plain)
    down = said(plain, "price_down")
    up = said(plain, "price_up") and not re.search(r"\b(?:knock|take|mark)\b[^%$]*\boff\b", plain)
    if percent:
        value = float(percent.group(1))
        value = int(value) if value.is_integer() else value
        return {"percent": -value if down or not up else value}
    if money:
        value = float(next(g for g in money.groups() if g))
        value = int(value) if value.is_integer() else value
        if re.search(r"\b(?:by|plus|minus|extra|more|less|off)\b", plain) and (up or down):
            return {"amount": -value if down and not up else value}
        return {"set_to": value}
    number = re.search(r"\b(?:to|at|=)\s*(\d+(?:\.\d{1,2})?)\b", plain)
    if number and said(plain, "price_words"):
        value = float(number.group(1))
        return {"set_to": int(value) if value.is_integer() else value}
    return None


class ChangeFound:
    """After a find: one proposal covering every product found (their ids), or the reason there is none."""

    def __init__(self, tool: str, arguments: dict, what: str, section: dict, key: str = "product_ids"):
        self.tool, self.arguments, self.what, self.section, self.key = tool, arguments, what, section, key

    def __call__(self, result: dict) -> tuple[list, str | None]:
        ids = [p["id"] for p in result.get("products") or []]
        if not ids:
            return [], f"No {self.what} found, so I changed nothing."
        self.section["selection"] = selection_of(result)[:MAX_SELECTION]
        return [PlannedCall(self.tool, {**self.arguments, self.key: ids})], None

    def label(self) -> dict:
        return {"then": self.tool, **self.arguments}


def _targets(request, msg: Msg, section: dict, *, sort: str | None) -> tuple[list[int] | None, dict | None, str]:
    """(product ids said or pointed at, or find filters, and the words for them)."""
    referenced = _referenced(request, section)
    if referenced:
        ids = list(dict.fromkeys(i["product_id"] for i in referenced))
        return ids, None, "those products"
    if sort is None:
        named = _named(request, msg)
        if named and (msg.product_ids or not msg.types or len(named) <= 3):
            return [p.id for p in named], None, ", ".join(p.name for p in named[:3])
    scope = _scope(msg)
    if scope or sort:
        return None, scope, _scope_words(scope)
    return None, None, ""


def _find(scope: dict, sort: str | None, plain: str, msg: Msg) -> dict:
    """The find of a set ("all kids' jackets": up to 60) or of a superlative ("the priciest coat": the first one)."""
    arguments = {**scope, "status": "active", "limit": 60}
    if sort:
        arguments |= {"sort": sort, "limit": 1 if _singular(plain, msg) else 5}
    return arguments


@act("admin_price_change")
def price_change(request, _guess) -> Interpretation | None:
    """ "knock 10% off all kids' jackets", "raise hoodies by $5", "set the navy polo to $49", "10% off those":
    the set found first, then one confirmation listing every product's old → new price."""
    plain = request.plain
    if CART.search(plain) or said(plain, "sale_words") and not said(plain, "price_words"):
        return None
    rule = price_rule(plain)
    if rule is None or not (said(plain, "price_down") or said(plain, "price_up") or said(plain, "price_set")):
        return None
    if not request.is_admin and not (said(plain, "price_verbs") or re.search(r"\b(?:price|prices)\b", plain)):
        return None  # a shopper's "jackets under $50" is a search
    msg = Msg(request.norm.text)
    brief, section = _admin(request)
    if "set_to" in rule and not _referenced(request, section) and not re.search(r"\b(?:all|every|each)\b", plain):
        return None  # "set the price of the denim jacket to 59.99": one product's update (which one? the rules ask)
    sort = meaning(plain, "sorts")
    ids, scope, what = _targets(request, msg, section, sort=sort)
    if ids is not None:
        return _plan(request, brief, [PlannedCall("admin_price_change", {"product_ids": ids[:60], **rule})])
    if scope is None:
        if not request.is_admin:
            return None
        return _say(request, brief, "Which products' prices should change? Say a kind, a department or a product "
                                    "(\"all kids' jackets\", \"the men's denim jacket\").")  # fmt: skip
    find = _find(scope, sort, plain, msg)
    step = ChangeFound("admin_price_change", rule, what, section)
    return _plan(request, brief, [PlannedCall("admin_products_find", find, then=step)])


# Sales -------------------------------------------------------------------------------------------------------------


def _days(plain: str) -> int:
    days = meaning(plain, "durations")
    match = re.search(r"\bfor\s+(\d{1,3})\s+(day|week|month)s?\b", plain)
    if match:
        days = int(match.group(1)) * {"day": 1, "week": 7, "month": 30}[match.group(2)]
    return max(1, min(int(days or 7), 365))


class SaleFound:
    """After a find: the sale on exactly the products found."""

    def __init__(self, arguments: dict, what: str, section: dict):
        self.arguments, self.what, self.section = arguments, what, section

    def __call__(self, result: dict) -> tuple[list, str | None]:
        products = result.get("products") or []
        if not products:
            return [], f"No {self.what} found, so I made no sale."
        self.section["selection"] = selection_of(result)[:MAX_SELECTION]
        ids = [p["id"] for p in products]
        name = products[0]["name"] if len(products) == 1 else self.what
        arguments = {**self.arguments, "product_ids": ids, "name": f"{self.arguments['name']} {name}"[:255]}
        return [PlannedCall("admin_sale_create", arguments)], None

    def label(self) -> dict:
        return {"then": "admin_sale_create", "discount_percentage": self.arguments["discount_percentage"]}


@act("admin_sale_create")
def sale_create(request, _guess) -> Interpretation | None:
    """ "put the scarves 20% off", "put the priciest coat on sale 15% for a week", "20% off all kids' stuff this
    weekend", "put those on sale at 10%", "create a sale called Winter Warmers, 30% off kids' coats from Dec 1 to
    Dec 24": the scope (everything, departments, kinds or products), the name and the window said, else a name from
    the scope and a window from today."""
    plain = request.plain
    percent = PERCENT.search(plain)
    if not _wants_sale(request, plain, percent):
        return None
    turn = Turn(request.norm.text, request.context, request.is_admin)
    written = {**turn.pending_args("admin_sale_create"), **sale_fields(turn)}  # the name, percent and dates said
    # the scope is read without the sale's name: "Black Friday" is no black products
    name = written.get("name")
    msg = Msg(re.sub(re.escape(name), " ", request.norm.text, flags=re.I) if name else request.norm.text)
    brief, section = _admin(request)
    sort = meaning(plain, "sorts")
    ids, scope, what = _targets(request, msg, section, sort=sort)
    unsold = _unsold(plain) if request.is_admin and not (ids is not None or scope or sort) else None
    if unsold and "name" not in written:
        return _say(request, brief, f"The shop doesn't sell {unsold}, so I made no sale. Say a kind the shop "
                                    "carries, a department or a product.")  # fmt: skip
    if percent is None or not (ids is not None or scope or sort or said(plain, "everything")):
        # the whole shop, named and dated as written ("new sale: Summer Splash, 20% off, June 1 - June 30");
        # what is missing is asked for, the sale pending ("create a sale with 25% off")
        return finish(turn, "admin_sale_create", written)
    value = float(percent.group(1))
    value = int(value) if value.is_integer() else value
    from ....services.pricing import today

    start = today()
    days = _days(plain)
    base = {"discount_percentage": value, "start_date": start.isoformat(),
            "end_date": (start + timedelta(days=days - 1)).isoformat(), "is_active": True, "name": f"{value}% off",
            **written}  # fmt: skip
    named = "name" in written
    if ids is not None:
        names = ", ".join(i.name for i in request.vocabulary.products if i.id in ids[:2]) or "selected products"
        name = base["name"] if named else f"{base['name']} {names}"[:255]
        return _plan(request, brief, [PlannedCall("admin_sale_create", {**base, "product_ids": ids, "name": name})])
    if scope and not sort and "color" not in scope:
        arguments = {**base, "name": base["name"] if named else f"{base['name']} {_scope_words(scope)}"[:255]}
        if scope.get("category"):
            arguments["categories"] = [scope["category"]]
        if scope.get("clothing_type"):
            arguments["clothing_types"] = [scope["clothing_type"]]
        return _plan(request, brief, [PlannedCall("admin_sale_create", arguments)])
    if scope or sort:
        find = _find(scope or {}, sort, plain, msg)
        return _plan(request, brief, [PlannedCall("admin_products_find", find, then=SaleFound(base, what, section))])
    return _plan(request, brief, [PlannedCall("admin_sale_create", {**base, "name": base["name"] if named else
                                                                    f"{base['name']} everything"})])  # fmt: skip


def _wants_sale(request, plain: str, percent) -> bool:
    """A percent and a word that makes a sale (a shopper's "anything 20% off?" is a search), or a sale created
    with no percent yet ("create a sale called Winter Warmers from Dec 1 to Dec 24": the percent is asked for)."""
    if CART.search(plain):
        return False
    if not percent:
        return said(plain, "sale_create") and said(plain, "sale_words")
    return (
        said(plain, "sale_verbs")
        or request.is_admin
        and (said(plain, "sale_words") or bool(meaning(plain, "durations")))
    )


def _unsold(plain: str) -> str | None:
    from ..intent import _unsold_things

    found = _unsold_things(plain)
    return found[0].group(0) if found else None


# Figures ------------------------------------------------------------------------------------------------------------


# "revenue last month": the calendar month before this one, unless it is what this month is compared with.
LAST_MONTH = re.compile(r"\blast\s+(?:calendar\s+)?month\b")
AGAINST_LAST_MONTH = re.compile(
    r"\bthis\s+month\b|\b(?:vs|versus|than|against|to|with|over|on)\s+(?:the\s+)?last\s+month\b"
)


def _period(plain: str) -> str | None:
    if LAST_MONTH.search(plain) and not AGAINST_LAST_MONTH.search(plain):
        return "last_month"
    from ..admin_requests import _period as loose_period

    if re.search(r"\bweek\s+(?:over|on)\s+week\b|\bwow\b|\bthe\s+week\s+before\b", plain):
        return "week"
    if re.search(r"\bmonth\s+(?:over|on)\s+month\b|\bmom\b|\bthe\s+month\s+before\b", plain):
        return "month"
    if re.search(r"\byear\s+(?:over|on)\s+year\b|\byoy\b|\bthe\s+year\s+before\b", plain):
        return "year"
    return loose_period(plain)


def _figures_of_the_shop(request, plain: str) -> bool:
    """An admin's question about the shop's figures: not the writer's own spending or orders, not best sellers or
    one past day (the phrase rules answer those), not managing sales ("sync the holiday sales")."""
    if not request.is_admin or CART.search(plain) or re.search(r"\b(?:i|my|me)\b", plain):
        return False  # a shopper's try is the rules' admin_dashboard, refused by the guard
    return not any(said(plain, key) for key in ("best_sellers", "one_day", "not_figures"))


@act("admin_figures")
def figures(request, _guess) -> Interpretation | None:
    """ "revenue by department this month", "vs the week before?", "and by department?", "week over week",
    "how many orders this week": admin_sales_report with the period, comparison and breakdown asked for."""
    plain = request.plain
    if not _figures_of_the_shop(request, plain):
        return None
    if said(plain, "out_of_stock") or said(plain, "low_stock") and said(plain, "stock_words"):
        return stock_report(request, _guess)
    brief, section = _admin(request)
    follow_up = bool(section.get("figure")) or request.context.get("last_action") == "admin_dashboard"
    group_by = meaning(plain, "group_by")
    compare = said(plain, "compare")
    if not said(plain, "figures") and not (follow_up and (group_by or compare or _period(plain))):
        return None
    period = _period(plain) or (section.get("period") if follow_up else None) or "week"
    if follow_up and compare and section.get("period") == "last_month" and period == "month":
        period = "last_month"  # "and the month before?" after last month's figures: the calendar month before it
    if period == "all":
        compare = False
    if not group_by and follow_up and not said(plain, "figures"):
        group_by = section.get("group_by")  # "vs the week before?" after "revenue by department" keeps the breakdown
    arguments = {"period": period}
    if compare:
        arguments["compare"] = True
    if group_by:
        arguments["group_by"] = group_by
    section.update(figure="revenue", period=period, compare_to="previous" if compare else None, group_by=group_by)
    return _plan(request, brief, [PlannedCall("admin_sales_report", arguments)])


# Finding products and orders ------------------------------------------------------------------------------------------


@act("admin_product_find")
def product_find(request, _guess) -> Interpretation | None:
    """ "the priciest coat", "which hoodies have the least stock", "show inactive products", "cheapest kids' jeans"."""
    plain = request.plain
    if not request.is_admin or CART.search(plain):
        return None
    msg = Msg(request.norm.text)
    sort = meaning(plain, "sorts")
    inactive = said(plain, "inactive")
    scope = _scope(msg)
    if not (sort or inactive):
        return None  # "find me a red dress" is a search
    arguments = {**scope, "status": "inactive" if inactive else "active", "sort": sort or "name",
                 "limit": 1 if sort and _singular(plain, msg) else 10}  # fmt: skip
    if re.search(r"\b(?:all|any)\b", plain) and inactive:
        arguments["limit"] = 20
    brief, section = _admin(request)
    return _plan(request, brief, [PlannedCall("admin_products_find", arguments, then=Remember(section))])


def _singular(plain: str, msg: Msg) -> bool:
    """ "the priciest coat" (one), not "the 5 priciest coats" or "the priciest coats"."""
    if re.search(r"\b(?:top|the)\s+\d+\b|\b\d+\s+(?:priciest|cheapest|most|least|newest|lowest|highest)\b", plain):
        return False
    return not re.search(r"\b(?:coats|jackets|products|items|ones|shirts|hoodies|dresses|jeans|pants|sneakers|socks|"
                         r"sweaters|skirts|polos|blouses|shorts|tees|things)\b", plain)  # fmt: skip


class OldestOrder:
    """The first order of a list sorted oldest (or newest) first, said plainly."""

    def __init__(self, status: str | None, sort: str, section: dict):
        self.status, self.sort, self.section = status, sort, section

    def label(self) -> dict:
        return {"first_order": self.sort}

    def __call__(self, result: dict) -> tuple[list, str | None]:
        orders, total = result.get("orders") or [], (result.get("pagination") or {}).get("total", 0)
        what = f"{self.status} order" if self.status else "order"
        if not orders:
            return [], f"There are no {what}s."
        order = orders[0]
        self.section["order_id"] = order["id"]
        placed = str(order.get("created_at") or "")[:10]
        who = order.get("email") or order.get("shipping_name") or "a customer"
        which = "oldest" if self.sort == "oldest" else "newest"
        return [], (f"The {which} {what} is #{order['id']}: {who}, ${order.get('total')}, {order.get('status')}, "
                    f"placed {placed}. {total} {what}{'' if total == 1 else 's'} in all.")  # fmt: skip


@act("admin_orders_find")
def orders_find(request, _guess) -> Interpretation | None:
    """ "the oldest unshipped order", "latest paid orders", "page 2 of delivered orders", "orders for smith",
    "shipped orders for customer 3": admin_orders_list with the status, sort, customer and page said (a shopper's
    try is planned all the same, for the guard to refuse)."""
    plain = request.plain
    msg = Msg(request.norm.text)
    if CART.search(plain) or msg.order_id is not None or not re.search(r"\borders?\b", plain):
        return None  # one order by number: its status or an admin's change of it
    if re.search(r"\b(?:my|our)\s+(?:\w+\s+)?orders?\b", plain):
        return None  # the writer's own orders (acts/order_lookup.py, intent.my_orders)
    status = meaning(plain, "order_statuses")
    sort = meaning(plain, "order_sorts")
    single = sort and re.search(r"\b(?:the|which)\s+(?:\w+\s+){0,2}order\b(?!s)", plain)
    brief, section = _admin(request)
    if (
        msg.emails
        or msg.user_id
        or not (single or status == "unshipped" or sort == "oldest")
        or re.search(r"\bpage\b|\d", plain)
    ):
        return _plan(request, brief, [PlannedCall("admin_orders_list", orders_list_fields(msg))])
    arguments = {"status": status} if status else {}
    if single:
        arguments |= {"sort": sort, "per_page": 1}
        step = OldestOrder(status, sort, section)
        return _plan(request, brief, [PlannedCall("admin_orders_list", arguments, then=step)])
    if sort == "oldest":
        arguments["sort"] = "oldest"
    return _plan(request, brief, [PlannedCall("admin_orders_list", arguments)])
