"""Stage 3 (intent), an admin's requests the phrase rules do not read: a product's stock or price by its name
("restock the white oxford shirt size M with 20 units", "set the price of the denim jacket to 59.99"), best sellers
("top 5 products by revenue this month"), stock of one kind ("which dresses are out of stock?"), orders of a
customer ("find the order for jane@example.com"), order counts by status ("how many orders are pending?"), and what
no tool does (reviews to moderate, customers' carts, admin rights, one past day's sales), said plainly with where in
the admin panel it is done. A shopper's attempt at the dashboard is planned as the admin tool, for the guard to
refuse. Each decider returns an Interpretation or None; the results' replies come from `then` steps."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from . import entities
from .rules import Interpretation, Msg, PlannedCall

LABELS = {"men": "men's", "women": "women's", "kids": "kids'"}
PERIOD_WORDS = {"today": "today", "week": "in the last 7 days", "month": "in the last 30 days",
                "year": "in the last 12 months", "all": "of all time"}  # fmt: skip

# A period said loosely: "last month", "past 30 days", "over the last week", "lst 30 days".
LOOSE_PERIODS = (
    ("today", re.compile(r"\btoday\b")),
    ("week", re.compile(r"\b(?:(?:this|last|past|the)\s+week|(?:last|lst|past)\s+7\s+days|weekly)\b")),
    ("month", re.compile(r"\b(?:(?:this|last|past|the)\s+month|(?:last|lst|past)\s+30\s+days|monthly)\b")),
    ("year", re.compile(r"\b(?:(?:this|last|past|the)\s+year|(?:last|lst|past)\s+(?:12\s+months|365\s+days)|ytd)\b")),
    ("all", re.compile(r"\b(?:all[\s-]time|ever|overall|since\s+(?:we\s+)?(?:opened|launch)|lifetime)\b")),
)


def _period(plain: str) -> str | None:
    return entities.period(plain) or next((name for name, rx in LOOSE_PERIODS if rx.search(plain)), None)


def _reply(request, text: str) -> Interpretation:
    return Interpretation(reply=text, context={k: v for k, v in request.context.items() if k != "pending"})


def _call(request, name: str, arguments: dict, then=None) -> Interpretation:
    context = {k: v for k, v in request.context.items() if k != "pending"}
    context["last_action"] = name
    return Interpretation(calls=[PlannedCall(name, arguments, then=then)], context=context)


# What no tool does: said plainly, with the admin panel's page --------------------------------------------------

REVIEW_QUEUE = re.compile(
    r"\breviews?\b.*\b(?:moderat\w*|pending|waiting|awaiting|approv\w*|unapproved|flagged|reported|queue|spam)\b|"
    r"\b(?:moderat\w*|approve|unapproved|flagged|reported|pending)\b.*\breviews?\b"
)
CARTS = re.compile(
    r"\b(?:customers?'?|users?'?|shoppers?'?|people'?s?|their|active|abandoned|open|live|current)\s+(?:carts?|baskets?)\b|"
    r"\b(?:all|list|show|see|view|which|any|how\s+many)\b.*\b(?:carts|baskets)\b|\b(?:carts|baskets)\s+(?:that|which|are|still)\b"
)
# Admin or staff rights only with a word of accounts near ("add 2 black hoodies for our staff" is an order).
STAFF = r"(?:admin|administrator|superadmin|staff)"
ACCOUNT = r"(?:users?|customers?|accounts?|roles?|rights)"
USERS = re.compile(
    r"\b(?:make|promote|grant|give|set|add|upgrade)\b.*(?:\b"
    + ACCOUNT
    + r"\b.{0,40}\b"
    + STAFF
    + r"\b|\b"
    + STAFF
    + r"\b.{0,40}\b"
    + ACCOUNT
    + r"\b)|"
    r"\b(?:make|promote|upgrade)\s+(?:\S+\s+){1,3}?(?:an?|to|as)\s+(?:admin|administrator|superadmin)\b|"
    r"\b(?:admin|superadmin|staff)\s+(?:rights|access|role|permissions?|privileges?)\b|\b(?:demote|revoke)\b|"
    r"\b(?:ban|block|unblock|suspend|deactivate|delete)\s+(?:the\s+)?(?:user|customer|account)\b|"
    r"\b(?:list|show|see|view|all|how\s+many)\b.*\b(?:users|customers|accounts|sign\s*ups|signups|registrations)\b|"
    r"\breset\b.*\bpassword\b"
)
ONE_DAY = re.compile(
    r"\b(?:yesterday|day\s+before|last\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"on\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b|"
    r"\b(?:compared?|comparison|versus|vs)\b.*\b(?:week|month|year|day)\b|\bweek\s+(?:over|on)\s+week\b"
)
TOP_CUSTOMERS = re.compile(
    r"\b(?:top|best|biggest|most\s+valuable|loyal|frequent|repeat)\s+(?:\d+\s+)?(?:customers?|buyers?|shoppers?|clients?)\b|"
    r"\bwho\s+(?:bought|spent|ordered|buys|spends|orders)\s+(?:the\s+)?most\b|\bcustomers?\s+(?:who|that)\s+spent\s+the\s+most\b"
)
FIGURES = re.compile(
    r"\b(?:sales|revenue|orders|sold|sell|takings|turnover|earn\w*|business|figures|numbers)\b|"
    r"\bhow\s+much\s+(?:did|have|has)\s+(?:we|the\s+shop|the\s+store|insightshop)\s+(?:make|made)\b"
)
# The shopper's own orders ("what did I order yesterday", "my orders from monday") are no shop figures.
OWN_ORDERS = re.compile(
    r"\bmy\s+(?:\w+\s+)?(?:orders?|purchases?|parcels?|packages?)\b|"
    r"\b(?:i|me)\s+(?:\w+\s+)?(?:order|ordered|bought|buy|purchased|place|placed|paid)\b"
)


def cannot_do(request) -> Interpretation | None:
    plain = request.plain
    msg = Msg(request.norm.text)
    if REVIEW_QUEUE.search(plain) and msg.review_id is None:
        return _reply(request, "I can't list or moderate reviews from the chat — no assistant tool reads the review "
                               "queue. Reviews are moderated in Admin → Reviews. (I can delete one review by its "
                               "number: \"delete review 12\".)")  # fmt: skip
    if CARTS.search(plain) and msg.user_id is None and not re.search(r"\bmy\s+(?:cart|basket)\b", plain):
        return _reply(request, "I can't look into customers' carts from the chat — no assistant tool lists them. "
                               "They're in Admin → Carts. (I can empty one user's cart by user number: \"clear the "
                               "cart of user 12\".)")  # fmt: skip
    if USERS.search(plain) and not re.search(r"\b(?:orders?|products?|sale|carts?)\b", plain):
        return _reply(request, "I can't look up or change customer accounts or admin rights from the chat — no "
                               "assistant tool manages users. That's done in Admin → Users, where a superadmin can grant or remove admin "
                               "rights.")  # fmt: skip
    if TOP_CUSTOMERS.search(plain):
        return _reply(request, "I can't rank customers from the chat — no assistant tool adds up what each customer "
                               "spent. I can list one customer's orders (\"orders of jane@example.com\"); every order "
                               "is in Admin → Orders.")  # fmt: skip
    if ONE_DAY.search(plain) and FIGURES.search(plain) and not OWN_ORDERS.search(plain):
        return _reply(request, "I can't give one past day's figures or compare two periods: the assistant's figures "
                               "cover today, the last 7 or 30 days, the last 12 months or all time. Revenue day by "
                               "day is charted in Admin → Dashboard. Ask \"today's sales\" or \"sales this week\" "
                               "for those figures.")  # fmt: skip
    return None


# Orders of a customer and counts by status -----------------------------------------------------------------------

ORDER_WORDS = re.compile(r"\b(?:orders?|purchases?|bought|ordered|buy)\b")
STATUS_WORDS = {"pending": "pending", "processing": "processing", "in progress": "processing", "shipped": "shipped",
                "dispatched": "shipped", "delivered": "delivered", "cancelled": "cancelled", "canceled": "cancelled",
                "unshipped": "pending"}  # fmt: skip
STATUS = re.compile(r"\b(" + "|".join(sorted(STATUS_WORDS, key=len, reverse=True)) + r")\b")
HOW_MANY = re.compile(r"\b(?:how\s+many|number\s+of|count\s+(?:of\s+)?(?:the\s+)?|any)\b")


def customer_orders(request) -> Interpretation | None:
    """ "find the order for jane@example.com", "orders from customer bob@x.com", "did jane@x.com buy anything"."""
    msg = Msg(request.norm.text)
    if not msg.emails or not ORDER_WORDS.search(request.plain) or msg.order_id is not None:
        return None
    email = msg.emails[0][:200]
    arguments: dict = {"search": email}
    status = STATUS.search(request.plain)
    if status:
        arguments["status"] = STATUS_WORDS[status.group(1)]
    return _call(request, "admin_orders_list", arguments)


def order_counts(request) -> Interpretation | None:
    """ "how many orders are pending?", "any unshipped orders?", "number of cancelled orders"."""
    plain = request.plain
    status = STATUS.search(plain)
    if not status or not HOW_MANY.search(plain) or not re.search(r"\borders?\b", plain):
        return None
    if Msg(request.norm.text).order_id is not None:
        return None
    value = STATUS_WORDS[status.group(1)]
    return _call(request, "admin_orders_list", {"status": value})


# Best sellers ------------------------------------------------------------------------------------------------------

BEST = re.compile(
    r"\bbest[\s-]*sell\w*|\btop[\s-]*sell\w*|\btop\s+(?:\d+\s+)?(?:products?|items?|sellers?|lines?|garments?)\b|"
    r"\bmost\s+(?:popular|sold|ordered|bought|purchased)\b|\bsold\s+(?:the\s+)?most\b|\bsell(?:s|ing)?\s+(?:the\s+)?"
    r"(?:best|most)\b|\bhighest[\s-]+(?:revenue|selling|grossing)\b|\b(?:biggest|best)\s+(?:sellers?|earners?)\b|"
    r"\b(?:products?|items?)\s+by\s+(?:revenue|sales|units|sold)\b|\bwhat\s+(?:sold|sells)\b|"
    r"\bselling\s+(?:well|fast|best|the\s+most)\b|\b(?:hot|fast)[\s-]+sell\w*"
)


@dataclass(frozen=True)
class TopProducts:
    """admin_dashboard's best sellers of the period, ranked by units or revenue."""

    limit: int
    by: str  # "units" or "revenue"

    def __call__(self, result: dict) -> tuple[list, str]:
        period = PERIOD_WORDS.get(result.get("period"), "")
        top = list(result.get("top_products") or [])
        if not top:
            return [], f"No paid orders {period}, so there are no best sellers yet."
        if self.by == "revenue":
            top.sort(key=lambda p: (-_money(p.get("revenue")), -p["units"], p["name"]))
        shown = top[: self.limit]
        listed = "; ".join(f"{i}. {p['name']} — {p['units']} sold, ${p['revenue']}" for i, p in enumerate(shown, 1))
        ranked = "by revenue" if self.by == "revenue" else "by units sold"
        return [], (f"Best sellers {period} ({ranked}): {listed}. Revenue {period}: ${result.get('revenue')} from "
                    f"{result.get('orders')} paid order(s).")  # fmt: skip

    def label(self) -> dict:
        return {"top_products": self.limit, "by": self.by}


