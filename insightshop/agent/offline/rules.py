"""The offline assistant's language engine: one message (plus the last turn's context) → tool calls, a reply,
or a follow-up question. Pure and deterministic: no database, no network, no model.

How it works: the message becomes a `Msg` — normalised text plus lazily extracted features (numbers, product /
order / user ids, colours, sizes, clothing types, categories, prices, sort orders, e-mails, dates). An ordered
table of intent rules (`RULES`) is tried in turn and the first that applies builds the arguments with small slot
extractors. Words come from the shop vocabulary (services.vocabulary and services.search_terms), so the engine and
the search index agree on "tees", "trousers" or "ladies". Every planned call is checked against the registry's
strict schema before it leaves the engine.

Context (a JSON-able dict, returned updated in `Interpretation.context`) carries what the next turn may refer to:
last_item / last_quantity (the cart line last added or removed), last_search, last_product_id, last_product_ids
(compared or listed products, for "the first one"), last_order_id, last_action, and `pending` (a partly filled call
waiting for the user's answer). The caller may add user_email (the logged-in user's address) and today ("YYYY-MM-DD").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cached_property, lru_cache

from ...mcp.tools_registry import registry, validate_tool_call
from ...services.search_terms import CATEGORY_WORDS, NOT_ABOVE, STOPWORDS, SYNONYMS, normalise_text, singular
from ...services.vocabulary import CLOTHING_TYPE_LABELS, CLOTHING_TYPES, SIZES, normalise_color, normalise_size
from . import cart_lines, entities
from .product_options import OptionsQuestion


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


# Vocabulary the shop files don't carry -----------------------------------------------------------------------

NUM_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
             "ten": 10, "eleven": 11, "twelve": 12, "single": 1, "couple": 2, "few": 3, "dozen": 12}  # fmt: skip
NUM = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3,
            "fifth": 4, "5th": 4, "last": -1}  # fmt: skip
PAIR_TYPES = {"jeans", "pants", "shorts", "socks", "sneakers", "pajamas"}
EXTRA_TYPES = {"windbreaker": "jacket", "puffer": "jacket", "raincoat": "coat", "jogger": "pants",
               "joggers": "pants", "sleepwear": "pajamas", "nightwear": "pajamas", "jean": "jeans", "pant": "pants",
               "sock": "socks", "tees": "t-shirt"}  # fmt: skip
EXTRA_CATEGORIES = {
    **dict.fromkeys(
        (
            "guys",
            "guy",
            "husband",
            "hubby",
            "boyfriend",
            "dad",
            "father",
            "brother",
            "menswear",
            "bf",
            "uncle",
            "grandad",
            "granddad",
            "grandfather",
            "stepdad",
            "fiance",
        ),
        "men",
    ),
    **dict.fromkeys(
        (
            "wife",
            "wifey",
            "girlfriend",
            "mom",
            "mum",
            "mother",
            "sister",
            "gf",
            "aunt",
            "auntie",
            "aunty",
            "granny",
            "nana",
            "grandmother",
            "stepmom",
            "stepmum",
            "fiancee",
        ),
        "women",
    ),
    **dict.fromkeys(("son", "sons", "daughter", "daughters", "baby", "babies", "kiddo", "kiddos"), "kids"),
}
CATEGORY_OF = {**CATEGORY_WORDS, **EXTRA_CATEGORIES}
SIZE_WORDS = {"xs": "XS", "xsmall": "XS", "small": "S", "medium": "M", "large": "L", "xl": "XL", "xlarge": "XL",
              "xxl": "XXL", "xxlarge": "XXL"}  # fmt: skip
ORDER_STATUSES = {"pending": "pending", "processing": "processing", "in progress": "processing",
                  "shipped": "shipped", "dispatched": "shipped", "delivered": "delivered", "cancelled": "cancelled",
                  "canceled": "cancelled"}  # fmt: skip
STATUS_VERBS = {"cancel": "cancelled", "ship": "shipped", "deliver": "delivered", "process": "processing"}
US_STATES = {
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME",
    "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA",
    "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "DC",
}  # fmt: skip
_STATE_WORDS = (
    "alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho illinois "
    "indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota mississippi missouri "
    "montana nebraska nevada ohio oklahoma oregon pennsylvania tennessee texas utah vermont virginia washington "
    "wisconsin wyoming"
)
STATE_NAMES = _STATE_WORDS.split() + [
    "new hampshire", "new jersey", "new mexico", "new york", "north carolina", "north dakota", "rhode island",
    "south carolina", "south dakota", "west virginia", "district of columbia",
]  # fmt: skip
MONTHS = {name: i for i, name in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                                            "dec"), 1)}  # fmt: skip

# Words that say nothing about *which* product: dropped from search queries.
_NOISE_WORDS = """
    show find search searching looking look want wanted need needs have has had got get do does did you your any
    anything something some items item products product stuff things thing clothes clothing options option ones one
    that those these them it its is are was there what whats which can could would will should i im id ive like love
    please pls plz me us our buy browse see display list recommend suggest give sell carry stock available price
    priced cost costs dollars dollar bucks usd under below less than more max maximum most up to at sort sorted
    order ordered by from high low highest lowest hey hi hello a an the for with in on of and or also just only
    really very too good great nice new all every kind kinds type types style styles selection range collection
    catalog catalogue shop store section category department wear wearing shopping pair pairs maybe perhaps
    currently right now today todays week weeks month got ya tell about how much many where here cool cute pretty awesome lovely dark light
    bright pale colour color shade size sized sizes fit fits fitting fitted into interested else other another same
    again instead rather buying purchase purchasing looking check go lets let us we my mine his hers their theirs
    think thinking under over between cheap cheaper cheapest expensive dollars each per bit little lot lots few
    couple dozen first ones prefer preferably ideally either neither anyone someone somebody everything anything
    gift gifts present out after arrivals arrival deals deal discounts discount sale sales latest newest
    clearance reduced discounted offer offers special specials promo promos promotion promotions promotional
    bargain bargains marked down am were been being wondering whether if yo sup wassup hiya heya
    over above least starting minimum min he she they this colours colors come comes came quid pounds pound
    euro euros spend spending budget afford nothing none never hes shes theyre but meant mean no not star stars
    idea ideas likes loves enjoys
