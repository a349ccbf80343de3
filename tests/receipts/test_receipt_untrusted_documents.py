"""Receipt files are untrusted input (issue 26, items 2 and 11): decompression and pixel bombs, readings past
their memory or time become failed receipts with a message (read in a child process, never in the web
process), and one account's backlog cannot hold up another account's receipt."""

import io
import resource
import threading
import time
import uuid
import zlib

import pytest
import redis
from PIL import Image

from insightshop.extensions import db
from insightshop.models.receipts import Receipt
from insightshop.services.receipts import jobs, storage
from insightshop.services.receipts.reading import read_document
from insightshop.services.receipts.reading.errors import UnreadableDocument
from tests.factories import bearer, make_user
from tests.receipts.test_reading import png_header

REDIS_URL = "redis://127.0.0.1:6379/14"


def _upload(client, headers, data: bytes, name: str):
    return client.post("/api/receipts", headers=headers, data={"file": (io.BytesIO(data), name)},
                       content_type="multipart/form-data")  # fmt: skip


def _zeros_deflated(megabytes: int) -> bytes:
    """zlib data inflating to `megabytes` MB of zeros, built from one compressed megabyte repeated (a full
    flush makes each block independent), so the test never holds the inflated bytes."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = deflate.compress(bytes(1 << 20)) + deflate.flush(zlib.Z_FULL_FLUSH)
    checksum = 1
    for _ in range(megabytes):
        checksum = zlib.adler32(bytes(1 << 20), checksum)
    return b"\x78\xda" + block * megabytes + deflate.flush(zlib.Z_FINISH) + checksum.to_bytes(4, "big")


def pdf_bomb(megabytes: int = 512, layers: int = 2, *, indirect: bool = False) -> bytes:
    """A one-page PDF whose content stream is zeros behind `layers` stacked /FlateDecode filters (the filter
    array written in the stream's dictionary, or `indirect`ly in an object of its own, spelt #-escaped)."""
    data = _zeros_deflated(megabytes)
    for _ in range(layers - 1):
        data = zlib.compress(data, 9)
    filters = b"[" + b" ".join([b"/Flate#44ecode" if indirect else b"/FlateDecode"] * layers) + b"]"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
        b"<< /Length %d /Filter %s >>\nstream\n" % (len(data), b"5 0 R" if indirect else filters)
        + data
        + b"\nendstream",
        filters,
    ]
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _stored(receipt_id: int) -> Receipt:
    return db.session.get(Receipt, receipt_id, populate_existing=True)


# --- bombs and caps: failed receipts with a message, never a 500


def test_a_stacked_flate_pdf_bomb_is_a_failed_receipt_read_quickly_within_a_memory_cap(client, receipts_app):
    receipts_app.config["RECEIPT_READ_MEMORY_MB"] = 700  # the reader child's address space (RLIMIT_AS)
    bomb = pdf_bomb(512, layers=2)
    assert len(bomb) < 4096  # a few kilobytes that inflate to 512 MB
    make_user()
    headers = bearer(client)
    rss_before, started = _peak_rss_mb(), time.monotonic()

    response = _upload(client, headers, bomb, "bomb.pdf")

    elapsed, rss_growth = time.monotonic() - started, _peak_rss_mb() - rss_before
    assert response.status_code == 201
    body = response.get_json()["receipt"]
    receipt = _stored(body["id"])
    assert receipt.status == body["status"] == "failed"
    assert "compression bomb" in receipt.errors[0] and "compressed 2 times over" in receipt.errors[0]
    assert elapsed < 30  # the child's start included; the bomb itself is refused in milliseconds
    assert rss_growth < 100  # nothing was inflated in this process


