"""Intent decided by data: a classifier trained on the labelled examples in data/examples/ (word and character
n-grams, logistic regression). Deterministic, trained once per process on first use (a second or two), then
milliseconds per message. The held-out files (heldout*.jsonl) are never trained on.

classify(text) -> Guess(label, confidence, ranked): the most likely intent, its probability and the runners-up.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

DATA = Path(__file__).with_name("data")
EXAMPLES = DATA / "examples"
HELD_OUT_PREFIX = "heldout"


@dataclass(frozen=True)
class Guess:
    label: str
    confidence: float
    ranked: list[tuple[str, float]] = field(default_factory=list)  # best first, the label included


@cache
def intents() -> dict[str, str]:
    """label -> what a person wants (data/intents.json)."""
    return {k: v for k, v in json.loads((DATA / "intents.json").read_text()).items() if not k.startswith("_")}


def load_examples(*, held_out: bool = False) -> list[dict]:
    """The training examples (held_out=False) or only the held-out ones (held_out=True)."""
    rows = []
    for path in sorted(EXAMPLES.glob("*.jsonl")):
        if path.name.startswith(HELD_OUT_PREFIX) != held_out:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            row = json.loads(line)
            if row.get("intent") not in intents():
                raise ValueError(f"{path.name}:{number}: unknown intent {row.get('intent')!r}")
            rows.append(row)
    return rows


def build_model(rows: list[dict]):
    """A fitted pipeline: TF-IDF over words (1–2) and characters within words (2–5), then logistic regression."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline, make_union

    features = make_union(
        TfidfVectorizer(analyzer="word", ngram_range=(1, 2), sublinear_tf=True, token_pattern=r"[a-z0-9$%£€']+"),
        TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True, min_df=2),
    )
    model = make_pipeline(features, LogisticRegression(C=20, max_iter=3000))
    model.fit([prepare(r["text"]) for r in rows], [r["intent"] for r in rows])
    return model


def prepare(text: str) -> str:
    return " ".join((text or "").lower().split())


_lock = threading.Lock()
_model = None


def model():
    global _model  # noqa: PLW0603 — derived from files in the package: the same in every process
    if _model is None:
        with _lock:
            if _model is None:
                _model = build_model(load_examples())
    return _model


def classify(text: str) -> Guess:
    """The most likely intent of one message, with its probability and the runners-up."""
    fitted = model()
    probabilities = fitted.predict_proba([prepare(text)])[0]
    ranked = sorted(zip(fitted.classes_, probabilities, strict=True), key=lambda pair: -pair[1])[:5]
    ranked = [(str(label), float(p)) for label, p in ranked]
    return Guess(ranked[0][0], ranked[0][1], ranked)
