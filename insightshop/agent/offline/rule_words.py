"""The phrase rules' vocabulary and regular expressions: numbers, sizes, sorts, prices, ids, and the cue words of each
handler."""

from __future__ import annotations

import re

from ...services.search_terms import CATEGORY_WORDS, NOT_ABOVE, STOPWORDS, SYNONYMS
from ...services.vocabulary import CLOTHING_TYPES

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
    left remaining leftover
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
