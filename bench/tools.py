"""Tool-call guard benchmark: validate_tool_call vs jsonschema.validate per call, and run_tool's overhead.

    .venv/bin/python bench/tools.py

A realistic mix of tool calls (about 60% valid, 40% invalid: wrong types, out of range, unknown properties,
missing fields, unknown tools, admin tools for users) goes through the registry's compiled validators, and
the same mix through `jsonschema.validate(args, schema)` per call, in the same run. Then cart_show is timed
through run_tool (validation, permission, service, audit row) next to calling the cart service directly.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the repository in place of bench/, whose http.py would shadow Python's http

import jsonschema  # noqa: E402
from flask_migrate import upgrade  # noqa: E402

from insightshop import create_app  # noqa: E402
from insightshop.extensions import db  # noqa: E402
from insightshop.mcp.tools_registry import get_tool_definition, validate_tool_call  # noqa: E402

ADDRESS = {"email": "sam@example.com", "shipping_name": "Sam", "shipping_address": "1 Main St", "shipping_city": "Springfield",
           "shipping_state": "IL", "shipping_zip": "62701"}  # fmt: skip
VALID = [
    ("search_products", {"query": "white shirt", "category": "men", "size": "L", "max_price": 80, "sort_by": "rating"}),
    ("cart_add_item", {"clothing_type": "shirt", "selected_color": "white", "selected_size": "large", "quantity": 2}),
    ("cart_add_item", {"product_id": 12, "quantity": 1}),
    ("cart_show", {}),
    ("cart_remove_item", {"product_id": 3, "quantity": 1}),
    ("compare_products", {"product_ids": [1, 2, 3]}),
    ("review_create", {"product_id": 4, "rating": 5, "comment": "Lovely shirt"}),
    ("checkout_proceed", ADDRESS),
    ("order_status", {"order_id": 17, "email": "sam@example.com"}),
    ("admin_orders_list", {"status": "paid", "page": 2, "per_page": 20}),
]
INVALID = [
    ("cart_add_item", {"product_id": 1, "quantity": 11}),
    ("cart_add_item", {"product_id": "one"}),
    ("search_products", {"sort_by": "cheapest", "limit": 5}),
    ("checkout_proceed", {**ADDRESS, "email": "not-an-email"}),
    ("compare_products", {"product_ids": [1]}),
    ("review_create", {"product_id": 4}),
    ("drop_database", {}),
    ("admin_product_delete", {"product_id": 3}),  # a user calling an admin tool
]


def mix(count: int) -> list[tuple[str, dict, bool]]:
    rng = random.Random(11)
    calls = []
    for _ in range(count):
        name, args = rng.choice(VALID) if rng.random() < 0.6 else rng.choice(INVALID)
        calls.append((name, args, name.startswith("admin_") and rng.random() < 0.5))
    return calls


def per_call_jsonschema(name: str, args: dict, _is_admin: bool) -> bool:
    definition = get_tool_definition(name)
    if definition is None:
        return False
    try:
        jsonschema.validate(args, definition["input_schema"], format_checker=jsonschema.FormatChecker())
    except jsonschema.ValidationError:
        return False
    return True


def timed_per_call(function, calls, rounds: int = 5) -> list[float]:
    """Median-of-rounds microseconds per call."""
    per_round = []
    for _ in range(rounds):
        started = time.perf_counter()
        for name, args, is_admin in calls:
            function(name, args, is_admin)
        per_round.append((time.perf_counter() - started) / len(calls) * 1e6)
    return per_round


def run_tool_overhead(samples: int = 300) -> tuple[float, float]:
    from insightshop.models.catalog import Product
    from insightshop.schemas.shop import cart_to_dict
    from insightshop.services import cart
    from insightshop.services.actors import Actor
    from insightshop.services.demo_catalog import seed_demo_catalog
    from insightshop.utils.agent_executor import run_tool

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"APP_ENV": "testing", "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/tools.db"}
        )
        with app.app_context(), app.test_request_context("/"):
            upgrade()
            seed_demo_catalog()
            actor = Actor(guest_id="bench-guest")
            for product_id in (1, 2, 3):
                variant = next(v for v in db.session.get(Product, product_id).variants if v.stock > 0)
                cart.add_item(actor, product_id, 1, variant.color, variant.size)
            direct, guarded = [], []
            for _ in range(samples):
                started = time.perf_counter()
                cart_to_dict(cart.get_cart(actor))
                direct.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                result = run_tool("cart_show", {}, actor)
                guarded.append((time.perf_counter() - started) * 1000)
                assert result["ok"]
            db.engine.dispose()
    return statistics.median(direct), statistics.median(guarded)


def main() -> None:
    calls = mix(20_000)
    create_app(
        {"APP_ENV": "testing", "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    )  # loads the registry
    assert [validate_tool_call(n, a, i)[0] for n, a, i in calls[:200]] == [
        per_call_jsonschema(n, a, i) and not (n.startswith("admin_") and not i) for n, a, i in calls[:200]
    ]
    registry_us = statistics.median(timed_per_call(validate_tool_call, calls))
    baseline_us = statistics.median(timed_per_call(per_call_jsonschema, calls[:2000], rounds=3))
    direct_ms, guarded_ms = run_tool_overhead()
    print("Tool-call validation, 20,000 mixed calls (60% valid, 40% invalid), median of rounds")
    print(
        f"  validate_tool_call (schemas compiled once): {registry_us:8.2f} µs/call  {1e6 / registry_us:12,.0f} calls/s"
    )
    print(
        f"  jsonschema.validate per call (baseline):   {baseline_us:8.2f} µs/call  {1e6 / baseline_us:12,.0f} calls/s"
    )
    print(f"  speed-up: {baseline_us / registry_us:.1f}x")
    print("cart_show, 300 calls on the demo catalog (SQLite), median")
    print(f"  cart service directly:                 {direct_ms:6.2f} ms")
    print(
        f"  run_tool (guard + service + audit row): {guarded_ms:6.2f} ms  (overhead {guarded_ms - direct_ms:+.2f} ms)"
    )


if __name__ == "__main__":
    main()