def _money(value) -> Decimal:
    try:
        return Decimal(str(value))
    except (InvalidOperation, ValueError):
        return Decimal(0)


def best_sellers(request) -> Interpretation | None:
    plain = request.plain
    if not BEST.search(plain) or re.search(r"\b(?:add|cart|basket|buy)\b", plain):
        return None
    count = re.search(r"\btop\s+(\d{1,2})\b|\b(\d{1,2})\s+(?:best|top|most)\b", plain)
    limit = max(1, min(int(next(g for g in count.groups() if g)), 10)) if count else 5
    if re.search(r"\b(?:the|a)\s+(?:best|top|most)\b", plain) and re.search(r"\b(?:product|item|seller)\b", plain) \
            and not count and not re.search(r"\b(?:products|items|sellers)\b", plain):  # fmt: skip
        limit = 1  # "what's the best selling product"
    by = "revenue" if re.search(r"\b(?:revenue|money|earn\w*|grossing|takings|turnover|\$)", plain) else "units"
    period = _period(plain) or "all"
    return _call(request, "admin_dashboard", {"period": period}, then=TopProducts(max(limit, 1), by))


# Stock of one kind ---------------------------------------------------------------------------------------------

OUT = re.compile(r"\b(?:out\s+of\s+sto?c?k|sold\s+out|no\s+stock|zero\s+stock|none\s+left|0\s+(?:left|in\s+stock))\b")
LOW = re.compile(
    r"\blow\s+(?:on\s+)?sto?c?k|\bsto?c?k\s+(?:is\s+)?low|\brunning\s+(?:low|out)|\bnearly\s+(?:gone|out)|"
    r"\bneeds?\s+(?:restocking|to\s+be\s+restocked)|\b(?:little|few)\s+left\b|\bsto?c?k\s+levels?\b"
)
SET_STOCK = re.compile(r"\b(?:set|change|update|adjust|make|mark|put|restock|replenish|top\s+up)\b")


