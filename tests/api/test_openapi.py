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
