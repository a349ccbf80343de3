"""Receipt files: kept in the database (every app server and receipt worker reads the same bytes), under random
names, read back only through the owner's receipt. A machine's storage folder (outside static/) holds copies
written when a file is first served or read there; files stored on disk before the database kept them still work."""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

from flask import current_app

from ...extensions import db
from ...models.receipts import ReceiptFile
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
MARKUP = re.compile(
    rb"^\s*(?:\xef\xbb\xbf)?\s*<(?:\?xml|!doctype|html|svg|head|body|script|iframe|object|embed)\b"
    rb"|<script\b|<svg\b|<iframe\b|\bjavascript:",
    re.I,
)


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
    """Add the bytes under a fresh random name to the session (the caller's commit keeps them); returns the name."""
    name = secrets.token_hex(16) + extension
    db.session.add(ReceiptFile(stored_name=name, content=data))
    return name


def file_path(stored_name: str) -> Path:
    """A local path holding the stored file (copied from the database on first use on this machine); NotFound when
    it is gone. Names come from the database, never from a URL."""
    path = _local_path(stored_name)
    if path.is_file():
        return path
    data = _stored_bytes(stored_name)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    partial = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    with open(partial, "xb") as handle:  # x: never overwrite; the rename makes the copy appear whole
        handle.write(data)
    os.chmod(partial, 0o600)
    os.replace(partial, path)
    return path


def read_file(stored_name: str) -> bytes:
    """The stored file's bytes."""
    path = _local_path(stored_name)
    return path.read_bytes() if path.is_file() else _stored_bytes(stored_name)


def delete_file(stored_name: str | None) -> None:
    """Forget the file: its row (committed by the caller) and this machine's copy."""
    if stored_name:
        stored = db.session.get(ReceiptFile, Path(stored_name).name)
        if stored is not None:
            db.session.delete(stored)
        _local_path(stored_name).unlink(missing_ok=True)


def _local_path(stored_name: str) -> Path:
    return storage_dir() / Path(stored_name).name


def _stored_bytes(stored_name: str) -> bytes:
    stored = db.session.get(ReceiptFile, Path(stored_name).name)
    if stored is None:
        raise NotFound("The receipt's file is no longer stored")
    return stored.content