"""
NOISE = frozenset(_NOISE_WORDS.split()) | STOPWORDS

# Regular expressions ---------------------------------------------------------------------------------------------

CHAR_MAP = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
                          "\u00a0": " ", "\u00d7": "x"})  # fmt: skip
EXTRA_PHRASES = tuple(
    (re.compile(pattern), replacement)
    for pattern, replacement in (
        (r"\b(?:navy|dark|midnight)[\s-]+blue\b", "navy"),
        (r"\b(?:light|baby|sky|royal|pale|bright)[\s-]+blue\b", "blue"),
        (r"\boff[\s-]?white\b", "white"),
        (r"\b(?:dark|light|heather|charcoal)[\s-]+gr[ae]y\b", "grey"),
        (r"\bxx[\s-]?large\b|\b2\s?xl\b|\bxxxl\b", "xxl"),
        (r"\bx[\s-]large\b", "xl"),
        (r"\bx[\s-]small\b", "xs"),
        (r"\bhalf\s+a\s+dozen\b", "6"),
        (r"\ba\s+couple(?:\s+of)?\b|\bcouple\s+of\b", "2"),
        (r"\bsign\s+up\b", "signup"),
        (r"\btop\s+(?=(?:one|result|pick|match|item)\b)", "first "),  # "the top one" is a position, not a top
    )
)
WORD = re.compile(r"[a-z0-9]+")
EMAIL = re.compile(r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]++@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
ID_TAIL = r"\s*(?:number|num|no\.?|id)?\s*[:#]?\s*(\d+)\b"
_TYPE_WORDS = {*CLOTHING_TYPES, *EXTRA_TYPES, "tshirt", "tee"} | {
    word for word, terms in SYNONYMS.items() if any(t in CLOTHING_TYPES or t == "tshirt" for t in terms)
}
TYPE_WORD = r"(?:" + "|".join(sorted((re.escape(w) for w in _TYPE_WORDS), key=len, reverse=True)) + r")(?:e?s)?\b"
ORDER_REF = re.compile(
    r"(?<!to\s)(?<!ll\s)(?<!will\s)\border" + ID_TAIL + r"(?!\s+(?:[a-z]+\s+){0,2}" + TYPE_WORD + ")"
)
REVIEW_REF = re.compile(r"\breview" + ID_TAIL + r"(?!\s*(?:stars?|/|out\s+of))")
USER_REF = re.compile(r"\b(?:user|customer|account|client|shopper)" + ID_TAIL)
PRODUCT_REF = re.compile(
    r"(?:\b(?:products?|items?|prods?|articles?|sku|ids?|numbers?|nos?\.?)\s*[:#]?\s*|#\s*)"
    r"(\d+(?:\s*(?:,|and|&|or|vs\.?|versus)\s*(?:#\s*)?\d+)*)\b"
)
MONEY = r"(?<![\d.])(\d++(?:\.\d{1,2})?)"
CURRENCY = r"(?:\$|dollars?|bucks|usd|euros?|quid|pounds?)"
AMOUNT = re.compile(r"\$\s*" + MONEY + r"|" + MONEY + r"\s*" + CURRENCY)
PRICE_MAX = re.compile(
    r"\b(?:"
    + NOT_ABOVE
    + r"|under|below|less\s+than|cheaper\s+than|lower\s+than|(?:no|not)\s+more\s+than|at\s+most|up\s+to|within|"
    r"max(?:imum)?(?:\s+(?:price|of))?|budget\s+(?:of|is)|for\s+less\s+than)\s*(?:a\s+)?\$?\s*"
    + MONEY
    + r"(?:\s*"
    + CURRENCY
    + r")?"
    + r"|\$?\s*"
    + MONEY
    + r"\s*"
    + CURRENCY
    + r"?\s*(?:or\s+(?:less|under|below|cheaper)|and\s+(?:under|below)|"
    r"max(?:imum)?|tops)\b"
    + r"|\bbetween\s+\$?\s*\d+(?:\.\d{1,2})?\s*"
    + CURRENCY
    + r"?\s*(?:and|-|to)\s*\$?\s*"
    + MONEY
    + r"(?:\s*"
    + CURRENCY
    + r")?"
)
SORTS = (
    (
        "price_high",
        r"most\s+expensive|priciest|highest\s+price[ds]?|(?:price\s+)?high(?:est)?\s+to\s+low(?:est)?|"
        r"expensive\s+(?:ones\s+)?first|price\s+descending|descending\s+price|premium|luxury|high[\s-]end|"
        r"(?:more\s+expensive|pricier|fancier|dearer)(?!\s+than)",
    ),
    (
        "price_low",
        r"cheapest|least\s+expensive|lowest\s+price[ds]?|(?:price\s+)?low(?:est)?\s+to\s+high(?:est)?|"
        r"cheap(?:er)?(?!\s+than)(?:\s+(?:ones\s+)?first)?|affordable|budget(?!\s+(?:of|is))|inexpensive|"
        r"bargains?|price\s+ascending|ascending\s+price|(?:sort(?:ed)?|order(?:ed)?)\s+(?:\w+\s+)?by\s+price|"
        r"low(?:est)?\s+(?:price\s+)?first",
    ),
    (
        "rating",
        r"(?:best|top|highest|most|well|highly)[\s-]+(?:\d+\s+)?(?:rated|reviewed)|(?:sort(?:ed)?|order(?:ed)?)\s+(?:\w+\s+)?by\s+"
        r"(?:ratings?|reviews?|stars)|(?:4|5|four|five)[\s-]+stars?(?=\s+(?:\w+\s+)?(?:\w+s|rated|reviews?|stuff|things?|"
        r"items?|clothes|only)\b|\W*$)|"
        r"most\s+popular|best[\s-]?sell(?:ing|ers?)|top\s+picks?|\bbest\b",
    ),
    ("relevance", r"(?:sort(?:ed)?|order(?:ed)?)\s+by\s+relevance|most\s+relevant"),
)
SORT_RULES = tuple((name, re.compile(r"\b(?:" + pattern + r")")) for name, pattern in SORTS)
SORT_ANY = re.compile(r"\b(?:" + "|".join(pattern for _, pattern in SORTS) + r")")
LETTER_SIZE = re.compile(r"\b(?:size|sz|in(?:\s+an?)?(?:\s+size)?)\b\s*[:=]?\s*(xxl|xl|xs|s|m|l|med)\b")
WORD_SIZE = re.compile(r"\b(xxl|xxlarge|xl|xlarge|xs|xsmall|small|medium|large)\b")
RAW_SIZE = re.compile(r"(?<![\w'.])(XXL|XL|XS|S|M|L)(?![\w'.])")
CART = r"\b(?:cart|basket|bag|trolley)\b"
CART_RX = re.compile(CART)
QTY = re.compile(
    r"\b(?:(?:qty|quantity)\s*(?:of|:|=)?\s*(\d+)|x\s*(\d+)|(\d+)\s*(?:x|pcs|pieces|units)\b|(\d+)|"
    r"(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|couple|few|single))\b"
)
PAIRS = re.compile(r"\b(a|an|one|\d+|two|three|four|five|six|seven|eight|nine|ten)\s+pairs?\s+of\b")
ORDINAL = re.compile(r"\b(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)\b(?!\s+(?:name|time))")
REFERENCE = re.compile(r"\b(it|that|this|them|those|these|one|ones|another|again|same|more)\b")
SEGMENT_SPLIT = re.compile(r"\s*(?:,|&|\band\b|\bplus\b|\bas\s+well\s+as\b|\balong\s+with\b)\s*")
CLAUSE_SPLIT = re.compile(
    r"\s*[,.;]?\s*\b(?:and\s+then|then|after\s+that|afterwards)\b\s*|\s*;\s*|\s*,?\s*\band\s+"
    r"(?=(?:add|remove|delete|show|empty|clear|compare|checkout|check\s+out|take|put)\b)",
    re.I,
)


def _rx(pattern: str) -> re.Pattern:
    return re.compile(pattern)


LOGOUT = _rx(r"\b(?:log\s*(?:me\s*)?(?:out|off)|logout|sign\s*(?:me\s*)?(?:out|off)|signout)\b")
LOGIN = _rx(r"\b(?:log\s*(?:me\s*)?in(?!to\b)|login|sign\s*(?:me\s*)?in(?!to\b)|signin|authenticate)\b")
SIGNUP = _rx(r"\b(?:signup|register|create\s+(?:an?\s+|my\s+)?account|make\s+an?\s+account)\b")
CANCEL_PENDING = _rx(
    r"^(?:no|nope|cancel|stop|never\s*mind|nevermind|forget\s+(?:it|that|about\s+it)|"
    r"cancel\s+(?:it|that|this|checkout|the\s+checkout)|not\s+now|skip\s+it)\b[\s.!]*$"
)
YES = _rx(r"^(?:yes|yeah|yep|yup|sure|ok|okay|please\s+do|do\s+it|go\s+ahead|sounds\s+good|fine|confirm)\b")
AUTOMATION = _rx(r"\bautomation\b|\bautomat(?:e|ic)\b.*\bsales?\b|\bsync\b.*\bsales\b|\bsales?\s+sync\b")
SALE_CREATE = _rx(
    r"\b(?:create|add|new|set\s*up|start|launch|schedule|make|plan|run)\b.*\b(?:sale|promo|promotion)\b"
    r"|\bsale\b.*\d+\s*(?:%|percent)"
)
PRODUCT_CREATE = _rx(
    r"\b(?:add|create|make|list|register|new)\b.{0,30}?\bproducts?\b.{0,20}?\b(?:called|named|titled)\b"
    r"|\bnew\s+product\b|\bcreate\s+(?:an?\s+)?(?:new\s+)?product\b"
)
DELETE_VERB = _rx(r"\b(?:delete|remove|take\s+down|hide|erase|get\s+rid\s+of)\b")
CLEAR_VERB = _rx(r"\b(?:empty|clear|wipe|reset|clean\s+out|dump)\b")
UPDATE_ORDER = _rx(r"\b(?:mark|set|change|update|move|flag|switch|put|make)\b[^?]*?\border\b")
STATUS_RX = _rx(r"\b(pending|processing|in\s+progress|shipped|dispatched|delivered|cancell?ed)\b")
IMPERATIVE_STATUS = _rx(
    r"(?:^|\bplease\s+|\bcan\s+you\s+|\bcould\s+you\s+|\bwant\s+to\s+|\bgo\s+ahead\s+and\s+|,\s*|"
    r"\bi'?d\s+like\s+to\s+|\bneed\s+to\s+)(cancel|ship|deliver|process)\s+(?:the\s+|my\s+|this\s+)?"
    r"order\b"
)
ORDER_STATEMENT = _rx(
    r"^(?:please\s+)?order\s*#?\s*\d+\s+(?:has\s+been|was|is\s+now|got|should\s+be)\s+"
    r"(?:marked\s+(?:as\s+)?)?(?:pending|processing|shipped|dispatched|delivered|cancell?ed)\b"
)
MARK_HASH = _rx(
    r"^(?:please\s+)?(?:mark|set|flag)\s+#\s*(\d+)\s+(?:as\s+|to\s+)?(?:pending|processing|shipped|"
    r"dispatched|delivered|cancell?ed)\b"
)
PRODUCT_DELETE = _rx(
    r"\b(?:delete|hide|deactivate|disable|archive|unpublish|unlist|retire|discontinue|soft[\s-]?delete|"
    r"take\s+down|pull)\b|\bremove\b.*\bfrom\s+(?:the\s+)?(?:shop|store|catalog|catalogue|site|"
    r"website|listings?)\b"
)
UPDATE_VERB = _rx(
    r"\b(?:change|set|update|make|rename|reprice|restock|adjust|edit|modify|lower|raise|increase|"
    r"reduce|drop|bump|mark|put|activate|reactivate|enable|restore|publish|unhide|move|bring\s+back|relist|"
    r"re-?enable|unarchive|should\s+(?:cost|be)|now\s+costs?|reprice[ds]?)\b"
)
ORDERS_LIST = _rx(
    r"\b(?:all|list|show|view|see|display|get|find|fetch|which|any|recent|latest|new|pending|"
    r"processing|shipped|delivered|cancell?ed|search|open|unshipped)\b.*\borders\b|\borders\s+"
    r"(?:from|by|for|of|placed|with|that|which|where|list)\b|^orders\b|\border\s+list\b"
)
CHECKOUT = _rx(
    r"\b(?:check\s?out|checking\s+out|place\s+(?:my|the|an|this|our)?\s*order|proceed\s+to\s+(?:payment|"
    r"checkout|pay)|complete\s+(?:my|the)\s+(?:order|purchase)|finali[sz]e\s+(?:my\s+|the\s+)?(?:order|"
    r"purchase)|ready\s+to\s+(?:pay|order|check\s?out)|buy\s+(?:now|everything|it\s+all|all\s+of\s+it|"
    r"what'?s\s+in\s+my)|pay\s+(?:now|for\s+(?:my|the|it|everything))|(?:submit|confirm)\s+(?:my|the)\s+"
    r"order|let'?s\s+pay)\b"
)
SHIP_TO = _rx(
    r"\b(?:ship|deliver|send|mail)\s+(?:it|them|everything|this|that|my\s+order|the\s+order|"
    r"the\s+package|my\s+stuff|my\s+things)?\s*to\b\s*:?|\b(?:my\s+)?(?:shipping\s+|delivery\s+)?"
    r"address\s*(?:is|:)\s*"
)
CLEAR_ALL = _rx(
    r"\b(?:remove|delete|take\s+out|get\s+rid\s+of|throw\s+out|drop)\s+(?:everything|all(?:\s+(?:the\s+)?"
    r"(?:items?|things|stuff|products))?|it\s+all)\b"
)
REVIEW_VERB = _rx(r"\b(?:review|reviewing|rate|rating|rated)\b")
REVIEW_READ = _rx(r"\b(?:show|see|read|view|what\s+are|any|check)\b.*\breviews\b")
RATING = re.compile(
    r"\b(\d(?:\.\d)?|one|two|three|four|five)\s*-?\s*(?:stars?|star\s+rating|out\s+of\s+(?:5|five)\b|"
    r"/\s*5\b|of\s+5\b)|\b(?:rating|rate[ds]?(?:\s+(?:it|this|that))?|give|giving|gave)\s*(?:is|:|=|"
    r"of|it|this|that|an?)?\s*(\d(?:\.\d)?|one|two|three|four|five)\b(?!\s*(?:%|\$|dollars))"
)
COMPARE = _rx(
    r"\bcompare\b|\bcomparison\b|\bcomparing\b|\bdifference\s+between\b|\bvs\.?\b|\bversus\b|"
    r"\bside\s+by\s+side\b|\bwhich\s+(?:one\s+)?is\s+better\b|"
    r"\b(?:which|what)(?:'?s|\s+is|\s+one\s+is|s)?\s+(?:cheaper|pricier|dearer|(?:more|less)\s+expensive)\b"
)
TRACK = _rx(r"\btrack(?:ing)?\b|\bwhere(?:'s|\s+is)\s+my\s+(?:package|parcel|shipment|delivery)\b")
TRACK_TOKEN = re.compile(
    r"(?i:tracking\s*(?:number|no\.?|num|code|id|#)?|track(?:\s+(?:my\s+|the\s+|this\s+)?"
    r"(?:package|parcel|shipment|delivery|number))?)\s*(?:is|:|#|=)?\s*"
    r"((?=[A-Za-z0-9-]*\d)[A-Za-z0-9][A-Za-z0-9-]{4,99})\b"
)
ANY_TOKEN = re.compile(r"\b((?=[A-Za-z0-9-]*\d)(?=[A-Za-z0-9-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9-]{5,99}|\d{8,40})\b")
ORDER_TALK = _rx(r"\border\b|\bpurchase\b")
STATUS_QUESTION = _rx(
    r"\b(?:status|where|when|track|arriv\w*|ship\w*|deliver\w*|happen\w*|update|check|eta|progress|"
    r"coming|come|late|is|has|what|any\s+news|look\s+up|lookup)\b"
)
_REMOVE_WORDS = (
    r"\b(?:remove|delete|changed\s+my\s+mind\s+(?:about|on)|take\b.{0,40}?\b(?:out|off)|drop|get\s+rid\s+of|ditch|"
    r"discard|(?:scrap|scratch|nix)\s+(?=the\b|my\b|those\b|these\b)|"
    r"(?:throw|toss)\b.{0,40}?\b(?:out|away)|(?:don'?t|do\s+not|no\s+longer)\s+(?:want|need)(?!\s+to\s+(?:spend|pay|go))|minus|"
    r"cancel\s+the)\b"
)
# "i won't need the jacket after all" takes a line out; "I won't need a gift box" or "… anything else" does not, and
# next to an add ("add the hoodie, I won't need the receipt") it is never the request.
_WONT_NEED = r"\b(?:will\s+not|won'?t)\s+(?:be\s+)?need(?:ing)?\s+(?:the|my|those|these|that|it|them)\b"
REMOVE_WORDS = _rx(_REMOVE_WORDS)
WONT_NEED = _rx(_WONT_NEED)
REMOVE = _rx(_REMOVE_WORDS + "|" + _WONT_NEED)
ADD = _rx(
    r"^(?:please\s+)?order\b|\b(?:add|put|throw|toss|stick|pop|place|include|buy|purchase|grab|"
    r"i'?ll\s+(?:take|have|get)|i\s+will\s+(?:take|have)|(?:like|want|wanna|going|need)\s+to\s+"
    r"(?:order|buy|purchase|get|add)|gimme|let\s+me\s+(?:get|have|grab)|(?:can|could|may)\s+i\s+(?:get|have)|"
    r"get\s+me)\b"
)
WANT_COUNT = _rx(
    r"\b(?:i\s+need|i\s+want|i'?d\s+like|i\s+would\s+like|get\s+me|can\s+i\s+(?:get|have)|give\s+me)\s+"
    r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\b"
)
CART_TOTAL = _rx(r"\b(?:my|the|cart|basket)\s+(?:sub)?total\b|\bsubtotal\b|\bwhat\s+(?:did|have)\s+i\s+(?:add|put|got)")
CART_QUESTION = _rx(r"^(?:is|are|do|does|did|what|how|whats|which|anything)\b")
CART_SHOW = _rx(
    r"\b(?:show|view|see|what|whats|display|open|check|look|list|total|contents|how\s+many|how\s+much|"
    r"review|go\s+to|in\s+my|inside)\b|\bwhat\s+(?:did|have)\s+i\s+(?:add|put|got)"
)
# "what's left?" after a removal: the cart.
WHATS_LEFT = _rx(
    r"^\W*(?:so\s+|ok(?:ay)?\s+|and\s+)?(?:what\s*(?:is|'?s)|whats)\s+(?:left|remaining|in\s+there|still\s+(?:there|in\s+it))\W*(?:now)?\W*$"
)
SEARCH_VERB = _rx(
    r"\b(?:show|find|search|looking\s+for|look\s+for|browse|do\s+you\s+(?:have|sell|carry|stock)|"
    r"got\s+any|recommend|suggest|see|any|i\s+(?:want|need)|shopping\s+for|in\s+the\s+market\s+for)\b"
)
CATALOG_WORDS = _rx(
    r"\b(?:everything|products|items|catalog(?:ue)?|stuff|collection|arrivals|deals|discounts|sale|"
    r"clothes|clothing|range|selection)\b"
)
SWAP_ITEMS = _rx(r"\b(?:swap|exchange|switch|replace|change)\s+(?:out\s+)?(.+?)\s+(?:for|with|to|into)\s+(.+)$")
EXCLUDED = _rx(
    r"(?:\bbut\s+(?:not|no)|\bnot|\b(?:are|is|were|was)n'?t|\bwithout|\bexcept|\bexcluding|\banything\s+but|"
    r"\bany\s+(?:other\s+)?(?:colou?r|style|kind)\s+but)\s+"
    # "I'm not looking for red, I want green": what is not looked for is ruled out, not the word "looking".
    r"(?:(?:looking|searching|shopping|asking)\s+for\s+|interested\s+in\s+|after\s+)?"
    r"(?:any\s+|in\s+|the\s+)?([a-z]+)"
)
# "no wait, I meant XL": a correction of what was just asked for.
CORRECTION = (
    r"\bi\s+meant\b|\bi\s+mean\b|\bmeant\s+to\s+say\b|\bshould\s+(?:have\s+been|be)\b|\bmy\s+(?:bad|mistake)\b|"
    r"\b(?:change|switch|swap|update)\s+(?:the\s+|its\s+|my\s+)?(?:size|colou?r)\b|\b(?:switch|swap)\s+(?:it\s+)?to\b"
)
SWAP = _rx(
    r"\b(?:instead|make\s+(?:it|that|them|those)|change\s+(?:it|that|them)|switch|swap|rather|actually)\b|"
    r"^(?:(?:hmm+|oh|ok(?:ay)?|um+|ah|wait|actually)\W+)*(?:no|nope|nah)\W+|" + CORRECTION
)
QTY_CHANGE = re.compile(
    r"^(?:(?:actually|ok|okay|oh|sorry|wait|no|hmm|and|please|can\s+you|could\s+you|hey)[\s,]+)*"
    r"(?:make\s+(?:it|that|them|those|this)|change\s+(?:it|that|the\s+quantity|quantity)\s+to|set\s+(?:it|the\s+"
    r"quantity|quantity)\s+to|i\s+(?:only\s+|just\s+)?(?:want|need)|let'?s\s+(?:do|make\s+it)|i'?ll\s+take|(?:just|only)(?:\s+the(?=\s+one\b))?)?\s*"
    r"(" + NUM + r")(?:\s+(?:of\s+(?:them|those|these|it)|instead|please|units|pieces|total|in\s+total|pairs))*"
    r"(?:\s*,?\s*(?:not|rather\s+than|instead\s+of)\s+" + NUM + r")?\s*[.!]*$"
)
# "set the hoodie to 4", "change the quantity of the white shirts to 2": a line already in the cart, to a count.
SET_LINE = re.compile(
    r"^(?:(?:ok(?:ay)?|actually|please|pls|can\s+you|could\s+you|hey|and|so|now)[\s,]+)*"
    r"(?:set|change|update|adjust|make|reduce|increase|lower|raise|bump|cut|bring)\s+(?:up\s+|down\s+)?"
    r"(?:the\s+|my\s+)?(?:(?:quantity|qty|number|count|amount)\s+(?:of\s+)?(?:the\s+|my\s+)?)?"
    r"(?P<item>.+?)\s+(?:(?:quantity|qty|count)\s+)?(?:down\s+|up\s+)?to\s+(?:just\s+|only\s+)?(?P<count>" + NUM + r")"
    r"(?:\s+(?:pieces?|units?|items?|pairs?|of\s+them|total|in\s+total|please|pls))*\W*$"
)
# "actually make the hoodies 2", "make my socks 1": a line already in the cart, to a count, without "to".
MAKE_LINE = re.compile(
    r"^(?:(?:ok(?:ay)?|actually|sorry|oh|wait|no|hmm|please|pls|can\s+you|could\s+you|hey|and|so|now)[\s,]+)*"
    r"(?:make|set|change|update)\s+(?:the|my)\s+(?P<item>[a-z][a-z' -]*?)\s+(?P<count>" + NUM + r")"
    r"(?:\s+(?:pieces|units|items|pairs|of\s+them|total|in\s+total|instead|please|pls|then))*\W*$"
)
# "I only want 1 of the pocket tees": the count of a line already in the cart.
ONLY_LINE = re.compile(
    r"^(?:(?:ok(?:ay)?|actually|sorry|hmm|oh|wait|no|and)[\s,]+)*(?:i\s+)?(?:only|just)\s+(?:want|need)\s+(?P<count>"
    + NUM
    + r")\s+(?:of\s+(?:the|those|these|my)|(?:the|my))\s+(?P<item>.+?)(?:\s+(?:please|pls|thanks))?\W*$"
)
# "can i get 4 of those socks instead of 1", "I want 4 socks not 1": a line in the cart, from one count to another.
COUNT_INSTEAD = re.compile(
    r"^(?:(?:ok(?:ay)?|actually|sorry|hmm|oh|wait|no|and|so|please|pls)[\s,]+)*"
    r"(?:(?:can|could|may)\s+i\s+(?:get|have)|i\s+(?:want|need|would\s+like)|give\s+me|let\s+me\s+(?:get|have)|"
    r"make\s+it|i\s+will\s+(?:take|have))?\s*(?P<count>" + NUM + r")\s+(?:of\s+)?(?:(?:those|these|the|my)\s+)?"
    r"(?P<item>[a-z][a-z' -]*?)\s*,?\s+(?:instead\s+of|not|rather\s+than)\s+(?:the\s+|just\s+|only\s+)?"
    + NUM
    + r"(?:\s+(?:of\s+them|please|pls|thanks))*\W*$"
)
NOT_A_LINE = re.compile(
    r"^(?:size|colou?r)\b|\b(?:price|cost|stock|status|order|sale|discount|rating|stars?|name|description)\b"
)
# "what sizes does the grey hoodie come in?", "what colours does it come in?", "is it in stock?", "do you have it in
# XL?": a question about a product's options, answered from the shop's stock.
OPTIONS_ASPECT = re.compile(
    r"\b(?:what|which)\s+(?:other\s+)?(?P<a>sizes?|colou?rs?)\b|"
    r"\b(?:comes?|available|have|has|got|make|makes)\s+(?:it\s+|them\s+)?in\s+(?:what|which|any\s+other|other)\s+"
    r"(?P<b>sizes?|colou?rs?)\b|"
    r"\bhow\s+many\b.*\b(?:left|in\s+stock|available)\b|"
    r"\b(?:is|are)\s+(?:it|this|that|they|these|those|the\s+[a-z -]+?)\s+(?:still\s+)?(?:in\s+stock|available|sold\s+out)\b"
)
OPTIONS_VALUE = re.compile(
    r"\b(?:do\s+you\s+have|have\s+you\s+got|does|do|is|are|can\s+i\s+get)\s+(?:it|this|that|they|them|these|those|"
    r"this\s+one|that\s+one|the\s+[a-z -]+?)\s+(?:come\s+|available\s+|also\s+)*in\s+(?:an?\s+|size\s+)?"
    r"(?P<value>[a-z]+)\W*$"
)
# "what size should I get?", "what colour goes with navy jeans?": advice (size guide, styling), not stock.
ADVICE = _rx(r"\b(?:should|would|fits?|right\s+for|goes?\s+with|go\s+with|match(?:es)?|pairs?\s+with|wear\s+with)\b")
REFINE_TYPE = _rx(r"^(?:and\s+|ok\s+|okay\s+|so\s+)?(?:what|how)\s+about\b|^and\b|^same\b|\b(?:too|instead)\b")
REFINE = _rx(
    r"^(?:what|how)\s+about\b|^(?:are|is)\s+any\s+of\s+(?:them|those|these)\b|"
    r"^(?:and|any|anything|something|got\s+any|do\s+you\s+have\s+(?:it|them|these|those|any|"
    r"one)|same|ok|okay|now|maybe|try)\b|\b(?:instead|rather|too)\b|^in\b|^only\b|^just\b|"
    r"^(?:(?:actually|oh|wait|hmm+|ok(?:ay)?|um+|ah)\W+)*(?:no|nope|nah|sorry|oops)\W+(?:(?:actually|wait)\W+)?(?:in|make\s+it)\b"
)
GREETING = _rx(r"^(?:hi|hello|hey|hiya|howdy|yo|greetings|good\s+(?:morning|afternoon|evening))\b")
THANKS = _rx(r"\b(?:thanks|thank\s+you|thx|ty|cheers|appreciate\s+it)\b")
BYE = _rx(r"\b(?:bye|goodbye|see\s+you|see\s+ya|that'?s\s+all|that\s+is\s+all)\b")
HELP = _rx(
    r"\b(?:help|what\s+can\s+you\s+do|how\s+does\s+this\s+work|what\s+do\s+you\s+do|who\s+are\s+you|"
    r"what\s+are\s+you|commands|how\s+can\s+you\s+help|what\s+can\s+i\s+(?:do|ask))\b"
)

SMALL_TALK = _rx("|".join(p.pattern for p in (GREETING, THANKS, BYE, HELP)))
HELP_TEXT = (
    'I can search the shop ("red dresses under $50"), manage your cart ("add 2 large white shirts", "remove the navy '
    'hoodie", "show my cart"), compare products ("compare 1, 2 and 4"), post a review ("5 stars for product 3: great '
    'fit"), check out, and look up an order or a tracking number.'
)
ADMIN_HELP = (" As an admin you can also manage products, orders (\"mark order 5 as shipped\"), sales, carts and "
              "reviews.")  # fmt: skip


# The message and its features ---------------------------------------------------------------------------------


def normalise(text: str) -> str:
    """Lower-case text with the shop's phrases joined ("t-shirt" → "tshirt", "extra large" → "xl")."""
    text = normalise_text(re.sub(r"(\d)'s\b", r"\1", text.lower()))
    for pattern, replacement in EXTRA_PHRASES:
        text = pattern.sub(replacement, text)
    return text


