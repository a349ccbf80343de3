"""The category agent (seed 003) against the real anthropic SDK, its HTTP transport replaced by scripted responses
(the chat engine's ScriptedAnthropic): the tool loop, a model that proposes a new category, models that go wrong,
and the API failing."""

import json

import httpx2
import pytest
from sqlalchemy import func, select

from insightshop.agent import category_agent
from insightshop.extensions import db
from insightshop.models.audit import AuditEntry
from insightshop.models.receipts import Category
from insightshop.services.actors import Actor
from tests.anthropic_scripted import ScriptedAnthropic, message, text, tool_use
from tests.factories import bearer, make_user
from tests.receipts.category_helpers import categories  # noqa: F401

OVERLOADED = (529, {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})


@pytest.fixture
def claude(app, categories):  # noqa: F811
    def install(*responses):
        script = ScriptedAnthropic(*responses)
        app.config.update(
            ANTHROPIC_API_KEY="sk-ant-test", ANTHROPIC_HTTP_CLIENT=httpx2.Client(transport=httpx2.MockTransport(script))
        )
        return script

    return install


@pytest.fixture
def shopper(app):
    return Actor(user=make_user())


def uses(*blocks, message_id="msg_1"):
    return 200, message(list(blocks), "tool_use", message_id)


def finalize(category_id, name, explanation="It fits."):
    return tool_use("tu_fin", "finalize_categorization",
                    {"category_id": category_id, "category_name": name, "explanation": explanation})  # fmt: skip


def tool_results(request: dict) -> list[dict]:
    """The tool_result blocks the shop sent back in a request, their content decoded."""
    return [{**block, "content": json.loads(block["content"])} for block in request["messages"][-1]["content"]]


def category_count() -> int:
    return db.session.scalar(select(func.count(Category.id)))


def test_the_model_queries_then_finalizes_an_existing_category(claude, shopper, categories):  # noqa: F811
    dairy = categories["Dairy"]
    script = claude(
        uses(text("Let me look."), tool_use("tu_1", "query_category_by_name", {"name": "dairy"})),
        uses(finalize(dairy.id, "Dairy", "Parmesan is a cheese, made from milk."), message_id="msg_2"),
    )

    answer = category_agent.categorize_item_with_agent(shopper, "Parmesan Cheese")

    assert answer == {"category_id": dairy.id, "category_name": "Dairy", "explanation": "Parmesan is a cheese, made from milk.",
                      "match_method": "claude", "match_score": 1.0, "success": True, "suggestions": []}  # fmt: skip
    first, second = script.requests
    assert first["model"] == "claude-sonnet-5-5" and first["max_tokens"] == category_agent.MAX_TOKENS
    assert [t["name"] for t in first["tools"]] == ["query_category_by_name", "add_category", "finalize_categorization"]
    assert f"{dairy.id}: Dairy — Milk, cheese" in first["system"] and "not instructions" in first["system"]
    assert first["messages"] == [{"role": "user", "content": 'Categorise this receipt item: "Parmesan Cheese"'}]
    assert tool_results(second)[0]["content"] == {"id": dairy.id, "name": "Dairy", "description": dairy.description,
                                                  "similarity": 1.0}  # fmt: skip


def test_a_model_proposing_a_new_category_goes_through_add_categorys_rules(claude, shopper):
    def finalize_what_was_added(body):
        added = tool_results({"messages": body["messages"]})[0]["content"]
        return uses(finalize(added["id"], added["name"], "Basil is a fresh herb."), message_id="msg_3")

    script = claude(
        uses(tool_use("tu_1", "query_category_by_name", {"name": "Herbs"})),
        uses(
            tool_use("tu_2", "add_category", {"name": "fresh herbs", "description": "Basil, mint"}), message_id="msg_2"
        ),
        finalize_what_was_added,
    )

    answer = category_agent.categorize_item_with_agent(shopper, "Fresh Basil")

    stored = db.session.scalar(select(Category).where(Category.name == "Fresh Herbs"))
    assert stored is not None and stored.description == "Basil, mint"
    assert (answer["category_id"], answer["category_name"], answer["match_method"]) == (
        stored.id,
        "Fresh Herbs",
        "claude",
    )
    assert tool_results(script.requests[1])[0]["content"] is None  # query found nothing near "Herbs"
    assert tool_results(script.requests[2])[0]["content"]["already_existed"] is False


def test_a_model_proposing_an_existing_name_in_another_case_reuses_it(claude, shopper, categories):  # noqa: F811
    before = category_count()
    script = claude(
        uses(tool_use("tu_1", "add_category", {"name": "PERSONAL CARE"})),
        uses(finalize(categories["Personal Care"].id, "Personal Care"), message_id="msg_2"),
    )

    answer = category_agent.categorize_item_with_agent(shopper, "Toothpaste")

    assert answer["category_name"] == "Personal Care" and category_count() == before
    assert tool_results(script.requests[1])[0]["content"]["already_existed"] is True


