"""The assistant's words and cards for the shopper servicing tools: spending figures with their citations, the
biggest receipt, period comparisons, and the shopper's own orders (cancel, refund status, return eligibility).
Every figure said is the tool's own; nothing matching is said as nothing (never a wider figure)."""

from __future__ import annotations

import calendar
from datetime import date

from .citation_links import citations_card

SHOWN = 3
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}


def money(total: str, currency: str | None) -> str:
    symbol = SYMBOLS.get(currency or "USD")
    return f"{symbol}{total}" if symbol else f"{currency} {total}"


def _day(text: str) -> str:
    value = date.fromisoformat(text)
    return f"{calendar.month_abbr[value.month]} {value.day}, {value.year}"


def period_words(date_from: str | None, date_to: str | None, today: date | None = None) -> str:
    """ "in March 2026", "in 2025", "since Jan 1, 2019", "from Mar 3, 2026 to Mar 9, 2026", or "" (all time)."""
    if not date_from and not date_to:
        return ""
    if date_from and not date_to:
        return f"since {_day(date_from)}"
    if date_to and not date_from:
        return f"up to {_day(date_to)}"
    start, end = date.fromisoformat(date_from), date.fromisoformat(date_to)
    today = today or date.today()
    same_month = (start.day, start.month, start.year) == (1, end.month, end.year)
    if same_month and (end.day == calendar.monthrange(end.year, end.month)[1] or end == today):
        return f"in {calendar.month_name[start.month]} {start.year}"
    whole_year = (start.month, start.day) == (1, 1) and start.year == end.year
    if whole_year and ((end.month, end.day) == (12, 31) or end == today):
        return f"in {start.year}"
    if start == end:
        return f"on {_day(date_from)}"
    return f"from {_day(date_from)} to {_day(date_to)}"


def _what(scope: dict) -> str:
    """ "on coffee", "on Beverages", "at Starbucks", or "" — the scope in a shopper's words."""
    parts = []
    if scope.get("item"):
        parts.append(f"on {scope['item']}")
    elif scope.get("category"):
        parts.append(f"on {scope['category']}")
    if scope.get("merchant"):
        parts.append(f"at {scope['merchant']}")
    return " ".join(parts)


def _scope_words(scope: dict) -> str:
    return " ".join(filter(None, (_what(scope), period_words(scope.get("date_from"), scope.get("date_to")))))


def _source_phrase(source: dict) -> str:
    """ "$4.50 Caffe Latte at Starbucks on 2026-03-02 [starbucks.txt, line 4] (unverified, 62% confidence)" """
    from .replies import trust_note

    label = "" if source["field"] == "total_amount" else f" {source['label']}"
    where = " from your InsightShop order" if source.get("method") == "order_record" else (
        f" at {source['merchant']}" if source.get("merchant") else "")  # fmt: skip
    when = f" on {source['purchase_date']}" if source.get("purchase_date") else ""
    cited = f"{money(source['value'], source['currency'])}{label}{where}{when} {source['citation']}"
    return cited + trust_note(source)


def _totals(by_currency: list[dict]) -> str:
    return " and ".join(money(row["total"], row["currency"]) for row in by_currency)


def _units(measure: str, count: int) -> str:
    noun = "item line" if measure == "items" else "receipt"
    return f"{count} {noun}{'' if count == 1 else 's'}"


def spending_sentence(data: dict) -> str:
    scope = _scope_words(_named(data["scope"], data["sources"]))
    if not data["count"]:
        return f"You spent $0.00 {scope}".rstrip() + ": nothing on your receipts matches that."
    sources = data["sources"][:SHOWN]
    more = f" (and {data['count'] - SHOWN} more)" if data["count"] > SHOWN else ""
    cited = "; ".join(_source_phrase(s) for s in sources) + f"{more}."
    spent = f"You spent {_totals(data['by_currency'])} {scope}".rstrip()
    if data.get("groups"):
        groups = ", ".join(f"{g['key']} {money(g['total'], g['currency'])}" for g in data["groups"][:8])
        return f"{spent}. By {data.get('group_by') or 'group'}: {groups}. From {_units(data['measure'], data['count'])}: {cited}"
    return f"{spent}, from {_units(data['measure'], data['count'])}: {cited}"


def extreme_sentence(data: dict) -> str:
    scope = _scope_words(_named(data["scope"], [data["found"]] if data["found"] else []))
    found = data["found"]
    if found is None:
        return f"Nothing on your receipts matches that{' (' + scope + ')' if scope else ''}, so there is no {data['which']} one."
    what = "purchase" if data["measure"] == "items" else "receipt"
    count = f"{data['count']} {what}{'' if data['count'] == 1 else 's'}"
    return f"Your {data['which']} {what} {scope}".rstrip() + f" is {_source_phrase(found)}, out of {count}."


def compare_sentence(data: dict) -> str:
    periods = data["periods"]
    said = [f"{_totals(p['by_currency']) if p['count'] else '$0.00'} {period_words(p['date_from'], p['date_to'])} "
            f"({_units(data['measure'], p['count'])})" for p in periods]  # fmt: skip
    what = _what(_named(data["scope"], [s for p in periods for s in p["sources"]]))
    text = f"You spent {what + ': ' if what else ''}" + "; ".join(said) + "."
    change = (periods[0].get("change") or [None])[0]
    earlier = period_words(periods[1]["date_from"], periods[1]["date_to"]) if len(periods) > 1 else ""
    if change and change["difference"] not in ("0.00", "-0.00"):
        direction = "less" if change["difference"].startswith("-") else "more"
        percent = f" ({change['percent'].lstrip('-')}%)" if change.get("percent") else ""
        amount = money(change["difference"].lstrip("-"), change["currency"])
        text += f" That's {amount}{percent} {direction} than {earlier}."
    elif change:
        text += f" That's the same as {earlier}."
    cited = [s for p in periods for s in p["sources"][:2]]
    if cited:
        text += " Sources: " + "; ".join(_source_phrase(s) for s in cited[:4]) + "."
    return text