def clothing_type(word: str) -> str | None:
    """ "tees", "trousers", "hoodies", "pyjamas" → the shop's clothing type."""
    for candidate in (word, singular(word)):
        if candidate in CLOTHING_TYPES:
            return candidate
        kind = "t-shirt" if candidate == "tshirt" else EXTRA_TYPES.get(candidate)
        if kind:
            return kind
        for term in SYNONYMS.get(candidate, ()):
            kind = "t-shirt" if term == "tshirt" else term
            if kind in CLOTHING_TYPES:
                return kind
    return None


def _number(token: str | None) -> int | None:
    if token is None:
        return None
    return int(token) if token.isdigit() else NUM_WORDS.get(token)


def _amount(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() else value


def _blank(pattern: re.Pattern, text: str) -> str:
    return pattern.sub(" ", text)


class Msg:
    """One message: raw (case kept), low (same length, lower-case), norm (shop phrases joined), and features."""

    def __init__(self, message: str):
        raw = (message or "")[:2000].translate(CHAR_MAP).strip()
        self.low = raw.lower()
        self.raw = raw if len(self.low) == len(raw) else self.low
        self.norm = normalise(raw)
        self.core = _blank(SORT_ANY, self.norm)  # "top rated" is no top
        self.words = WORD.findall(re.sub(r"\b(?:you|u)\s+guys\b", " ", self.core))  # "do you guys have…": no department

    def has(self, pattern: re.Pattern) -> bool:
        return pattern.search(self.norm) is not None

    @cached_property
    def emails(self) -> list[str]:
        return EMAIL.findall(self.raw)

    @cached_property
    def without_refs(self) -> str:
        """norm without order / review / user references: what product ids and quantities are read from."""
        text = EMAIL.sub(" ", self.norm)
        for pattern in (ORDER_REF, REVIEW_REF, USER_REF):
            text = _blank(pattern, text)
        return text

    @cached_property
    def product_ids(self) -> list[int]:
        return _product_ids(self.without_refs)

    @cached_property
    def order_id(self) -> int | None:
        match = ORDER_REF.search(self.norm)
        return int(match.group(1)) if match else None

    @cached_property
    def user_id(self) -> int | None:
        match = USER_REF.search(self.norm)
        return int(match.group(1)) if match else None

    @cached_property
    def review_id(self) -> int | None:
        match = REVIEW_REF.search(self.norm)
        return int(match.group(1)) if match else None

    @cached_property
    def types(self) -> list[str]:
        return [kind for kind in map(clothing_type, self.words) if kind]

    @cached_property
    def colors(self) -> list[str]:
        return list(dict.fromkeys(c for c in map(normalise_color, self.words) if c))

    @cached_property
    def size(self) -> str | None:
        return _size(self.core) or _raw_size(self.raw) or _bare_size(self.core)

    @cached_property
    def category(self) -> str | None:
        return _category(self.words)

    @cached_property
    def max_price(self) -> int | float | None:
        return _max_price(self.norm)

    @cached_property
    def min_price(self) -> int | float | None:
        return entities.min_price(self.norm)

    @cached_property
    def on_sale(self) -> bool:
        return entities.on_sale(self.norm)

    @cached_property
    def in_stock(self) -> bool:
        return entities.in_stock(self.norm)

    @cached_property
    def sort_by(self) -> str | None:
        return next((name for name, pattern in SORT_RULES if pattern.search(self.norm)), None)

    @cached_property
    def integers(self) -> list[int]:
        text = _blank(PRICE_MAX, _blank(AMOUNT, self.without_refs))
        return [int(n) for n in re.findall(r"\b\d+\b", re.sub(r"\d+(?:\.\d+)?\s*(?:%|percent)", " ", text))]


def _product_ids(text: str) -> list[int]:
    ids: list[int] = []
    for match in PRODUCT_REF.finditer(text):
        ids.extend(int(n) for n in re.findall(r"\d+", match.group(1)) if int(n) not in ids)
    return [i for i in ids if i >= 1]


def _size(text: str) -> str | None:
    match = WORD_SIZE.search(text) or LETTER_SIZE.search(text)
    return normalise_size(match.group(1)) if match else None


# A whole message that is only a size letter answers "which size?": "m", "l please", "xs thanks".
BARE_SIZE = re.compile(r"\W*(?:ok(?:ay)?\s+|um+\s+)?(xxl|xl|xs|s|m|l)\W*(?:please|pls|plz|thanks|thank\s+you|thx)?\W*")


def _bare_size(text: str) -> str | None:
    match = BARE_SIZE.fullmatch(text)
    return normalise_size(match.group(1)) if match else None


def _raw_size(raw: str) -> str | None:
    match = RAW_SIZE.search(raw)
    return match.group(1) if match else None


def _category(words: list[str]) -> str | None:
    return next((CATEGORY_OF[w] for w in words if w in CATEGORY_OF), None)


def _max_price(text: str) -> int | float | None:
    match = PRICE_MAX.search(text)
    if not match:
        return None
    value = next(g for g in match.groups() if g is not None)
    return _amount(value) if float(value) <= 100000 else None


# Results and context ------------------------------------------------------------------------------------------


class Turn:
    """One message being interpreted: its features, the context, and what is pending from the last turn."""

    def __init__(self, message: str, context: dict | None, is_admin: bool):
        self.msg = Msg(message)
        self.ctx = dict(context) if isinstance(context, dict) else {}
        pending = self.ctx.pop("pending", None)
        self.pending = pending if isinstance(pending, dict) and isinstance(pending.get("args"), dict) else None
        self.is_admin = bool(is_admin)

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


# Intent handlers: each returns an Interpretation, or None when the message is not for it ----------------------


def h_logout(turn: Turn) -> Interpretation | None:
    return call(turn, "auth_logout", {}) if turn.msg.has(LOGOUT) else None


def h_login(turn: Turn) -> Interpretation | None:
    if turn.msg.has(LOGIN):
        return say(turn, "Please use the login form below — never type your password into the chat.",
                   wants_login_form=True)  # fmt: skip
    if turn.msg.has(SIGNUP):
        return say(turn, "You can create an account on the Register page — never type a password into the chat.")
    return None


def h_cancel_pending(turn: Turn) -> Interpretation | None:
    if turn.pending and CANCEL_PENDING.search(turn.msg.norm):
        return say(turn, "Okay, I've dropped that.")
    return None


def h_confirm_pending(turn: Turn) -> Interpretation | None:
    pending = turn.pending
    if pending and pending.get("confirm") and YES.search(turn.msg.norm):
        return call(turn, pending["tool"], pending["args"])
    return None


def h_sale_automation(turn: Turn) -> Interpretation | None:
    return call(turn, "admin_sale_run_automation", {}) if turn.msg.has(AUTOMATION) else None


# "put all dresses on 20% sale for the weekend": a sale on part of the shop.
SALE_ON = _rx(
    r"\b(?:put|mark|set|make|place|discount|run|create|start|add|launch|schedule)\b.*?(?:\bon\s+(?:a\s+)?(?:\d+\s*(?:%|percent)"
    r"\s+(?:off\s+)?)?sale\b|\d+\s*(?:%|percent)\s+(?:off|sale|discount)\b)"
)


def h_sale_create(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if (
        turn.is_admin
        and (msg.has(SALE_CREATE) or msg.has(SALE_ON))
        and (msg.types or msg.category)
        and not msg.has(CART_RX)
    ):
        # admin_sale_create has no product scope: a sale made here would discount everything.
        kinds = (
            (
                msg.types[-1]
                + (
                    "es"
                    if msg.types[-1].endswith(("ss", "sh", "ch", "x"))
                    else ""
                    if msg.types[-1].endswith("s")
                    else "s"
                )
            )
            if msg.types
            else {"men": "men's", "women": "women's", "kids": "kids'"}.get(msg.category or "", "those products")
        )
        return say(turn, f"I can't make a sale for {kinds} only: a sale made here applies to the whole shop. To put just "
                         f"{kinds} on sale, create the sale in Admin → Sales and choose its products there. I haven't "
                         "created anything.")  # fmt: skip
    if not turn.msg.has(SALE_CREATE) or turn.msg.product_ids:
        return None
    return finish(turn, "admin_sale_create", {**turn.pending_args("admin_sale_create"), **sale_fields(turn)})


def h_product_create(turn: Turn) -> Interpretation | None:
    if not turn.msg.has(PRODUCT_CREATE):
        return None
    return finish(
        turn, "admin_product_create", {**turn.pending_args("admin_product_create"), **product_fields(turn.msg)}
    )


def h_review_delete(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if not (msg.has(DELETE_VERB) and re.search(r"\breviews?\b", msg.norm)) or RATING.search(msg.norm):
        return None
    if msg.review_id is None:
        return ask(turn, QUESTIONS["admin_review_delete"])
    return call(turn, "admin_review_delete", {"review_id": msg.review_id})


def h_cart_clear_user(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if msg.user_id is None or not msg.has(CART_RX) or not (msg.has(CLEAR_VERB) or msg.has(CLEAR_ALL)):
        return None
    return call(turn, "admin_cart_clear_user", {"user_id": msg.user_id})


def _order_status_word(msg: Msg) -> str | None:
    match = STATUS_RX.search(msg.norm)
    if match:
        return ORDER_STATUSES[" ".join(match.group(1).split())]
    verb = IMPERATIVE_STATUS.search(msg.norm)
    return STATUS_VERBS[verb.group(1)] if verb else None


def h_order_update(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    imperative = IMPERATIVE_STATUS.search(msg.norm)
    statement = turn.is_admin and ORDER_STATEMENT.search(msg.norm) and "?" not in msg.norm
    hashed = MARK_HASH.search(msg.norm)
    refund = turn.is_admin and REFUND_ORDER.search(msg.norm)
    if not (refund or imperative or statement or hashed or (msg.has(UPDATE_ORDER) and STATUS_RX.search(msg.norm))):
        return None
    status = STATUS_VERBS[imperative.group(1)] if imperative else _order_status_word(msg)
    if refund:
        status = "cancelled"
    order_id = (
        msg.order_id
        or (int(hashed.group(1)) if hashed else None)
        or (msg.integers[0] if len(msg.integers) == 1 else None)
    )
    if order_id is None:
        return ask(
            turn, f"Which order number should be marked {status}?", "admin_order_update_status", {"status": status}
        )
    result = call(turn, "admin_order_update_status", {"order_id": order_id, "status": status})
    if refund:
        result.context["offline_note"] = ("A refund is made by cancelling the order: cancelling a paid order "
                                          "refunds its payment and puts its items back in stock.")  # fmt: skip
    return result


# An admin's "refund order 3": the shop refunds by cancelling (a paid order's payment is refunded on cancel).
REFUND_ORDER = _rx(
    r"^(?:please\s+|can\s+you\s+|could\s+you\s+|go\s+ahead\s+and\s+)*(?:refund|issue\s+a\s+refund\s+(?:for|on))\s+"
    r"(?:the\s+|this\s+)?order\b"
)


def h_product_delete(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if not msg.has(PRODUCT_DELETE) or msg.has(CART_RX) or len(msg.product_ids) != 1:
        return None
    if re.search(r"\b(?:reviews?|ratings?|comments?|photos?|images?|sales?|discounts?)\b", msg.norm):
        return None  # "delete the reviews of product 3" is about its reviews, never the product itself
    return call(turn, "admin_product_delete", {"product_id": msg.product_ids[0]})


PRICE_CHANGE = re.compile(r"\bprice\b.*\bto\s+\$?\s*\d|\b(?:reprice|mark\s+down|discount)\b.*\bto\s+\$?\s*\d")


def h_product_update(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if not msg.product_ids and msg.has(UPDATE_VERB) and PRICE_CHANGE.search(msg.norm) and not msg.has(CART_RX):
        # "set the price of the grey hoodie to 1 dollar": a catalog change, never a search.
        if not turn.is_admin:
            return say(turn, "Sorry, only the shop's admins can change prices — you always pay the price the shop "
                             "shows, with any running sale taken off.")  # fmt: skip
        return ask(turn, "Which product should I reprice? Give me its number (\"set the price of product 30 to "
                         "59.99\").")  # fmt: skip
    if len(msg.product_ids) != 1 or not msg.has(UPDATE_VERB) or msg.has(CART_RX) or _is_question(msg):
        return None
    changes = update_fields(msg)
    return call(turn, "admin_product_update", {"product_id": msg.product_ids[0], **changes}) if changes else None


def _is_question(msg: Msg) -> bool:
    return "?" in msg.norm or re.match(r"(?:does|do|is|are|how|what|whats|which|can|could)\b", msg.norm) is not None


def h_orders_list(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if not msg.has(ORDERS_LIST) or msg.has(CART_RX):
        return None
    if re.search(r"\bmy\s+(?:\w+\s+)?orders\b", msg.norm):
        return ask(turn, "I can look up one order at a time — what's the order number (and the email used)?",
                   "order_status", {})  # fmt: skip
    return call(turn, "admin_orders_list", orders_list_fields(msg))


def h_checkout(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    explicit = msg.has(CHECKOUT) and not (re.search(r"\bcheck\s+out\b", msg.norm) and msg.types)
    address = SHIP_TO.search(msg.low) and re.search(r"\d", msg.low)
    if not explicit and not address:
        return None
    return _checkout(turn)


def _checkout(turn: Turn, *, bare_name: bool = False) -> Interpretation:
    args = turn.pending_args("checkout_proceed")
    args.update(address_fields(turn.msg, bare_name=bare_name))
    if "email" not in args and turn.user_email:
        args["email"] = turn.user_email
    return finish(turn, "checkout_proceed", args)


# "delete all reviews", "remove all my orders": everything of something else, never the cart.
NOT_THE_CART = re.compile(
    r"\b(?:reviews?|orders?|products|users?|customers?|accounts?|sales?|receipts?|wishlist|"
    r"favou?rites|addresses|history|data)\b"
)


def h_cart_clear(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    clear = re.search(
        r"\b(?:empty|clear|wipe|reset|clean\s+out|dump)\s+(?:out\s+)?(?:(?:my|the|our|your|this|entire|"
        r"whole|shopping|every|all|all\s+the|any)\s+)*(?:carts?|baskets?|bags?|trolley)\b",
        msg.norm,
    )
    spared_all = re.search(
        r"\b(?:remove|delete|drop|take\s+out)\s+(?:everything|all(?:\s+(?:the\s+)?(?:items|things|rest))?)\s+"
        r"(?:except|but|apart\s+from|other\s+than|besides|save)\b",
        msg.norm,
    )
    everything = (
        spared_all
        or (msg.has(CLEAR_ALL) or re.search(r"\bclear\s+(?:it\s+)?(?:all|everything)\b", msg.norm))
        and not (msg.types or msg.product_ids or NOT_THE_CART.search(msg.norm))
    )
    emptied = re.search(CART + r".*\b(?:emptied|cleared)\b", msg.norm)
    if not (clear or everything or emptied):
        return None
    spared = KEEP_EXCEPT.search(msg.norm)
    kept = _item(spared.group(1)) if spared else None
    if kept is not None and (kept.identified or kept.color):
        # "empty my cart except the socks": read the cart, then remove every other line (never a whole clear)
        line = cart_lines.WantedLine(None, kept.product_id, kept.clothing_type, kept.color, kept.size, kept.category)
        return _result(turn, [PlannedCall("cart_show", {}, then=KeepOnlyStep(line))])
    return call(turn, "cart_clear", {})


KEEP_EXCEPT = re.compile(
    r"\b(?:except(?:\s+for)?|but(?:\s+not)?|apart\s+from|other\s+than|besides|save|keep(?:ing)?)\s+"
    r"(?:for\s+)?(?:the\s+|my\s+)?(.+)$"
)


@dataclass(frozen=True)
class KeepOnlyStep:
    """Once the cart is read: remove every line but the one(s) the shopper keeps."""

    line: cart_lines.WantedLine

    def __call__(self, result: dict) -> tuple[list[PlannedCall], str | None]:
        steps, reply = cart_lines.keep_only(result.get("cart") or {}, self.line)
        return [PlannedCall(name, args, after_success=waits) for name, args, waits in steps], reply

    def label(self) -> dict:
        return {"keep": {k: v for k, v in vars(self.line).items() if v is not None and k != "count"}}


def h_review(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    pending = turn.pending_args("review_create")
    rating = RATING.search(msg.low)
    verb = REVIEW_VERB.search(msg.core)
    if msg.has(REVIEW_READ) and not rating:
        return say(turn, "Reviews are shown on each product's page; I can post one for you — e.g. "
                         "\"5 stars for product 3: great fit\".")  # fmt: skip
    about = (
        msg.product_ids
        or pending
        or re.search(r"\b(?:give|leave|it|this)\b", msg.norm)
        or (len(msg.words) <= 3 and not msg.types)
    )
    if not (verb or (rating and about)):
        return None
    if not verb and not pending and re.match(r"\W*(?:please\s+)?(?:show|find|search|browse|list|any)\b", msg.norm):
        return None  # "show me 5 star stuff": what is rated 5 stars, not a review
    if rating is None and msg.types and not msg.product_ids:
        return None
    return finish(turn, "review_create", {**pending, **review_fields(turn, rating)})


def h_compare(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if not msg.has(COMPARE):
        return None
    ids = list(dict.fromkeys(n for n in msg.integers if n >= 1))
    if RANKED_COUNT.search(msg.norm) and not msg.product_ids:
        ids = []  # "compare the 2 cheapest": a count of products, not product 2
    listed = [n for n in turn.ctx.get("last_product_ids") or [] if isinstance(n, int)]
    first = re.search(r"\b(?:first|top)\s+(\d|two|three|four|five)\b", msg.norm)
    if len(ids) < 2 and first and len(listed) >= 2:
        ids = listed[: _number(first.group(1))]
    elif len(ids) < 2 and re.search(r"\b(?:them|these|those|they|both|all)\b", msg.norm) and len(listed) >= 2:
        ids = listed
    elif len(ids) == 1 and isinstance(turn.ctx.get("last_product_id"), int) and turn.ctx["last_product_id"] != ids[0]:
        ids = [turn.ctx["last_product_id"], ids[0]]
    if len(ids) < 2:
        ranked = _compare_ranked(turn)
        return ranked if ranked is not None else ask(turn, QUESTIONS["compare_products"])
    asked = WHICH_PRICIER.search(msg.norm)
    if asked:
        cheaper = not re.search(r"pricier|dearer|more\s+expensive", asked.group(0))
        return _result(turn, [PlannedCall("compare_products", {"product_ids": ids[:10]}, then=PriceAnswer(cheaper))])
    return call(turn, "compare_products", {"product_ids": ids[:10]})


# "compare the two cheapest jeans", "compare the 3 best rated dresses": how many of a ranked search to compare.
RANKED_COUNT = _rx(
    r"\b(?:the\s+)?(2|3|4|5|two|three|four|five)\s+(?:\w+\s+){0,2}?(?:cheapest|least|most|priciest|dearest|"
    r"best|top|highest|newest|latest)\b|\b(?:cheapest|priciest|best|top|newest)\s+(2|3|4|5|two|three|four|five)\b"
)


@dataclass(frozen=True)
class CompareFirst:
    """What a search is for when the shopper asked to compare the first few of it: compare those products."""

    count: int = 2
    what: str = "products"  # "cheapest jeans"

    def __call__(self, result: dict) -> tuple[list[PlannedCall], str | None]:
        found = [p for p in result.get("products") or [] if isinstance(p, dict) and isinstance(p.get("id"), int)]
        if len(found) < 2:
            return [], None  # the search's own reply says what (little) it found
        chosen = found[: self.count]
        departments = {"men": "Men's", "women": "Women's", "kids": "Kids'"}
        named = [f"{p.get('name')} ({departments.get(p.get('category'), p.get('category'))}, {p.get('color')}, "
                 f"${p.get('price')})" for p in chosen]  # fmt: skip
        listed = ", ".join(named[:-1]) + " and " + named[-1]
        reply = f"Here are the {len(chosen)} {self.what} side by side: {listed}."
        return [PlannedCall("compare_products", {"product_ids": [p["id"] for p in chosen]})], reply

    def label(self) -> dict:
        return {"compare_first": self.count}


def _compare_ranked(turn: Turn) -> Interpretation | None:
    """ "compare the two cheapest jeans", "compare the 2 most expensive hoodies": that search, sorted, and its first
    products compared. With no garment, colour or department said, the last search sorted so."""
    msg = turn.msg
    counted = RANKED_COUNT.search(msg.norm)
    if (
        not msg.sort_by
        or msg.sort_by == "relevance"
        or not (
            counted
            or re.search(
                r"\b(?:cheapest|priciest|most\s+"
                r"expensive|best)\b",
                msg.norm,
            )
        )
    ):
        return None
    count = _number((counted.group(1) or counted.group(2)) if counted else None) or 2
    parts = search_parts(msg)
    parts["terms"] = [t for t in parts.get("terms") or [] if t not in NUM_WORDS and not t.isdigit()
                      and not COMPARE.search(t)]  # fmt: skip
    described = any(v for k, v in parts.items() if k not in ("sort_by",))
    if not described:
        last = turn.ctx.get("last_search")
        if not isinstance(last, dict) or not last:
            return None
        parts = {**last, "sort_by": msg.sort_by}
    result = _search_call(turn, parts)
    planned = result.calls[0]
    kind = planned.arguments.get("clothing_type")
    noun = (
        CLOTHING_TYPE_LABELS[kind].lower().replace("t-shirts", "T-shirts")
        if kind in CLOTHING_TYPE_LABELS
        else "products"
    )
    what = f"{RANK_WORDS.get(parts.get('sort_by'), 'first')} {noun}"
    result.calls[0] = PlannedCall(planned.name, planned.arguments, then=CompareFirst(min(max(count, 2), 10), what))
    return result


RANK_WORDS = {"price_low": "cheapest", "price_high": "most expensive", "rating": "best-rated", "newest": "newest"}


WHICH_PRICIER = _rx(
    r"\b(?:which|what)(?:'?s|\s+is|\s+one\s+is|s)?\s+(?:cheaper|pricier|dearer|(?:more|less)\s+expensive)\b"
)


def h_compare_list(turn: Turn) -> Interpretation | None:
    """A bare list of product numbers ("items 1, 2 and 4") is a comparison."""
    msg = turn.msg
    leftover = set(WORD.findall(_blank(PRODUCT_REF, msg.norm))) - {"and", "or", "please", "the", "vs", "with"}
    if len(msg.product_ids) >= 2 and not leftover:
        return call(turn, "compare_products", {"product_ids": msg.product_ids[:10]})
    return None


def h_track(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if not msg.has(TRACK) or msg.order_id is not None:
        return None
    match = TRACK_TOKEN.search(msg.raw) or ANY_TOKEN.search(msg.raw)
    if match is None:
        return ask(turn, QUESTIONS["order_track"], "order_track", {})
    return call(turn, "order_track", {"tracking_number": match.group(1).upper()})


def h_order_status(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if msg.types and msg.has(ADD):
        return None
    if not (msg.order_id is not None or (msg.has(ORDER_TALK) and msg.has(STATUS_QUESTION) and not msg.types)):
        return None
    return _order_status(turn)


def _order_status(turn: Turn) -> Interpretation:
    msg = turn.msg
    args = turn.pending_args("order_status")
    order_id = msg.order_id or (msg.integers[0] if len(msg.integers) == 1 else None)
    if order_id is None and "order_id" not in args and isinstance(turn.ctx.get("last_order_id"), int):
        order_id = turn.ctx["last_order_id"]
    if order_id:
        args["order_id"] = order_id
    email = msg.emails[0] if msg.emails else args.get("email") or turn.user_email
    if email:
        args["email"] = email
    return finish(turn, "order_status", args)


# "make the hoodie red", "actually make my jeans a large": a line already in the cart, in another colour or size.
MAKE_LOOK = _rx(
    r"^(?:(?:ok(?:ay)?|actually|sorry|oh|wait|no|hmm|please|pls|can\s+you|could\s+you|hey|and|so|now)[\s,]+)*"
    r"make\s+(?:the|my)\s+(?P<old>[a-z][a-z' -]*?)\s+(?:in\s+)?(?:(?:size|an?)\s+)?(?P<new>xxl|xl|xs|s|m|l|small|medium|"
    r"large|[a-z]+)(?:\s+(?:one|ones|instead|please|pls|then|size))*\W*$"
)


# "a size larger", "one size up", "the next size down", "a bigger size": the line's size, one step up or down.
RELATIVE_STEP = re.compile(
    r"(?:(?:a|one|the)\s+)?(?:(?:size|one\s+size)\s+)?(?:(?P<word>bigger|larger|smaller|up|down)|next\s+size\s+"
    r"(?P<next>up|down))(?:\s+size)?(?:\s+(?:please|pls|instead))*"
)


def h_swap(turn: Turn) -> Interpretation | None:
    """ "swap the white shirt for a blue one", "make the hoodie red": read the cart, add the new item (unsaid details
    from the line), then remove the old line once that worked."""
    match = SWAP_ITEMS.search(turn.msg.without_refs) or MAKE_LOOK.match(turn.msg.norm)
    if not match:
        return None
    if match.re is MAKE_LOOK and not (normalise_color(match.group("new")) or normalise_size(match.group("new"))):
        return None
    old, new = _item(match.group(1)), _item(match.group(2))
    step = RELATIVE_STEP.fullmatch(match.group(2).strip(" .!?")) if match.re is SWAP_ITEMS else None
    if step and old.identified:
        # "swap the sneakers for a size larger": the same line, the next of the shop's sizes (read from the cart).
        line = cart_lines.WantedLine(None, old.product_id, old.clothing_type, old.color, old.size, old.category)
        up = (step.group("word") or step.group("next") or "").lower() in ("bigger", "larger", "up")
        return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(line, (("size_step", 1 if up else -1),)))])
    if not old.identified or not (new.identified or new.color or new.size):
        return None
    line = cart_lines.WantedLine(None, old.product_id, old.clothing_type, old.color, old.size, old.category)
    fields = (("product_id", new.product_id), ("clothing_type", new.clothing_type), ("selected_color", new.color),
              ("selected_size", new.size), ("category", new.category))  # fmt: skip
    replacement = tuple((name, value) for name, value in fields if value)
    return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(line, replacement, new.quantity))])


def h_cart_remove(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    if not msg.has(REMOVE) or (msg.has(ORDER_TALK) and not msg.has(CART_RX) and not msg.types):
        return None
    if msg.has(ADD) and not msg.has(REMOVE_WORDS):  # "add the hoodie, I won't need the receipt": an add
        return None
    found = [i for i in items(msg) if i.identified]
    loose = items(msg)[0]
    loose.size = loose.size or msg.size  # "remove the L one": a capital letter is a size
    if not found and (loose.color or loose.size) and not loose.quantity and not ORDINAL.search(msg.norm):
        # "remove the red thing": the cart's one red line, whatever it is.
        line = cart_lines.WantedLine(0, color=loose.color, size=loose.size)
        return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(line))])
    if not found:
        base = _with_context(turn, loose)
        if base is None:
            return ask(turn, "Which item should I remove from your cart?")
        found = [base]
    named = found[0]
    word = _garment_word(msg, named.clothing_type) if len(found) == 1 and named.product_id is None else None
    if word and not named.quantity:
        # "remove the joggers" with chinos in the cart too: the line whose name has the word the shopper used
        line = cart_lines.WantedLine(0, None, named.clothing_type, named.color, named.size, named.category, word)
        return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(line))])
    if len(found) == 1 and named.category and named.product_id is None and not named.quantity:
        # "remove the women's hoodie": the removal cannot name a department, so the cart's lines decide which one
        line = cart_lines.WantedLine(0, None, named.clothing_type, named.color, named.size, named.category)
        return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(line))])
    planned = []
    for item in found:
        args = item.arguments(remove=True)
        quantity = item.quantity or (1 if re.search(r"\b(?:a|an)\b", msg.norm) and item.clothing_type else None)
        if quantity:
            args["quantity"] = min(quantity, 100)
        planned.append(("cart_remove_item", args))
    return calls(turn, planned)


