"""Receipt extraction benchmark: the offline engine over the SROIE development receipts, scored like score.py.

    .venv/bin/python bench/receipts.py                          # both layouts, dev and held-out splits
    .venv/bin/python bench/receipts.py --split dev --show 10    # dev only, with up to 10 mismatches per field
    .venv/bin/python bench/receipts.py --layout rows            # one visual row per line only
    .venv/bin/python bench/receipts.py --data /path/to/sroie_train --scorer /path/to/score.py

The split is fixed by a hash of each receipt id (HELD_OUT_SHARE held out). Tune on dev only; --show never prints
held-out mismatches. Predictions are written in the scorer's format (<id>.json with company, date, address, total)
under bench/.data/receipts/<layout>/ so score.py can be run on them directly. Fields are compared with score.py's
own field_equal (imported from --scorer), so the numbers are the scorer's. Also prints the median and p95 time per
receipt, accuracy above and below confidence 0.7, and item precision/recall on the committed hand-labelled fixture.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import importlib.util
import json
import statistics
import sys
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from insightshop.services.receipts.document import ReceiptDocument  # noqa: E402
from insightshop.services.receipts.extraction import extract  # noqa: E402

DEFAULT_DATA = Path("/work/shared/receipts/sroie_train")
OUT = ROOT / "bench" / ".data" / "receipts"
ITEMS_FIXTURE = ROOT / "tests" / "fixtures" / "receipts"
HELD_OUT_SHARE = 4  # one receipt in four is held out
LAYOUTS = {"text": "", "rows": "rows/"}
FIELDS = ("company", "date", "address", "total")
CONFIDENT = 0.7


def split_of(receipt_id: str) -> str:
    """'held-out' for a fixed quarter of the ids (by hash, so stable across runs and machines), else 'dev'."""
    digest = int(hashlib.sha256(receipt_id.encode()).hexdigest()[:8], 16)
    return "held-out" if digest % HELD_OUT_SHARE == 0 else "dev"


def load_scorer(path: Path):
    spec = importlib.util.spec_from_file_location("sroie_score", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def predict(text: str, today: dt.date) -> tuple[dict, dict, float]:
    """(prediction in the scorer's format, confidence per field, seconds) for one receipt's text."""
    started = time.perf_counter()
    result = extract(ReceiptDocument.from_lines(text.split("\n")), today=today)
    seconds = time.perf_counter() - started
    values = {
        "company": result.merchant_name,
        "date": result.purchase_date,
        "address": result.merchant_address,
        "total": result.total_amount,
    }
    prediction = {name: "" if v.value is None else str(v.value) for name, v in values.items()}
    return prediction, {name: v.confidence for name, v in values.items()}, seconds


def run_layout(data: Path, layout: str, splits: list[str], scorer, today: dt.date, show: int) -> None:
    ids = sorted(p.stem for p in data.glob("*.json"))
    out = OUT / layout
    out.mkdir(parents=True, exist_ok=True)
    for split in splits:
        chosen = [i for i in ids if split_of(i) == split]
        rows = []
        for receipt_id in chosen:
            text = (data / f"{LAYOUTS[layout]}{receipt_id}.txt").read_text(encoding="utf-8")
            prediction, confidence, seconds = predict(text, today)
            (out / f"{receipt_id}.json").write_text(json.dumps(prediction, indent=1), encoding="utf-8")
            truth = json.loads((data / f"{receipt_id}.json").read_text(encoding="utf-8"))
            correct = {f: scorer.field_equal(f, prediction[f], truth.get(f, "")) for f in FIELDS}
            rows.append((receipt_id, prediction, truth, correct, confidence, seconds))
        report(f"{layout} layout, {split}", rows, show if split == "dev" else 0)


def report(title: str, rows: list, show: int) -> None:
    n = len(rows)
    print(f"\n== {title}: {n} receipts")
    for field in FIELDS:
        right = sum(r[3][field] for r in rows)
        print(f"  {field:<8} {100 * right / n:6.2f}%   {_calibration(rows, field)}")
    print(f"  overall  {100 * sum(sum(r[3].values()) for r in rows) / (n * len(FIELDS)):6.2f}%")
    print(f"  all four {100 * sum(all(r[3].values()) for r in rows) / n:6.2f}%")
    times = sorted(r[5] * 1000 for r in rows)
    print(f"  time per receipt: median {statistics.median(times):.1f} ms, p95 {times[int(0.95 * (n - 1))]:.1f} ms")
    for field in FIELDS if show else ():
        wrong = [r for r in rows if not r[3][field]][:show]
        for receipt_id, prediction, truth, *_ in wrong:
            print(f"    [{field}] {receipt_id}: pred={prediction[field]!r} gt={truth.get(field)!r}")


def _calibration(rows: list, field: str) -> str:
    parts = []
    for label, keep in ((f">={CONFIDENT}", lambda c: c >= CONFIDENT), (f"<{CONFIDENT}", lambda c: c < CONFIDENT)):
        group = [r for r in rows if keep(r[4][field])]
        if group:
            parts.append(f"{label}: {100 * sum(r[3][field] for r in group) / len(group):5.1f}% of {len(group)}")
    return "  ".join(parts)


def item_scores(split: str, today: dt.date) -> tuple[int, int, int]:
    """(true positives, predicted, expected) item counts over the hand-labelled fixture receipts of a split."""
    labels = json.loads((ITEMS_FIXTURE / "items.json").read_text(encoding="utf-8"))
    tp = predicted = expected = 0
    for receipt in labels["receipts"]:
        if receipt["split"] != split:
            continue
        text = (ITEMS_FIXTURE / receipt["file"]).read_text(encoding="utf-8")
        result = extract(ReceiptDocument.from_lines(text.split("\n")), today=today)
        got = [_item_key(i.item_name, i.quantity, i.unit_price, i.total_price) for i in result.items]
        want = [_item_key(i["name"], i.get("quantity"), i.get("unit_price"), i["total"]) for i in receipt["items"]]
        tp += sum(min(got.count(k), want.count(k)) for k in set(want))
        predicted += len(got)
        expected += len(want)
    return tp, predicted, expected


def _item_key(name, quantity, unit_price, total) -> tuple:
    """An item matches when its name (case and spacing aside) and every number printed for it agree."""
    number = lambda v: None if v is None else Decimal(str(v)).normalize()  # noqa: E731
    return " ".join(str(name).upper().split()), number(quantity), number(unit_price), number(total)


def report_items(today: dt.date) -> None:
    if not (ITEMS_FIXTURE / "items.json").exists():
        return
    print("\n== line items (hand-labelled fixture, tests/fixtures/receipts/)")
    for split in ("dev", "held-out"):
        tp, predicted, expected = item_scores(split, today)
        precision = tp / predicted if predicted else 0.0
        recall = tp / expected if expected else 0.0
        print(
            f"  {split:<8} precision {100 * precision:5.1f}%  recall {100 * recall:5.1f}%  ({tp}/{predicted} of {expected})"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--scorer", type=Path, default=None, help="score.py (default: next to the data folder)")
    parser.add_argument("--layout", choices=[*LAYOUTS, "both"], default="both")
    parser.add_argument("--split", choices=["dev", "held-out", "both"], default="both")
    parser.add_argument("--show", type=int, default=0, help="print up to N dev mismatches per field")
    parser.add_argument("--today", type=dt.date.fromisoformat, default=dt.date.today())
    args = parser.parse_args(argv)
    scorer = load_scorer(args.scorer or args.data.parent / "score.py")
    splits = ["dev", "held-out"] if args.split == "both" else [args.split]
    for layout in LAYOUTS if args.layout == "both" else [args.layout]:
        run_layout(args.data, layout, splits, scorer, args.today, args.show)
    report_items(args.today)


if __name__ == "__main__":
    main()
