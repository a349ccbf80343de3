"""How well does the intent classifier (insightshop/agent/offline/classifier.py) understand messages it never saw?

    .venv/bin/python bench/intent_classifier.py          # the held-out figures (README "The assistant's understanding")
    .venv/bin/python bench/intent_classifier.py --cv 5   # development: k-fold cross-validation on the training files

Trains on the training files (data/examples/*.jsonl except heldout*), then reports on the held-out files, which no
training run or rule ever used: per-intent precision and recall, overall accuracy, accuracy per file, how often
the confidence clears pipeline.CONFIDENCE_FLOOR and how right it is then, and the training, loading and classifying
times. heldout_people.jsonl (written by people who never read the engine) is reported on its own and only as
figures: its messages are never printed. Cross-validation (--cv) is for development: it never touches held-out files.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)  # in place of bench/ (bench/http.py)

from insightshop.agent.offline import classifier, pipeline  # noqa: E402

PEOPLE = "heldout_people.jsonl"


def score(model, rows: list[dict]) -> tuple[list[tuple[str, str, float]], list[float]]:
    """(expected, guessed, confidence) per row, and the milliseconds each classification took."""
    outcomes, times = [], []
    for row in rows:
        started = time.perf_counter()
        guess = classifier.rank(model, row["text"], is_admin=bool(row.get("admin")))
        times.append((time.perf_counter() - started) * 1000)
        outcomes.append((row["intent"], guess.label, guess.confidence))
    return outcomes, times


def accuracy(outcomes) -> float:
    return sum(want == got for want, got, _ in outcomes) / max(len(outcomes), 1)


def per_intent(outcomes) -> list[tuple[str, int, float, float]]:
    """(label, support, precision, recall) for every label seen in the expected or guessed column."""
    expected = Counter(want for want, _, _ in outcomes)
    guessed = Counter(got for _, got, _ in outcomes)
    right = Counter(want for want, got, _ in outcomes if want == got)
    labels = sorted(set(expected) | set(guessed))
    return [(label, expected[label], right[label] / guessed[label] if guessed[label] else 0.0,
             right[label] / expected[label] if expected[label] else 0.0) for label in labels]  # fmt: skip


def confidence_table(outcomes) -> list[str]:
    floor = pipeline.CONFIDENCE_FLOOR
    above = [o for o in outcomes if o[2] >= floor]
    below = [o for o in outcomes if o[2] < floor]
    lines = [f"  confidence >= {floor}: {len(above)}/{len(outcomes)} messages, {accuracy(above):.1%} right;"
             f" below: {len(below)}, {accuracy(below):.1%} right"]  # fmt: skip
    for low, high in ((0.0, 0.3), (0.3, 0.5), (0.5, 0.7), (0.7, 0.9), (0.9, 1.01)):
        band = [o for o in outcomes if low <= o[2] < high]
        if band:
            lines.append(f"    {low:.1f}–{min(high, 1):.1f}: {len(band):4d} messages, {accuracy(band):.1%} right")
    return lines


def held_out_report() -> None:
    rows = classifier.load_examples()
    started = time.perf_counter()
    import sklearn.feature_extraction.text  # noqa: F401 — its import is timed apart from the training
    import sklearn.svm  # noqa: F401

    imported = time.perf_counter() - started
    started = time.perf_counter()
    model = classifier.fit(rows)
    trained = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.npz"
        classifier.save(model, path)
        started = time.perf_counter()
        classifier.load(path)
        loaded = time.perf_counter() - started
    files = [p for p in classifier.example_files(held_out=True) if p.name != PEOPLE]
    held = classifier.load_examples(files=files)
    outcomes, times = score(model, held)
    print(f"Trained on {len(rows)} examples in {trained:.2f} s (+ {imported:.2f} s importing scikit-learn; the cached"
          f" model loads in {loaded * 1000:.0f} ms); temperature {model.temperature:.2f}")  # fmt: skip
    ordered = sorted(times)
    print(f"Classify: median {statistics.median(times):.2f} ms, p95 {ordered[int(len(ordered) * 0.95)]:.2f} ms")
    print(f"\nHeld-out ({len(held)} messages, never trained on): {accuracy(outcomes):.1%} right")
    for path in files:
        file_outcomes, _ = score(model, classifier.load_examples(files=[path]))
        print(f"  {path.name}: {accuracy(file_outcomes):.1%} of {len(file_outcomes)}")
    print("\n".join(confidence_table(outcomes)))
    print(f"\n{'intent':24} {'n':>4} {'precision':>9} {'recall':>7}")
    for label, support, precision, recall in per_intent(outcomes):
        print(f"{label:24} {support:4d} {precision:9.0%} {recall:7.0%}")
    people = classifier.EXAMPLES / PEOPLE
    if people.exists():
        people_outcomes, _ = score(model, classifier.load_examples(files=[people]))
        print(f"\nWritten by people who never read the engine ({PEOPLE}, {len(people_outcomes)} messages):"
              f" {accuracy(people_outcomes):.1%} right")  # fmt: skip
        print("\n".join(confidence_table(people_outcomes)))
    else:
        print(f"\n({PEOPLE} not present: no figure for phrasings by people who never read the engine)")


def cross_validate(folds: int) -> None:
    """Development only: hand-written training examples in k folds (generated ones always train)."""
    rows = classifier.load_examples()
    generated = [r for r, f in zip(rows, _files_of(rows), strict=True) if f == "generated.jsonl"]
    written = [r for r, f in zip(rows, _files_of(rows), strict=True) if f != "generated.jsonl"]
    outcomes = []
    for fold in range(folds):
        train = generated + [r for i, r in enumerate(written) if i % folds != fold]
        test = [r for i, r in enumerate(written) if i % folds == fold]
        fold_outcomes, _ = score(classifier.fit(train), test)
        outcomes += fold_outcomes
    print(f"{folds}-fold cross-validation on {len(written)} hand-written training examples: {accuracy(outcomes):.1%}")
    print("\n".join(confidence_table(outcomes)))
    worst = sorted(per_intent(outcomes), key=lambda item: item[3])[:12]
    print("lowest recall: " + ", ".join(f"{label} {recall:.0%} (n={n})" for label, n, _, recall in worst))


def _files_of(rows: list[dict]) -> list[str]:
    names = []
    for path in classifier.example_files():
        names += [path.name] * len(classifier.load_examples(files=[path]))
    assert len(names) == len(rows)
    return names


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cv", type=int, metavar="K", help="k-fold cross-validation on the training files instead")
    arguments = parser.parse_args()
    if arguments.cv:
        cross_validate(arguments.cv)
    else:
        held_out_report()