class StockOf:
    """The variants of one kind of garment at or below a stock level, read from one search per department that
    carries it (search results hold each variant's stock); the last search's step says what was found."""

    def __init__(self, noun: str, threshold: int, out: bool, searches: int, color: str | None = None):
        self.noun, self.threshold, self.out, self.left, self.color = noun, threshold, out, searches, color
        self.found: list[tuple[dict, dict]] = []
        self.cut = False

    def __call__(self, result: dict) -> tuple[list, str | None]:
        products = result.get("products") or []
        for product in products:
            for variant in product.get("variants") or []:
                if variant.get("stock", 0) <= self.threshold and self.color in (None, variant.get("color")):
                    self.found.append((product, variant))
        self.cut = self.cut or (result.get("pagination") or {}).get("total", 0) > len(products)
        self.left -= 1
        return ([], None) if self.left > 0 else ([], self.sentence())

    def sentence(self) -> str:
        state = "out of stock" if self.out else f"at {self.threshold} or fewer in stock"
        cut = " I read the first 10 of each department's; Admin → Products shows them all." if self.cut else ""
        if not self.found:
            return f"No {self.noun} are {state}.{cut}"
        listed = ", ".join(
            f"{p['name']} (#{p['id']}, {v['color']} / {v['size']}: {v['stock']})" for p, v in self.found[:12]
        )
        more = f" and {len(self.found) - 12} more" if len(self.found) > 12 else ""
        return f"{self.noun[0].upper()}{self.noun[1:]} {state}: {listed}{more}.{cut}"

    def label(self) -> dict:
        return {"stock_of": self.noun, "threshold": self.threshold}


