"""Slot extractors for the longer requests: a review's rating, comment and name; a shipping address from free text."""

from __future__ import annotations

import re

from .message import Msg, _number
from .rule_words import CHECKOUT, EMAIL, NOISE, PRODUCT_REF, REVIEW_VERB, SHIP_TO, STATE_NAMES, US_STATES
from .turns import Turn

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