@pytest.mark.parametrize(
    "megabytes, layers, indirect, why",
    [(256, 1, False, "decodes to more than 32 MB"), (64, 3, False, "compressed 3 times over"),
     (256, 2, True, "compressed 2 times over")],
    ids=["one huge flate stream", "three flate layers", "filters in another object, names escaped"],
)  # fmt: skip
def test_pdf_streams_are_measured_under_caps_before_pdfminer_inflates_them(megabytes, layers, indirect, why):
    rss_before = _peak_rss_mb()

    with pytest.raises(UnreadableDocument) as refused:
        read_document(pdf_bomb(megabytes, layers, indirect=indirect), "application/pdf")

    assert refused.value.reason == "decompression_bomb" and why in refused.value.message
    assert _peak_rss_mb() - rss_before < 100


def test_an_image_claiming_20000_by_20000_pixels_is_a_failed_receipt(client, receipts_app):
    make_user()

    response = _upload(client, bearer(client), png_header(20_000, 20_000), "huge.png")

    assert response.status_code == 201
    receipt = _stored(response.get_json()["receipt"]["id"])
    assert receipt.status == "failed"
    assert receipt.errors == ["This image is too large to read (more than 50 million pixels)."]


def test_a_reading_past_its_memory_cap_is_stopped_and_the_receipt_failed(client, receipts_app, receipt_text):
    receipts_app.config["RECEIPT_READ_MEMORY_MB"] = 450  # a reader needs about 280 MB before reading anything
    big = io.BytesIO()
    Image.new("RGB", (7000, 7000), "white").save(big, "PNG")  # 49 megapixels: 147 MB decoded, twice that in work
    make_user()
    headers = bearer(client)

    small = _upload(client, headers, receipt_text, "small.txt")
    large = _upload(client, headers, big.getvalue(), "large.png")

    assert _stored(small.get_json()["receipt"]["id"]).status == "completed"  # the cap leaves room for a reading
    assert large.status_code == 201
    receipt = _stored(large.get_json()["receipt"]["id"])
    assert receipt.status == "failed"
    assert receipt.errors == [
        "Reading this receipt needed more than the 450 MB of memory a receipt may use, so it was stopped. "
        "Please upload a smaller photo or a simpler PDF."
    ]


def test_a_reading_past_its_time_is_killed_and_the_receipt_failed(client, receipts_app):
    receipts_app.config["RECEIPT_READ_TIMEOUT_SECONDS"] = 0.3
    big = io.BytesIO()
    Image.new("L", (4000, 4000), 255).save(big, "PNG")
    make_user()
    started = time.monotonic()

    response = _upload(client, bearer(client), big.getvalue(), "slow.png")

    assert response.status_code == 201 and time.monotonic() - started < 10
    receipt = _stored(response.get_json()["receipt"]["id"])
    assert receipt.status == "failed"
    assert receipt.errors == [
        "Reading this receipt took longer than 0.3 seconds, so it was stopped. Please upload a smaller photo or "
        "a shorter PDF."
    ]


# --- a fair queue: one user's backlog does not hold up another user's first receipt


def _receipt(label: str) -> bytes:
    return f"SHOP {label}\nBREAD 2.00\nTOTAL 2.00\n".encode()


class ReadingOrder:
    """Records which receipt file the worker fetches to read, in order (by the name it was uploaded as); the
    first fetch may be held until `release()`, standing for a heavy reading in progress."""

    def __init__(self, monkeypatch, hold_first: bool = False):
        self.names: list[str] = []
        self.released = threading.Event()
        if not hold_first:
            self.released.set()
        fetch = storage.read_file

        def read_file(stored_name: str) -> bytes:
            self.names.append(stored_name)
            self.released.wait(30)
            return fetch(stored_name)

        monkeypatch.setattr(storage, "read_file", read_file)

    def release(self) -> None:
        self.released.set()

    @property
    def filenames(self) -> list[str]:
        by_stored = dict(db.session.execute(db.select(Receipt.stored_name, Receipt.original_filename)).all())
        return [by_stored[name] for name in self.names]


