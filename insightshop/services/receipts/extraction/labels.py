"""Stage 2a — labels: the words that say what an amount is (TOTAL, SUBTOTAL, GST, ROUNDING, CASH, CHANGE …).

Phrases come from vocabulary.LABELS and are matched word by word, longest first, left to right.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import vocabulary
from .normalise import WORD, Line, Word


@dataclass(frozen=True)
class Label:
    kind: str
    line: int
    start: int
    end: int


def _phrase_words(phrase: str) -> tuple[str, ...]:
    return tuple(WORD.findall(phrase))


def _phrase_table() -> dict[str, list[tuple[tuple[str, ...], str]]]:
    table: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for kind, phrases in vocabulary.LABELS.items():
        for phrase in phrases:
            words = _phrase_words(phrase)
            table.setdefault(words[0], []).append((words, kind))
    for entries in table.values():
        entries.sort(key=lambda entry: -len(entry[0]))
    return table


PHRASES = _phrase_table()
LEXICON = frozenset(word for entries in PHRASES.values() for words, _ in entries for word in words)


def find_labels(line: Line) -> tuple[Label, ...]:
    """The label phrases on a line, left to right (overlaps resolved in favour of the longer phrase)."""
    found, i = [], 0
    while i < len(line.words):
        match = _longest_at(line.words, i)
        if match is None:
            i += 1
            continue
        size, kind = match
        found.append(Label(kind, line.index, line.words[i].start, line.words[i + size - 1].end))
        i += size
    return tuple(found)


def _longest_at(words: tuple[Word, ...], i: int) -> tuple[int, str] | None:
    for phrase, kind in PHRASES.get(words[i].text, ()):
        size = len(phrase)
        if tuple(word.text for word in words[i : i + size]) == phrase:
            return size, kind
    return None