def _garment_word(msg: Msg, kind: str | None) -> str | None:
    """The shopper's own word for a garment when it is not the shop's type name ("joggers" for pants)."""
    if not kind:
        return None
    for word in WORD.findall(msg.low):
        base = singular(word)
        if clothing_type(word) == kind and base not in (kind, singular(kind)) and base not in CLOTHING_TYPES:
            return base if len(base) >= 4 and base not in ("tshirt", "tee", "tees", "top", "tops") else None
    return None


def h_cart_add(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    wants = WANT_COUNT.search(msg.norm) and msg.types
    in_cart = (
        wants
        or msg.has(CART_RX)
        and re.search(r"\b(?:in|into|to)\s+(?:my|the|our)?\s*(?:shopping\s+)?" + CART, msg.norm)
    )
    if not (msg.has(ADD) or in_cart) or (msg.has(CART_RX) and CART_QUESTION.search(msg.norm) and not msg.has(ADD)):
        return None
    if INSTEAD_OF_IT.search(msg.norm) and turn.ctx.get("last_action") == "cart_add_item" and not msg.types:
        return None  # "can I have it in blue instead?": the line just added changes (h_refine), no second line
    found = [i for i in items(msg) if i.identified]
    if not found:
        loose = items(msg)[0]
        referred = msg.has(REFERENCE) or ORDINAL.search(msg.norm) or loose.quantity or loose.color or loose.size
        item = _with_context(turn, loose) if referred or msg.has(CART_RX) else None
        pronoun = re.search(r"\b(?:it|that|this|them|those|these|same)\b", msg.norm)
        if item is None and (msg.category or msg.colors or msg.max_price) and not (msg.has(CART_RX) or pronoun):
            # "buy me something under 50 in pink for my mum": no garment to add yet, so what fits is shown
            return _search_call(turn, search_parts(msg))
        if item is None:
            return ask(turn, "What would you like me to add to your cart?")
        found = [item]
    return _add(turn, found)


INSTEAD_OF_IT = re.compile(r"\b(?:it|that|this|them|those|one)\b.*\binstead\b")

# "add 2 red shirts, no make it 3": the count said last stands.
RECOUNT = re.compile(
    r"(?:,|\bno\b|\bactually\b|\bsorry\b|\bwait\b|\boops\b)\s*,?\s*(?:no\s*,?\s*)?(?:make\s+(?:it|that|them)|"
    r"i\s+mean|rather)\s+(" + NUM + r")\b"
)


def _add(turn: Turn, found: list[Item]) -> Interpretation:
    recount = RECOUNT.search(turn.msg.norm)
    if recount and len(found) == 1:
        found[0].quantity = _number(recount.group(1)) or found[0].quantity
    if NEGATIVE_COUNT.search(turn.msg.norm) or NOT_A_WHOLE_COUNT.search(turn.msg.low):
        return say(turn, "I can only add items, from 1 to 10 at a time — how many would you like?")
    planned = []
    for item in found:
        args = item.arguments()
        args["quantity"] = item.quantity or 1
        beyond = BEYOND_SIZES.search(turn.msg.low)
        if (NUMERIC_SIZE.search(turn.msg.norm) and not item.size or beyond) and len(found) == 1:
            # Asked like the shop's own "which size?", so that "M" or "large" next adds it.
            asked = (f"We don't make {beyond.group(0).upper()}: our sizes run {SIZES[0]} to {SIZES[-1]}" if beyond
                     else f"Our sizes are letters, not numbers: {', '.join(SIZES)}")  # fmt: skip
            args.pop("selected_size", None)
            result = ask(turn, f"{asked} — which size would you like?")
            quantity = args.pop("quantity")
            result.context.update(
                last_action="cart_add_item", last_item=args, last_quantity=quantity, last_add_failed=True
            )  # nothing added yet: the answer adds, it swaps nothing
            return result
        if args["quantity"] > 10:
            args["quantity"] = 10
            return ask(turn, "I can add at most 10 of an item at a time — shall I add 10?", "cart_add_item", args,
                       confirm=True)  # fmt: skip
        planned.append(("cart_add_item", args))
    return calls(turn, planned)


LINE_IN_STOCK = re.compile(
    r"\b(?:is|are)\s+(?:the\s+|my\s+)?(?P<item>[a-z -]+?)\s+(?:in|from)\s+my\s+(?:cart|basket|bag)\s+(?:still\s+)?"
    r"(?:in\s+stock|available)\b"
)


@dataclass(frozen=True)
class LineStock:
    """Once the cart is read: whether the line named is in stock for its count."""

    line: cart_lines.WantedLine

    def __call__(self, result: dict) -> tuple[list, str | None]:
        found, reason = cart_lines.the_line(result.get("cart") or {}, self.line)
        if found is None:
            return [], reason
        stock, held = int(found.get("stock") or 0), int(found.get("quantity") or 0)
        label = cart_lines.line_label(found)
        if stock >= held:
            return [], f"Yes — {label} is in stock ({stock} left), enough for the {held} in your cart."
        if stock:
            return [], f"Only {stock} of {label} are left, fewer than the {held} in your cart."
        return [], f"{label} is sold out now; it stays in your cart but cannot be ordered until it is back."

    def label(self) -> dict:
        return {"stock_of": {k: v for k, v in vars(self.line).items() if v is not None and k != "count"}}


def h_cart_line_stock(turn: Turn) -> Interpretation | None:
    """ "is the sweater in my cart still in stock?": read the cart and answer from that line's stock."""
    match = LINE_IN_STOCK.search(turn.msg.norm)
    if not match:
        return None
    named = _item(match.group("item"))
    line = cart_lines.WantedLine(None, named.product_id, named.clothing_type, named.color, named.size, named.category)
    return _result(turn, [PlannedCall("cart_show", {}, then=LineStock(line))])


# "is the hoodie still in my basket?", "can't find my sneakers in the cart, are they there?": whether a line is there.
CART_PRESENCE = _rx(
    r"\b(?:is|are|was|were)\s+(?:the|my|it|they|those|these|that|there)\b[^?.!]*?\b(?:in|inside)\s+(?:my|the|our)\s+"
    r"(?:shopping\s+)?(?:cart|basket|bag|trolley)\b|"
    r"\b(?:can\s*not|cannot|can'?t|could\s*n'?t|do\s*n'?t|do\s+not)\s+(?:find|see)\b[^?.!]*?\b(?:cart|basket|bag|trolley)\b"
)


def h_cart_presence(turn: Turn) -> Interpretation | None:
    """A question whether something is in the cart: read the cart and answer yes or no (never an add)."""
    msg = turn.msg
    if not msg.has(CART_PRESENCE) or msg.has(ADD) or msg.has(REMOVE):
        return None
    named = next((i for i in items(msg) if i.identified), None)
    if named is None:
        return None
    line = cart_lines.WantedLine(None, named.product_id, named.clothing_type, named.color, named.size, named.category)
    return _result(turn, [PlannedCall("cart_show", {}, then=CartCheck(line))])


def h_cart_show(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    question = CART_QUESTION.search(msg.norm)
    if (msg.has(ADD) or msg.has(REMOVE)) and not question:
        return None
    bare = re.fullmatch(
        r"\W*(?:(?:my|the|open|view|show)\s+)?(?:shopping\s+)?(?:cart|basket|bag)"
        r"(?:\s+(?:please|pls|plz|now|again))?\W*",
        msg.norm,
    )
    cart_words = msg.has(CART_RX) and (msg.has(CART_SHOW) or question)
    left = msg.has(WHATS_LEFT) and turn.ctx.get("last_action") in ("cart_remove_item", "cart_add_item", "cart_show")
    left = left or re.search(r"\bhow\s+much\b.*\b(?:all\s+together|altogether|together|in\s+total|total|in\s+all)\b|"
                             r"\b(?:how\s+much|what)\s+(?:does|do|will|would|is)\s+(?:it|that|everything|this|they|"
                             r"those|these|my\s+stuff)\s+(?:all\s+)?(?:come\s+to|add\s+up\s+to|cost\s+(?:all\s+)?together)\b|"
                             r"\bhow\s+much\s+(?:is|does)\s+everything\b|\bwhat\s+do\s+i\s+owe\b",
                             msg.norm)  # fmt: skip
    return call(turn, "cart_show", {}) if bare or cart_words or left or msg.has(CART_TOTAL) else None


def h_quantity_change(turn: Turn) -> Interpretation | None:
    """ "make it 3" after adding 1: add (or remove) the difference."""
    match = QTY_CHANGE.match(turn.msg.norm)
    last = turn.ctx.get("last_item")
    if not match or turn.ctx.get("last_action") != "cart_add_item" or not isinstance(last, dict) or not last:
        return None
    wanted, had = _number(match.group(1)), int(turn.ctx.get("last_quantity") or 1)
    if wanted and turn.ctx.get("last_add_failed"):  # nothing was added: ask the shop again, for the new count
        result = call(turn, "cart_add_item", {**last, "quantity": min(wanted, 10)})
        result.context.update(last_quantity=min(wanted, 10), last_action="cart_add_item")
        return result
    if not wanted or wanted == had:
        return say(turn, f"You already have {had} of those in your cart.")
    if wanted > had:
        result = call(turn, "cart_add_item", {**last, "quantity": min(wanted - had, 10)})
    else:
        removal = {k: v for k, v in last.items() if k != "category"}
        result = call(turn, "cart_remove_item", {**removal, "quantity": had - wanted})
    result.context["last_quantity"] = min(wanted, had + 10)
    result.context["last_action"] = "cart_add_item"
    return result


def h_set_line_quantity(turn: Turn) -> Interpretation | None:
    """ "set the grey hoodie to 4": read the cart, then add or remove the difference on that line."""
    match = SET_LINE.match(turn.msg.norm) or ONLY_LINE.match(turn.msg.norm) or MAKE_LINE.match(turn.msg.norm)
    match = match or COUNT_INSTEAD.match(turn.msg.norm.lower())
    if not match or NOT_A_LINE.search(match.group("item")):
        return None
    count = _number(match.group("count"))
    named = _item(match.group("item"))
    if count is None or count > 100:
        return None
    if not (named.product_id or named.clothing_type or named.color):
        last = turn.ctx.get("last_item")
        if not REFERENCE.fullmatch(match.group("item").strip()) or not isinstance(last, dict) or not last:
            return None
        named = Item(product_id=last.get("product_id"), clothing_type=last.get("clothing_type"),
                     color=last.get("selected_color"), size=last.get("selected_size"))  # fmt: skip
    wanted = cart_lines.WantedLine(count, named.product_id, named.clothing_type, named.color, named.size,
                                   named.category)  # fmt: skip
    return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(wanted))])


