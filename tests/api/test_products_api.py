import pytest

from tests.factories import make_product


def assert_error(response, status, code, field=None):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.is_json
    error = response.get_json()["error"]
    assert error["code"] == code
    assert error["message"]
    assert isinstance(error["details"], list)
    if field:
        assert any(d.get("field") == field for d in error["details"]), error
    return error


def test_list_products_returns_seed_fields_derived_from_variants(client):
    make_product("Oxford Shirt", color="white", colors=("white", "blue"), sizes=("M", "L"),
                 stock={"white/M": 2, "white/L": 0, "blue/M": 1, "blue/L": 4}, price="59.50")  # fmt: skip

    body = client.get("/api/products").get_json()

    product = body["products"][0]
    assert body["pagination"] == {
        "page": 1,
        "per_page": 24,
        "total": 1,
        "pages": 1,
        "has_next": False,
        "has_prev": False,
    }
    assert product["price"] == "59.50"
    assert product["available_colors"] == ["white", "blue"]
    assert product["available_sizes"] == ["M", "L"]
    assert product["stock_quantity"] == 7
    assert product["size"] is None
    assert {(v["color"], v["size"], v["stock"]) for v in product["variants"]} == {
        ("white", "M", 2), ("white", "L", 0), ("blue", "M", 1), ("blue", "L", 4)}  # fmt: skip
    assert product["image_url"] == f"/products/{product['id']}/image.svg"


def test_list_products_filters_with_repeated_and_comma_separated_params(client):
    make_product("Oxford Shirt", color="white", category="men")
    make_product("Poplin Blouse", clothing_type="blouse", color="pink", category="women")
    make_product("Kids Hoodie", clothing_type="hoodie", color="yellow", category="kids")

    repeated = client.get("/api/products?category=women&category=kids&sort=price_low").get_json()
    comma = client.get("/api/products?category=women,kids").get_json()

    assert {p["name"] for p in repeated["products"]} == {"Poplin Blouse", "Kids Hoodie"}
    assert comma["pagination"]["total"] == 2


def test_list_products_paginates(client):
    for number in range(5):
        make_product(f"Sock {number}", clothing_type="socks")

    body = client.get("/api/products?per_page=2&page=2&sort=newest").get_json()

    assert [p["name"] for p in body["products"]] == ["Sock 2", "Sock 1"]
    assert body["pagination"]["pages"] == 3


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("page=0", "page"),
        ("page=abc", "page"),
        ("per_page=101", "per_page"),
        ("sort=cheapest", "sort"),
        ("color=chartreuse", "color.0"),
        ("category=pets", "category.0"),
        ("min_price=-1", "min_price"),
        ("max_price=lots", "max_price"),
        ("min_price=NaN", "min_price"),
        ("in_stock=maybe", "in_stock"),
        ("q=" + "x" * 501, "q"),
        ("colour=red", "colour"),
    ],
)
def test_list_products_rejects_bad_parameters_by_name(client, query, field):
    error = assert_error(client.get(f"/api/products?{query}"), 400, "validation_error", field)
    assert field.split(".")[0] in error["message"]


def test_min_price_above_max_price_is_rejected(client):
    assert_error(client.get("/api/products?min_price=50&max_price=10"), 400, "validation_error", "min_price")


def test_get_product_shows_one_product(client):
    product = make_product("Harbour Jacket", clothing_type="jacket", sizes=("L",))

    body = client.get(f"/api/products/{product.id}").get_json()

    assert body["product"]["name"] == "Harbour Jacket"
    assert body["product"]["size"] == "L"


def test_missing_and_inactive_products_are_404_in_the_envelope(client):
    hidden = make_product("Retired Jacket", is_active=False)

    assert_error(client.get("/api/products/999"), 404, "not_found")
    assert_error(client.get(f"/api/products/{hidden.id}"), 404, "not_found")
    assert_error(client.get("/api/products/not-a-number"), 404, "not_found")
    assert_error(client.get("/api/no-such-endpoint"), 404, "not_found")


def test_wrong_method_is_405_in_the_envelope(client):
    response = client.delete("/api/products")
    assert_error(response, 405, "method_not_allowed")
    assert "GET" in response.headers["Allow"]


def test_search_takes_the_seed_search_products_fields(client):
    make_product("Oxford Shirt", color="white", category="men", sizes=("L",), price="60.00")
    make_product("Oxford Shirt", color="white", category="women", sizes=("L",), price="55.00")
    make_product("Oxford Shirt", color="white", category="men", sizes=("S",), price="50.00")
    make_product("Oxford Shirt", color="white", category="men", sizes=("L",), price="120.00")

    response = client.post(
        "/api/products/search",
        json={"query": "white shirt", "category": "men", "size": "large", "max_price": 100, "sort_by": "price_low"},
    )

    body = response.get_json()
    assert response.status_code == 200
    assert [(p["category"], p["price"]) for p in body["products"]] == [("men", "60.00")]


def test_search_accepts_colour_type_and_paging(client):
    make_product("Plain Tee", clothing_type="t-shirt", color="navy")
    make_product("Plain Tee", clothing_type="t-shirt", color="red")

    body = client.post(
        "/api/products/search", json={"color": "Navy", "clothing_type": "t-shirt", "per_page": 1}
    ).get_json()

    assert [p["color"] for p in body["products"]] == ["navy"]
    assert body["pagination"]["per_page"] == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"query": "shirt", "limit": 5}, "limit"),
        ({"category": "pets"}, "category"),
        ({"max_price": -3}, "max_price"),
        ({"max_price": "cheap"}, "max_price"),
        ({"sort_by": "random"}, "sort_by"),
        ({"size": "huge"}, "size"),
        ({"color": "chartreuse"}, "color"),
        ({"per_page": 1000}, "per_page"),
        ({"query": 42}, "query"),
    ],
)
def test_search_rejects_bad_bodies_naming_the_field(client, body, field):
    assert_error(client.post("/api/products/search", json=body), 400, "validation_error", field)


def test_search_rejects_bodies_that_are_not_json_objects(client):
    assert_error(client.post("/api/products/search", data="query=shirt"), 415, "unsupported_media_type")
    assert_error(
        client.post("/api/products/search", data="{not json", content_type="application/json"), 400, "invalid_json"
    )
    assert_error(client.post("/api/products/search", json=["shirt"]), 400, "invalid_json")


def test_facets_endpoint_counts_values(client):
    make_product("Oxford Shirt", color="white", category="men")
    make_product("Poplin Blouse", clothing_type="blouse", color="white", category="women")

    body = client.get("/api/products/facets?category=men").get_json()

    assert {(f["value"], f["count"], f["selected"]) for f in body["facets"]["category"]} == {
        ("men", 1, True), ("women", 1, False)}  # fmt: skip
    assert body["facets"]["color"] == [{"value": "white", "count": 1, "selected": False}]
    assert len(body["price_ranges"]) == 5


def test_cookie_session_posts_need_a_csrf_token_but_bearer_clients_do_not(client):
    client.get("/")  # the browser now carries a session cookie
    assert_error(client.post("/api/products/search", json={"query": "shirt"}), 400, "csrf_failed")

    response = client.post(
        "/api/products/search", json={"query": "shirt"}, headers={"Authorization": "Bearer token-from-api-login"}
    )
    assert response.status_code == 200
