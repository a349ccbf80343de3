"""categorize_item measured on hand-labelled item names: SROIE receipts, clothing and groceries.

The holdout split (30%, drawn by a seeded shuffle when the labels were written, before any keyword) is never
tuned on; the floors sit just under the accuracies measured when this was written, so a regression shows. The
keywords were built from the whole SROIE development text, which the SROIE-sourced items come from too.
Run with -s to see the misses."""

from collections import Counter

from insightshop.services.actors import Actor
from insightshop.services.receipts import categorize
from tests.receipts.category_helpers import categories, labelled_items  # noqa: F401  (fixture)

TUNE_FLOOR = 0.95  # measured 114/117 = 0.974
HOLDOUT_FLOOR = 0.94  # measured 49/50 = 0.980 (48/50 at the first measurement, before a data bug was fixed)


def accuracy(split: str) -> tuple[float, list, Counter]:
    items = labelled_items(split)
    context = categorize.load_context(Actor())
    misses, methods = [], Counter()
    for item in items:
        answer = categorize.categorize_with(context, item["item_name"])
        methods[answer["match_method"]] += 1
        if answer["category_name"] != item["category"]:
            misses.append((item["item_name"], item["category"], answer["category_name"], answer["match_method"]))
    return 1 - len(misses) / len(items), misses, methods


def test_accuracy_on_the_tuning_split(categories):  # noqa: F811
    score, misses, methods = accuracy("tune")
    print(f"tune {score:.3f}", methods, *misses, sep="\n")
    assert score >= TUNE_FLOOR


def test_accuracy_on_the_holdout_split(categories):  # noqa: F811
    score, misses, methods = accuracy("holdout")
    print(f"holdout {score:.3f}", methods, *misses, sep="\n")
    assert score >= HOLDOUT_FLOOR
