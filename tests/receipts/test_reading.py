"""Reading receipt files: text decoding, PDF text layers, OCR of scans and image-only PDFs, refused inputs.

OCR tests cost about two seconds each on two cores, so there are three: an image, an image-only PDF and a
blank image. Everything else runs without the OCR engine.
"""

from __future__ import annotations

import io
import json
import socket
import struct
import threading
import zipfile
import zlib
from pathlib import Path

import pytest
from fpdf import FPDF
from PIL import Image

from insightshop.services.errors import DomainError, ErrorCode
from insightshop.services.receipts.reading import (
    UnreadableDocument,
    UnsupportedDocument,
    images,
    ocr,
    read_document,
)
from insightshop.services.receipts.reading import pdf as pdf_reader
from insightshop.services.receipts.reading.layout import Box
from insightshop.services.receipts.reading.pdf import MAX_PAGES, RENDER_DPI

SCANS = Path(__file__).resolve().parent.parent / "fixtures" / "receipts" / "scans"
A4_AT_RENDER_DPI = (round(595.28 * RENDER_DPI / 72), round(841.89 * RENDER_DPI / 72))


def scan(receipt_id: str) -> tuple[bytes, dict]:
    return (SCANS / f"{receipt_id}.jpg").read_bytes(), json.loads((SCANS / f"{receipt_id}.json").read_text())


def pdf_bytes(*pages: list[tuple[float, float, str]], **encryption) -> bytes:
    """An A4 PDF with a text layer: each page a list of (x mm, baseline y mm, text)."""
    pdf = FPDF(unit="mm", format="A4")
    pdf.set_font("helvetica", size=12)
    for page in pages:
        pdf.add_page()
        for x, y, text in page:
            pdf.text(x, y, text)
    if encryption:
        pdf.set_encryption(**encryption)
    return bytes(pdf.output())


