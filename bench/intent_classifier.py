"""Would a small trained model decide intents better than the rule pipeline? Measured, not assumed.

    .venv/bin/python bench/intent_classifier.py

Trains a character n-gram classifier (scikit-learn: TF-IDF over char 2–5-grams + logistic regression) on the
development split of the offline corpus (message → intent: the first tool's name, or reply / follow_up /
login_form), then scores intent-only accuracy on the held-out split against the rule pipeline, and a hybrid that
asks the classifier only when the rules fall through to "Sorry, I didn't get that". Training time is printed too.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)  # in place of bench/ (bench/http.py)

from insightshop.agent.offline import interpret  # noqa: E402
from tests.agent.test_offline_corpus import _case, dev_single, expected_kind, heldout_single, kind_of  # noqa: E402


def label(expected) -> str:
    kind = expected_kind(expected)
    return kind[0] if isinstance(kind, list) else kind


def main() -> None:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    train = [(_case(e)[0], label(e[1])) for e in dev_single()]
    test = [_case(e) for e in heldout_single()]
    started = time.perf_counter()
    model = make_pipeline(TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True),
                          LogisticRegression(max_iter=2000, C=10))  # fmt: skip
    model.fit([m for m, _ in train], [y for _, y in train])
    trained = time.perf_counter() - started
    rules = model_right = hybrid = 0
    for message, expected, context, is_admin in test:
        want = label(expected)
        result = interpret(message, context, is_admin=is_admin)
        got = kind_of(result)
        ruled = got[0] if isinstance(got, list) else got
        guessed = model.predict([message])[0]
        rules += ruled == want
        model_right += guessed == want
        fell_through = not result.calls and (result.reply or "").startswith("Sorry, I didn't get that")
        hybrid += (guessed if fell_through else ruled) == want
    total = len(test)
    print(f"Intent on the held-out split ({total} requests; classifier trained on {len(train)} in {trained:.2f} s):")
    print(f"  rule pipeline            {rules}/{total} ({rules / total:.1%})")
    print(f"  char n-gram classifier   {model_right}/{total} ({model_right / total:.1%})")
    print(f"  rules, classifier when the rules fall through  {hybrid}/{total} ({hybrid / total:.1%})")


if __name__ == "__main__":
    main()
