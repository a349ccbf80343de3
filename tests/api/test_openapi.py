import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from tests.factories import make_product


def test_openapi_document_is_valid_openapi_3_1(client):
    document = client.get("/api/openapi.json").get_json()

    validate(document)
    assert document["openapi"].startswith("3.1")


def test_every_api_route_is_documented(app, client):
    documented = client.get("/api/openapi.json").get_json()["paths"]
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = rule.rule.replace("<int:", "{").replace("<", "{").replace(">", "}")
        assert path in documented, f"{rule.rule} is missing from the OpenAPI document"
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert method.lower() in documented[path], f"{method} {rule.rule} is not documented"


def test_responses_match_the_documented_product_schema(client):
    make_product("Oxford Shirt")
    document = client.get("/api/openapi.json").get_json()
    schema = {**document["components"]["schemas"]["ProductPage"], "components": document["components"]}

    body = client.get("/api/products").get_json()

    errors = list(Draft202012Validator(schema).iter_errors(body))
    assert errors == []


def test_every_operation_documents_its_success_body_and_errors(client):
    document = client.get("/api/openapi.json").get_json()
    schemas = document["components"]["schemas"]

    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            success = [status for status in operation["responses"] if status.startswith("2")]
            assert success, f"{method} {path} documents no success"
            for status in success:
                content = operation["responses"][status]["content"]
                if "application/json" not in content:  # a file download: every type a binary string
                    assert all(c["schema"] == {"type": "string", "format": "binary"} for c in content.values())
                    continue
                reference = content["application/json"]["schema"]["$ref"]
                shape = schemas[reference.rsplit("/", 1)[1]]
                assert shape.get("required") or shape.get("allOf"), f"{method} {path} {status}: {reference} is vague"
            for status in set(operation["responses"]) - set(success):
                error = operation["responses"][status]["content"]["application/json"]["schema"]
                assert error == {"$ref": "#/components/schemas/Error"}, f"{method} {path} {status}"
            assert "400" in operation["responses"], f"{method} {path}: the request guard can always answer 400"


def test_an_answer_that_breaks_the_document_is_reported_with_its_operation_and_schema_path(app):
    from flask import Response

    from tests.api_conformance import ResponseDoesNotConform, check_response

    answer = Response('{"cart": {"items": [], "item_count": 0, "subtotal": "5", "currency": "USD"}}', 200,
                      mimetype="application/json")  # fmt: skip

    with pytest.raises(ResponseDoesNotConform) as failure:
        check_response(app, "GET", "/api/cart", answer)

    assert "GET /api/cart (showCart) answered 200" in str(failure.value)
    assert "at $.cart.subtotal" in str(failure.value)
    assert "schema path: #/components/schemas/Cart/properties/subtotal/pattern" in str(failure.value)


def test_an_undocumented_status_is_reported(app):
    from flask import Response

    from tests.api_conformance import ResponseDoesNotConform, check_response

    answer = Response(
        '{"error": {"code": "conflict", "message": "No", "details": []}}', 409, mimetype="application/json"
    )

    with pytest.raises(
        ResponseDoesNotConform, match=r"GET /api/cart \(showCart\) answered 409, which is not documented"
    ):
        check_response(app, "GET", "/api/cart", answer)
