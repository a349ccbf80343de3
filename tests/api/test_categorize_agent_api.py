"""POST /api/agents/categorize-item without an API key: the offline chain answers; authentication, the body's
schema, the error envelope, the rate limit and the OpenAPI document."""

import pytest

from tests.api.test_products_api import assert_error
from tests.factories import bearer, guest_bearer, make_user
from tests.receipts.category_helpers import categories  # noqa: F401

URL = "/api/agents/categorize-item"


@pytest.fixture
def headers(client, categories):  # noqa: F811
    make_user()
    return bearer(client)


def test_the_offline_chain_answers_without_a_key(client, headers, categories):  # noqa: F811
    response = client.post(URL, headers=headers, json={"item_name": "Organic Bananas"})

    assert response.status_code == 200
    assert response.get_json() == {"category_id": categories["Fruits"].id, "category_name": "Fruits",
                                   "explanation": '"Organic Bananas" matched the keyword rules for Fruits.',
                                   "match_method": "keyword", "match_score": 0.95, "success": True, "suggestions": []}  # fmt: skip
    assert response.headers["Cache-Control"].startswith("no-store")


def test_no_match_is_not_a_success_and_offers_suggestions(client, headers):
    answer = client.post(URL, headers=headers, json={"item_name": "XQZT PLORB"}).get_json()

    assert (answer["success"], answer["category_id"], answer["match_method"]) == (False, None, "none")
    assert len(answer["suggestions"]) == 3 and "choose one of the suggestions" in answer["explanation"]


def test_only_signed_in_users(client, categories):  # noqa: F811
    assert_error(client.post(URL, json={"item_name": "MILO"}), 401, "unauthorized")
    assert_error(client.post(URL, headers=guest_bearer(client), json={"item_name": "MILO"}), 401, "unauthorized")
    assert_error(client.post(URL, headers={"Authorization": "Bearer nonsense"}, json={"item_name": "MILO"}), 401,
                 "token_invalid")  # fmt: skip


@pytest.mark.parametrize(
    "body",
    [{}, {"item_name": ""}, {"item_name": "   "}, {"item_name": "x" * 201}, {"item_name": 7}, {"item_name": "MILO\tTEH"},
     {"item_name": "MILO", "category": "Dairy"}],
)  # fmt: skip
def test_bodies_breaking_the_schema_are_refused(client, headers, body):
    response = client.post(URL, headers=headers, json=body)

    assert_error(response, 400, "validation_error")


def test_control_characters_and_bodies_that_are_not_json(client, headers):
    assert_error(
        client.post(URL, headers=headers, json={"item_name": "MI\x00LO"}), 400, "validation_error", "item_name"
    )
    assert_error(client.post(URL, headers=headers, data="item_name=MILO"), 415, "unsupported_media_type")
    assert_error(
        client.post(URL, headers={**headers, "Content-Type": "application/json"}, data="{"), 400, "invalid_json"
    )


def test_the_rate_limit(app, client, headers):
    app.config["CATEGORIZE_LIMIT_PER_USER"] = "2 per minute"

    answers = [client.post(URL, headers=headers, json={"item_name": "MILO"}) for _ in range(3)]

    assert [a.status_code for a in answers] == [200, 200, 429]
    assert_error(answers[2], 429, "rate_limited")
    assert int(answers[2].headers["Retry-After"]) >= 1


def test_the_operation_is_in_the_openapi_document(client):
    document = client.get("/api/openapi.json").get_json()

    operation = document["paths"][URL]["post"]
    assert operation["operationId"] == "categorizeItem" and operation["security"] == [{"bearer": []}]
    assert operation["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/CategorizeItemRequest"
    }
    assert document["components"]["schemas"]["CategorizeItemRequest"]["properties"]["item_name"]["maxLength"] == 200
    assert {"401", "429"} <= set(operation["responses"])