def _stock_question(plain: str) -> tuple[bool, int] | None:
    """(asks about out of stock only, the stock level asked about), or None when this is no stock question."""
    out, low = OUT.search(plain), LOW.search(plain)
    if not (out or low) or re.search(r"\b(?:cart|basket)\b", plain):
        return None
    if SET_STOCK.search(plain) and re.search(r"\b\d+\b|\bzero\b", plain):
        return None  # "set the stock of … to 0" is a change
    if (SET_STOCK.search(plain) and out) and not re.search(r"^\W*(?:which|what|any|are|is|how|show|list)\b", plain):
        return None  # "mark product 5 as out of stock"
    threshold = 0 if out and not low else 5
    below = re.search(r"\b(?:below|under|less\s+than|fewer\s+than)\s+(\d{1,4})\b", plain)
    if below:
        threshold = max(0, int(below.group(1)) - 1)
    return bool(out) and not low, threshold


def _kind_searches(request, msg: Msg, kinds: list[str], color: str | None) -> list[dict]:
    searches = []
    for kind in kinds:
        for department in ("men", "women", "kids"):
            carried = any(p.clothing_type == kind and p.category == department and (not color or color in p.colors)
                          for p in request.vocabulary.products)  # fmt: skip
            if carried and msg.category in (None, department):
                searches.append({"clothing_type": kind, "category": department, **({"color": color} if color else {})})
    return searches


