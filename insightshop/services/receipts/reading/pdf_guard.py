"""PDF decompression bombs: every stream's decoded size is measured, with caps, before anything inflates it.

A PDF stream can be compressed by a chain of filters; each /FlateDecode can expand its input about 1,000 times,
so a chain of two turns a kilobyte into a gigabyte. pdfminer inflates whatever a stream declares, all at once,
and so would PDFium when it renders a page. Here:

- a chain may hold at most one expanding filter (Flate, LZW or RunLength); ASCII encodings around it are fine;
- each stream is inflated here first, incrementally, with zlib's max_length (never more than the cap in memory):
  a stream that would decode to more than MAX_STREAM_BYTES, or to more than MAX_RATIO times its size once past
  RATIO_FLOOR_BYTES, is refused, and so is a document whose streams decode to more than MAX_TOTAL_BYTES;
- images drawn on a page may have at most MAX_IMAGE_PIXELS pixels (PDFium decodes them when it renders), and so
  may the images of one page together (image objects, those in its forms, and inline images BI … ID … EI in its
  content streams); the images of the whole document at most MAX_DOCUMENT_IMAGE_PIXELS;
- an object that cannot be loaded is refused: it could not be measured, and PDFium may repair and render it.

scan(data) walks every object of the file before it is read (object streams are decoded through the same guard),
then every page's images, and pdfminer's own decoding is guarded too, so no path inflates a stream unchecked.
"""

from __future__ import annotations

import contextvars
import io
import itertools
import re
import zlib
from dataclasses import dataclass

from .errors import UnreadableDocument
from .images import MAX_IMAGE_PIXELS

MAX_PAGE_IMAGE_PIXELS = MAX_IMAGE_PIXELS  # all images drawn on one page
MAX_DOCUMENT_IMAGE_PIXELS = 4 * MAX_IMAGE_PIXELS  # all images of the document (ten A4 pages at 600 dpi fit)
_PAGES_CHECKED = 11  # past 10 pages the PDF is refused anyway (pdf.MAX_PAGES)
_FORM_DEPTH = 8
_INLINE_IMAGE = re.compile(rb"(?<![^\s\[\]{}()<>/%])BI\s(.*?)\sID[\s]", re.DOTALL)
_INLINE_NUMBER = {key: re.compile(rb"/" + key + rb"\s*([0-9.]+)") for key in (rb"Width", rb"W", rb"Height", rb"H")}

MAX_STREAM_BYTES = 32 * 1024 * 1024  # an A4 page scanned at 300 dpi in colour, uncompressed, is 26 MB
MAX_TOTAL_BYTES = 128 * 1024 * 1024
MAX_RATIO = 500  # decoded / encoded, checked once a stream has decoded past RATIO_FLOOR_BYTES (a clean white
RATIO_FLOOR_BYTES = 8 * 1024 * 1024  # scan compresses far less; a run of zeros near deflate's limit of ~1,000)
_CHUNK = 64 * 1024

_EXPANDING = {"FlateDecode", "Fl", "LZWDecode", "LZW", "RunLengthDecode", "RL"}
_ASCII85 = {"ASCII85Decode", "A85"}
_ASCIIHEX = {"ASCIIHexDecode", "AHx"}


class DocumentBomb(UnreadableDocument):
    """A PDF whose streams decode to far more than a receipt can hold."""

    def __init__(self, detail: str):
        super().__init__(
            "This PDF expands to far more data than a receipt holds (it may be a compression bomb), so it was not "
            f"read: {detail}. Please upload the receipt as a photo or a normal PDF.",
            reason="decompression_bomb",
        )


@dataclass
class _Budget:
    total: int = 0
    tripped: DocumentBomb | None = None


_budget: contextvars.ContextVar[_Budget | None] = contextvars.ContextVar("pdf_inflation_budget", default=None)


class guarded_reading:
    """`with guarded_reading():` counts every stream decoded inside it against MAX_TOTAL_BYTES (one document);
    on leaving, a cap hit anywhere inside (even if a library swallowed the exception) is raised."""

    def __enter__(self) -> _Budget:
        install()
        self.budget = _Budget()
        self.token = _budget.set(self.budget)
        return self.budget

    def __exit__(self, kind, error, traceback) -> None:
        _budget.reset(self.token)
        if self.budget.tripped is not None and not isinstance(error, DocumentBomb):
            raise self.budget.tripped from error


