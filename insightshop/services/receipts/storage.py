"""Receipt files on disk: outside static/, under random names, read back only through the owner's receipt."""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

from flask import current_app

from ..errors import NotFound
from .reading.sniff import sniff_kind

# The kinds an upload may be (told from its bytes by the reader's sniffing, never from the name or declared type).
STORED_KINDS = {
    "pdf": ("application/pdf", ".pdf"),
    "jpeg": ("image/jpeg", ".jpg"),
    "png": ("image/png", ".png"),
    "webp": ("image/webp", ".webp"),
    "text": ("text/plain", ".txt"),
}


def storage_dir() -> Path:
    configured = current_app.config.get("RECEIPT_STORAGE_DIR")
    return Path(configured) if configured else Path(current_app.instance_path) / "receipts"


# Markup is text too, but a browser would run it: an SVG or HTML "photo" is refused, never stored.
MARKUP = re.compile(rb"^\s*(?:\xef\xbb\xbf)?\s*<(?:\?xml|!doctype|html|svg|head|body|script|iframe|object|embed)\b"
                    rb"|<script\b|<svg\b|<iframe\b|\bjavascript:", re.I)


def detect_type(data: bytes) -> tuple[str, str] | None:
    """(content type, extension) of the bytes, or None when they are no receipt format the shop reads."""
    kind = sniff_kind(data)
    if kind == "text" and (not _looks_like_text(data[:4096]) or MARKUP.search(data[:4096])):
        return None
    return STORED_KINDS.get(kind)


def _looks_like_text(head: bytes) -> bool:
    if not head or b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(head) - 3:  # a multi-byte character cut at the end of the sample is fine
            try:
                head.decode("cp1252")
            except UnicodeDecodeError:
                return False
    printable = sum(byte >= 32 or byte in (9, 10, 13) for byte in head)
    return printable / len(head) > 0.95


def save_file(data: bytes, extension: str) -> str:
    """Write the bytes under a fresh random name; returns that name."""
    folder = storage_dir()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    name = secrets.token_hex(16) + extension
    path = folder / name
    with open(path, "xb") as handle:  # x: never overwrite
        handle.write(data)
    os.chmod(path, 0o600)
    return name


def file_path(stored_name: str) -> Path:
    """The path of a stored file; NotFound when it is gone. Names come from the database, never from a URL."""
    path = storage_dir() / Path(stored_name).name
    if not path.is_file():
        raise NotFound("The receipt's file is no longer stored")
    return path


def read_file(stored_name: str) -> bytes:
    return file_path(stored_name).read_bytes()


def delete_file(stored_name: str | None) -> None:
    if stored_name:
        (storage_dir() / Path(stored_name).name).unlink(missing_ok=True)