def test_one_new_category_per_item_at_most(claude, shopper):
    claude(
        uses(tool_use("tu_1", "add_category", {"name": "Herbs"}), tool_use("tu_2", "add_category", {"name": "Spices"})),
        (200, message([text("Done.")], message_id="msg_2")),
    )
    before = category_count()

    category_agent.categorize_item_with_agent(shopper, "Star Anise")

    assert category_count() == before + 1
    assert db.session.scalar(select(Category).where(Category.name == "Spices")) is None


def test_a_category_id_that_does_not_exist_is_an_error_the_model_can_correct(claude, shopper, categories):  # noqa: F811
    script = claude(
        uses(finalize(999, "Dairy")),
        uses(finalize(categories["Dairy"].id, "Dairy"), message_id="msg_2"),
    )

    answer = category_agent.categorize_item_with_agent(shopper, "Parmesan Cheese")

    refused = tool_results(script.requests[1])[0]
    assert refused["is_error"] is True and refused["content"]["error"]["code"] == "not_found"
    assert answer["category_name"] == "Dairy" and answer["match_method"] == "claude"


@pytest.mark.parametrize(
    "bad_call",
    [
        tool_use("tu_1", "finalize_categorization", {"category_id": 3, "category_name": "Cheese", "explanation": "x"}),
        tool_use("tu_1", "query_category_by_name", {"name": "Dairy", "limit": 1}),
        tool_use("tu_1", "delete_category", {"id": 1}),
        tool_use("tu_1", "add_category", {"name": "<script>alert(1)</script>"}),
    ],
)
def test_calls_that_break_the_rules_are_refused_as_data_and_nothing_is_invented(claude, shopper, bad_call):
    before = category_count()
    script = claude(uses(bad_call), (200, message([text("I give up.")], message_id="msg_2")))

    answer = category_agent.categorize_item_with_agent(shopper, "Parmesan Cheese")

    assert tool_results(script.requests[1])[0]["is_error"] is True
    assert category_count() == before
    assert answer["match_method"] == "keyword" and answer["category_name"] == "Dairy"  # the offline rules answered
    assert "did not settle on a category" in answer["explanation"]


def test_a_model_that_never_finishes_is_stopped_and_the_rules_answer(claude, shopper):
    script = claude(*[uses(tool_use(f"tu_{n}", "query_category_by_name", {"name": "Dairy"}), message_id=f"msg_{n}")
                      for n in range(category_agent.MAX_ROUNDS + 2)])  # fmt: skip

    answer = category_agent.categorize_item_with_agent(shopper, "Parmesan Cheese")

    assert len(script.requests) == category_agent.MAX_ROUNDS
    assert (answer["match_method"], answer["success"]) == ("keyword", True)


def test_when_the_api_fails_the_offline_chain_answers_and_says_so(claude, shopper, categories):  # noqa: F811
    script = claude(OVERLOADED, OVERLOADED)

    answer = category_agent.categorize_item_with_agent(shopper, "Organic Bananas")

    assert len(script.requests) == 2  # one retry, then the rules
    assert (answer["category_id"], answer["match_method"], answer["success"]) == (
        categories["Fruits"].id,
        "keyword",
        True,
    )
    assert answer["explanation"].startswith("Answered by the built-in rules because the AI service is unavailable")
    error = db.session.query(AuditEntry).filter_by(action="engine.error").one()
    assert error.after["kind"] == "status"


def test_a_refused_key_falls_back_too(claude, shopper):
    claude((401, {"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}}))

    answer = category_agent.categorize_item_with_agent(shopper, "XQZT PLORB")

    assert "API key was refused" in answer["explanation"]
    assert (answer["match_method"], answer["success"], len(answer["suggestions"])) == ("none", False, 3)


def test_the_endpoint_with_claude(client, claude, categories):  # noqa: F811
    make_user()
    headers = bearer(client)
    claude(uses(finalize(categories["Beverages"].id, "beverages", "Milo is a chocolate malt drink.")))

    response = client.post("/api/agents/categorize-item", headers=headers, json={"item_name": "MILO 1KG"})

    assert response.status_code == 200
    assert response.get_json() == {"category_id": categories["Beverages"].id, "category_name": "Beverages",
                                   "explanation": "Milo is a chocolate malt drink.", "match_method": "claude",
                                   "match_score": 1.0, "success": True, "suggestions": []}  # fmt: skip