def scan(data: bytes) -> None:
    """Measure every stream of the PDF (DocumentBomb past a cap); other damage is left for the reader to report."""
    from pdfminer.pdfdocument import PDFDocument
    from pdfminer.pdfparser import PDFParser
    from pdfminer.pdftypes import PDFStream

    with guarded_reading():
        try:
            document = PDFDocument(PDFParser(io.BytesIO(data)))
        except DocumentBomb:
            raise
        except Exception:  # broken or encrypted: pdfplumber says so in its own words
            return
        seen: set[int] = set()
        images = 0
        for xref in document.xrefs:
            for objid in xref.get_objids():
                if objid in seen:
                    continue
                seen.add(objid)
                try:
                    obj = document.getobj(objid)
                except DocumentBomb:
                    raise
                except Exception as error:  # even one the xref lists where it is not: PDFium may find it
                    raise UnreadableDocument(
                        "This PDF has damaged parts that could not be checked, so it was not read. Please upload "
                        "the receipt as a photo or a normal PDF.",
                        reason="broken",
                    ) from error
                if isinstance(obj, PDFStream):
                    check_stream(obj)
                    obj.guard_measured = True
                    images += _image_pixels(obj)
        _check_pages(document, images)


def _check_pages(document, images: int) -> None:
    """The pixels of the images each page draws (image objects, forms, inline images) under the page cap; those
    of the whole document (every image object, and every page's inline images) under the document cap."""
    from pdfminer.pdfpage import PDFPage

    try:
        pages = list(itertools.islice(PDFPage.create_pages(document), _PAGES_CHECKED))
    except DocumentBomb:
        raise
    except Exception:  # a broken page tree: pdfplumber reports it
        return
    for page in pages:
        drawn, inline = _drawn_pixels(page.resources, page.contents, set(), 0)
        if drawn > MAX_PAGE_IMAGE_PIXELS:
            raise DocumentBomb(f"one page draws images of {drawn // 1_000_000} million pixels together")
        images += inline
    if images > MAX_DOCUMENT_IMAGE_PIXELS:
        raise DocumentBomb(f"its images hold {images // 1_000_000} million pixels together")


def _drawn_pixels(resources, contents, seen: set, depth: int) -> tuple[int, int]:
    """(pixels of all images drawn, of those the inline ones) by these content streams and their resources."""
    from pdfminer.pdftypes import PDFObjRef, PDFStream, resolve1

    inline = sum(_inline_pixels(resolve1(stream)) for stream in contents or ())
    drawn = inline
    xobjects = resolve1(resources.get("XObject")) if isinstance(resources, dict) else None
    for reference in (xobjects if isinstance(xobjects, dict) else {}).values():
        key = reference.objid if isinstance(reference, PDFObjRef) else id(reference)
        if key in seen:
            continue
        seen.add(key)
        xobject = resolve1(reference)
        if not isinstance(xobject, PDFStream):
            continue
        subtype = _name(resolve1(xobject.get("Subtype")))
        if subtype == "Image":
            drawn += _image_pixels(xobject)
        elif subtype == "Form" and depth < _FORM_DEPTH:
            form_drawn, form_inline = _drawn_pixels(resolve1(xobject.get("Resources")), [xobject], seen, depth + 1)
            drawn, inline = drawn + form_drawn, inline + form_inline
    return drawn, inline


def _inline_pixels(stream) -> int:
    """The pixels of the inline images (BI <dictionary> ID <data> EI) in a content stream; DocumentBomb for one
    past MAX_IMAGE_PIXELS."""
    from pdfminer.pdftypes import PDFStream

    if not isinstance(stream, PDFStream):
        return 0
    try:
        if stream.data is None and getattr(stream, "guard_measured", False):
            PDFStream.decode.__wrapped__(stream)  # measured under the caps already: not counted twice
        content = stream.get_data()
    except DocumentBomb:
        raise
    except Exception:  # a damaged content stream draws nothing
        return 0
    total = 0
    for match in _INLINE_IMAGE.finditer(content or b""):
        width, height = _inline_number(match[1], rb"Width", rb"W"), _inline_number(match[1], rb"Height", rb"H")
        if width * height > MAX_IMAGE_PIXELS:
            raise DocumentBomb(f"it holds an inline image of {int(width)} x {int(height)} pixels")
        total += int(width * height)
    return total


def _inline_number(dictionary: bytes, *keys: bytes) -> float:
    for key in keys:
        found = _INLINE_NUMBER[key].search(dictionary)
        if found:
            try:
                return float(found[1])
            except ValueError:
                return 0.0
    return 0.0


def _image_pixels(stream) -> int:
    from pdfminer.pdftypes import resolve1

    if _name(resolve1(stream.get("Subtype"))) != "Image":
        return 0
    width, height = resolve1(stream.get_any(("W", "Width"), 0)), resolve1(stream.get_any(("H", "Height"), 0))
    if isinstance(width, int | float) and isinstance(height, int | float) and width > 0 and height > 0:
        return int(width * height)
    return 0


