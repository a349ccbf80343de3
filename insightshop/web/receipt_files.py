"""Serving a receipt's own file to its owner: never as the shop's origin content (no scripts, no sniffing)."""

from __future__ import annotations

from pathlib import Path

from flask import send_file

from ..models.receipts import Receipt

INLINE_TYPES = ("image/jpeg", "image/png", "image/webp", "application/pdf")


def file_response(path: Path, receipt: Receipt):
    """The stored bytes with the type the shop detected; text and anything else download instead of rendering."""
    inline = receipt.content_type in INLINE_TYPES
    response = send_file(path, mimetype=receipt.content_type, as_attachment=not inline,
                         download_name=receipt.original_filename, max_age=0, conditional=True)  # fmt: skip
    response.headers["Content-Security-Policy"] = (
        "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'"
    )
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
    return response