def test_the_rq_worker_takes_another_users_receipt_before_the_first_users_backlog(client, app, runner,
                                                                                 monkeypatch):  # fmt: skip
    try:
        redis.Redis.from_url(REDIS_URL).ping()
    except redis.ConnectionError:
        pytest.fail("Redis is not running at 127.0.0.1:6379 (the machine's service)")
    app.config.update(RECEIPT_QUEUE="rq", REDIS_URL=REDIS_URL)
    monkeypatch.setattr(jobs, "QUEUE_NAME", f"test-receipts-{uuid.uuid4().hex}")
    reading = ReadingOrder(monkeypatch)
    make_user("a@example.com")
    make_user("b@example.com")
    first, second = bearer(client, "a@example.com"), bearer(client, "b@example.com")
    try:
        for n in (1, 2, 3):
            assert _upload(client, first, _receipt(f"A{n}"), f"a{n}.txt").status_code == 202
        assert _upload(client, second, _receipt("B1"), "b1.txt").status_code == 202

        result = runner.invoke(args=["receipts", "worker", "--burst"])
    finally:
        jobs.rq_queue().empty()

    assert result.exit_code == 0, result.output
    assert reading.filenames == ["a1.txt", "b1.txt", "a2.txt", "a3.txt"]
    statuses = {receipt.status for receipt in db.session.scalars(db.select(Receipt))}
    assert statuses <= {"completed", "needs_review"}  # every receipt read once, by the four turns


@pytest.mark.commits
def test_the_local_worker_takes_another_users_receipt_before_the_first_users_backlog(client, app, monkeypatch):
    app.config["RECEIPT_QUEUE"] = "thread"
    reading = ReadingOrder(monkeypatch, hold_first=True)  # a1 is being read while the others are uploaded
    make_user("a@example.com")
    make_user("b@example.com")
    first, second = bearer(client, "a@example.com"), bearer(client, "b@example.com")

    for n in (1, 2, 3):
        _upload(client, first, _receipt(f"A{n}"), f"a{n}.txt")
    _upload(client, second, _receipt("B1"), "b1.txt")
    reading.release()

    assert jobs.local_worker(app).wait_idle(60)
    assert reading.filenames == ["a1.txt", "b1.txt", "a2.txt", "a3.txt"]


@pytest.mark.commits
def test_with_nothing_else_waiting_a_users_receipts_are_read_in_upload_order(client, app, monkeypatch):
    app.config["RECEIPT_QUEUE"] = "thread"
    reading = ReadingOrder(monkeypatch)
    make_user()
    headers = bearer(client)
    for n in (1, 2, 3):
        _upload(client, headers, _receipt(f"A{n}"), f"a{n}.txt")

    assert jobs.local_worker(app).wait_idle(60)
    assert reading.filenames == ["a1.txt", "a2.txt", "a3.txt"]


# --- review of issue 26, finding 4 and 15: readings capped per machine; reader children idle out, die with
# their parent, and have a CPU limit; the model's downscaled image is decoded in the reader child only


def test_a_reading_waits_for_a_free_machine_slot_and_fails_clearly_without_one(tmp_path):
    import fcntl

    from insightshop.services.receipts.reading import isolation

    held = open(tmp_path / "receipt-reader-0.lock", "a+b")  # noqa: SIM115 another process's reading holds the only slot
    fcntl.flock(held.fileno(), fcntl.LOCK_EX)
    started = time.monotonic()
    with pytest.raises(isolation.ReadersBusy) as caught:
        isolation.read_isolated(b"SHOP\nTOTAL 2.00\n", "text/plain", slots_dir=str(tmp_path), slots=1, wait=0.5)
    assert 0.4 < time.monotonic() - started < 5
    assert caught.value.reason == "readers_busy" and "busy for 0.5 seconds" in caught.value.message

    fcntl.flock(held.fileno(), fcntl.LOCK_UN)
    held.close()
    document = isolation.read_isolated(b"SHOP\nTOTAL 2.00\n", "text/plain", slots_dir=str(tmp_path), slots=1, wait=0.5)
    assert [line.text for line in document.lines] == ["SHOP", "TOTAL 2.00"]