def h_product_options(turn: Turn) -> Interpretation | None:
    """Sizes, colours or stock of a product the message names or refers to, from a search of the shop."""
    msg = turn.msg
    asked, valued = OPTIONS_ASPECT.search(msg.norm), OPTIONS_VALUE.search(msg.norm)
    if not (asked or valued) or msg.has(ADD) or msg.has(REMOVE) or msg.has(CART_RX) or msg.has(ADVICE):
        return None
    value = valued.group("value") if valued else None
    size, color = (normalise_size(value), normalise_color(value)) if value else (None, None)
    if value and not (size or color):
        if not asked:
            return None
        value = None  # "is it available in stores?": the question, without a size or colour
    word = ((asked.group("a") or asked.group("b")) if asked else None) or ""
    aspect = "colors" if word.startswith("colo") or color else "sizes" if word.startswith("size") or size else "stock"
    parts = search_parts(msg)
    parts.update(size=None, in_stock=None, sort_by=None, **({"color": None} if aspect == "colors" else {}))
    named = parts.get("clothing_type")
    product = _referred_product(turn) if not named else None
    if product is not None:
        product_id, name, category = product
        words = WORD.findall(name.lower())
        kinds = [kind for kind in map(clothing_type, words) if kind]
        parts = {"terms": [w for w in words if not clothing_type(w)], "clothing_type": (kinds or [None])[-1],
                 "category": category}  # fmt: skip
    elif not named:
        if aspect == "sizes" and not (turn.ctx.get("last_product_id") or turn.ctx.get("last_search")):
            return say(turn, f"Our clothes come in sizes {', '.join(SIZES)}. Name a product (\"what sizes does the grey "
                             "hoodie come in?\") and I'll check which are in stock.")  # fmt: skip
        return None
    else:
        product_id = None
    line = turn.ctx.get("last_line") if product else None
    if isinstance(line, dict) and line.get("product_id") == product_id and aspect == "stock":
        size, color = line.get("size"), line.get("color")  # "is it in stock?" of the line just added: its variant
    terms = tuple(t for t in parts.get("terms") or () if t != parts.get("clothing_type"))
    question = OptionsQuestion(aspect, product_id=product_id, color=color, size=size, named=terms or None)
    result = _search_call(turn, parts)
    result.calls = [PlannedCall(c.name, c.arguments, then=question) for c in result.calls]
    return result


