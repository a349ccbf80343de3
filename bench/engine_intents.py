"""How often does the whole offline engine do what a labelled message asks, not only classify it right?

    .venv/bin/python bench/engine_intents.py          # the held-out figures (README "The assistant's understanding")
    .venv/bin/python bench/engine_intents.py --dev    # the training files, with every miss printed (for development)

Each single message of the example files (those written as a first turn: no "context") goes through the whole
engine (offline.interpret, as a signed-in shopper or, for admin intents, an admin) and what it did is mapped back to
the intents it can serve: a search serves a product search or a refinement, a cart read serves a cart question or the
first step of a change, a question that asks for what is missing serves any action, a plain reply serves small talk,
refusals and shop questions; "I didn't get that" and the did-you-mean buttons serve nothing. bench/intent_classifier.py
measures the classifier alone; the gap between the two is what the acts and the phrase rules lose.

The held-out files are never trained on; their messages are never printed (only figures). --dev prints the misses of
the training files, the ones to learn from.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parent.parent)  # in place of bench/ (bench/http.py)

from insightshop.agent.offline import classifier, interpret, pipeline  # noqa: E402

SERVES = {
    "search_products": {"product_search", "refine_results", "product_details", "outfit_suggest"},
    "suggest_outfit": {"outfit_suggest"},
    "cart_add_item": {"cart_add", "cart_update"},
    "cart_remove_item": {"cart_remove", "cart_update"},
    "cart_show": {"cart_show", "cart_update", "cart_remove", "cart_clear"},  # a change reads the cart first
    "cart_clear": {"cart_clear"},
    "checkout_proceed": {"checkout"},
    "review_create": {"review_write"},
    "compare_products": {"product_compare"},
    "search_shop_policies_and_faqs": {
        "shop_policy",
        "size_advice",
        "return_eligibility",
        "refund_status",
        "order_cancel",
    },  # fmt: skip
    "orders_list_mine": {"orders_mine", "order_cancel", "refund_status", "return_eligibility", "order_status"},
    "order_status": {"order_status", "orders_mine"},
    "order_track": {"order_track", "orders_mine"},
    "order_cancel_mine": {"order_cancel"},
    "order_refund_status": {"refund_status"},
    "order_return_eligibility": {"return_eligibility"},
    "receipts_spending": {"receipts_spending"},
    "receipts_extreme": {"receipts_extreme"},
    "receipts_compare": {"receipts_compare"},
    "receipts_list": {"receipts_find", "receipts_spending"},  # a merchant's or period's receipts, added up
    "search_documents": {"receipts_find"},
    "aggregate_with_citations": {"receipts_spending"},
    "auth_logout": {"account_logout"},
    "admin_stock_read": {"admin_stock_read"},
    "admin_stock_change": {"admin_stock_change"},
    "admin_stock_report": {"admin_stock_report"},
    "admin_price_change": {"admin_price_change"},
    "admin_sale_create": {"admin_sale_create"},
    "admin_sale_run_automation": {"admin_sale_create"},
    "admin_dashboard": {"admin_figures", "admin_stock_report"},
    "admin_sales_report": {"admin_figures"},
    "admin_products_find": {"admin_product_find", "admin_price_change", "admin_sale_create", "admin_stock_change"},
    "admin_orders_list": {"admin_orders_find"},
    "admin_order_update_status": {"admin_order_update", "order_cancel"},
    "admin_product_create": {"admin_product_create"},
    "admin_product_update": {"admin_product_update", "admin_price_change", "admin_stock_change"},
    "admin_product_delete": {"admin_product_delete", "admin_product_update"},
    "admin_review_delete": {"admin_review_delete"},
    "admin_cart_clear_user": {"admin_cart_clear"},
}
# a read whose step answers another question: a search read for what is out of stock of a kind (admin_requests.StockOf)
STEP_SERVES = {"StockOf": {"admin_stock_report", "admin_stock_read"}}
REPLIES = {"greeting", "thanks_bye", "decline", "out_of_scope", "override_attempt", "size_advice", "shop_policy",
           "product_details", "return_eligibility", "refund_status", "order_cancel"}  # fmt: skip
NO_QUESTION = {"greeting", "thanks_bye", "decline", "out_of_scope", "override_attempt"}
CONTEXT = {"user_email": "shopper@example.com", "today": "2026-11-29"}


def served(result, label: str) -> bool:
    """Does what the engine did serve this intent?"""
    if result.calls:
        first = result.calls[0]
        step = type(first.then).__name__ if first.then is not None else None
        return label in SERVES.get(first.name, set()) | STEP_SERVES.get(step, set())
    if result.wants_login_form:
        return label == "account_login"
    if (result.reply or "").startswith(pipeline.FALLBACK) or pipeline.SUGGESTIONS_KEY in result.context:
        return False
    if result.follow_up:  # a question for what is missing
        return label not in NO_QUESTION
    if "?" in (result.reply or ""):  # "Several products fit — which one?", "You're welcome! Anything else?"
        return True
    return label in REPLIES


def first_turns(path: Path) -> list[dict]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [row for row in rows if not row.get("context") and row.get("intent") in classifier.intents()]


def run(path: Path) -> tuple[Counter, Counter, list[tuple[str, str, str]]]:
    right, total, misses = Counter(), Counter(), []
    for row in first_turns(path):
        label = row["intent"]
        admin = bool(row.get("admin")) or label.startswith(classifier.ADMIN_PREFIX)
        result = interpret(row["text"], dict(CONTEXT), is_admin=admin)
        total[label] += 1
        if served(result, label):
            right[label] += 1
        else:
            did = ", ".join(c.name for c in result.calls) or (result.follow_up or result.reply or "")[:70]
            misses.append((label, row["text"], did))
    return right, total, misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", action="store_true", help="the training files, misses printed")
    args = parser.parse_args()
    files = classifier.example_files(held_out=not args.dev)
    print(f"{'file':28} {'messages':>8} {'served':>8}")
    everything = Counter(), Counter()
    for path in files:
        right, total, misses = run(path)
        everything[0].update(right)
        everything[1].update(total)
        print(f"{path.name:28} {sum(total.values()):8} {sum(right.values()) / max(1, sum(total.values())):8.1%}")
        if args.dev:
            for label, text, did in misses:
                print(f"    {label:22} {text!r} -> {did}")
    right, total = everything
    print(f"{'all':28} {sum(total.values()):8} {sum(right.values()) / max(1, sum(total.values())):8.1%}")
    print("\nper intent (served / messages):")
    for label in sorted(total):
        print(f"  {label:24} {right[label]:4} / {total[label]:<4} {right[label] / total[label]:6.1%}")


if __name__ == "__main__":
    main()