def stock_of_kind(request) -> Interpretation | None:
    """ "which dresses are out of stock?", "any black hoodies running low?", "hw many prodcts are low on stok"."""
    plain = request.plain
    asked = _stock_question(plain)
    msg = Msg(request.norm.text)
    if asked is None or msg.product_ids:
        return None
    out, threshold = asked
    kinds = list(dict.fromkeys(msg.types))
    color = msg.colors[0] if msg.colors else None
    if not kinds:  # the dashboard's low-stock list (its own level unless one was said)
        below = {"low_stock_threshold": threshold} if re.search(r"\b(?:below|under|less|fewer)\b", plain) else {}
        return _call(request, "admin_dashboard", {"period": _period(plain) or "all", **below})
    from ...services.vocabulary import CLOTHING_TYPE_LABELS

    noun = " and ".join(CLOTHING_TYPE_LABELS.get(k, k).lower().replace("t-shirts", "T-shirts") for k in kinds)
    noun = " ".join(w for w in (LABELS.get(msg.category or ""), color, noun) if w)
    searches = _kind_searches(request, msg, kinds, color)
    if not searches:
        return _reply(request, f"The shop has no {noun}.")
    step = StockOf(noun, threshold, out, len(searches), color)
    context = {k: v for k, v in request.context.items() if k != "pending"}
    context["last_action"] = "search_products"
    return Interpretation(calls=[PlannedCall("search_products", a, then=step) for a in searches], context=context)


# A product's stock or price, by its name ---------------------------------------------------------------------

STOCK_CHANGE = re.compile(
    r"\b(?:re-?sto?c?k\w*|replenish\w*|top\s+up)\b|\badd\s+\d+\s+(?:more\s+|extra\s+)?(?:units?|pcs|pieces)\b|"
    r"\b(?:set|change|update|adjust|make|put|bump|raise|lower|reduce|increase|correct)\b.*\b(?:sto?c?k|inventory|"
    r"units?|pcs|pieces)\b|\b(?:sto?c?k|inventory)\b.*\b(?:to|at|=)\s*\d|"
    r"\b(?:mark|set|make)\b.*\b(?:out\s+of\s+sto?c?k|sold\s+out)\b|"
    r"\b(?:we\s+)?(?:got|received)\s+\d+\s+(?:more|new|extra)\b"
)
CART_WORDS = re.compile(r"\b(?:bag|basket|cart|trolley|check\s*out)s?\b")
ADDING = re.compile(
    r"\b(?:more|another|extra|additional|increase\s+by|raise\s+by|add\s+\d+|by\s+\d+\s+units?|(?:got|received)\s+\d+)\b"
)
PRICE_SET = re.compile(
    r"\b(?:price|cost|reprice|mark\s+down|discount)\b.*?\b(?:to|at|=)\s*\$?\s*(\d+(?:\.\d{1,2})?)|"
    r"\bshould\s+(?:cost|be)\s+\$?\s*(\d+(?:\.\d{1,2})?)|\bnow\s+costs?\s+\$?\s*(\d+(?:\.\d{1,2})?)"
)


def _stock_number(plain: str, msg: Msg) -> int | None:
    if OUT.search(plain) or re.search(r"\b(?:to|at)\s+zero\b", plain):
        return 0
    text = re.sub(r"\bproduct\s*#?\s*\d+|#\s*\d+|\bsize\s+\d+", " ", plain)
    text = re.sub(r"\d+(?:\.\d+)?\s*(?:%|percent|\$)|\$\s*\d+(?:\.\d+)?", " ", text)
    numbers = re.findall(r"\b(\d{1,6})\b", text)
    return int(numbers[-1]) if len(set(numbers)) == 1 else None


_NOT_NAME_WORDS = """price stock stok units unit size with that this from change update restock should cost make
mark please set into have sold only mens womens ladies girls boys kids childrens small medium large xlarge xsmall
pieces more them those these again thanks level inventory quantity zero each every colour color variant also just
item items product products one ones adjust lower raise increase reduce bump correct replenish"""
NOT_NAME_WORDS = frozenset(_NOT_NAME_WORDS.split())


def _candidates(request, msg: Msg) -> tuple[list, str | None]:
    """The products the message names (by number, else by name, else by garment and colour), and the name said."""
    vocabulary = request.vocabulary
    if msg.product_ids:
        found = [p for p in vocabulary.products if p.id == msg.product_ids[0]]
        return found, (found[0].name if found else f"product {msg.product_ids[0]}")
    mentions = entities.product_mentions(request.norm.text, vocabulary, msg.types or None)
    if mentions:
        mention = mentions[0]
        products = [p for p in mention.products if msg.category is None or p.category == msg.category]
        return products, mention.name
    if msg.types:
        products = [p for p in vocabulary.products if p.clothing_type in msg.types
                    and (msg.category is None or p.category == msg.category)]  # fmt: skip
        # "the denim jacket": a word of the message in the product's name narrows the garment down
        from ...services.vocabulary import normalise_color
        from .rules import clothing_type

        said = {w for w in re.findall(r"[a-z]{4,}", request.plain)
                if w not in NOT_NAME_WORDS and clothing_type(w) not in (w, w[:-1]) and not normalise_color(w)}  # fmt: skip
        named = [p for p in products if said & set(re.findall(r"[a-z]+", p.name.lower()))]
        if said and not named:
            return [], None  # "the velvet tuxedo shirt": no product has that name
        return named or products, None
    return [], None