def _referred_product(turn: Turn) -> tuple[int, str, str | None] | None:
    """The id, name and department of the product "it" is: the one picked from those just shown ("the second
    one"), the one just added, or the first one just shown."""
    shown = [p for p in turn.ctx.get("last_shown") or [] if isinstance(p, dict) and p.get("name")]
    ordinal = ORDINAL.search(turn.msg.norm)
    if ordinal and shown and -len(shown) <= ORDINALS[ordinal.group(1)] < len(shown):
        picked = shown[ORDINALS[ordinal.group(1)]]
        return picked["id"], picked["name"], picked.get("category")
    line = turn.ctx.get("last_line")
    if isinstance(line, dict) and line.get("name") and line.get("product_id") == turn.ctx.get("last_product_id"):
        return line["product_id"], line["name"], line.get("category")
    first = next((p for p in shown if p.get("id") == turn.ctx.get("last_product_id")), None)
    return (first["id"], first["name"], first.get("category")) if first else None


def h_pending(turn: Turn) -> Interpretation | None:
    """The answer to last turn's follow-up question: fill the waiting call."""
    if not turn.pending or (SMALL_TALK.search(turn.msg.norm) and not re.search(r"\d|@", turn.msg.norm)):
        return None
    fill = PENDING_FILLERS.get(turn.pending.get("tool"))
    return fill(turn) if fill else None


def _addressy(msg: Msg, *, name_missing: bool) -> bool:
    """Does the message carry shipping details (not just any words while a checkout waits)?"""
    if msg.emails or ZIP.search(msg.raw) or LABELS.search(msg.raw) or SHIP_TO.search(msg.low):
        return True
    if re.search(r"\bmy\s+name\s+is\b|^\s*\d+[a-z]?\s+(?:\w+\s+){0,3}" + STREET_SUFFIX + r"(?:\W|$)", msg.low):
        return True
    vocabulary = msg.types or msg.colors or msg.category or msg.size or msg.product_ids
    return name_missing and not vocabulary and _looks_like_name(msg.raw.strip(" .!"))


def _fill_checkout(turn: Turn) -> Interpretation | None:
    before = turn.pending_args("checkout_proceed")
    if not _addressy(turn.msg, name_missing="shipping_name" not in before):
        return None
    found = address_fields(turn.msg, bare_name="shipping_name" not in before)
    return (
        _checkout(turn, bare_name="shipping_name" not in before)
        if found and any(before.get(k) != v for k, v in found.items())
        else None
    )


