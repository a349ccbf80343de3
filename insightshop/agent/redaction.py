"""Secrets never leave the shop in a chat message: passwords, card numbers and tokens are replaced by [redacted]
before a message is stored or sent to a model service."""

from __future__ import annotations

import re

REDACTED = "[redacted]"
_PASSWORD = re.compile(r"\b((?:pass(?:word|code|phrase)?|pwd|pin)\b\s*(is\b|was\b|:|=)?\s*)([^\s,.;!?]\S*)", re.I)
_SECRET_WORD = re.compile(r"\b((?:api[ _-]?key|secret|token|bearer)\b\s*(?:is|:|=)?\s*)(\S{6,})", re.I)
_JWT = re.compile(r"\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]{5,}")
_KEY = re.compile(r"\b(?:sk|pk|rk)[-_](?:ant[-_]|live[-_]|test[-_])?[\w-]{12,}")
_CARD = re.compile(r"(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)")
_CVC = re.compile(r"\b((?:cvc|cvv|cvv2|security code)\b\s*(?:is|:|=)?\s*)\d{3,4}\b", re.I)


def redact(text: str) -> str:
    """The text with passwords, card numbers, CVCs, bearer tokens and API keys replaced by [redacted]."""
    text = _JWT.sub(REDACTED, text)
    text = _KEY.sub(REDACTED, text)
    text = _PASSWORD.sub(_password, text)
    text = _SECRET_WORD.sub(lambda m: m.group(1) + REDACTED, text)
    text = _CVC.sub(lambda m: m.group(1) + REDACTED, text)
    return _CARD.sub(lambda m: REDACTED if _luhn(m.group(0)) else m.group(0), text)


def _password(match: re.Match) -> str:
    # "password is x", "pwd: x", "password hunter2" — but "password reset" is a question, not a secret.
    said, token = match.group(2), match.group(3)
    if said or not token.isalpha():
        return match.group(1) + REDACTED
    return match.group(0)


def _luhn(candidate: str) -> bool:
    """A card number (Luhn check), not an order number or a phone number that happens to be long."""
    digits = [int(c) for c in candidate if c.isdigit()]
    if not 13 <= len(digits) <= 19:
        return False
    total = 0
    for index, digit in enumerate(reversed(digits)):
        if index % 2:
            digit = digit * 2 - 9 if digit > 4 else digit * 2
        total += digit
    return total % 10 == 0
