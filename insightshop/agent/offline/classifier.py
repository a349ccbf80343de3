"""Intent decided by data: a linear classifier trained on the labelled examples in data/examples/ (TF-IDF over words
and word pairs, and character n-grams within words, so that typos still share most of their features).

classify(text, is_admin=None) -> Guess(label, confidence, ranked): the most likely intent, a calibrated probability
and the runners-up. A shopper (is_admin=False) is never given an admin intent: those labels are left out and the
rest renormalised.

- Deterministic: the same example files give the same model and the same answers.
- Trained on first use from the non-held-out files (heldout*.jsonl are never trained on), a few seconds; the fitted
  model is cached on disk (numpy arrays, no pickle) keyed by a hash of the example files and of this module's
  settings, so the next process loads it in milliseconds. No cache directory, or an unwritable one: it trains.
- Classifying runs the model by hand (n-gram lookups and one small matrix product): a fraction of a millisecond.
- Confidence: softmax of the margins scaled by a temperature fitted at training time on a fixed slice of the
  training examples (never the held-out files), so that "0.8" means right about 80% of the time.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import re
import tempfile
import threading
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

DATA = Path(__file__).with_name("data")
EXAMPLES = DATA / "examples"
HELD_OUT_PREFIX = "heldout"
ADMIN_PREFIX = "admin_"

# Settings (part of the cache key): features and model.
WORD_NGRAMS = (1, 2)
CHAR_NGRAMS = (2, 5)
CHAR_MIN_DF = 2
SVM_C = 0.5
LIKELY = 0.1  # a meaning at least this probable is worth trying after the likeliest (rules, deciders)
PLAINLY_ADMIN = 0.85  # a shopper's message this surely an admin request is planned as one (the guard refuses it)
ADMIN_PRIOR = 0.7  # an admin's message: admin intents a little likelier (log-odds), since admins mostly run the shop
CALIBRATION_SHARE = 5  # 1 in N training examples (by a hash of the text) fits the temperature before the final fit
SETTINGS = f"v4 shapes words{WORD_NGRAMS} chars{CHAR_NGRAMS} min_df{CHAR_MIN_DF} C{SVM_C} cal{CALIBRATION_SHARE}"

TOKEN = re.compile(r"[a-z0-9$%£€#']+|[?]")
DIGITS = re.compile(r"\d+")
QUOTES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"})


@dataclass(frozen=True)
class Guess:
    label: str
    confidence: float
    ranked: list[tuple[str, float]] = field(default_factory=list)  # best first, the label included

    def runner_up(self) -> tuple[str, float] | None:
        return self.ranked[1] if len(self.ranked) > 1 else None


@cache
def intents() -> dict[str, str]:
    """label -> what a person wants (data/intents.json)."""
    return {k: v for k, v in json.loads((DATA / "intents.json").read_text()).items() if not k.startswith("_")}


def example_files(*, held_out: bool = False) -> list[Path]:
    return [p for p in sorted(EXAMPLES.glob("*.jsonl")) if p.name.startswith(HELD_OUT_PREFIX) == held_out]


def load_examples(*, held_out: bool = False, files: list[Path] | None = None) -> list[dict]:
    """The training examples (held_out=False) or only the held-out ones (held_out=True)."""
    rows = []
    for path in files if files is not None else example_files(held_out=held_out):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            row = json.loads(line)
            if row.get("intent") not in intents():
                raise ValueError(f"{path.name}:{number}: unknown intent {row.get('intent')!r}")
            rows.append(row)
    if not held_out and files is None:  # a phrasing also in a held-out file is measured there, never trained on
        held = {prepare(r["text"]) for r in load_examples(held_out=True)}
        rows = [r for r in rows if prepare(r["text"]) not in held]
    return rows


# Features -----------------------------------------------------------------------------------------------------------


def prepare(text: str) -> str:
    """Lower case, straight quotes, numbers reduced to their shape ("order 1042" and "order 87" look alike)."""
    text = (text or "").translate(QUOTES).lower()
    return " ".join(DIGITS.sub(lambda m: "0" * min(len(m.group(0)), 3), text).split())


def words(text: str) -> list[str]:
    tokens = TOKEN.findall(text)
    grams = list(tokens)
    grams += [f"{a} {b}" for a, b in zip(tokens, tokens[1:], strict=False)] if WORD_NGRAMS[1] >= 2 else []
    return grams


def chars(text: str) -> list[str]:
    """Character n-grams within each word padded by spaces (sklearn's "char_wb")."""
    low, high = CHAR_NGRAMS
    grams = []
    for word in text.split():
        padded = f" {word} "
        for n in range(low, high + 1):
            if len(padded) < n:
                break
            grams += [padded[i : i + n] for i in range(len(padded) - n + 1)]
    return grams


@cache
def word_classes() -> dict[str, str]:
    """Shop words -> their class, so that "navy chinos" and "red dresses" share a feature ("_colour_ _garment_")."""
    from ...services.search_terms import CATEGORY_WORDS, SYNONYMS
    from ...services.vocabulary import CLOTHING_TYPES, COLOR_ALIASES, COLORS, FABRICS, SIZE_ALIASES

    classes = dict.fromkeys(CATEGORY_WORDS, "_who_")
    classes |= dict.fromkeys((k for k in SIZE_ALIASES if " " not in k and len(k) > 1), "_size_")
    classes |= dict.fromkeys([*COLORS, *COLOR_ALIASES], "_colour_") | dict.fromkeys(FABRICS, "_fabric_")
    garments = {*CLOTHING_TYPES, *SYNONYMS}
    classes |= dict.fromkeys(garments, "_garment_") | {g + "s": "_garment_" for g in garments if not g.endswith("s")}
    classes |= dict.fromkeys(ORDINALS, "_ordinal_") | dict.fromkeys(PERIODS, "_period_")
    return classes


ORDINALS = ("first", "second", "third", "fourth", "fifth", "last", "1st", "2nd", "3rd", "4th", "5th", "middle", "other")
PERIODS = ("today", "yesterday", "week", "month", "year", "quarter", "weekend", "monday", "tuesday", "wednesday",
           "thursday", "friday", "saturday", "sunday", "january", "february", "march", "april", "may", "june", "july",
           "august", "september", "october", "november", "december", "christmas", "summer", "winter", "spring",
           "autumn")  # fmt: skip


def shapes(text: str) -> list[str]:
    """Word pairs with shop words replaced by their class and numbers by one mark (its words stay in words())."""
    classes = word_classes()
    tokens = [classes.get(t, "_n_" if t[0].isdigit() else t) for t in TOKEN.findall(text)]
    return [f"{a} {b}" for a, b in zip(tokens, tokens[1:], strict=False) if a[0] == "_" or b[0] == "_"]


ANALYZERS = (words, chars, shapes)


# Training -------------------------------------------------------------------------------------------------------------


@dataclass
class Model:
    """What classifying needs: per analyzer a vocabulary and idf weights; one weight column per label."""

    classes: list[str]
    vocabularies: list[dict[str, int]]  # per analyzer: n-gram -> row in weights
    idf: np.ndarray  # per feature row
    weights: np.ndarray  # (features, classes)
    bias: np.ndarray  # (classes,)
    temperature: float
    admin: np.ndarray  # bool per class: an admin intent

    def margins(self, text: str) -> np.ndarray:
        prepared = prepare(text)
        scores = self.bias.copy()
        for analyzer, vocabulary in zip(ANALYZERS, self.vocabularies, strict=True):
            counts: dict[int, int] = {}
            for gram in analyzer(prepared):
                row = vocabulary.get(gram)
                if row is not None:
                    counts[row] = counts.get(row, 0) + 1
            if not counts:
                continue
            rows = np.fromiter(counts, dtype=np.int64, count=len(counts))
            values = (1.0 + np.log(np.fromiter(counts.values(), dtype=np.float64, count=len(counts)))) * self.idf[rows]
            values /= math.sqrt(float(values @ values))
            scores += values @ self.weights[rows]
        return scores


def fit(rows: list[dict]) -> Model:
    """Fit a model on these examples: TF-IDF features, a linear SVM, a temperature for its margins (fitted on a
    fixed slice of the examples by a first SVM that did not see that slice)."""
    from scipy.sparse import hstack
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.svm import LinearSVC

    texts = [prepare(r["text"]) for r in rows]
    labels = np.array([r["intent"] for r in rows])
    vectorizers = [
        TfidfVectorizer(analyzer=analyzer, sublinear_tf=True, min_df=CHAR_MIN_DF if analyzer is chars else 1)
        for analyzer in ANALYZERS
    ]
    matrix = hstack([v.fit_transform(texts) for v in vectorizers]).tocsr()
    held = np.array([_bucket(text) == 0 for text in texts])
    first = LinearSVC(C=SVM_C, random_state=0, max_iter=5000).fit(matrix[~held], labels[~held])
    margins = matrix[held] @ first.coef_.T + first.intercept_
    temperature = _temperature(np.asarray(margins), [str(c) for c in first.classes_], list(labels[held]))
    svm = LinearSVC(C=SVM_C, random_state=0, max_iter=5000).fit(matrix, labels)
    return _compact(vectorizers, svm, temperature)


def _bucket(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest()[:8], 16) % CALIBRATION_SHARE


def _compact(vectorizers, svm, temperature: float) -> Model:
    vocabularies, idf, offset = [], [], 0
    for vectorizer in vectorizers:
        vocabularies.append({gram: offset + column for gram, column in vectorizer.vocabulary_.items()})
        idf.append(vectorizer.idf_)
        offset += len(vectorizer.vocabulary_)
    classes = [str(c) for c in svm.classes_]
    return Model(classes=classes, vocabularies=vocabularies, idf=np.concatenate(idf),
                 weights=np.ascontiguousarray(svm.coef_.T), bias=svm.intercept_.astype(np.float64),
                 temperature=temperature, admin=np.array([c.startswith(ADMIN_PREFIX) for c in classes]))  # fmt: skip


def _temperature(margins: np.ndarray, classes: list[str], labels: list[str]) -> float:
    """The scale of the margins that makes softmax probabilities honest on examples the model did not see."""
    index = {label: i for i, label in enumerate(classes)}
    known = [(i, index[y]) for i, y in enumerate(labels) if y in index]
    if not known:
        return 5.0
    rows = np.array([i for i, _ in known])
    truth = np.array([j for _, j in known])
    best, best_loss = 1.0, math.inf
    for scale in np.arange(0.5, 20.01, 0.25):
        scaled = margins[rows] * scale
        scaled -= scaled.max(axis=1, keepdims=True)
        log_probabilities = scaled - np.log(np.exp(scaled).sum(axis=1, keepdims=True))
        loss = -float(log_probabilities[np.arange(len(truth)), truth].mean())
        if loss < best_loss:
            best, best_loss = float(scale), loss
    return best


# Cache on disk --------------------------------------------------------------------------------------------------------


def data_key(files: list[Path] | None = None) -> str:
    digest = hashlib.sha256(SETTINGS.encode())
    digest.update((DATA / "intents.json").read_bytes())
    for path in files if files is not None else example_files():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:24]


