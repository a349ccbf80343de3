"""Plain-text receipts: decoded (UTF-8, else Windows-1252/Latin-1), cleaned, one line per non-empty line."""

from __future__ import annotations

import codecs
import re
import unicodedata

from ..document import ReceiptDocument
from .errors import UnsupportedDocument

_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # C0/C1 controls except tab and newline
_BINARY_SHARE = 0.10  # more control characters than this share (and a few) and the bytes are not a text file
_BINARY_MIN_CONTROLS = 3


def read_text(data: bytes) -> ReceiptDocument:
    """A text file as it is: one TextLine per non-empty line, trailing spaces dropped."""
    text = clean_text(decode_text(data))
    return ReceiptDocument.from_lines([line.rstrip() for line in text.split("\n") if line.strip()], source="text")


def decode_text(data: bytes) -> str:
    """The bytes as text: UTF-16 or UTF-8 (BOM stripped), else Windows-1252, else Latin-1; binary is refused."""
    if data.startswith(_UTF16_BOMS):
        text = _decode_utf16(data)
    elif b"\x00" in data:
        raise _not_text()
    else:
        text = _decode_8bit(data)
    if _looks_binary(text):
        raise _not_text()
    return text


def clean_text(text: str) -> str:
    """Line ends normalised to \\n, control characters other than tab and newline removed, NFC composed."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return unicodedata.normalize("NFC", _CONTROL.sub("", text))


def _decode_utf16(data: bytes) -> str:
    try:
        return data.decode("utf-16")  # the codec reads and strips the BOM
    except UnicodeDecodeError:
        raise _not_text() from None


def _decode_8bit(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError:  # the five bytes Windows-1252 leaves undefined
        return data.decode("latin-1")


def _looks_binary(text: str) -> bool:
    controls = sum(1 for char in text if unicodedata.category(char) == "Cc" and char not in "\t\n\r")
    return controls > max(_BINARY_MIN_CONTROLS, _BINARY_SHARE * len(text))


def _not_text() -> UnsupportedDocument:
    return UnsupportedDocument(
        "This file is neither a receipt image (JPEG, PNG, WebP), a PDF nor a text file.", detected="binary"
    )