def _which(request, products: list, name: str | None, arguments: dict, what: str) -> Interpretation:
    """Several products fit: list them with their numbers and wait for the choice (pending)."""
    shown = products[:6]
    options = "; ".join(f"#{p.id} {p.name}, {LABELS.get(p.category, p.category)}, {'/'.join(p.colors)}, ${p.price:.2f}"
                        for p in shown)  # fmt: skip
    context = dict(request.context)
    context["pending"] = {"tool": "admin_product_update", "args": arguments, "choices": [p.id for p in shown]}
    return Interpretation(follow_up=f"Several products fit — which one should I {what}? {options}. Say its number "
                                    "(\"#12\") or the department.", context=context)  # fmt: skip


def _propose(request, product, arguments: dict) -> Interpretation:
    return _call(request, "admin_product_update", {"product_id": product.id, **arguments})


def product_change(request) -> Interpretation | None:
    """ "restock the white oxford shirt size M with 20 units", "set the black hoodie L to 0", "set the price of the
    denim jacket to 59.99": the product by its name (colour, size, department narrow it), then admin_product_update
    for that one variant (its stock) or the product (its price), after Approve."""
    plain = request.plain
    msg = Msg(request.norm.text)
    if CART_WORDS.search(plain) or msg.order_id is not None:
        return None
    if STOCK_CHANGE.search(plain) and not re.match(r"\W*(?:which|what|how|are|is|any)\b", plain):
        return _stock_change(request, msg)
    price = PRICE_SET.search(plain)
    if price and not msg.product_ids and re.search(r"\b(?:set|change|update|make|reprice|lower|raise|drop|reduce|"
                                                   r"increase|put|mark|should|now)\b", plain):  # fmt: skip
        products, name = _candidates(request, msg)
        value = float(next(g for g in price.groups() if g))
        value = int(value) if value.is_integer() else value
        return _choose(request, msg, products, name, {"price": value}, "reprice")
    return None


def _stock_change(request, msg: Msg) -> Interpretation | None:
    plain = request.plain
    if not (msg.product_ids or msg.types or entities.product_mentions(request.norm.text, request.vocabulary, None)):
        return None
    if ADDING.search(plain):
        return _reply(request, "Which product and size should get them? Say e.g. \"add 20 to the white oxford "
                               "shirt size M stock\" or the new total (\"set the white oxford shirt size M to 25 units\").")  # fmt: skip
    stock = _stock_number(plain, msg)
    if stock is None:
        return _reply(request, "How many units should it have? Say the new total, e.g. \"restock the white oxford "
                               "shirt size M with 20 units\".")  # fmt: skip
    if msg.product_ids and not msg.size and not msg.colors:
        return None  # the whole product's stock: the phrase rules read it
    products, name = _candidates(request, msg)
    arguments: dict = {"stock_quantity": stock}
    if msg.size:
        arguments["size"] = msg.size
    if msg.colors:
        arguments["color"] = msg.colors[0]
    return _choose(request, msg, products, name, arguments, "restock")


