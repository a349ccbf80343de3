"""OCR benchmark: character error rate and time per image of the receipt reader on the SROIE scans.

    .venv/bin/python bench/ocr.py                              # every colour pre-pass, shared images
    .venv/bin/python bench/ocr.py --prepass none min_channel   # some pre-passes
    .venv/bin/python bench/ocr.py --param Global.max_side_len=3000
    .venv/bin/python bench/ocr.py --show X51005361906          # print one receipt's lines next to the reference
    .venv/bin/python bench/ocr.py --ink 0.45,0.4,0.1           # the scans reprinted in faded coloured ink
    .venv/bin/python bench/ocr.py --long                       # four narrow scans stacked into one long receipt
    .venv/bin/python bench/ocr.py --long --param Global.max_side_len=2000 --max-pixels 12000000  # RapidOCR's default

Each image goes through the reader's own path (decode_image → recognise → build_document), so the lines
scored are the lines the extraction engine gets. The reference is the scan's box text (.txt, one box per
line, human transcription in upper case). Both sides are upper-cased with whitespace collapsed, then:
  CER          edit distance of the whole text in reading order (lines joined by a space) / reference length;
               reorderings count as errors, so this is the strict number.
  CER (lines)  line-aligned: each reference line's edit distance to its best-matching stretch of the OCR text,
               summed / reference length; insensitive to reading order and to how boxes were grouped into
               lines, blind to extra text the OCR invented.
Time is wall time per image (decode, OCR, grouping) after one warm-up run; the median is printed, with the
median CPU time (all threads), which depends less on what else the machine is running.

The SROIE scans are grey (their R, G and B differ by under 8 levels on average), so a colour pre-pass has
nothing to work with on them. --ink R,G,B reprints each scan in faded coloured ink to test that case:
every channel keeps that share of the ink's darkness (0.45,0.4,0.1: a faded blue-violet ink whose blue
channel nearly vanishes).

The SROIE scans are also short (at most 1:2.4). Till receipts photographed whole are long and narrow, and
RapidOCR's default shrinks every image to 2000 px on its longest side; --long stacks the four narrowest
scans into one ~620 x 3700 px receipt (reference: their texts in order) to measure that case.

Latest run (rapidocr 3.10.0, PP-OCRv6 small models, onnxruntime 1.32.0; 2 CPUs shared, load average 2-3):
                                 CER   CER (lines)   median s/image (wall, CPU)
  reader as shipped (none)       4.9%  2.1%          1.8-5.8 s wall depending on the machine's load, 3.3-4.8 CPU s
  grey / min_channel / contrast  5.0%  2.2%          same work
  RapidOCR's 2000 px default     4.8%  2.3%          similar
  faded ink: none / grey / min   6.3% / 5.7% / 5.5% (lines 3.3% / 2.7% / 2.6%)
  long receipt: shipped / 2000 px default   2.3% / 3.6%
So no pre-pass is applied: on the real (grey) scans each costs 0.1 points; it only helps on the synthetic
coloured ink. Revisit with real receipts in coloured ink. The pixel cap replaces RapidOCR's 2000 px side cap
for the long receipt's sake.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the repository in place of bench/, whose http.py would shadow Python's http

import numpy as np  # noqa: E402
from PIL import Image  # noqa: E402
from rapidfuzz.distance import Levenshtein  # noqa: E402

from insightshop.services.receipts.document import ReceiptDocument  # noqa: E402
from insightshop.services.receipts.reading.images import MAX_WORKING_PIXELS, decode_image  # noqa: E402
from insightshop.services.receipts.reading.layout import PageText, build_document  # noqa: E402
from insightshop.services.receipts.reading.ocr import create_engine, recognise  # noqa: E402

IMAGES = ROOT.parent / "shared" / "receipts" / "images"  # the team's scans, next to the repo
MAX_PIXELS = MAX_WORKING_PIXELS


def normalise(lines: list[str]) -> str:
    return " ".join(" ".join(lines).upper().split())


def cer(reference: str, hypothesis: str) -> float:
    return Levenshtein.distance(reference, hypothesis) / max(len(reference), 1)


def _darkest_channel(image: Image.Image) -> Image.Image:
    """Per pixel the darkest of R, G, B: faint coloured ink turns as dark as the strongest channel allows."""
    return Image.fromarray(np.asarray(image).min(axis=2))


def _most_contrasted_channel(image: Image.Image) -> Image.Image:
    pixels = np.asarray(image)
    return Image.fromarray(pixels[:, :, int(np.argmax(pixels.reshape(-1, 3).std(axis=0)))])


PREPASSES = {
    "none": lambda image: image,
    "grey": lambda image: image.convert("L"),
    "min_channel": _darkest_channel,
    "contrast_channel": _most_contrasted_channel,
}


def reprint(data: bytes, ink: tuple[float, float, float]) -> bytes:
    grey = np.asarray(Image.open(io.BytesIO(data)).convert("L"), dtype=np.float32)
    darkness = (255 - grey)[:, :, None] * np.array(ink, dtype=np.float32)
    output = io.BytesIO()
    Image.fromarray((255 - darkness).clip(0, 255).astype(np.uint8)).save(output, "JPEG", quality=92)
    return output.getvalue()


def read_document(path: Path, engine, prepass: str, ink: tuple[float, float, float] | None = None) -> ReceiptDocument:
    data = path.read_bytes()
    decoded = decode_image(reprint(data, ink) if ink else data, "JPEG", max_pixels=MAX_PIXELS)
    boxes = recognise(PREPASSES[prepass](decoded.image), scale=decoded.scale, engine=engine)
    return build_document([PageText(1, decoded.page_size, tuple(boxes))], source="ocr")


def substring_distance(needle: str, haystack: str) -> int:
    """Edit distance from needle to the closest substring of haystack (semi-global alignment)."""
    hay = np.frombuffer(haystack.encode("utf-32-le"), dtype=np.uint32)
    positions = np.arange(len(hay) + 1)
    row = np.zeros(len(hay) + 1, dtype=np.int64)  # a match may start anywhere
    for char in needle:
        diagonal = row[:-1] + (hay != ord(char))
        above = row + 1
        candidate = np.minimum(above, np.concatenate(([above[0]], np.minimum(above[1:], diagonal))))
        row = positions + np.minimum.accumulate(candidate - positions)  # insertions along the haystack
    return int(row.min())  # and may end anywhere


def measure(images: list[Path], engine, prepass: str, ink: tuple[float, float, float] | None) -> dict:
    read_document(images[0], engine, prepass, ink)  # warm-up: first ONNX runs allocate
    errors, line_errors, seconds, cpu_seconds, chars = 0, 0, [], [], 0
    for path in images:
        started, cpu_started = time.perf_counter(), time.process_time()
        document = read_document(path, engine, prepass, ink)
        seconds.append(time.perf_counter() - started)
        cpu_seconds.append(time.process_time() - cpu_started)
        reference_lines = path.with_suffix(".txt").read_text().splitlines()
        reference, hypothesis = normalise(reference_lines), normalise([line.text for line in document.lines])
        errors += Levenshtein.distance(reference, hypothesis)
        line_errors += sum(substring_distance(normalise([line]), hypothesis) for line in reference_lines)
        chars += len(reference)
    return {
        "cer": errors / chars,
        "lines": line_errors / chars,
        "median_s": statistics.median(seconds),
        "median_cpu_s": statistics.median(cpu_seconds),
    }


def long_receipt(images: list[Path]) -> tuple[bytes, str]:
    """The four narrowest scans one under the other, as one JPEG, and their reference text in order."""
    narrowest = sorted(images, key=lambda path: Image.open(path).width)[:4]
    scans = [Image.open(path).convert("RGB") for path in narrowest]
    paper = Image.new("RGB", (max(scan.width for scan in scans), sum(scan.height for scan in scans)), "white")
    top = 0
    for scan in scans:
        paper.paste(scan, (0, top))
        top += scan.height
    output = io.BytesIO()
    paper.save(output, "JPEG", quality=95)
    reference = normalise([line for path in narrowest for line in path.with_suffix(".txt").read_text().splitlines()])
    return output.getvalue(), reference


def measure_long(images: list[Path], engine) -> None:
    data, reference = long_receipt(images)
    read_document(images[0], engine, "none")  # warm-up
    started = time.perf_counter()
    decoded = decode_image(data, "JPEG", max_pixels=MAX_PIXELS)
    boxes = recognise(decoded.image, scale=decoded.scale, engine=engine)
    document = build_document([PageText(1, decoded.page_size, tuple(boxes))], source="ocr")
    seconds = time.perf_counter() - started
    hypothesis = normalise([line.text for line in document.lines])
    print(f"long receipt {decoded.page_size[0]} x {decoded.page_size[1]} px (read at {decoded.image.size})")
    print(f"CER {cer(reference, hypothesis):.1%}, {seconds:.2f} s")


def show(path: Path, engine, prepass: str) -> None:
    for line in read_document(path, engine, prepass).lines:
        print(f"  {line.confidence:.2f}  {line.text}")
    print("--- reference")
    print(path.with_suffix(".txt").read_text())


def parse_params(pairs: list[str]) -> dict:
    params = {}
    for pair in pairs:
        key, value = pair.split("=", 1)
        params[key] = int(value) if value.lstrip("-").isdigit() else float(value) if "." in value else value
    return params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--images", type=Path, default=IMAGES)
    parser.add_argument("--prepass", nargs="+", choices=sorted(PREPASSES), default=list(PREPASSES))
    parser.add_argument("--param", action="append", default=[], help="RapidOCR setting, e.g. Det.box_thresh=0.4")
    parser.add_argument("--ink", type=lambda text: tuple(float(x) for x in text.split(",")), help="R,G,B shares")
    parser.add_argument("--max-pixels", type=int, default=MAX_WORKING_PIXELS, help="working image size cap")
    parser.add_argument("--long", action="store_true", help="one long receipt made of four scans")
    parser.add_argument("--show", help="print one receipt's lines (image id) and the reference")
    args = parser.parse_args()
    if not args.images.is_dir():
        print(f"{args.images} is missing: no scans to measure OCR on; the committed scans are under tests/fixtures")
        return
    global MAX_PIXELS
    MAX_PIXELS = args.max_pixels
    engine = create_engine(**parse_params(args.param))
    if args.show:
        show(args.images / f"{args.show}.jpg", engine, args.prepass[0])
        return
    images = sorted(args.images.glob("*.jpg"))
    if not images:
        sys.exit(f"No receipt scans (*.jpg with a .txt beside each) in {args.images}; pass --images DIR")
    if args.long:
        measure_long(images, engine)
        return
    ink = f", reprinted in ink {args.ink}" if args.ink else ""
    print(
        f"{len(images)} images from {args.images}{ink}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    print(f"{'pre-pass':<18}{'CER':>8}{'CER (lines)':>13}{'median s/image':>16}{'median CPU s':>14}")
    for prepass in args.prepass:
        r = measure(images, engine, prepass, args.ink)
        print(f"{prepass:<18}{r['cer']:>8.1%}{r['lines']:>13.1%}{r['median_s']:>16.2f}{r['median_cpu_s']:>14.2f}")


if __name__ == "__main__":
    main()
