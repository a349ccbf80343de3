"""Receipt extraction benchmark: the offline engine over the SROIE development receipts, scored like score.py.

    .venv/bin/python bench/receipts.py                          # both layouts, dev and held-out splits
    .venv/bin/python bench/receipts.py --split dev --show 10    # dev only, with up to 10 mismatches per field
    .venv/bin/python bench/receipts.py --layout rows            # one visual row per line only
    .venv/bin/python bench/receipts.py --data /path/to/sroie_train --scorer /path/to/score.py
    .venv/bin/python bench/receipts.py --noise 0.03         # with simulated OCR confusions (O/0, S/5, I/1 …)
    .venv/bin/python bench/receipts.py --only scans            # the 10 scans through OCR only

The split is fixed by a hash of each receipt id (HELD_OUT_SHARE held out). Tune on dev only; --show never prints
held-out mismatches. Predictions are written in the scorer's format (<id>.json with company, date, address, total)
under bench/.data/receipts/<layout>/ so score.py can be run on them directly. Fields are compared with score.py's
own field_equal (imported from --scorer), so the numbers are the scorer's. Also prints the median and p95 time per
receipt, accuracy above and below confidence 0.7, and item precision/recall on the committed hand-labelled fixture.

The scans (--images, default the team's images/ folder next to the data) go the full path a user's upload takes:
reading.read_document on the JPEG bytes (decode, RapidOCR, lines) and then the engine, scored against each scan's
.json answers with the same field_equal; time per scan is wall time for both steps after one warm-up read (the
model load), median and p95. A summary table puts the text and scan results side by side at the end.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import importlib.util
import json
import os
import random
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the repository in place of bench/, whose http.py would shadow Python's http

from insightshop.services.receipts.document import ReceiptDocument  # noqa: E402
from insightshop.services.receipts.extraction import extract  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "receipts" / "sroie_train"  # the team's development set, next to the repo
DEFAULT_IMAGES = ROOT.parent / "shared" / "receipts" / "images"  # the team's 10 scans with their answers
OUT = ROOT / "bench" / ".data" / "receipts"
ITEMS_FIXTURE = ROOT / "tests" / "fixtures" / "receipts"
HELD_OUT_SHARE = 4  # one receipt in four is held out
LAYOUTS = {"text": "", "rows": "rows/"}
FIELDS = ("company", "date", "address", "total")
CONFIDENT = 0.7
OCR_CONFUSIONS = {"O": "0", "0": "O", "S": "5", "5": "S", "I": "1", "1": "I", "B": "8", "8": "B", "L": "1"}


def split_of(receipt_id: str) -> str:
    """'held-out' for a fixed quarter of the ids (by hash, so stable across runs and machines), else 'dev'."""
    digest = int(hashlib.sha256(receipt_id.encode()).hexdigest()[:8], 16)
    return "held-out" if digest % HELD_OUT_SHARE == 0 else "dev"


def load_scorer(path: Path):
    spec = importlib.util.spec_from_file_location("sroie_score", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def with_ocr_noise(text: str, rate: float, seed: str) -> str:
    """The text with OCR-like confusions (O/0, S/5, I/1, B/8) and dropped spaces at `rate` per character, the same
    for the same receipt on every run."""
    rng = random.Random(seed)
    out = []
    for char in text:
        roll = rng.random()
        if roll < rate and char.upper() in OCR_CONFUSIONS:
            out.append(OCR_CONFUSIONS[char.upper()])
        elif roll < rate / 2 and char == " ":
            continue
        else:
            out.append(char)
    return "".join(out)


def predict(text: str, today: dt.date) -> tuple[dict, dict, float]:
    """(prediction in the scorer's format, confidence per field, seconds) for one receipt's text."""
    started = time.perf_counter()
    result = extract(ReceiptDocument.from_lines(text.split("\n")), today=today)
    seconds = time.perf_counter() - started
    return *as_prediction(result), seconds


def as_prediction(result) -> tuple[dict, dict]:
    """(the extraction in the scorer's format, confidence per field)."""
    values = {
        "company": result.merchant_name,
        "date": result.purchase_date,
        "address": result.merchant_address,
        "total": result.total_amount,
    }
    prediction = {name: "" if v.value is None else str(v.value) for name, v in values.items()}
    return prediction, {name: v.confidence for name, v in values.items()}


def run_layout(data: Path, layout: str, splits: list[str], scorer, today: dt.date, show: int, noise: float = 0) -> None:
    ids = sorted(p.stem for p in data.glob("*.json"))
    out = OUT / layout
    out.mkdir(parents=True, exist_ok=True)
    for split in splits:
        chosen = [i for i in ids if split_of(i) == split]
        rows = []
        for receipt_id in chosen:
            text = (data / f"{LAYOUTS[layout]}{receipt_id}.txt").read_text(encoding="utf-8")
            text = with_ocr_noise(text, noise, receipt_id) if noise else text
            prediction, confidence, seconds = predict(text, today)
            (out / f"{receipt_id}.json").write_text(json.dumps(prediction, indent=1), encoding="utf-8")
            truth = json.loads((data / f"{receipt_id}.json").read_text(encoding="utf-8"))
            correct = {f: scorer.field_equal(f, prediction[f], truth.get(f, "")) for f in FIELDS}
            rows.append((receipt_id, prediction, truth, correct, confidence, seconds))
        title = f"{layout} layout, {split}" + (f", OCR noise {noise:.0%}" if noise else "")
        report(title, rows, show if split == "dev" else 0)


def run_scans(images: Path, scorer, today: dt.date, show: int) -> None:
    """The scans through the upload path (read_document: decode and OCR; then the engine), scored per field."""
    from insightshop.services.receipts.reading import read_document

    paths = sorted(p for p in images.glob("*.jpg") if p.with_suffix(".json").exists())
    if not paths:
        print(f"\n{images} has no scans with answers (<id>.jpg and <id>.json): skipping the OCR run")
        return
    started = time.perf_counter()
    read_document(paths[0].read_bytes(), "image/jpeg")  # warm-up: loads the OCR models once
    print(f"\n(OCR warm-up, models loaded: {time.perf_counter() - started:.1f} s)")
    rows, cpu = [], []
    for path in paths:
        started, cpu_started = time.perf_counter(), time.process_time()
        result = extract(read_document(path.read_bytes(), "image/jpeg", path.name), today=today)
        seconds = time.perf_counter() - started
        cpu.append(time.process_time() - cpu_started)
        prediction, confidence = as_prediction(result)
        truth = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        correct = {f: scorer.field_equal(f, prediction[f], truth.get(f, "")) for f in FIELDS}
        rows.append((path.stem, prediction, truth, correct, confidence, seconds))
    report(f"scans through OCR ({images})", rows, show, unit="s")
    load = os.getloadavg()[0]
    print(f"  CPU time per scan (all threads): median {statistics.median(cpu):.2f} s; load average {load:.1f}")


def report(title: str, rows: list, show: int, unit: str = "ms") -> None:
    n = len(rows)
    print(f"\n== {title}: {n} receipts")
    for field in FIELDS:
        right = sum(r[3][field] for r in rows)
        print(f"  {field:<8} {100 * right / n:6.2f}%   {_calibration(rows, field)}")
    print(f"  overall  {100 * sum(sum(r[3].values()) for r in rows) / (n * len(FIELDS)):6.2f}%")
    print(f"  all four {100 * sum(all(r[3].values()) for r in rows) / n:6.2f}%")
    scale, digits = (1000, 1) if unit == "ms" else (1, 2)
    times = sorted(r[5] * scale for r in rows)
    median, p95 = statistics.median(times), times[int(0.95 * (n - 1))]
    print(f"  time per receipt: median {median:.{digits}f} {unit}, p95 {p95:.{digits}f} {unit}")
    SUMMARY.append((title, {f: 100 * sum(r[3][f] for r in rows) / n for f in FIELDS}, f"{median:.{digits}f} {unit}"))
    for field in FIELDS if show else ():
        wrong = [r for r in rows if not r[3][field]][:show]
        for receipt_id, prediction, truth, *_ in wrong:
            print(f"    [{field}] {receipt_id}: pred={prediction[field]!r} gt={truth.get(field)!r}")


SUMMARY: list[tuple[str, dict[str, float], str]] = []  # (title, accuracy per field, median time) of each run


def print_summary() -> None:
    if not SUMMARY:
        return
    print(f"\n== summary (exact match as score.py; overall = mean of the four)\n  {'run':<40}", end="")
    print("".join(f"{f:>9}" for f in (*FIELDS, "overall")) + "  median time")
    for title, accuracy, median in SUMMARY:
        overall = sum(accuracy.values()) / len(FIELDS)
        cells = "".join(f"{accuracy[f]:8.1f}%" for f in FIELDS) + f"{overall:8.1f}%"
        print(f"  {title[:40]:<40}{cells}  {median}")


def _calibration(rows: list, field: str) -> str:
    parts = []
    for label, keep in ((f">={CONFIDENT}", lambda c: c >= CONFIDENT), (f"<{CONFIDENT}", lambda c: c < CONFIDENT)):
        group = [r for r in rows if keep(r[4][field])]
        if group:
            parts.append(f"{label}: {100 * sum(r[3][field] for r in group) / len(group):5.1f}% of {len(group)}")
    return "  ".join(parts)


def item_scores(split: str, layout: str) -> dict[str, int]:
    """Counts over the hand-labelled fixture receipts of a split: predicted, expected, matched, and of the matched
    items how many also have the labelled quantity and unit price."""
    fixture = json.loads((ITEMS_FIXTURE / "items.json").read_text(encoding="utf-8"))
    today = dt.date.fromisoformat(fixture["today"])
    counts = dict.fromkeys(("predicted", "expected", "matched", "quantity", "unit_price"), 0)
    for receipt in fixture["receipts"]:
        if receipt["split"] != split:
            continue
        file = receipt.get("rows_file", receipt["file"]) if layout == "rows" else receipt["file"]
        text = (ITEMS_FIXTURE / file).read_text(encoding="utf-8")
        got = list(extract(ReceiptDocument.from_lines(text.split("\n")), today=today).items)
        counts["predicted"] += len(got)
        counts["expected"] += len(receipt["items"])
        for want in receipt["items"]:
            found = next((item for item in got if items_match(item, want)), None)
            if found is not None:
                got.remove(found)
                counts["matched"] += 1
                counts["quantity"] += _same(found.quantity, want.get("quantity"))
                counts["unit_price"] += _same(found.unit_price, want.get("unit_price"))
    return counts


def items_match(item, want: dict) -> bool:
    """Equal line totals, and one name (upper-cased, spaces collapsed) contains the other."""
    if not _same(item.total_price, want["total"]):
        return False
    got, expected = (" ".join(str(n).upper().split()) for n in (item.item_name, want["name"]))
    return bool(got) and (got in expected or expected in got)


def _same(value, labelled) -> bool:
    if value is None or labelled is None:
        return value is None and labelled is None
    return Decimal(str(value)) == Decimal(str(labelled))


def report_items(splits: list[str]) -> None:
    if not (ITEMS_FIXTURE / "items.json").exists():
        return
    print("\n== line items (hand-labelled fixture, tests/fixtures/receipts/items.json)")
    for layout in LAYOUTS:
        for split in splits:
            c = item_scores(split, layout)
            precision = c["matched"] / c["predicted"] if c["predicted"] else 0.0
            recall = c["matched"] / c["expected"] if c["expected"] else 0.0
            matched = max(c["matched"], 1)
            print(
                f"  {layout:<5} {split:<8} precision {100 * precision:5.1f}%  recall {100 * recall:5.1f}%"
                f"  ({c['matched']} of {c['predicted']} predicted, {c['expected']} labelled);"
                f"  of matched: quantity {100 * c['quantity'] / matched:5.1f}%, unit price {100 * c['unit_price'] / matched:5.1f}%"
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--scorer", type=Path, default=None, help="score.py (default: next to the data folder)")
    parser.add_argument("--layout", choices=[*LAYOUTS, "both"], default="both")
    parser.add_argument("--split", choices=["dev", "held-out", "both"], default="both")
    parser.add_argument("--show", type=int, default=0, help="print up to N dev mismatches per field")
    parser.add_argument("--today", type=dt.date.fromisoformat, default=dt.date.today())
    parser.add_argument("--images", type=Path, default=DEFAULT_IMAGES, help="scans (<id>.jpg with <id>.json)")
    parser.add_argument(
        "--only", choices=["fields", "items", "scans"], default=None, help="run only the SROIE text, items or scans"
    )
    parser.add_argument("--noise", type=float, default=0, help="simulate OCR confusions at this rate per character")
    args = parser.parse_args(argv)
    if args.only != "items" and not args.data.is_dir():
        print(f"{args.data} is missing: the SROIE development set is not on this machine; scoring items only")
        args.only = "items"
    scorer = load_scorer(args.scorer or args.data.parent / "score.py") if args.only != "items" else None
    splits = ["dev", "held-out"] if args.split == "both" else [args.split]
    for layout in (LAYOUTS if args.layout == "both" else [args.layout]) if args.only in (None, "fields") else []:
        run_layout(args.data, layout, splits, scorer, args.today, args.show, args.noise)
    if args.only in (None, "scans"):
        if args.images.is_dir():
            run_scans(args.images, scorer, args.today, args.show)
        else:
            print(f"\n{args.images} is missing: no scans to run through OCR on this machine")
    if args.only in (None, "items"):
        report_items(splits)
    print_summary()


if __name__ == "__main__":
    main()