def cache_dir() -> Path | None:
    """$INSIGHTSHOP_CACHE_DIR, else $XDG_CACHE_HOME/insightshop, else ~/.cache/insightshop (None: no home)."""
    configured = os.environ.get("INSIGHTSHOP_CACHE_DIR")
    if configured:
        return Path(configured) / "intent-classifier"
    try:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    except (KeyError, RuntimeError):
        return None
    return base / "insightshop" / "intent-classifier"


def save(model: Model, path: Path) -> None:
    grams = [np.array(list(v), dtype=np.str_) for v in model.vocabularies]
    rows = [np.fromiter(v.values(), dtype=np.int64, count=len(v)) for v in model.vocabularies]
    path.parent.mkdir(parents=True, exist_ok=True)
    vocabularies = {f"grams{i}": g for i, g in enumerate(grams)} | {f"rows{i}": r for i, r in enumerate(rows)}
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npz", delete=False) as handle:
        try:  # written aside, then moved in one step: another process never reads half a file
            np.savez(handle, classes=np.array(model.classes, dtype=np.str_), idf=model.idf, weights=model.weights,
                     bias=model.bias, temperature=np.array(model.temperature), **vocabularies)  # fmt: skip
        except BaseException:
            os.unlink(handle.name)
            raise
    os.replace(handle.name, path)


