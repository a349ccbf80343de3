"""What a file really is, from its first bytes (magic numbers); the declared content type is never trusted."""

from __future__ import annotations

from typing import Literal

Kind = Literal["pdf", "jpeg", "png", "webp", "text"]

READABLE_IMAGES = {"jpeg": "JPEG", "png": "PNG", "webp": "WEBP"}  # kind → Pillow format name

# Kinds recognised only to say clearly what was sent; none of them is read.
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\xff\xd8\xff", "jpeg"),
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
    (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"),
    (b"PK\x03\x04", "zip"),
    (b"PK\x05\x06", "zip"),
    (b"\x1f\x8b", "gzip"),
    (b"Rar!\x1a\x07", "rar"),
    (b"7z\xbc\xaf\x27\x1c", "7z"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "ole"),  # old Microsoft Office documents
)
_HEIF_BRANDS = {b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"}
_PDF_SEARCH_WINDOW = 1024  # readers accept "%PDF-" anywhere in the first kilobyte


def sniff_kind(data: bytes) -> str:
    """The kind of the file judged by its bytes: a readable Kind, or the name of an unsupported one."""
    if b"%PDF-" in data[:_PDF_SEARCH_WINDOW]:
        return "pdf"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[4:8] == b"ftyp":
        return _iso_media_kind(data[8:12])
    if data[:2] == b"BM" and data[6:10] == b"\x00\x00\x00\x00":  # "BM" alone could start a text file
        return "bmp"
    for signature, kind in _SIGNATURES:
        if data.startswith(signature):
            return kind
    return "text"  # a candidate only: the text reader refuses bytes that do not decode to text


def _iso_media_kind(brand: bytes) -> str:
    if brand in _HEIF_BRANDS:
        return "heic"
    if brand in (b"avif", b"avis"):
        return "avif"
    return "video"