def _choose(request, msg: Msg, products: list, name: str | None, arguments: dict, what: str) -> Interpretation:
    said = " ".join(w for w in (LABELS.get(msg.category or ""), arguments.get("color"), name or
                                (msg.types[0] + "s" if msg.types else "product")) if w)  # fmt: skip
    if not products:
        return _reply(request, f"I can't find a product called \"{said}\" in the catalog, so I changed nothing. "
                               "Give me its number (\"product 12\") or its name as the shop lists it.")  # fmt: skip
    color, size = arguments.get("color"), arguments.get("size")
    fitting = [p for p in products if (not color or color in p.colors) and (not size or size in p.sizes)]
    if not fitting:
        variants = "; ".join(f"#{p.id} {LABELS.get(p.category, p.category)} in {'/'.join(p.colors)}, sizes "
                             f"{', '.join(p.sizes)}" for p in products[:5])  # fmt: skip
        wanted = " / ".join(x for x in (color, size) if x)
        return _reply(request, f"There is no {wanted} {name or 'product'} — {variants}. I changed nothing.")
    if what == "restock" and size is None:
        sizes = sorted({s for p in fitting for s in p.sizes}, key=lambda s: ("XS", "S", "M", "L", "XL", "XXL").index(s)
                       if s in ("XS", "S", "M", "L", "XL", "XXL") else 9)  # fmt: skip
        context = dict(request.context)
        context["pending"] = {"tool": "admin_product_update", "args": arguments, "choices": [p.id for p in fitting[:6]],
                              "needs": "size"}  # fmt: skip
        return Interpretation(follow_up=f"Which size should get {arguments['stock_quantity']} units ({', '.join(sizes)})? "
                                        "I set one size's stock at a time.", context=context)  # fmt: skip
    if what == "restock" and color is None:
        colours = {c for p in fitting for c in p.colors}
        if len(colours) > 1:
            context = dict(request.context)
            context["pending"] = {"tool": "admin_product_update", "args": arguments,
                                  "choices": [p.id for p in fitting[:6]], "needs": "color"}  # fmt: skip
            return Interpretation(follow_up=f"Which colour ({', '.join(sorted(colours))})? I set one variant's stock "
                                            "at a time.", context=context)  # fmt: skip
    if len(fitting) > 1:
        return _which(request, fitting, name, arguments, what)
    return _propose(request, fitting[0], arguments)


# An answer to "which one?" is a few words: "black", "size M", "#70", "the kids one" — never a new request.
ANSWER_WORDS = 5
NOT_AN_ANSWER = re.compile(
    r"\b(?:add|show|find|search|look|remove|delete|put|order|buy|purchase|get|want|need|cancel|ship|track|return|"
    r"list|see|view|clear|empty|pay|compare|recommend|browse|give|send)\w*\b|\b(?:bag|basket|cart|trolley|check\s*out)s?\b"
)


def _answers(request, msg: Msg, choices: list) -> bool:
    """The message is a short reply to the pending question, no request of its own."""
    plain = request.plain
    if len(re.findall(r"[#\w'$.]+", plain)) > ANSWER_WORDS or NOT_AN_ANSWER.search(plain):
        return False
    kinds = {p.clothing_type for p in request.vocabulary.products if p.id in choices}
    return not (set(msg.types) - kinds)  # "red dresses" after a jacket's question is another garment


def _open_question(request) -> dict | None:
    """The pending "which one?" of a stock or price change, when this message answers it; a message that does not
    drops the question (it is then read as it stands)."""
    pending = request.pending
    if not pending or pending.get("tool") != "admin_product_update" or not pending.get("choices"):
        return None
    if not _answers(request, Msg(request.norm.text), pending["choices"]):
        request.context.pop("pending", None)
        return None
    return pending


def pending_choice(request) -> Interpretation | None:
    """The answer to "which one?" / "which size?" after a stock or price change by name; any other message drops
    the question and is read as it stands."""
    pending = _open_question(request)
    if pending is None:
        return None
    msg = Msg(request.norm.text)
    arguments = dict(pending.get("args") or {})
    if pending.get("needs") == "size" and msg.size:
        arguments["size"] = msg.size
    if pending.get("needs") == "color" and msg.colors:
        arguments["color"] = msg.colors[0]
    if msg.size and "size" not in arguments:
        arguments["size"] = msg.size
    if msg.colors and "color" not in arguments and "stock_quantity" in arguments:
        arguments["color"] = msg.colors[0]
    products = [p for p in request.vocabulary.products if p.id in pending["choices"]]
    number = re.search(r"#\s*(\d+)|\bproduct\s*(\d+)|^\W*(\d+)\W*$", request.plain)
    if number:
        products = [p for p in products if p.id == int(next(g for g in number.groups() if g))]
    elif msg.category:
        products = [p for p in products if p.category == msg.category]
    if arguments == pending.get("args") and not number and not msg.category:
        return None
    if not products:
        return None
    fake = Msg(
        " ".join(filter(None, [arguments.get("color"), f"size {arguments['size']}" if arguments.get("size") else None]))
    )
    name = products[0].name
    return _choose(request, fake, products, name, arguments, "restock" if "stock_quantity" in arguments else "reprice")