def load(path: Path) -> Model:
    with np.load(path, allow_pickle=False) as stored:
        classes = [str(c) for c in stored["classes"]]
        vocabularies = [dict(zip(stored[f"grams{i}"].tolist(), stored[f"rows{i}"].tolist(), strict=True))
                        for i in range(len(ANALYZERS))]  # fmt: skip
        return Model(classes=classes, vocabularies=vocabularies, idf=stored["idf"], weights=stored["weights"],
                     bias=stored["bias"], temperature=float(stored["temperature"]),
                     admin=np.array([c.startswith(ADMIN_PREFIX) for c in classes]))  # fmt: skip


def build() -> Model:
    """The model for the current example files: from the disk cache when it matches, else trained (and cached)."""
    directory = cache_dir()
    path = directory / f"model-{data_key()}.npz" if directory else None
    if path is not None and path.exists():
        try:
            return load(path)
        except (OSError, ValueError, KeyError):
            pass
    model = fit(load_examples())
    if path is not None:
        with contextlib.suppress(OSError):  # a read-only home: each process trains instead
            save(model, path)
    return model


_lock = threading.Lock()
_model: Model | None = None


def model() -> Model:
    global _model  # noqa: PLW0603 — derived from files in the package: the same in every process
    if _model is None:
        with _lock:
            if _model is None:
                _model = build()
    return _model


def rank(fitted: Model, text: str, *, is_admin: bool | None = None) -> Guess:
    scaled = fitted.margins(text) * fitted.temperature
    if is_admin is False:
        scaled = np.where(fitted.admin, -np.inf, scaled)
    elif is_admin:
        scaled = scaled + fitted.admin * ADMIN_PRIOR
    scaled -= scaled.max()
    probabilities = np.exp(scaled)
    probabilities /= probabilities.sum()
    order = np.argsort(-probabilities, kind="stable")[:5]
    ranked = [(fitted.classes[i], float(probabilities[i])) for i in order]
    return Guess(ranked[0][0], ranked[0][1], ranked)


def classify(text: str, *, is_admin: bool | None = None) -> Guess:
    """The most likely intent of one message, with its probability and the runners-up (admin intents only for an
    admin, or when is_admin is not given)."""
    return rank(model(), text, is_admin=is_admin)