def test_uploads_take_a_slot_in_the_instance_folder(client, receipts_app, receipt_text):
    import fcntl
    from pathlib import Path

    receipts_app.config.update(RECEIPT_READERS_PER_MACHINE=1, RECEIPT_READER_WAIT_SECONDS=0.3)
    folder = Path(receipts_app.instance_path)
    folder.mkdir(parents=True, exist_ok=True)
    held = open(folder / "receipt-reader-0.lock", "a+b")  # noqa: SIM115
    fcntl.flock(held.fileno(), fcntl.LOCK_EX)
    make_user()
    try:
        response = _upload(client, bearer(client), receipt_text, "busy.txt")
    finally:
        held.close()
    receipt = _stored(response.get_json()["receipt"]["id"])
    assert response.status_code == 201 and receipt.status == "failed"
    assert receipt.errors[0].startswith("The receipt readers were all busy for 0.3 seconds")


def test_an_idle_reader_child_exits_and_the_next_reading_starts_another(tmp_path):
    from insightshop.services.receipts.reading import isolation

    isolation.read_isolated(b"A 1.00\n", "text/plain", slots_dir=str(tmp_path), idle_seconds=0.5)
    child = isolation._current.process
    child.wait(timeout=10)  # exits on its own once idle

    document = isolation.read_isolated(b"B 2.00\n", "text/plain", slots_dir=str(tmp_path), idle_seconds=0.5)
    assert [line.text for line in document.lines] == ["B 2.00"]


def test_the_reader_child_has_a_cpu_limit(tmp_path):
    from insightshop.services.receipts.reading import isolation

    isolation.read_isolated(b"A 1.00\n", "text/plain", slots_dir=str(tmp_path), timeout=5)
    with open(f"/proc/{isolation._current.process.pid}/limits") as limits:
        cpu = next(line for line in limits if line.startswith("Max cpu time")).split()
    assert cpu[3] != "unlimited" and int(cpu[3]) <= 60 * 60


SLOW_CHILD = """
import sys, time
from insightshop.services.receipts.reading import isolation
marker = sys.argv[1]
isolation._answer = lambda header, data: open(marker, "w").close() or time.sleep(120) or {}
isolation._serve(3072)
"""

