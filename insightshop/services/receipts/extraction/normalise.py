"""Stage 1 — normalise: each line in forms that keep every character's position, so a span found in any form is a
span of the line as printed (the evidence of a value points at the exact characters).

  upper  the text upper-cased
  key    for words: digits that OCR put inside words become letters (T0TAL -> TOTAL, 5UBTOTAL -> SUBTOTAL)
  num    for numbers: letters that OCR put inside numbers become digits (9.O0 -> 9.00, 1O/12/2018 -> 10/12/2018)
  words  the words of the key form, each corrected to a known label word when one letter away (CHANGES -> CHANGE)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ..document import ReceiptDocument

WORD = re.compile(r"[^\W_]+")  # letters (any script) and digits
LETTERS_FOR_DIGITS = str.maketrans("0158", "OISB")
DIGITS_FOR_LETTERS = {"O": "0", "D": "0", "I": "1", "L": "1", "|": "1", "S": "5", "B": "8"}
LOOSE_DIGIT_LETTERS = frozenset("OI|")  # these become digits next to one digit; S, B, D and L need digits both sides
NUMBER_PUNCTUATION = "./,:-"  # inside amounts, dates and times
AFTER_MARKER = re.compile(r"(?:(?<=RM)|(?<=[$€£]))[OISBL](?=[\d.,])|(?:(?<=RM )|(?<=[$€£] ))[OISBL](?=[.,]\d)")
SECOND_DECIMAL_LETTERS = frozenset("SOB")
MIN_FUZZY_LENGTH = 5


@dataclass(frozen=True)
class Word:
    text: str  # the word as a known label word when it is one (or one letter away from one)
    start: int
    end: int


@dataclass(frozen=True)
class Line:
    index: int
    text: str
    upper: str
    key: str
    num: str
    words: tuple[Word, ...]

    @property
    def has_letters(self) -> bool:
        return any(c.isalpha() for c in self.text)


def normalise(document: ReceiptDocument, lexicon: frozenset[str]) -> tuple[Line, ...]:
    """The document's lines in the position-keeping forms, words corrected against the label lexicon."""
    return tuple(normalise_line(line.index, line.text, lexicon) for line in document.lines)


def normalise_line(index: int, text: str, lexicon: frozenset[str]) -> Line:
    upper = upper_same_length(text)
    key = letters_in_words(upper)
    words = tuple(Word(correct_word(m.group(), lexicon), m.start(), m.end()) for m in WORD.finditer(key))
    return Line(index=index, text=text, upper=upper, key=key, num=digits_in_numbers(upper), words=words)


DASHES = str.maketrans("\u2212\u2013", "--")  # a minus sign or an en dash before an amount is a minus: "−$30.00"


def upper_same_length(text: str) -> str:
    """Upper case without changing the length (ß stays ß rather than becoming SS)."""
    return "".join(c if len(c.upper()) != 1 else c.upper() for c in text).translate(DASHES)


def letters_in_words(upper: str) -> str:
    """Digits inside mostly-letter words read as the letters they resemble."""

    def fix(match: re.Match) -> str:
        word = match.group()
        digits = sum(c in "0123456789" for c in word)
        if digits and len(word) - digits > digits:
            return word.translate(LETTERS_FOR_DIGITS)
        return word

    return WORD.sub(fix, upper)


def digits_in_numbers(upper: str) -> str:
    """Letters inside numbers read as the digits they resemble: where a digit is beside them and no letter, as the
    second decimal ("63.3S"), or as the first digit after a currency marker ("RMI.38")."""
    chars = list(upper)
    for i, c in enumerate(upper):
        if c in DIGITS_FOR_LETTERS and (
            _between_digits(upper, i, loose=c in LOOSE_DIGIT_LETTERS) or _second_decimal(upper, i)
        ):
            chars[i] = DIGITS_FOR_LETTERS[c]
    return AFTER_MARKER.sub(lambda m: DIGITS_FOR_LETTERS[m.group()], "".join(chars))


def _second_decimal(text: str, i: int) -> bool:
    if text[i] not in SECOND_DECIMAL_LETTERS:
        return False  # "1.5L" is a litre and a half
    after = text[i + 1] if i + 1 < len(text) else " "
    return (
        i >= 2
        and text[i - 2] in ".,"
        and text[i - 1].isdigit()
        and not after.isalnum()
        and (i < 3 or text[i - 3].isdigit())
    )


def _between_digits(text: str, i: int, *, loose: bool) -> bool:
    before = text[i - 1] if i > 0 else " "
    after = text[i + 1] if i + 1 < len(text) else " "
    if before.isalpha() or after.isalpha():
        return False
    digit_before = before.isdigit() or (before in NUMBER_PUNCTUATION and i > 1 and text[i - 2].isdigit())
    digit_after = after.isdigit() or (after in NUMBER_PUNCTUATION and i + 2 < len(text) and text[i + 2].isdigit())
    if loose:
        return digit_before or digit_after
    return digit_before and digit_after


@lru_cache(maxsize=8192)
def correct_word(word: str, lexicon: frozenset[str]) -> str:
    """The lexicon word one edit away from a long unknown word (OCR noise), else the word itself. The first letter
    must agree: GROUND is not ROUND."""
    if word in lexicon or len(word) < MIN_FUZZY_LENGTH or word.isdigit():
        return word
    for known in lexicon:
        if known[0] == word[0] and len(known) >= MIN_FUZZY_LENGTH and one_edit_apart(word, known):
            return known
    return word


def one_edit_apart(a: str, b: str) -> bool:
    """True when a and b differ by exactly one substitution, insertion or deletion."""
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1 :] == b[i + 1 :] and i < len(a)
    return a[i:] == b[i + 1 :]