# A shopper asking for the shop's figures: planned as the admin tool, so the guard refuses it ----------------------

SHOP_FIGURES = re.compile(
    r"\b(?:(?:sales|admin|shop'?s|store'?s|insightshop'?s)\s+dashboard|revenue|turnover|kpis?|"
    r"sales\s+(?:figures|numbers|stats|report|totals?)|total\s+sales|"
    r"average\s+order\s+value|how\s+much\s+(?:did|does|has)\s+(?:the\s+shop|the\s+store|insightshop|you)\s+"
    r"(?:make|made|earn|sell|sold))\b"
)


# A shopper's own things or a product's price: "track my order from my dashboard", "the total sales price".
SHOPPERS_OWN = re.compile(r"\b(?:my|price|prices|priced|tax|taxes|track\w*)\b|\border(?:s|ed)?\b(?!\s+value)")

SHOPPER_RESTOCK = re.compile(
    r"\b(?:re-?stock|replenish)\b|\b(?:set|change|update|adjust)\b.*\b(?:stock\s+(?:level|count|quantity)|stock|"
    r"inventory)\b.*\b(?:to|at)\s+\d"
)


def shopper_asks_figures(request) -> Interpretation | None:
    """A shopper's "show me the sales dashboard" or "restock the white oxford shirt": the admin tool, refused."""
    plain = request.plain
    if SHOP_FIGURES.search(plain) and not SHOPPERS_OWN.search(plain):
        return _call(request, "admin_dashboard", {"period": _period(plain) or "week"})
    if not SHOPPER_RESTOCK.search(plain) or re.match(r"\W*(?:when|will|do|does|are|is|can|could)\b", plain):
        return None  # "when will you restock the red dress?" is a question for the shop
    msg = Msg(request.norm.text)
    stock = _stock_number(plain, msg)
    products, _name = _candidates(request, msg)
    if stock is None or not products:
        return None
    arguments: dict = {"product_id": products[0].id, "stock_quantity": stock}
    if msg.size:
        arguments["size"] = msg.size
    if msg.colors:
        arguments["color"] = msg.colors[0]
    return _call(request, "admin_product_update", arguments)


SALES_FOR = re.compile(r"\b(?:sales|revenue|takings|turnover|orders|figures|numbers)\b")


def sales_of_a_period(request) -> Interpretation | None:
    """ "give me the sales for last month", "sales past 7 days": the figures of that period, never a sale search."""
    plain = request.plain
    period = next((name for name, rx in LOOSE_PERIODS if rx.search(plain)), None)
    if not period or not SALES_FOR.search(plain) or Msg(request.norm.text).types:
        return None
    if re.search(r"\b(?:on\s+sale|add|cart|basket|create|new|start|run|launch|discount|%|percent)\b", plain):
        return None
    if re.search(r"\borders?\b", plain) and not re.search(r"\b(?:how\s+many|number|count|figures|sales)\b", plain):
        return None  # "show the orders of this week": the phrase rules list orders
    return _call(request, "admin_dashboard", {"period": period})


# Each reading of an admin's request runs only when the classifier finds its kind likely (the answer to a question
# asked and what no tool does are read first, whatever the kind).
READS = {
    customer_orders: {"admin_orders_find"},
    order_counts: {"admin_figures", "admin_orders_find"},
    best_sellers: {"admin_product_find", "admin_figures"},
    product_change: {"admin_stock_change", "admin_price_change", "admin_product_update"},
    stock_of_kind: {"admin_stock_report", "admin_stock_read"},
    sales_of_a_period: {"admin_figures"},
}


def _likely(decide, request) -> bool:
    from .pipeline import likely

    labels = READS.get(decide)
    return not labels or likely(request, labels)


def admin_request(request) -> Interpretation | None:
    if not request.is_admin:
        return shopper_asks_figures(request)
    for decide in (pending_choice, cannot_do, customer_orders, order_counts, best_sellers, product_change,
                   stock_of_kind, sales_of_a_period):  # fmt: skip
        if not _likely(decide, request):
            continue
        outcome = decide(request)
        if outcome is not None:
            return outcome
    return None
