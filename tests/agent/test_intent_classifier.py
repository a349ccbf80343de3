"""The intent classifier and its example corpus (insightshop/agent/offline/classifier.py, data/examples/): labels,
the held-out split, the held-out figure, determinism, speed; and the clarifying question with buttons
(pipeline.clarify) through the chat service and the panel. bench/intent_classifier.py prints the full report."""

from __future__ import annotations

import json
import statistics
import time

from insightshop.agent import chat, engines
from insightshop.agent.offline import classifier, interpret, pipeline
from insightshop.agent.offline.classifier import Guess
from insightshop.services.actors import Actor
from tests.factories import csrf_token

# Measured by bench/intent_classifier.py at 88.8% (heldout_core + heldout_legacy); the floor only catches a collapse.
HELD_OUT_FLOOR = 0.85
OWN_HELD_OUT = ("heldout_core.jsonl", "heldout_legacy.jsonl")
PEOPLE = "heldout_people.jsonl"  # written by people who never read the engine: measured by the bench only


def _key(text: str) -> str:
    return " ".join(text.lower().split())


def test_every_example_has_a_known_intent_and_the_corpus_covers_every_intent():
    labels = set(classifier.intents())
    files = sorted(classifier.EXAMPLES.glob("*.jsonl"))
    for path in files:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if line.strip():
                row = json.loads(line)
                assert row["intent"] in labels, f"{path.name}:{number}"
                assert isinstance(row["text"], str) and row["text"].strip(), f"{path.name}:{number}"
                assert set(row) <= {"text", "intent", "admin", "context"}, f"{path.name}:{number}"
    training = classifier.load_examples()
    assert len(training) >= 3000
    assert {row["intent"] for row in training} == labels  # every intent can be learned
    assert {row["intent"] for row in training if row.get("admin")} >= {
        label for label in labels if label.startswith("admin_")
    }


def test_held_out_files_are_never_trained_on_and_share_no_text_with_training():
    training_files = {p.name for p in classifier.example_files()}
    held_files = {p.name for p in classifier.example_files(held_out=True)}
    assert set(OWN_HELD_OUT) <= held_files and not training_files & held_files
    assert all(not name.startswith("heldout") for name in training_files)
    trained = {_key(row["text"]) for row in classifier.load_examples()}
    held = [_key(row["text"]) for row in classifier.load_examples(held_out=True)]
    assert not trained & set(held)
    own = classifier.load_examples(files=[classifier.EXAMPLES / name for name in OWN_HELD_OUT])
    written = classifier.load_examples(files=[classifier.EXAMPLES / "core.jsonl"])
    assert 0.12 <= len(own) / (len(own) + len(written)) <= 0.35  # a real share of the hand-written phrasings


def test_held_out_accuracy_stays_above_the_floor():
    rows = classifier.load_examples(files=[classifier.EXAMPLES / name for name in OWN_HELD_OUT])
    right = sum(classifier.classify(r["text"], is_admin=bool(r.get("admin"))).label == r["intent"] for r in rows)
    assert len(rows) >= 300
    assert right / len(rows) >= HELD_OUT_FLOOR, f"held-out {right}/{len(rows)}"


def test_confidence_is_a_probability_and_the_ranking_is_ordered():
    guess = classifier.classify("how much did I spend on coffee this year")
    assert guess.label == "receipts_spending" and guess.confidence > 0.5
    assert guess.ranked[0] == (guess.label, guess.confidence)
    assert [p for _, p in guess.ranked] == sorted((p for _, p in guess.ranked), reverse=True)
    assert 0 < sum(p for _, p in guess.ranked) <= 1.0 + 1e-9


def test_a_shopper_never_gets_an_admin_intent_and_an_admin_can():
    message = "knock 10% off all kids' jackets"
    assert classifier.classify(message, is_admin=True).label == "admin_price_change"
    shopper = classifier.classify(message, is_admin=False)
    assert not any(label.startswith("admin_") for label, _ in shopper.ranked)