PARENT = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", sys.argv[1], sys.argv[2]], stdin=subprocess.PIPE, start_new_session=True)
child.stdin.write(b'\\x00\\x00\\x00\\x02{}\\x00\\x00\\x00\\x01x')  # one request: the child is busy reading it
child.stdin.flush()
print(child.pid, flush=True)
time.sleep(120)
"""


def test_a_reader_child_mid_reading_dies_with_its_parent(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[2])
    marker = tmp_path / "reading"
    parent = subprocess.Popen([sys.executable, "-c", PARENT, SLOW_CHILD, str(marker)], stdout=subprocess.PIPE,
                              cwd=root, env={**os.environ, "PYTHONPATH": root})  # fmt: skip
    child = int(parent.stdout.readline())
    deadline = time.monotonic() + 60
    while not marker.exists() and time.monotonic() < deadline:  # the child is reading
        time.sleep(0.1)
    parent.send_signal(signal.SIGKILL)  # as gunicorn kills a stuck worker
    parent.wait()

    def running() -> bool:
        try:
            with open(f"/proc/{child}/status") as status:
                return not any(line.startswith("State:") and ("Z" in line or "X" in line) for line in status)
        except FileNotFoundError:
            return False

    deadline = time.monotonic() + 10
    while running() and time.monotonic() < deadline:
        time.sleep(0.2)
    alive = running()
    if alive:
        os.kill(child, signal.SIGKILL)
    assert not alive


def test_an_image_too_large_for_the_model_is_downscaled_in_the_reader_child_only(monkeypatch):
    from insightshop.services.receipts.extraction import claude_request

    wide = io.BytesIO()
    Image.new("L", (9000, 1000), 255).save(wide, "PNG")  # wider than the API takes: scaled down
    monkeypatch.setattr(Image.Image, "load", lambda self: (_ for _ in ()).throw(AssertionError("decoded here")))

    fitted = claude_request.fit_image(wide.getvalue(), "image/png")

    monkeypatch.undo()
    assert fitted is not None and fitted[0] == "image/jpeg"
    assert max(Image.open(io.BytesIO(fitted[1])).size) <= claude_request.MAX_IMAGE_SIDE


def test_an_image_past_the_pixel_cap_is_never_decoded_for_the_model():
    from insightshop.services.receipts.extraction import claude_request

    assert claude_request.fit_image(png_header(9000, 7000), "image/png") is None


# --- review of issue 26, finding 9: inline images, images summed per page and per document, unloadable objects


def _pdf(objects: list[bytes]) -> bytes:
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _stream(dictionary: bytes, data: bytes) -> bytes:
    return b"<< /Length %d %s >>\nstream\n" % (len(data), dictionary) + data + b"\nendstream"


def _image(width: int, height: int) -> bytes:
    """An image object declaring a size, with a few bytes of JPEG data (PDFium decodes it only to render)."""
    return _stream(b"/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                   b"/BitsPerComponent 8 /Filter /DCTDecode" % (width, height), b"\xff\xd8\xff\xd9")  # fmt: skip


def _pdf_with_pages(page_images: list[list[tuple[int, int]]], content: bytes = b"BT ET") -> bytes:
    """Pages drawing the given images (width, height) as image objects; each page's content stream is `content`
    followed by a Do for each image."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    kids = []
    for images in page_images:
        page = len(objects) + 1
        kids.append(b"%d 0 R" % page)
        names = b" ".join(b"/Im%d %d 0 R" % (index, page + 2 + index) for index in range(len(images)))
        draws = b"".join(b" q 100 0 0 100 0 0 cm /Im%d Do Q" % index for index in range(len(images)))
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents %d 0 R "
                       b"/Resources << /XObject << %s >> >> >>" % (page + 1, names))  # fmt: skip
        objects.append(_stream(b"", content + draws))
        objects.extend(_image(width, height) for width, height in images)
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(kids))
    return _pdf(objects)


@pytest.mark.parametrize(
    ("pdf", "why"),
    [
        (_pdf_with_pages([[]], b"q 200 0 0 200 0 0 cm BI /W 20000 /H 20000 /CS /G /BPC 8 /F /Fl ID x EI Q"),
         "an inline image of 20000 x 20000 pixels"),
        (_pdf_with_pages([[(7000, 7000)] * 3]), "one page draws images of 147 million pixels together"),
        (_pdf_with_pages([[]], b"BI /Width 7000 /Height 7000 ID x EI BI /Width 7000 /Height 7000 ID x EI"),
         "one page draws images of 98 million pixels together"),
        (_pdf_with_pages([[(7000, 7000)]] * 5), "its images hold 245 million pixels together"),
    ],
)  # fmt: skip
def test_pdf_images_are_capped_per_page_and_per_document_inline_ones_included(pdf, why):
    from insightshop.services.receipts.reading import pdf_guard

    with pytest.raises(pdf_guard.DocumentBomb) as caught:
        pdf_guard.scan(pdf)
    assert why in caught.value.message


def test_a_pdf_with_images_within_the_caps_passes_the_scan():
    from insightshop.services.receipts.reading import pdf_guard

    pdf_guard.scan(_pdf_with_pages([[(2500, 3500)], [(2500, 3500)]], b"BI /W 100 /H 50 ID x EI BT (BI ID) Tj ET"))


def test_a_pdf_stream_object_that_cannot_be_loaded_is_refused():
    from insightshop.services.receipts.reading import pdf_guard

    pdf = _pdf_with_pages([[(100, 100)]])
    broken = pdf.replace(b"5 0 obj\n", b"6 0 obj\n", 1)  # the xref points elsewhere: PDFium would look for it
    with pytest.raises(UnreadableDocument) as caught:
        pdf_guard.scan(broken)
    assert caught.value.reason == "broken" and "damaged parts" in caught.value.message