def _fill_order_status(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    return _order_status(turn) if msg.emails or msg.order_id or len(msg.integers) == 1 else None


def _fill_track(turn: Turn) -> Interpretation | None:
    match = ANY_TOKEN.search(turn.msg.raw) or re.fullmatch(r"\s*([A-Za-z0-9-]{5,100})\s*", turn.msg.raw)
    return call(turn, "order_track", {"tracking_number": match.group(1).upper()}) if match else None


def _fill_review(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    rating = RATING.search(msg.low) or re.fullmatch(r"\s*([1-5](?:\.5)?)\s*[.!]*\s*", msg.low)
    pending = turn.pending_args("review_create")
    if rating is None and not msg.product_ids and not msg.integers:
        return None
    args = {**pending, **review_fields(turn, rating)}
    if "product_id" not in args and msg.integers and rating is None:
        args["product_id"] = msg.integers[0]
    return finish(turn, "review_create", args)


def _fill_order_update(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    order_id = msg.order_id or (msg.integers[0] if len(msg.integers) == 1 else None)
    if order_id is None:
        return None
    return call(
        turn, "admin_order_update_status", {**turn.pending_args("admin_order_update_status"), "order_id": order_id}
    )


def _fill_compare(turn: Turn) -> Interpretation | None:
    ids = list(dict.fromkeys(turn.msg.integers))
    return call(turn, "compare_products", {"product_ids": ids[:10]}) if len(ids) >= 2 else None


def _fill_sale(turn: Turn) -> Interpretation | None:
    found = sale_fields(turn)
    return finish(turn, "admin_sale_create", {**turn.pending_args("admin_sale_create"), **found}) if found else None


def _fill_product(turn: Turn) -> Interpretation | None:
    found = product_fields(turn.msg)
    pending = turn.pending_args("admin_product_create")
    bare_price = re.fullmatch(r"\s*\$?\s*" + MONEY + r"\s*", turn.msg.norm)
    if "price" not in pending and "price" not in found and bare_price:
        found["price"] = _amount(bare_price.group(1))
    if "name" not in pending and "name" not in found and not re.search(r"\d", turn.msg.norm) and not found:
        found["name"] = turn.msg.raw.strip(" .!\"'")[:255]
    return finish(turn, "admin_product_create", {**pending, **found}) if found else None


PENDING_FILLERS: dict[str, Callable[[Turn], Interpretation | None]] = {
    "checkout_proceed": _fill_checkout,
    "order_status": _fill_order_status,
    "order_track": _fill_track,
    "admin_order_update_status": _fill_order_update,
    "review_create": _fill_review,
    "compare_products": _fill_compare,
    "admin_sale_create": _fill_sale,
    "admin_product_create": _fill_product,
}


CHANGE_ASPECT = re.compile(
    r"^(?:(?:can|could)\s+you\s+|please\s+|pls\s+)?(?:change|switch|swap|update)\s+(?:the\s+|my\s+)?(?:(?P<item>[a-z-]+)(?:'?s)?\s+)?"
    r"(?:size|colou?r)\s+(?:of\s+(?:the\s+|my\s+)?(?P<of>[a-z-]+)\s+)?(?:to|into)\s+"
)


def h_change_cart_line(turn: Turn) -> Interpretation | None:
    """ "change the size to XL" with nothing just added: read the cart and change its one line (or the one named)."""
    msg = turn.msg
    match = CHANGE_ASPECT.match(msg.norm)
    if not match or (turn.ctx.get("last_action") == "cart_add_item" and turn.ctx.get("last_item")):
        return None
    if turn.ctx.get("last_action") == "search_products" and not re.search(CART, msg.norm):
        return None  # after a list, "change the size to XL" narrows that search (h_refine)
    changes = _attribute_changes(msg)
    if not (changes.get("size") or changes.get("color")):
        return None
    kind = clothing_type(match.group("item") or "") or clothing_type(match.group("of") or "")
    line = cart_lines.WantedLine(None, clothing_type=kind)
    fields = (("selected_color", changes.get("color")), ("selected_size", changes.get("size")))
    replacement = tuple((name, value) for name, value in fields if value)
    return _result(turn, [PlannedCall("cart_show", {}, then=CartStep(line, replacement, None))])


def h_refine(turn: Turn) -> Interpretation | None:
    """ "what about in blue?", "in medium instead", "under $30?": the last search or cart add, adjusted."""
    msg = turn.msg
    if msg.types or msg.product_ids:
        return None
    changes = _attribute_changes(msg)
    if not changes:
        return None
    if turn.ctx.get("last_action") == "cart_add_item" and isinstance(turn.ctx.get("last_item"), dict):
        if not (msg.has(REFINE) or _only_attributes(msg)) or EXCLUDED.search(msg.norm):
            return None  # "no red", "grey should be fine": not a change to what was just added
        if BARE_SIZE.fullmatch(msg.core) and not turn.ctx.get("last_add_failed"):
            return None  # a lone "L" after a successful add: which line, and add or change? unclear
        return _refine_add(turn, changes)
    if not (msg.has(REFINE) or _only_attributes(msg, SEARCH_FILLER)):
        return None
    search = dict(turn.ctx.get("last_search") or {})
    search.update(changes)
    return _search_call(turn, search)


def _attribute_changes(msg: Msg) -> dict:
    changes = {"color": msg.colors[0] if msg.colors else None, "size": msg.size, "category": msg.category,
               "max_price": msg.max_price, "sort_by": msg.sort_by, "min_price": msg.min_price,
               "on_sale": msg.on_sale or None}  # fmt: skip
    return {k: v for k, v in changes.items() if v is not None}


# Words around attributes that change nothing: "in medium instead", "no wait, I meant XL", "change the size to L".
_ATTRIBUTE_FILLER_WORDS = """
    what about how in a an the for please ones one them it size this that these those got any available come comes
    does is are instead version colour color maybe then show me do you have only but with and sorted sort by i
    meant mean wait sorry oops actually should been be say to my bad mistake change switch swap update its make
    rather prefer
"""
ATTRIBUTE_FILLER = frozenset(_ATTRIBUTE_FILLER_WORDS.split())
# Narrowing a search may also be asked for: "I'd like to see the red ones only".
SEARCH_FILLER = ATTRIBUTE_FILLER | {"like", "see", "id", "d", "would", "want", "just", "let", "look", "at", "no"}


def _only_attributes(msg: Msg, filler: frozenset[str] = ATTRIBUTE_FILLER) -> bool:
    text = _blank(LETTER_SIZE, _blank(PRICE_MAX, msg.core))
    words = [w for w in WORD.findall(text) if w not in filler and not w.isdigit()]
    letters = {"s", "m", "l"} if msg.size else set()  # "M please" after "which size?"
    return all(normalise_color(w) or w in SIZE_WORDS or w in letters or w in CATEGORY_OF for w in words)


def _refine_add(turn: Turn, changes: dict) -> Interpretation | None:
    last = dict(turn.ctx["last_item"])
    quantity = int(turn.ctx.get("last_quantity") or 1)
    keys = {"color": "selected_color", "size": "selected_size", "category": "category"}
    new = {**last, **{keys[k]: v for k, v in changes.items() if k in keys}}
    if new == last:
        return None
    line = turn.ctx.get("last_line") if isinstance(turn.ctx.get("last_line"), dict) else {}
    if set(changes) == {"size"} and isinstance(line.get("product_id"), int):
        # Another size of the very product added, not whichever garment of that type fits it.
        new = {"product_id": line["product_id"], **({"selected_color": line["color"]} if line.get("color") else {}),
               "selected_size": changes["size"]}  # fmt: skip
    elif line.get("category") and "category" not in changes:
        new["category"] = line["category"]  # another colour stays in the department of the line it replaces
    add = ("cart_add_item", {**new, "quantity": quantity})
    if turn.msg.has(SWAP) and not turn.ctx.get("last_add_failed"):
        # The new line first: if the shop has no such variant, the line already in the cart stays.
        removal = _last_line_removal(turn.ctx) or {k: v for k, v in last.items() if k != "category"}
        result = calls(turn, [add])
        result.calls.append(PlannedCall("cart_remove_item", {**removal, "quantity": quantity}, after_success=True))
        return result
    return calls(turn, [add])


def _last_line_removal(ctx: dict) -> dict | None:
    """The cart line the last add made (product, size, colour), as cart_remove_item arguments."""
    line = ctx.get("last_line")
    if not isinstance(line, dict) or not isinstance(line.get("product_id"), int):
        return None
    keys = (("product_id", "product_id"), ("size", "selected_size"), ("color", "selected_color"))
    return {target: line[source] for source, target in keys if line.get(source)}


def h_search(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    parts = search_parts(msg)
    if not any(parts.values()):
        browse = msg.has(SEARCH_VERB) and msg.has(CATALOG_WORDS)
        return _search_call(turn, {}) if browse else None
    if not (
        msg.has(SEARCH_VERB)
        or msg.types
        or msg.colors
        or msg.category
        or msg.max_price
        or msg.sort_by
        or msg.on_sale
        or msg.min_price
    ):
        return None
    last = turn.ctx.get("last_search") or {}
    if REFINE_TYPE.search(msg.norm) and msg.types and last:
        parts = {**{k: v for k, v in last.items() if k != "terms"}, **{k: v for k, v in parts.items() if v}}
    # "black or navy coats", "a shirt or a blouse in white": a search takes one colour and one garment, so one
    # search per alternative.
    for either in EITHER.finditer(msg.norm):
        for slot, read in (("color", normalise_color), ("clothing_type", clothing_type)):
            options = [read(either.group(1)), read(either.group(2))]
            if parts.get(slot) and all(options) and options[0] != options[1]:
                first, second = (_search_call(turn, {**parts, slot: option}) for option in options)
                first.calls += second.calls
                return first
    return _search_call(turn, parts)


EITHER = re.compile(r"\b([a-z-]+)\s+or\s+(?:an?\s+|some\s+|the\s+)?([a-z-]+)\b")


def _search_call(turn: Turn, parts: dict) -> Interpretation:
    """search_products with the shopper's constraints as hard filters; leftover words are the text query."""
    parts = {k: v for k, v in parts.items() if v}
    kind = parts.get("clothing_type")
    terms = [t for t in parts.get("terms", []) if t != kind and t not in CLOTHING_TYPES]
    args: dict = {"query": " ".join(terms)[:500]} if terms else {}
    if parts.get("color"):
        args["color"] = parts["color"]
    if kind:
        args["clothing_type"] = kind
    for key in ("category", "size", "min_price", "max_price", "on_sale", "in_stock", "sort_by"):
        if parts.get(key):
            args[key] = parts[key]
    if (
        args.get("min_price") is not None
        and args.get("max_price") is not None
        and args["min_price"] > args["max_price"]
    ):
        args.pop("min_price")
    result = call(turn, "search_products", args)
    result.context["last_search"] = parts
    result.context.pop("excluded_colour", None)
    return result


def search_parts(msg: Msg) -> dict:
    """The search a message describes: colour, query words (clothing types canonical), filters."""
    # The ceiling first, with its amount: "nothing over $60" leaves no "nothing" behind.
    text = _blank(LETTER_SIZE, _blank(AMOUNT, _blank(PRICE_MAX, msg.core)))
    # What the shopper rules out ("jackets but not leather") is never searched for: a search cannot exclude, and
    # asking for the word would find the very thing they do not want.
    excluded = {word for match in EXCLUDED.finditer(text) for word in WORD.findall(match.group(1))}
    text = EXCLUDED.sub(" ", text)
    kinds = [kind for kind in msg.types if kind not in {clothing_type(word) for word in excluded}]
    terms: list[str] = []
    color = None
    named: list[tuple[str, str]] = []  # (word, the garment it names), in order
    for word in WORD.findall(text):
        kind = clothing_type(word)
        shade = normalise_color(word)
        if kind:
            terms.append(kind)
            named.append((word, kind))
        elif shade:
            color = color or shade
        elif not (word in NOISE or word in CATEGORY_OF or word in SIZE_WORDS or word.isdigit() or len(word) < 2):
            terms.append(word)
    final = (kinds or [None])[-1]
    for (word, _kind), (next_word, next_kind) in zip(named, named[1:], strict=False):
        # "denim jacket", "puffer jacket": a garment word right before the garment asked for describes it, so it
        # stays a search word ("tees and shirts" are two garments, not a kind of shirt).
        right_before = re.search(rf"\b{re.escape(word)}\s+{re.escape(next_word)}\b", text)
        if next_kind == final and right_before and singular(word) not in CLOTHING_TYPES:
            terms.append(word)
    terms = list(dict.fromkeys(terms))
    return {"color": color, "terms": terms, "clothing_type": final,
            "category": msg.category, "size": msg.size, "max_price": msg.max_price, "sort_by": msg.sort_by,
            "min_price": msg.min_price, "on_sale": msg.on_sale or None, "in_stock": msg.in_stock or None}  # fmt: skip


def h_small_talk(turn: Turn) -> Interpretation | None:
    msg = turn.msg
    help_text = HELP_TEXT + (ADMIN_HELP if turn.is_admin else "")
    if msg.has(HELP):
        return say(turn, help_text)
    if msg.has(THANKS):
        return say(turn, "You're welcome! Anything else I can find for you?")
    if msg.has(BYE):
        return say(turn, "Bye — happy shopping!")
    if msg.has(GREETING):
        return say(turn, "Hi! " + help_text)
    return None


def h_fallback(turn: Turn) -> Interpretation:
    if turn.msg.emails and not turn.pending:
        return say(turn, "Thanks — what would you like me to do with that email? For an order, give me its number too.")
    return say(turn, "Sorry, I didn't get that. " + HELP_TEXT)


RULES: tuple[Callable[[Turn], Interpretation | None], ...] = (
    h_logout, h_login, h_cancel_pending, h_confirm_pending,
    h_sale_automation, h_sale_create, h_product_create, h_review_delete, h_cart_clear_user, h_order_update,
    h_product_delete, h_product_update, h_orders_list,
    h_checkout, h_cart_clear, h_review, h_compare, h_track, h_order_status,
    h_set_line_quantity, h_cart_line_stock, h_product_options, h_cart_presence, h_cart_show, h_swap, h_cart_remove, h_cart_add, h_quantity_change,
    h_pending, h_change_cart_line, h_refine, h_compare_list, h_search, h_small_talk,
)  # fmt: skip


# Slot extractors for the longer requests ---------------------------------------------------------------------


def review_fields(turn: Turn, rating: re.Match | None) -> dict:
    msg = turn.msg
    args: dict = {}
    product = PRODUCT_REF.search(msg.low)
    if msg.product_ids:
        args["product_id"] = msg.product_ids[0]
    elif isinstance(turn.ctx.get("last_product_id"), int) and not turn.pending_args("review_create"):
        args["product_id"] = turn.ctx["last_product_id"]
    if rating:
        value = float(_number(rating.group(1) or rating.group(2)) or (rating.group(1) or rating.group(2)))
        if 1 <= value <= 5:
            args["rating"] = int(value) if value.is_integer() else value
    comment = _review_comment(msg, [m for m in (rating, product, REVIEW_VERB.search(msg.low)) if m])
    if comment:
        args["comment"] = comment[:2000]
    return args


COMMENT_LEAD = re.compile(
    r"^(?:[\s:,;.!\-]|and\b|say(?:ing)?\b|with(?:\s+the)?\s+comment\b|comment(?:ing)?\b|"
    r"because\b|since\b|that\s+says\b|saying\s+that\b|for\s+(?:it|this|that|them)(?:\s+one)?\b)+",
    re.I,
)
PREFIX_FILLER = re.compile(
    r"^(?:i'?d|i|would|like|want|to|please|can|you|leave|write|post|add|submit|give|a|an|my|"
    r"let|me|just|ok|okay|for|the|this|it|review|quick|[\s,.!:])*$",
    re.I,
)


def _review_comment(msg: Msg, spans: list[re.Match]) -> str | None:
    quoted = re.search(r"\"([^\"]+)\"", msg.raw)
    if quoted:
        return quoted.group(1).strip() or None
    if not spans:
        return None
    end = max(m.end() for m in spans)
    start = min(m.start() for m in spans)
    tail = COMMENT_LEAD.sub("", re.sub(r"(?i)^\s*(?:stars?|out\s+of\s+(?:5|five))\b", "", msg.raw[end:])).strip()
    if re.search(r"[^\W\d_]", tail):
        return tail
    head = msg.raw[:start].strip(" ,;:-(")
    return head if head and not PREFIX_FILLER.match(head) else None


def update_fields(msg: Msg) -> dict:
    """admin_product_update's changes, read with the product reference blanked out."""
    text = _blank(PRODUCT_REF, msg.norm)
    changes: dict = {}
    for key, extract in UPDATE_EXTRACTORS:
        value = extract(text, msg)
        if value is not None:
            changes[key] = value
    return changes


def _update_price(text: str, _msg: Msg) -> int | float | None:
    match = re.search(r"\b(?:price[ds]?|cost|reprice)\b\D*?" + MONEY, text) or (
        re.search(r"\$\s*" + MONEY, text) if not re.search(r"\bstock\b", text) else None
    )
    return _amount(match.group(1)) if match else None


def _update_stock(text: str, _msg: Msg) -> int | None:
    if re.search(r"\b(?:out\s+of\s+stock|sold\s+out)\b", text):
        return 0
    match = re.search(r"\b(?:stock|inventory|quantity|qty|restock)\b(?:\s*(?:level|count))?\D*?(\d+|zero)\b", text) or (
        re.search(r"\b(\d+)\s*(?:units|pieces|pcs|in\s+stock)\b", text)
    )
    return (0 if match.group(1) == "zero" else int(match.group(1))) if match else None


def _update_name(_text: str, msg: Msg) -> str | None:
    match = re.search(r"\b(?:rename[ds]?|name)\b.*?\bto\s+[\"']?(.+?)[\"']?\s*[.!]?$", msg.low)
    return msg.raw[match.start(1) : match.end(1)].strip() or None if match else None


def _update_description(_text: str, msg: Msg) -> str | None:
    match = re.search(r"\bdescription\b.*?\b(?:to|:)\s*[\"']?(.+?)[\"']?\s*$", msg.low)
    return msg.raw[match.start(1) : match.end(1)].strip()[:10000] or None if match else None


def _update_category(text: str, _msg: Msg) -> str | None:
    if not re.search(r"\b(?:category|section|department|move|moved)\b", text):
        return None
    return _category(WORD.findall(text))


def _update_color(text: str, _msg: Msg) -> str | None:
    match = re.search(r"\bcolou?r\b(.*)", text)
    return next((c for c in map(normalise_color, WORD.findall(match.group(1))) if c), None) if match else None


def _update_active(text: str, _msg: Msg) -> bool | None:
    if re.search(r"\b(?:re-?activate|activate|re-?enable|enable|restore|publish|unhide|bring\s+back|relist|"
                 r"unarchive)\b|\bmake\b.*\b(?:active|visible|live)\b", text):  # fmt: skip
        return True
    if re.search(r"\b(?:inactive|invisible|hidden|unavailable)\b", text):
        return False
    return None


UPDATE_EXTRACTORS = (
    ("name", _update_name), ("description", _update_description), ("price", _update_price),
    ("stock_quantity", _update_stock), ("category", _update_category), ("color", _update_color),
    ("is_active", _update_active),
)  # fmt: skip


def _sizes_list(text: str) -> list[str]:
    match = re.search(r"\bsizes?\b\s*:?\s*((?:xxl|xl|xs|s|m|l|small|medium|large)(?:\s*(?:,|/|and|&|or|-|to|"
                      r"through|\s)\s*(?:xxl|xl|xs|s|m|l|small|medium|large))*)\b", text)  # fmt: skip
    if not match:
        return []
    found = [normalise_size(t) for t in re.findall(r"xxl|xl|xs|small|medium|large|\b[sml]\b", match.group(1))]
    found = [s for s in found if s]
    if len(found) == 2 and re.search(r"-|\bto\b|\bthrough\b", match.group(1)):
        low, high = SIZES.index(found[0]), SIZES.index(found[1])
        return list(SIZES[min(low, high) : max(low, high) + 1])
    return list(dict.fromkeys(found))


NAME_STOP = (
    r"(?=\s*(?:,|;|\.(?:\s|$)|$|\s+(?:for|at|priced|costing|in|with|under|category|price|from|starting|"
    r"running|giving|offering|that|which|-)\b|\s+\d+(?:\.\d+)?\s*%))"
)


def _called(msg: Msg, extra: str = "") -> str | None:
    quoted = re.search(r"\"([^\"]+)\"", msg.raw)
    if quoted:
        return quoted.group(1).strip()
    match = re.search(r"\b(?:called|named|titled)\s+(.+?)" + NAME_STOP + extra, msg.low)
    return msg.raw[match.start(1) : match.end(1)].strip(" '") if match else None


def _product_name(msg: Msg) -> str | None:
    match = re.search(r"\bproduct\s*[:\-]?\s+(?!called\b|named\b|titled\b|for\b|with\b|in\b|at\b)([a-z].+?)"
                      + NAME_STOP, msg.low)  # fmt: skip
    return msg.raw[match.start(1) : match.end(1)].strip(" '") if match else None


def product_fields(msg: Msg) -> dict:
    """admin_product_create's fields: name, price, category, colour(s), sizes, stock, description."""
    args: dict = {}
    name = _called(msg) or _product_name(msg)
    rest = normalise(msg.raw.replace(name, " ")) if name else msg.norm
    if name:
        args["name"] = name[:255]
    price = AMOUNT.search(rest) or re.search(
        r"\b(?:price[ds]?|costs?|costing|at|for)\s*(?:of|is|at|:)?\s*" + MONEY, rest
    )
    if price:
        args["price"] = _amount(next(g for g in price.groups() if g))
    words = WORD.findall(rest)
    category = _category(words)
    if category:
        args["category"] = category
    args.update(_colour_fields(words))
    args.update(_stock_and_sizes(rest))
    description = re.search(r"\bdescription\s*(?:is|:|=)?\s*(.+)$", msg.low)
    if description:
        args["description"] = msg.raw[description.start(1) : description.end(1)].strip()[:10000]
    return args


def _colour_fields(words: list[str]) -> dict:
    colours = list(dict.fromkeys(c for c in map(normalise_color, words) if c))
    if not colours:
        return {}
    return {"color": colours[0], **({"available_colors": colours} if len(colours) > 1 else {})}


def _stock_and_sizes(text: str) -> dict:
    args: dict = {}
    sizes = _sizes_list(text)
    if sizes:
        args["available_sizes"] = sizes
    stock = re.search(r"\b(\d+)\s*(?:in\s+stock|units|pieces|pcs)\b|\bstock\s*(?:of|:|=|quantity)?\s*(\d+)\b", text)
    if stock:
        args["stock_quantity"] = int(stock.group(1) or stock.group(2))
    return args


ORDER_SEARCH = re.compile(
    r"\b(?:named|called|matching|search(?:ing)?\s+(?:the\s+)?(?:orders\s+)?(?:for|by|from)|"
    r"orders\s+(?:placed\s+)?by)\s+[\"']?((?!user\b|customer\b)[a-z][\w.' -]{0,60}?)[\"']?\s*[?.!]?$"
)


def orders_list_fields(msg: Msg) -> dict:
    args: dict = {}
    status = STATUS_RX.search(msg.norm)
    if status:
        args["status"] = ORDER_STATUSES[" ".join(status.group(1).split())]
    elif re.search(r"\bunshipped\b", msg.norm):
        args["status"] = "pending"
    if msg.user_id:
        args["user_id"] = msg.user_id
    if msg.emails:
        args["search"] = msg.emails[0][:200]
    else:
        named = ORDER_SEARCH.search(msg.low)
        if named:
            args["search"] = msg.raw[named.start(1) : named.end(1)].strip()
    page = re.search(r"\bpage\s*(\d+)\b", msg.norm)
    if page and int(page.group(1)) >= 1:
        args["page"] = int(page.group(1))
    per_page = re.search(r"\b(\d+)\s*(?:per\s+page|a\s+page|orders?\s+per\s+page)\b|\b(?:last|first|latest|recent|"
                         r"show|top)\s+(\d+)\s+(?:\w+\s+)?orders\b", msg.norm)  # fmt: skip
    if per_page:
        args["per_page"] = max(1, min(int(per_page.group(1) or per_page.group(2)), 100))
    return args


# Sales: names, percentages and dates --------------------------------------------------------------------------

MONTH = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|"
    r"nov(?:ember)?|dec(?:ember)?)\.?"
)
DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
YEAR = r"(?:,?\s*(\d{4}))?"
DATE = re.compile(
    r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b|\b"
    + MONTH
    + r"\s+"
    + DAY
    + YEAR
    + r"\b|\b"
    + DAY
    + r"\s+(?:of\s+)?"
    + MONTH
    + YEAR
    + r"\b|\b(\d{1,2})/(\d{1,2})/(\d{4})\b|\b(today|tomorrow)\b"
)


def _today(turn: Turn) -> date:
    try:
        return date.fromisoformat(str(turn.ctx.get("today")))
    except ValueError:
        return date.today()


def _date_parts(match: re.Match, today: date) -> tuple[int | None, int, int] | None:
    g = match.groups()
    if g[0]:
        return int(g[0]), int(g[1]), int(g[2])
    if g[3]:
        return (int(g[5]) if g[5] else None), MONTHS[g[3][:3]], int(g[4])
    if g[6]:
        return (int(g[8]) if g[8] else None), MONTHS[g[7][:3]], int(g[6])
    if g[9]:
        return int(g[11]), int(g[9]), int(g[10])
    day = today.toordinal() + (1 if g[12] == "tomorrow" else 0)
    d = date.fromordinal(day)
    return d.year, d.month, d.day


def _make_date(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def sale_dates(turn: Turn) -> list[date]:
    """Start and end dates; a missing year comes from the other date, else the next such day from today."""
    today = _today(turn)
    parts = [p for p in (_date_parts(m, today) for m in DATE.finditer(turn.msg.low)) if p][:2]
    known = next((p[0] for p in parts if p[0]), None)
    dates: list[date] = []
    for year, month, day in parts:
        guess = year or known or today.year
        value = _make_date(guess, month, day)
        if value and year is None and known is None and value < today:
            value = _make_date(guess + 1, month, day)
        if value and dates and value < dates[0] and year is None:
            value = _make_date(value.year + 1, month, day)
        if value:
            dates.append(value)
    if len(dates) == 2 and dates[0] > dates[1] and parts[0][0] is None:
        dates[0] = _make_date(dates[0].year - 1, dates[0].month, dates[0].day) or dates[0]
    return dates


def _sale_name(msg: Msg) -> str | None:
    name = _called(msg) or None
    if name:
        return name
    match = re.search(r"\bsale\s*[:\-]\s*(.+?)" + NAME_STOP, msg.low) or re.search(
        r"\b(?:create|add|start|set\s*up|launch|schedule|make|plan|run)\s+(?:an?|the)?\s*(?:new\s+)?(.+?)\s+sale\b",
        msg.low,
    )
    if not match:
        return None
    name = msg.raw[match.start(1) : match.end(1)].strip(" '")
    return name if name and not re.fullmatch(r"(?i)(?:new|a|an|the|\d+\s*%.*)", name) else None


def sale_fields(turn: Turn) -> dict:
    msg = turn.msg
    args: dict = {}
    name = _sale_name(msg)
    if name:
        args["name"] = name[:255]
    percent = re.search(r"(\d+(?:\.\d+)?)\s*(?:%|percent|per\s+cent|pct)", msg.low)
    if percent and float(percent.group(1)) <= 100:
        args["discount_percentage"] = _amount(percent.group(1))
    dates = sale_dates(turn)
    for key, value in zip(("start_date", "end_date"), dates, strict=False):
        args[key] = value.isoformat()
    if re.search(r"\bauto[\s-]?activat\w*|\bactivat\w*\s+automatically\b", msg.low):
        args["auto_activate"] = True
    description = re.search(r"\bdescription\s*(?:is|:|=)?\s*(.+)$", msg.low)
    if description:
        args["description"] = msg.raw[description.start(1) : description.end(1)].strip()[:1000]
    return args


# Addresses: "ship to Jane Doe, 12 Oak St, Springfield, IL 62701" ---------------------------------------------

STREET_SUFFIX = (
    r"(?:st|street|ave|avenue|rd|road|blvd|boulevard|ln|lane|dr|drive|way|ct|court|pl|place|ter|terrace|"
    r"pkwy|parkway|hwy|highway|cir|circle|sq|square|trl|trail|row|close|crescent|broadway)\.?"
)
STREET_RX = re.compile(r"^(?:\d+[a-z]?(?:-\d+)?\s+\S+\s+\S|p\.?\s*o\.?\s+box\b)", re.I)
ZIP = re.compile(r"\b(\d{5}(?:-\d{4})?)\b|\b([A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}|[A-Z]\d[A-Z]\s?\d[A-Z]\d)\b")
PHONE = re.compile(
    r"(?:\b(?:phone|tel|mobile|cell)(?:\s+number)?\s*(?:is|:)?\s*)(\+?\d[\d\s().-]{6,}\d)|"
    r"(\+?\b\d{1,2}[\s.-]?\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b|\(\d{3}\)\s?\d{3}[\s.-]\d{4}\b)",
    re.I,
)
LABELS = re.compile(
    r"\b(name|address|street|city|town|state|province|zip(?:\s*code)?|postal\s*code|postcode|country)"
    r"\s*(?:is|:|=)\s*([^,;\n]+)",
    re.I,
)
LABEL_KEYS = {"name": "shipping_name", "address": "shipping_address", "street": "shipping_address",
              "city": "shipping_city", "town": "shipping_city", "state": "shipping_state", "province": "shipping_state",
              "country": "shipping_country"}  # fmt: skip
NOT_NAMES = re.compile(
    r"^(?:yes|yeah|no|ok|okay|sure|thanks|thank you|please|cancel|checkout|check out|now|hi|hello|"
    r"done|go|continue|next|help|and|the|it|that|ready|pay|buy)$",
    re.I,
)
COURTESY = re.compile(r"(?i)\b(?:please|thanks|thank\s+you|thx|asap|cheers)\b")
CHECKOUT_WORDS = re.compile(r"(?i)\b(?:please|thanks|thank\s+you|and|ok|okay|now)\b|" + CHECKOUT.pattern)


def address_fields(msg: Msg, *, bare_name: bool) -> dict:
    """Shipping fields (and email / phone) found in the message."""
    text = msg.raw
    out: dict = {}
    if msg.emails:
        out["email"] = msg.emails[0]
        text = EMAIL.sub(" ", text)
        text = re.sub(r"(?i)\b(?:my\s+)?e-?mail(?:\s+address)?\s*(?:is|:)?\s*", " ", text)
    phone = PHONE.search(text)
    if phone:
        out["shipping_phone"] = (phone.group(1) or phone.group(2)).strip()[:30]
        text = text[: phone.start()] + " " + text[phone.end() :]
    labelled = _labelled(text)
    if len(labelled) >= 2:
        return {**out, **labelled}
    lead = SHIP_TO.search(text.lower())
    blob = text[lead.end() :] if lead else CHECKOUT_WORDS.sub(" ", text)
    blob = COURTESY.sub(" ", blob)
    name = re.search(r"(?i)\b(?:my\s+name\s+is|name\s*:)\s+([a-z][\w'.-]*(?:\s+[a-z][\w'.-]*){0,3})",
                     blob)  # fmt: skip
    if name:
        out["shipping_name"] = name.group(1).strip()
        blob = blob[: name.start()] + blob[name.end() :]
    parts = [p.strip(" .!") for p in re.split(r"[,;\n]+", blob) if p.strip(" .!")]
    out.update(_address_from_parts(parts, bare_name=bare_name or bool(lead)))
    return {k: v[: LIMITS.get(k, 255)] for k, v in out.items() if v}


LIMITS = {"shipping_address": 500, "shipping_city": 100, "shipping_state": 100, "shipping_zip": 20,
          "shipping_country": 50, "shipping_phone": 30}  # fmt: skip


def _labelled(text: str) -> dict:
    out = {}
    for label, value in LABELS.findall(text):
        key = LABEL_KEYS.get(label.lower().split()[0], "shipping_zip")
        out[key] = value.strip(" .")
    return out


def _address_from_parts(parts: list[str], *, bare_name: bool) -> dict:
    out: dict = {}
    zip_at = next((i for i in range(len(parts) - 1, -1, -1) if ZIP.search(parts[i])), None)
    head = list(parts)
    if zip_at is not None:
        part = parts[zip_at]
        match = list(ZIP.finditer(part))[-1]
        out["shipping_zip"] = match.group(0)
        after = ", ".join(filter(None, [part[match.end() :].strip(" ,"), *parts[zip_at + 1 :]]))
        if after:
            out["shipping_country"] = after
        before = part[: match.start()].strip(" ,")
        head = parts[:zip_at] + ([before] if before else [])
    if not head:
        return out
    head = _take_state(head, out, zip_found=zip_at is not None)
    head = _take_city(head, out)
    _take_name_and_street(head, out, bare_name=bare_name)
    return out


def _state_suffix(text: str) -> str | None:
    words = text.split()
    if words and words[-1].upper().strip(".") in US_STATES and (words[-1].isupper() or len(words) == 1):
        return words[-1].strip(".")
    for size in (3, 2, 1):
        tail = " ".join(words[-size:])
        if len(words) >= size and tail.lower() in STATE_NAMES:
            return tail
    return None


def _take_state(head: list[str], out: dict, *, zip_found: bool) -> list[str]:
    last = head[-1]
    state = _state_suffix(last)
    if state:
        out["shipping_state"] = state
        rest = last[: len(last) - len(state)].strip(" ,")
        return head[:-1] + ([rest] if rest else [])
    if zip_found and len(head) >= 3 and not STREET_RX.match(last):
        out["shipping_state"] = last
        return head[:-1]
    return head


def _take_city(head: list[str], out: dict) -> list[str]:
    if not head or "shipping_state" not in out and "shipping_zip" not in out:
        return head
    last = head[-1]
    if not STREET_RX.match(last) and (len(head) >= 2 or not re.search(r"\d", last)):
        out["shipping_city"] = last
        return head[:-1]
    split = re.search(r"^(.*?\b" + STREET_SUFFIX + r")\s+([A-Za-z][A-Za-z .'-]*)$", last, re.I)
    if split:
        out["shipping_city"] = split.group(2).strip()
        return head[:-1] + [split.group(1).strip()]
    return head


def _take_name_and_street(head: list[str], out: dict, *, bare_name: bool) -> None:
    street_at = next((i for i, p in enumerate(head) if STREET_RX.match(p)), None)
    if street_at is None:
        joined = next((i for i, p in enumerate(head) if re.search(r"\s(?:at\s+)?\d+[a-z]?\s+\S", p, re.I)), None)
        if joined is not None:
            name, street = re.split(r"\s+(?:at\s+)?(?=\d)", head[joined], maxsplit=1)
            head = head[:joined] + [name, street] + head[joined + 1 :]
            street_at = joined + 1
    if street_at is not None:
        out["shipping_address"] = ", ".join(head[street_at:])
        head = head[:street_at]
    name = " ".join(head).strip()
    if name and "shipping_name" not in out and _looks_like_name(name) and (bare_name or street_at is not None):
        out["shipping_name"] = name


def _looks_like_name(text: str) -> bool:
    words = text.split()
    if not 1 <= len(words) <= 5 or len(text) < 2 or NOT_NAMES.match(text):
        return False
    return all(re.fullmatch(r"[^\W\d_][\w'.-]*", w) and w.lower() not in NOISE for w in words)


# The engine ---------------------------------------------------------------------------------------------------


def _checked(result: Interpretation, turn: Turn) -> Interpretation:
    """Every planned call must pass the registry's schema check; the guard still decides permission."""
    for planned in result.calls:
        valid, error = validate_tool_call(planned.name, planned.arguments, True)
        if not valid:
            return ask(turn, f"I couldn't turn that into a valid request ({error}). Could you rephrase it?")
    return result


def _keep_checkout(result: Interpretation, turn: Turn) -> Interpretation:
    """A pending checkout waits until it is placed or cancelled, even across other questions."""
    pending = turn.pending
    used = any(c.name == "checkout_proceed" for c in result.calls) or "pending" in result.context
    cancelled = result.reply == "Okay, I've dropped that."
    if pending and pending.get("tool") == "checkout_proceed" and not used and not cancelled:
        result.context["pending"] = pending
    return result


def _interpret_one(message: str, context: dict | None, is_admin: bool) -> Interpretation:
    turn = Turn(message, context, is_admin)
    if not WORD.search(turn.msg.norm):
        return say(turn, "Hi! " + HELP_TEXT)
    for rule in RULES:
        result = rule(turn)
        if result is not None:
            return _keep_checkout(_checked(result, turn), turn)
    return _keep_checkout(h_fallback(turn), turn)


def _interpret_clauses(clauses: list[str], context: dict | None, is_admin: bool) -> Interpretation | None:
    """ "compare 1 and 2 then add 1 to cart": each clause in turn, when every clause is a tool call."""
    planned: list[PlannedCall] = []
    result = None
    for clause in clauses:
        result = _interpret_one(clause, context, is_admin)
        if not result.calls or result.follow_up:
            return None
        planned.extend(result.calls)
        context = result.context
    return Interpretation(calls=planned, context=result.context) if result else None


def interpret(message: str, context: dict | None = None, *, is_admin: bool = False) -> Interpretation:
    """Map one message (plus the previous turn's context) to tool calls, a reply, or a follow-up question.
    Pure: no DB, no network. is_admin never unlocks anything (admin requests are planned for everyone and the
    guard refuses them); it only adds admin examples to the help text and lets an admin's bare statement
    "order 9 has been shipped" mean a status change rather than a question."""
    clauses = [c for c in CLAUSE_SPLIT.split(message or "") if c and c.strip()]
    if len(clauses) > 1:
        combined = _interpret_clauses(clauses, context, is_admin)
        if combined is not None:
            return combined
    return _interpret_one(message, context, is_admin)
