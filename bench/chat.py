"""The offline assistant: accuracy on the labelled corpus and time per turn.

    .venv/bin/python bench/chat.py

Scores the engine on the corpus's held-out split (never tuned on) and its development split: exact (right tools
and exact arguments, or the right kind of answer) and intent only (right tools / kind of answer). Times
interpret() (understanding only) and a whole chat turn through the chat service (understanding, the guard, the
tool's service, cards, reply, conversation stored) on the demo catalog.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the repository in place of bench/, whose http.py would shadow Python's http

from flask_migrate import upgrade  # noqa: E402

from insightshop import create_app  # noqa: E402
from insightshop.agent.offline import interpret  # noqa: E402
from tests.agent import corpus_fresh, corpus_issue11, corpus_more  # noqa: E402
from tests.agent.test_offline_corpus import (  # noqa: E402
    SINGLE,
    _case,
    all_single,
    dev_single,
    heldout_single,
    score,
    split_of,
)


def interpret_times(rounds: int = 3) -> list[float]:
    times = []
    interpret("warm up")  # the vocabulary is built once per process
    for _ in range(rounds):
        for entry in all_single():
            message, _, context, is_admin = _case(entry)
            started = time.perf_counter()
            interpret(message, context, is_admin=is_admin)
            times.append((time.perf_counter() - started) * 1000)
    return times


def chat_turn_times(turns: int = 120) -> list[float]:
    from insightshop.agent import chat
    from insightshop.extensions import db
    from insightshop.services.actors import Actor
    from insightshop.services.demo_catalog import seed_demo_catalog

    messages = ["add 2 large white shirts into my cart", "show my cart", "find navy hoodies for kids under $40",
                "compare 1, 2 and 3", "what's in my basket?", "hi there"]  # fmt: skip
    times = []
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"APP_ENV": "testing", "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/chat.db"}
        )
        with app.app_context(), app.test_request_context("/"):
            upgrade()
            seed_demo_catalog()
            actor, conversation = Actor(guest_id="bench-guest"), None
            for index in range(turns):
                started = time.perf_counter()
                turn = chat.chat_turn(actor, messages[index % len(messages)], conversation)
                times.append((time.perf_counter() - started) * 1000)
                conversation = turn["conversation_id"] if index % 12 else None
                if index % 6 == 5:
                    chat.chat_turn(actor, "empty my cart", conversation)  # keeps the cart small (needs confirmation)
            db.engine.dispose()
    return times


def _line(label: str, entries: list) -> None:
    exact, intent, total = score(entries)
    print(
        f"  {label:<46} exact {exact}/{total} ({exact / total:.1%})   intent only {intent}/{total} ({intent / total:.1%})"
    )


def main() -> None:
    parse = interpret_times()
    turns = chat_turn_times()
    print("Offline engine on the labelled corpus (single turns):")
    _line("held-out split (never tuned on by this engine)", heldout_single())
    for label, source in (("  from the original corpus (the old rules' own)", SINGLE),
                          ("  from the issue 11 corpus", corpus_issue11.SINGLE),
                          ("  newly written with the engine (corpus_more)", corpus_more.SINGLE),
                          ("  written after the engine (corpus_fresh)", corpus_fresh.SINGLE)):  # fmt: skip
        _line(label, [e for e in source if split_of(e[0]) == "heldout"])
    _line("development split", dev_single())
    print(
        f"  interpret() per message: median {statistics.median(parse):.3f} ms, p95 {statistics.quantiles(parse, n=20)[-1]:.3f} ms"
    )
    print(f"  whole chat turn (guard, service, cards, stored): median {statistics.median(turns):.2f} ms, "
          f"p95 {statistics.quantiles(turns, n=20)[-1]:.2f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