def png_header(width: int, height: int) -> bytes:
    """A PNG that declares a size and holds almost no data: what a decompression bomb looks like up front."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"")) + chunk(b"IEND", b"")


# --- text files


def test_utf8_text_is_read_line_by_line_with_bom_stripped_and_crlf_normalised():
    data = "\ufeffCAFÉ LUMIÈRE\r\n\r\nTOTAL\t9.00\r\n   \r\nMerci\r\n".encode()

    document = read_document(data, "text/plain", "receipt.txt")

    assert document.source == "text"
    assert [line.text for line in document.lines] == ["CAFÉ LUMIÈRE", "TOTAL\t9.00", "Merci"]
    assert [line.index for line in document.lines] == [0, 1, 2]
    assert document.text == "CAFÉ LUMIÈRE\nTOTAL\t9.00\nMerci"
    for line in document.lines:
        assert document.text[line.char_offset : line.char_offset + len(line.text)] == line.text
        assert line.bbox is None and line.confidence is None and line.page == 1


def test_windows_1252_text_falls_back_from_utf8():
    data = "Café – total £4.50 “paid”\n".encode("cp1252")

    document = read_document(data, "text/plain")

    assert document.lines[0].text == "Café – total £4.50 “paid”"


def test_bytes_windows_1252_leaves_undefined_are_read_as_latin1():
    document = read_document(b"Caf\xe9 \x81 9.00\n", "text/plain")

    assert document.lines[0].text == "Café  9.00"  # U+0081 is a control character, removed


def test_control_characters_other_than_tab_and_newline_are_removed_and_lone_cr_ends_a_line():
    document = read_document(b"TOTAL\x07\t9.00\x1b[0m\rTHANK YOU\x0c\n", "text/plain")

    assert [line.text for line in document.lines] == ["TOTAL\t9.00[0m", "THANK YOU"]


def test_utf16_text_with_a_bom_is_read():
    document = read_document("\ufeffTOTAL 9.00\r\nMERCI\r\n".encode("utf-16-le"), "text/plain")

    assert [line.text for line in document.lines] == ["TOTAL 9.00", "MERCI"]


def test_the_declared_content_type_is_not_trusted():
    document = read_document(b"TOTAL 9.00\n", "image/jpeg", "receipt.jpg")

    assert document.source == "text"
    assert document.lines[0].text == "TOTAL 9.00"


def test_binary_bytes_are_not_read_as_text():
    with pytest.raises(UnsupportedDocument) as raised:
        read_document(b"\x00\x01\x02\x03binary\x00" * 10, "text/plain", "receipt.txt")

    assert raised.value.code == ErrorCode.UNSUPPORTED_MEDIA_TYPE


# --- PDFs with a text layer


def test_pdf_text_layer_gives_lines_with_boxes_pages_and_page_size():
    data = pdf_bytes(
        [(20, 20, "KEDAI RUNCIT SDN BHD"), (20, 40, "TOTAL"), (150, 40, "9.00")],
        [(20, 20, "THANK YOU")],
    )

    document = read_document(data, "application/pdf", "receipt.pdf")

    assert document.source == "pdf_text"
    assert document.pages == 2
    assert [(line.text, line.page) for line in document.lines] == [
        ("KEDAI RUNCIT SDN BHD", 1),
        ("TOTAL 9.00", 1),
        ("THANK YOU", 2),
    ]
    total = document.lines[1]
    assert total.page_size == A4_AT_RENDER_DPI
    assert total.confidence is None
    pixels_per_mm = RENDER_DPI / 25.4
    x0, y0, x1, y1 = total.bbox
    assert x0 == pytest.approx(20 * pixels_per_mm, abs=3)
    assert y0 < 40 * pixels_per_mm < y1  # the baseline lies inside the box
    assert x1 > 150 * pixels_per_mm  # the box encloses "9.00" too
    label, amount = total.segments
    assert total.text[label.start : label.end] == "TOTAL" and total.text[amount.start : amount.end] == "9.00"
    assert label.bbox[2] < amount.bbox[0]
    assert document.text[total.char_offset :].startswith("TOTAL 9.00")


def test_pdf_encrypted_only_against_editing_opens_without_a_password_and_is_read():
    document = read_document(pdf_bytes([(20, 20, "TOTAL 9.00")], owner_password="owner"), "application/pdf")

    assert [line.text for line in document.lines] == ["TOTAL 9.00"]


# --- OCR (a few seconds each)


@pytest.fixture
def no_network(monkeypatch):
    """Any connection attempt fails, as it would on a machine with no network."""

    def refuse(*args, **kwargs):
        raise OSError("network disabled in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


def test_a_scanned_receipt_is_read_by_ocr_with_rows_boxes_and_scores_without_network(no_network, monkeypatch):
    monkeypatch.setattr(ocr, "_engine", None)  # a fresh engine: building it must not download anything either
    data, answers = scan("X00016469670")

    document = read_document(data, "application/octet-stream", "scan")

    assert document.source == "ocr"
    texts = [line.text.upper() for line in document.lines]
    assert any(answers["company"] in text for text in texts)
    total_line = next(line for line in document.lines if line.text.upper().startswith("TOTAL:"))
    assert answers["total"] in total_line.text  # label and amount, two boxes apart, on one line
    assert len(total_line.segments) == 2
    assert total_line.bbox[0] <= total_line.segments[0].bbox[0] < total_line.segments[1].bbox[2] <= total_line.bbox[2]
    for line in document.lines:
        assert line.page == 1 and line.page_size == (463, 894)
        x0, y0, x1, y1 = line.bbox
        assert 0 <= x0 < x1 <= 463 and 0 <= y0 < y1 <= 894
        assert 0 < line.confidence <= 1
    tops = [line.bbox[1] for line in document.lines]
    assert tops == sorted(tops)


def test_an_image_only_pdf_is_rendered_and_read_by_ocr():
    data, _ = scan("X51005288570")
    width, height = Image.open(io.BytesIO(data)).size
    pdf = FPDF(unit="pt", format=(width * 72 / 150, height * 72 / 150))  # the scan at 150 dpi
    pdf.add_page()
    pdf.image(io.BytesIO(data), x=0, y=0, w=pdf.w, h=pdf.h)

    document = read_document(bytes(pdf.output()), "application/pdf", "scan.pdf")

    assert document.source == "ocr"
    text = document.text.upper()
    assert "SECURE PARKING" in text and "JALAN IPOH" in text  # its total, 1.00, is misread as "1.0U" by the OCR
    assert {line.page for line in document.lines} == {1}
    page_size = (round(width * RENDER_DPI / 150), round(height * RENDER_DPI / 150))
    assert all(line.page_size == page_size and line.confidence is not None for line in document.lines)


def test_a_pdf_mixing_text_and_scanned_pages_reads_each_page_its_own_way(monkeypatch):
    """The OCR engine is stood in for here: what is tested is which page goes where and how boxes are scaled."""
    rendered = []

    def fake_recognise(image, *, scale):
        rendered.append(image.size)
        return [Box("SCANNED 5.00", (100 * scale, 100 * scale, 300 * scale, 130 * scale), 0.8)]

    monkeypatch.setattr(pdf_reader, "recognise", fake_recognise)
    pdf = FPDF(unit="mm", format="A4")
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.text(20, 20, "TYPED 4.00")
    pdf.add_page()
    pdf.image(io.BytesIO(_image_bytes((200, 200), "PNG")), x=10, y=10, w=50)

    document = read_document(bytes(pdf.output()), "application/pdf")

    assert document.source == "pdf_text" and document.pages == 2
    assert [(line.text, line.page, line.confidence) for line in document.lines] == [
        ("TYPED 4.00", 1, None),
        ("SCANNED 5.00", 2, 0.8),
    ]
    assert rendered == [A4_AT_RENDER_DPI]
    assert document.lines[1].bbox == (100, 100, 300, 130) and document.lines[1].page_size == A4_AT_RENDER_DPI


@pytest.mark.parametrize("size", [(300, 500), (5, 3000)], ids=["blank page", "sliver"])
def test_an_image_without_text_gives_an_empty_document(size):
    """A 5 x 3000 px sliver is padded before OCR: unpadded, the detector would scale it to 736 x 441,600 px."""
    document = read_document(_image_bytes(size, "PNG"), "image/png")

    assert document.lines == () and document.source == "ocr"


# --- images decoded safely (no OCR)


def test_exif_orientation_is_applied_and_boxes_refer_to_the_upright_image():
    exif = Image.Exif()
    exif[0x0112] = 6  # stored on its side: rotate 90° clockwise to view
    output = io.BytesIO()
    Image.new("RGB", (400, 200), "white").save(output, "JPEG", exif=exif)

    decoded = images.decode_image(output.getvalue(), "JPEG")

    assert decoded.image.size == (200, 400)
    assert decoded.page_size == (200, 400)


def test_huge_images_are_downscaled_for_ocr_and_boxes_scaled_back():
    output = io.BytesIO()
    Image.new("RGB", (4000, 4000), "white").save(output, "JPEG")

    decoded = images.decode_image(output.getvalue(), "JPEG")

    assert decoded.image.width * decoded.image.height <= images.MAX_WORKING_PIXELS
    assert decoded.page_size == (4000, 4000)
    assert decoded.scale == pytest.approx(4000 / decoded.image.width)


def test_transparent_png_is_composed_over_white():
    image = Image.new("RGBA", (10, 10), (0, 0, 0, 0))
    image.putpixel((5, 5), (0, 0, 0, 255))
    output = io.BytesIO()
    image.save(output, "PNG")

    decoded = images.decode_image(output.getvalue(), "PNG").image

    assert decoded.getpixel((0, 0)) == (255, 255, 255) and decoded.getpixel((5, 5)) == (0, 0, 0)


# --- refused inputs: a domain error with a stable code, never another exception


def _zip_bytes() -> bytes:
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w") as archive:
        archive.writestr("receipt.txt", "TOTAL 9.00")
    return output.getvalue()


def _image_bytes(size: tuple[int, int], pillow_format: str) -> bytes:
    output = io.BytesIO()
    Image.new("RGB", size, "white").save(output, pillow_format)
    return output.getvalue()


REFUSED = {
    "empty file": (b"", "text/plain", ErrorCode.UNREADABLE_DOCUMENT, "empty"),
    "truncated JPEG": (scan("X00016469670")[0][:20_000], "image/jpeg", ErrorCode.UNREADABLE_DOCUMENT, "broken"),
    "zip renamed .pdf": (_zip_bytes(), "application/pdf", ErrorCode.UNSUPPORTED_MEDIA_TYPE, "zip"),
    "password PDF": (
        pdf_bytes([(20, 20, "TOTAL 9.00")], owner_password="owner", user_password="secret"),
        "application/pdf",
        ErrorCode.UNREADABLE_DOCUMENT,
        "encrypted",
    ),
    "PDF header then garbage": (
        b"%PDF-1.7\n" + bytes(range(256)) * 4,
        "application/pdf",
        "unreadable_document",
        "broken",
    ),
    "too many pages": (
        pdf_bytes(*[[(20, 20, f"page {n}")] for n in range(MAX_PAGES + 1)]),
        "application/pdf",
        ErrorCode.UNREADABLE_DOCUMENT,
        "too_many_pages",
    ),
    "PNG bomb header": (png_header(100_000, 100_000), "image/png", ErrorCode.UNREADABLE_DOCUMENT, "too_many_pixels"),
    "PNG over our pixel cap": (
        png_header(10_000, 6_000),
        "image/png",
        ErrorCode.UNREADABLE_DOCUMENT,
        "too_many_pixels",
    ),
    "PNG header without pixels": (png_header(100, 100), "image/png", ErrorCode.UNREADABLE_DOCUMENT, "broken"),
    "HEIC photo": (
        b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64,
        "image/heic",
        "unsupported_media_type",
        "heic",
    ),
    "GIF": (_image_bytes((10, 10), "GIF"), "image/gif", ErrorCode.UNSUPPORTED_MEDIA_TYPE, "gif"),
}


@pytest.mark.parametrize(("data", "content_type", "code", "why"), REFUSED.values(), ids=REFUSED.keys())
def test_refused_inputs_raise_the_domain_error_with_its_code(data, content_type, code, why):
    with pytest.raises(DomainError) as raised:
        read_document(data, content_type, "upload")

    error = raised.value
    assert error.code == code
    assert error.details[0] == ({"reason": why} if code == ErrorCode.UNREADABLE_DOCUMENT else {"detected": why})
    assert error.to_dict()["error"]["message"] == error.message


def test_unsupported_error_names_what_the_file_really_is():
    with pytest.raises(UnsupportedDocument) as raised:
        read_document(_zip_bytes(), "application/pdf", "receipt.pdf")

    assert "“receipt.pdf” (sent as application/pdf) is a ZIP archive" in raised.value.message
    assert raised.value.status == 415


@pytest.mark.parametrize(
    "magic", [b"\xff\xd8\xff\xe0", b"\x89PNG\r\n\x1a\n", b"RIFF\x00\x00\x00\x00WEBPVP8 ", b"%PDF-1.4\n"]
)
def test_garbage_behind_a_magic_number_is_unreadable_not_a_crash(magic):
    garbage = bytes((index * 7919) % 251 for index in range(4096))

    with pytest.raises(UnreadableDocument):
        read_document(magic + garbage, "application/octet-stream")


# --- the engine


def test_the_ocr_engine_is_created_once_even_when_threads_race_for_it(monkeypatch):
    created = []
    start = threading.Barrier(8)

    def slow_engine():
        created.append(object())
        threading.Event().wait(0.05)
        return created[-1]

    monkeypatch.setattr(ocr, "_engine", None)
    monkeypatch.setattr(ocr, "create_engine", slow_engine)
    results = []

    def get():
        start.wait()
        results.append(ocr.ocr_engine())

    threads = [threading.Thread(target=get) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(created) == 1
    assert all(result is created[0] for result in results)