def _named(scope: dict, sources: list[dict]) -> dict:
    """The scope with the merchant as its receipts print it ("starbucks" → "Starbucks")."""
    wanted = (scope.get("merchant") or "").lower()
    printed = next((s["merchant"] for s in sources if wanted and wanted in (s.get("merchant") or "").lower()), None)
    return scope | {"merchant": printed} if printed else scope


def _order_words(order: dict) -> str:
    count = order.get("item_count", 0)
    return f"order #{order['id']} ({count} item{'' if count == 1 else 's'}, {money(order['total'], order['currency'])})"


def cancel_sentence(data: dict) -> str:
    refund = (
        f" Your payment of {money(data['refunded'], data['order']['currency'])} is refunded."
        if data["refunded"]
        else ""
    )
    return f"Done: {_order_words(data['order'])} is cancelled and its items are back in stock.{refund}"


REFUND_STATES = {
    "return_requested": "Your return request #{rid} for {order} is waiting for review; the refund is paid once it's approved.",
    "return_approved": "Your return #{rid} for {order} was approved and {amount} was refunded to your original payment method.",
    "return_rejected": "Your return request #{rid} for {order} was declined, so there is no refund for it.",
    "cancelled_refunded": "{Order} was cancelled and {refunded} was refunded to your original payment method.",
    "cancelled_unpaid": "{Order} was cancelled before it was paid, so nothing was charged and there is nothing to refund.",
    "none": "There is no return or refund on {order}: it is {status}.",
}


def refund_sentence(data: dict) -> str:
    order = data["order"]
    latest = data["returns"][0] if data["returns"] else {}
    words = _order_words(order)
    return REFUND_STATES[data["state"]].format(
        rid=latest.get("id"),
        order=words,
        Order=words[0].upper() + words[1:],
        status=order["status"],
        amount=money(latest.get("refund_amount", "0.00"), order["currency"]),
        refunded=money(data["refunded"], order["currency"]),
    )


def eligibility_sentence(data: dict) -> str:
    words, until = _order_words(data["order"]), data["until"] and _day(data["until"])
    days = data["window_days"]
    return {
        "within_window": f"Yes — you can still return {words} until {until} ({days} days from delivery).",
        "window_closed": f"No — the {days}-day return window for {words} closed on {until}.",
        "not_delivered": f"Not yet — {words} is {data['order']['status']}; returns open once it's delivered, "
                         f"for {days} days.",
        "cancelled": f"No — {words} was cancelled, so there is nothing to return.",
        "all_returned": f"No — everything in {words} has already been returned or is being returned.",
    }[data["reason"]]  # fmt: skip


SENTENCES = {
    "receipts_spending": spending_sentence,
    "receipts_extreme": extreme_sentence,
    "receipts_compare": compare_sentence,
    "order_cancel_mine": cancel_sentence,
    "order_refund_status": refund_sentence,
    "order_return_eligibility": eligibility_sentence,
}


# Cards ---------------------------------------------------------------------------------------------------------------


def _source_links(sources: list[dict]) -> dict | None:
    return citations_card([{"text": s.get("citation"), "url": s.get("url")} for s in sources if isinstance(s, dict)])


def order_card(data: dict, title: str, note: str | None = None) -> dict:
    order = data["order"]
    lines = [{"label": f"{i['quantity']} × {i['name']} ({i['color']}, {i['size']})", "value": f"${i['line_total']}"}
             for i in order.get("items", [])]  # fmt: skip
    lines.append({"label": "Total", "value": money(order["total"], order["currency"])})
    return {"type": "figures", "title": f"Order #{order['id']} · {title}", "lines": lines, "note": note,
            "link": {"text": "View order", "url": f"/orders/{order['id']}"}}  # fmt: skip


CARDS = {
    "receipts_spending": lambda d: _source_links(d.get("sources") or []),
    "receipts_extreme": lambda d: _source_links([d["found"]] if d.get("found") else []),
    "receipts_compare": lambda d: _source_links([s for p in d.get("periods") or [] for s in p.get("sources") or []]),
    "order_cancel_mine": lambda d: order_card(d, "Cancelled", d["refunded"] and f"Refunded ${d['refunded']}"),
    "order_refund_status": lambda d: order_card(d, d["order"]["status"].capitalize(), refund_sentence(d)),
    "order_return_eligibility": lambda d: order_card(d, d["order"]["status"].capitalize(), eligibility_sentence(d)),
}


def cancel_summary(arguments: dict, actor) -> str:
    """The confirmation card's words: exactly which order, its lines and what happens to the money."""
    from ..services import order_servicing
    from ..services.errors import DomainError

    try:
        order = order_servicing.my_order(actor, arguments.get("order_id"))
    except DomainError:
        return "Cancel your order."
    items = ", ".join(f"{i.quantity} × {i.name} ({i.color}, {i.size})" for i in order.items)
    refund = f" The {money(f'{order.total:.2f}', order.currency)} you paid is refunded." if order.is_paid else ""
    return f"Cancel order #{order.id} ({items}; total {money(f'{order.total:.2f}', order.currency)}).{refund}"