def test_classifying_is_deterministic_and_training_too():
    messages = [r["text"] for r in classifier.load_examples(held_out=True)[:80]]
    assert [classifier.classify(m) for m in messages] == [classifier.classify(m) for m in messages]
    rows = classifier.load_examples()[::6]
    first, second = classifier.fit(rows), classifier.fit(rows)
    assert first.classes == second.classes and first.temperature == second.temperature
    assert (first.weights == second.weights).all() and (first.bias == second.bias).all()


def test_the_disk_cache_round_trips_the_model(tmp_path):
    fitted = classifier.model()
    path = tmp_path / "model.npz"
    classifier.save(fitted, path)
    loaded = classifier.load(path)
    for message in ("cancel my last order", "any cheaper ones?", "how many navy hoodies in M are left"):
        assert classifier.rank(loaded, message) == classifier.rank(fitted, message)


def test_the_cache_key_follows_the_example_files(tmp_path):
    one = tmp_path / "a.jsonl"
    one.write_text('{"text": "hi", "intent": "greeting"}\n')
    before = classifier.data_key([one])
    one.write_text('{"text": "hello", "intent": "greeting"}\n')
    assert classifier.data_key([one]) != before


def test_classifying_takes_about_a_millisecond():
    # A loose sanity bound (the machine may be loaded); bench/intent_classifier.py reports the real figure.
    classifier.model()
    messages = [r["text"] for r in classifier.load_examples(held_out=True)[:200]]
    times = []
    for message in messages:
        started = time.perf_counter()
        classifier.classify(message)
        times.append(time.perf_counter() - started)
    assert statistics.median(times) < 0.005


# The clarifying question ---------------------------------------------------------------------------------------------


def test_every_offered_meaning_is_an_intent_and_its_plain_message_is_understood_as_it():
    offers = pipeline.offers()
    assert set(offers) <= set(classifier.intents())
    for label, offer in offers.items():
        assert offer["label"] and len(offer["label"]) <= 40
        if "{text}" not in offer["message"]:  # the button's own words must not be unclear in turn
            guess = classifier.classify(offer["message"], is_admin=label.startswith("admin_"))
            assert guess.label == label and guess.confidence >= pipeline.CONFIDENCE_FLOOR, (label, guess.ranked[:2])


def _unsure(monkeypatch, *ranked):
    monkeypatch.setattr(
        pipeline, "classify", lambda text, is_admin=None: Guess(ranked[0][0], ranked[0][1], list(ranked))
    )


def test_an_unclear_message_gets_one_question_with_the_likely_meanings_as_buttons(monkeypatch):
    _unsure(monkeypatch, ("orders_mine", 0.46), ("order_track", 0.31), ("refund_status", 0.12), ("cart_show", 0.05))

    result = interpret("zorbly wump")

    assert not result.calls and "Did you mean" in result.reply
    assert result.context[pipeline.SUGGESTIONS_KEY] == [
        {"label": "My orders", "message": "show my orders"},
        {"label": "Track a parcel", "message": "track my parcel"},
        {"label": "Where is my refund?", "message": "where is my refund?"},
    ]


def test_no_buttons_for_a_guess_in_the_dark_or_meanings_that_need_what_is_missing(monkeypatch):
    _unsure(monkeypatch, ("orders_mine", 0.15), ("order_track", 0.12))
    assert interpret("zorbly wump").reply.startswith(pipeline.FALLBACK)  # the rules' help text stays

    _unsure(monkeypatch, ("refine_results", 0.5), ("product_search", 0.3), ("cart_add", 0.2))
    # no list was shown (no "narrow the last list"), and no shop word to search for or add
    assert interpret("zorbly wump").reply.startswith(pipeline.FALLBACK)


