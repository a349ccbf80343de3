"""The receipts and orders acts' words (data/lexicons/service_words.json), matched as whole words or phrases, a
single long word also when misspelt ("cancle", "bigest"). Entity helpers only: what to do is the act's choice."""

from __future__ import annotations

import json
import re
from difflib import SequenceMatcher
from functools import cache
from pathlib import Path

LEXICON = Path(__file__).resolve().parent.parent / "data" / "lexicons" / "service_words.json"
TYPO_RATIO = 0.86
MIN_TYPO_LENGTH = 5


@cache
def words() -> dict:
    return {k: v for k, v in json.loads(LEXICON.read_text()).items() if not k.startswith("_")}


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9$%'.-]+|#\d+", text.lower())


def expand(text: str) -> str:
    """Shorthand written out ("this yr" → "this year", "reciepts" → "receipts")."""
    table = words()["shorthand"]
    return re.sub(r"[A-Za-z.]+", lambda m: table.get(m.group(0).lower(), m.group(0)), text)


def has(text: str, name: str) -> bool:
    """Whether the text says one of the lexicon's phrases under `name` (a long word also with a typo)."""
    return bool(found(text, name))


def found(text: str, name: str) -> list[str]:
    """The lexicon's phrases under `name` the text says, in the lexicon's order."""
    low = " " + " ".join(tokens(text)).replace("'", "") + " "
    said = tokens(low)
    hits = []
    for phrase in words()[name]:
        wanted = phrase.replace("'", "")
        if f" {wanted} " in low or (" " not in wanted and len(wanted) >= MIN_TYPO_LENGTH and _near(wanted, said)):
            hits.append(phrase)
    return hits


def _near(word: str, said: list[str]) -> bool:
    return any(
        abs(len(token) - len(word)) <= 1 and SequenceMatcher(None, token, word).ratio() >= TYPO_RATIO
        for token in said
        if len(token) >= MIN_TYPO_LENGTH
    )


def starts_with(text: str, name: str) -> bool:
    low = " ".join(tokens(text))
    return any(low == lead or low.startswith(lead + " ") for lead in words()[name])