def check_stream(stream) -> int:
    """The decoded size of a pdfminer stream, measured under the caps; DocumentBomb past one of them."""
    budget = _budget.get()
    try:
        names = [_name(f) for f, _params in stream.get_filters()]
        _check_image_pixels(stream)
        if sum(name in _EXPANDING for name in names) > 1:
            raise DocumentBomb(f"a stream is compressed {len(names)} times over ({', '.join(names)})")
        size = _decoded_size(_raw(stream), names)
        if budget is not None:
            budget.total += size
            if budget.total > MAX_TOTAL_BYTES:
                raise DocumentBomb(f"its streams decode to more than {MAX_TOTAL_BYTES // (1024 * 1024)} MB")
    except DocumentBomb as bomb:
        if budget is not None and budget.tripped is None:
            budget.tripped = bomb
        raise
    return size


def _raw(stream) -> bytes:
    data = stream.rawdata if stream.rawdata is not None else b""
    if stream.decipher and stream.objid is not None and stream.genno is not None:
        data = stream.decipher(stream.objid, stream.genno, data, stream.attrs)
    return data


def _name(value) -> str:
    from pdfminer.psparser import PSLiteral

    return value.name if isinstance(value, PSLiteral) else str(value)


def _check_image_pixels(stream) -> None:
    from pdfminer.pdftypes import resolve1

    if _name(resolve1(stream.get("Subtype"))) != "Image":
        return
    width, height = resolve1(stream.get_any(("W", "Width"), 0)), resolve1(stream.get_any(("H", "Height"), 0))
    if isinstance(width, int | float) and isinstance(height, int | float) and width * height > MAX_IMAGE_PIXELS:
        raise DocumentBomb(f"it holds an image of {int(width)} x {int(height)} pixels")


def _decoded_size(data: bytes, names: list[str]) -> int:
    """Apply the chain up to and including its expanding filter, counting the output without keeping it whole."""
    for name in names:
        if name in _ASCII85:  # at most 4 bytes out per byte in ('z'): bounded by the file's size
            from pdfminer.ascii85 import ascii85decode

            data = ascii85decode(data)
        elif name in _ASCIIHEX:
            from pdfminer.ascii85 import asciihexdecode

            data = asciihexdecode(data)
        elif name in _EXPANDING:
            return _expanded_size(data, name)
        else:  # image codecs (DCT, JPX, CCITT, JBIG2) and unknown filters: the pixel cap covers images
            return len(data)
        _check_size(len(data), len(data))
    return len(data)


def _expanded_size(data: bytes, name: str) -> int:
    if name in ("FlateDecode", "Fl"):
        return _inflated_size(data)
    if name in ("LZWDecode", "LZW"):
        from pdfminer.lzw import LZWDecoder

        size = 0
        try:
            for chunk in LZWDecoder(io.BytesIO(data)).run():
                size += len(chunk)
                _check_size(size, len(data))
        except DocumentBomb:
            raise
        except Exception:  # a damaged LZW stream: pdfminer stops there too
            pass
        return size
    return _run_length_size(data)


def _inflated_size(data: bytes) -> int:
    """zlib output counted chunk by chunk; at most _CHUNK bytes of it exist at a time."""
    inflater = zlib.decompressobj()
    size = 0
    try:
        for start in range(0, len(data), _CHUNK):
            pending = data[start : start + _CHUNK]
            while pending:
                size += len(inflater.decompress(pending, _CHUNK))
                _check_size(size, len(data))
                pending = inflater.unconsumed_tail
            if inflater.eof:
                break
    except zlib.error:  # damaged: pdfminer recovers what it can, which is no more than what came out here
        pass
    return size


def _run_length_size(data: bytes) -> int:
    size, index = 0, 0
    while index < len(data):
        length = data[index]
        if length == 128:
            break
        if length < 128:
            size += length + 1
            index += length + 2
        else:
            size += 257 - length
            index += 2
        _check_size(size, len(data))
    return size


def _check_size(size: int, encoded: int) -> None:
    if size > MAX_STREAM_BYTES:
        raise DocumentBomb(f"one stream decodes to more than {MAX_STREAM_BYTES // (1024 * 1024)} MB")
    if size > RATIO_FLOOR_BYTES and size > MAX_RATIO * max(encoded, 1):
        raise DocumentBomb(f"one stream expands more than {MAX_RATIO} times")


_installed = False


def install() -> None:
    """Route pdfminer's stream decoding through check_stream first (once per process)."""
    global _installed
    if _installed:
        return
    from pdfminer.pdftypes import PDFStream

    original = PDFStream.decode

    def decode(self) -> None:
        check_stream(self)
        original(self)

    decode.__wrapped__ = original
    PDFStream.decode = decode
    _installed = True