def test_the_answer_to_a_question_goes_to_whoever_asked(monkeypatch):
    from insightshop.agent.offline import acts
    from insightshop.agent.offline.rules import Interpretation

    seen = []
    monkeypatch.setattr(acts, "ACTS", {"size_advice": lambda request, guess: seen.append(request.norm.original) or
                                       Interpretation(reply="Size M then.", context={})})  # fmt: skip
    answered = interpret("age 7", {"pending": {"act": "size_advice", "tool": None, "args": {}}})
    by_the_rules = interpret("Jane Doe", {"pending": {"tool": "checkout_proceed", "args": {}}})

    assert answered.reply == "Size M then." and seen == ["age 7"]
    assert by_the_rules.follow_up and seen == ["age 7"]  # the checkout asks for the rest of the address


def test_what_a_message_says_not_to_do_never_reaches_an_act(monkeypatch):
    from insightshop.agent.offline import acts

    acted = []
    monkeypatch.setattr(
        acts, "ACTS", {label: lambda request, guess: acted.append(guess.label) for label in classifier.intents()}
    )
    for message in ("I almost removed the hoodie", "don't add the socks", "please don't clear my basket yet"):
        result = interpret(message)
        assert not result.calls and result.reply, message
    assert acted == []


def test_a_message_the_rules_understand_is_never_questioned(monkeypatch):
    _unsure(monkeypatch, ("orders_mine", 0.4), ("order_track", 0.35))
    result = interpret("show my cart")
    assert [c.name for c in result.calls] == ["cart_show"] and pipeline.SUGGESTIONS_KEY not in result.context


class _Asking:
    name = "scripted"

    def respond(self, message, context, *, is_admin, history, execute, observe=None):
        options = [{"label": 'Search <b>"x"</b>', "message": '"><script>alert(1)</script>'},
                   {"label": "My orders", "message": "show my orders"}]  # fmt: skip
        return engines.Plan(reply="Did you mean one of these?", context={pipeline.SUGGESTIONS_KEY: options})


def test_the_buttons_become_a_card_that_is_not_remembered(app, monkeypatch):
    monkeypatch.setattr(engines, "engine_for", lambda: _Asking())
    turn = chat.chat_turn(Actor(guest_id="unsure"), "zorbly")
    conversation = chat.get_conversation(Actor(guest_id="unsure"), turn["conversation_id"], create=False)

    assert turn["cards"] == [{"type": "suggestions", "options": [
        {"label": 'Search <b>"x"</b>', "message": '"><script>alert(1)</script>'},
        {"label": "My orders", "message": "show my orders"}]}]  # fmt: skip
    assert pipeline.SUGGESTIONS_KEY not in (conversation.context or {})


def test_the_panel_renders_each_meaning_as_a_button_that_sends_its_message_escaped(client, monkeypatch):
    monkeypatch.setattr(engines, "engine_for", lambda: _Asking())
    html = client.post("/chat/message", data={"message": "zorbly", "csrf_token": csrf_token(client)},
                       headers={"HX-Request": "true"}).get_data(as_text=True)  # fmt: skip

    assert html.count('<form class="chat-suggest"') == 2 and 'hx-post="/chat/message"' in html
    assert '<input type="hidden" name="message" value="&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">' in html
    assert "<script>alert(1)" not in html and "Search &lt;b&gt;&#34;x&#34;&lt;/b&gt;" in html
    assert '<input type="hidden" name="message" value="show my orders">' in html


def test_pressing_a_button_sends_its_message_and_it_is_understood(client, monkeypatch):
    _unsure(monkeypatch, ("cart_show", 0.45), ("orders_mine", 0.3))
    first = client.post("/chat/message", data={"message": "zorbly wump", "csrf_token": csrf_token(client)},
                        headers={"HX-Request": "true"}).get_data(as_text=True)  # fmt: skip
    message = first.split('name="message" value="')[1].split('"')[0]
    monkeypatch.setattr(pipeline, "classify", classifier.classify)  # the button's message: the real classifier
    second = client.post("/chat/message", data={"message": message, "csrf_token": csrf_token(client)},
                         headers={"HX-Request": "true"}).get_data(as_text=True)  # fmt: skip

    assert message == "show my cart" and "Did you mean" in first
    assert "Your cart" in second and "Did you mean" not in second
