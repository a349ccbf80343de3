"""Slot extractors for admin requests: a product's fields, updates, order searches and a sale's dates and name."""

from __future__ import annotations

import re
from datetime import date

from ...services.vocabulary import SIZES, normalise_color, normalise_size
from .message import Msg, _amount, _blank, _category, normalise
from .rule_words import AMOUNT, MONEY, MONTHS, ORDER_STATUSES, PRODUCT_REF, STATUS_RX, WORD
from .turns import Turn


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
    r"(?=\s*(?:,|;|:(?:\s|$)|\.(?:\s|$)|$|\s+(?:for|at|priced|costing|in|with|under|category|price|from|starting|"
    r"running|giving|offering|that|which|-)\b|\s+\d+(?:\.\d+)?\s*%))"
)


def _called(msg: Msg, extra: str = "") -> str | None:
    quoted = re.search(r"\"([^\"]+)\"", msg.raw)
    if quoted:
        return quoted.group(1).strip()
    match = re.search(r"\b(?:called|named|titled)\s+(.+?)" + NAME_STOP + extra, msg.low)
    return msg.raw[match.start(1) : match.end(1)].strip(" '") if match else None


def _product_name(msg: Msg) -> str | None:
    match = re.search(r"\b(?:product|prodcut|(?:new\s+)?item\s*:|listing\s*:)\s*[:\-]?\s+"
                      r"(?!called\b|named\b|titled\b|for\b|with\b|in\b|at\b)([a-z].+?)"
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
