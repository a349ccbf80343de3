"""The page cache (issue 15): anonymous visitors share cached pages, each with a token of their own; nobody's
person-specific page is ever stored or served; catalog changes and sale boundaries end cached copies."""

from __future__ import annotations

import logging
import pickle
import re
import uuid
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
import redis
from prometheus_client import REGISTRY

from insightshop.extensions import db
from insightshop.models.catalog import ProductVariant
from insightshop.models.sales import Sale
from insightshop.services import admin_products, catalog, pricing, reviews
from insightshop.services.actors import Actor
from insightshop.services.page_cache import (
    VISIBLE_STOCK,
    GenerationFile,
    MemoryBackend,
    PageCache,
    RedisBackend,
    shown_stock,
)
from insightshop.web import cached_pages as web_cached_pages
from insightshop.web import page_cache as web_page_cache
from tests.admin_helpers import make_admin
from tests.conftest import _app_for
from tests.factories import make_product, make_user

REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture
def cached(app):
    """The app with the page cache on (tests run with it off), in process memory."""
    web_page_cache.enable(app)
    return app


def token_of(html: str) -> str:
    return re.search(r'"X-CSRFToken": "([^"]+)"', html).group(1)


def test_a_hit_is_the_same_page_with_a_fresh_working_token(cached):
    product = make_product("Oxford Shirt", sizes=("L",), price="45.00")
    first, second = cached.test_client(), cached.test_client()

    miss = first.get(f"/products/{product.id}")
    hit = second.get(f"/products/{product.id}")
    added = second.post("/cart/add", data={"product_id": product.id, "size": "L", "quantity": 1,
                                           "csrf_token": token_of(hit.get_data(as_text=True))})  # fmt: skip

    assert (miss.headers["X-Cache"], hit.headers["X-Cache"]) == ("miss", "hit")
    assert token_of(miss.get_data(as_text=True)) != token_of(hit.get_data(as_text=True))
    assert hit.get_data(as_text=True).replace(token_of(hit.get_data(as_text=True)), "T") == miss.get_data(
        as_text=True
    ).replace(token_of(miss.get_data(as_text=True)), "T")
    assert "session=" in hit.headers["Set-Cookie"]
    assert added.status_code == 303 and added.location.endswith("/cart")
    assert web_cached_pages.CSRF_PLACEHOLDER not in miss.data + hit.data


def test_a_hit_carries_the_headers_of_a_rendered_page(cached):
    make_product("Oxford Shirt")
    miss = cached.test_client().get("/catalog?q=shirt", headers={"HX-Request": "true"})
    hit = cached.test_client().get("/catalog?q=shirt", headers={"HX-Request": "true"})

    ignored = {"X-Cache", "Set-Cookie", "Content-Length", "X-Request-ID"}  # the last: every request's own
    assert {k: v for k, v in miss.headers if k not in ignored} == {k: v for k, v in hit.headers if k not in ignored}
    assert miss.headers["X-Request-ID"] != hit.headers["X-Request-ID"]
    assert "HX-Request" in hit.headers["Vary"] and hit.headers["HX-Push-Url"] == "/catalog?q=shirt"
    assert hit.headers["Content-Security-Policy"] and hit.mimetype == "text/html"


def test_the_fragment_and_the_page_are_kept_apart(cached):
    make_product("Oxford Shirt")
    client = cached.test_client()

    page = client.get("/catalog?q=shirt")
    fragment = client.get("/catalog?q=shirt", headers={"HX-Request": "true"})

    assert fragment.headers["X-Cache"] == "miss" and b"<html" not in fragment.data and b"<html" in page.data


def test_the_product_pages_buy_box_and_main_block_are_kept_apart(cached):
    product = make_product("Oxford Shirt")
    client = cached.test_client()
    url = f"/products/{product.id}?size=M"

    buy_box = client.get(url, headers={"HX-Request": "true", "HX-Target": "buy-box"})
    main = client.get(url, headers={"HX-Request": "true", "HX-Target": "product-main"})
    again = client.get(url, headers={"HX-Request": "true", "HX-Target": "buy-box"})

    assert main.headers["X-Cache"] == "miss" and again.headers["X-Cache"] == "hit"
    assert b'id="product-main"' not in buy_box.data and b'id="buy-box"' in buy_box.data
    assert b'id="product-picture" class="product-picture" hx-swap-oob="true"' in buy_box.data
    assert b'id="product-main"' in main.data and b"hx-swap-oob" not in main.data.split(b'id="product-rating"')[0]
    assert "HX-Target" in buy_box.headers["Vary"] and again.data == buy_box.data


def test_a_logged_in_shopper_neither_gets_nor_leaves_a_cached_page(cached):
    make_user("nia@example.com", first_name="Nia")
    product = make_product("Oxford Shirt", sizes=("L",))
    shopper, visitor = cached.test_client(), cached.test_client()
    shopper.post("/login", data={"email": "nia@example.com", "password": "correct horse battery",
                                 "csrf_token": token_of(shopper.get("/login").get_data(as_text=True))})  # fmt: skip
    shopper.post("/cart/add", data={"product_id": product.id, "size": "L", "quantity": 2,
                                    "csrf_token": token_of(shopper.get("/cart").get_data(as_text=True))})  # fmt: skip

    mine = shopper.get("/")
    again = shopper.get("/")
    theirs = visitor.get("/").get_data(as_text=True)

    assert "X-Cache" not in mine.headers and "X-Cache" not in again.headers
    assert "Nia" in mine.get_data(as_text=True) and ">2</span>" in mine.get_data(as_text=True)
    assert "Nia" not in theirs and "Log in" in theirs and 'class="cart-count cart-count--empty">0<' in theirs


def test_a_guest_with_a_cart_or_compare_tray_gets_their_own_page(cached):
    product = make_product("Oxford Shirt", sizes=("L",))
    cached.test_client().get(f"/products/{product.id}")  # an anonymous copy is stored
    guest = cached.test_client()
    guest.post("/cart/add", data={"product_id": product.id, "size": "L", "quantity": 1,
                                  "csrf_token": token_of(guest.get("/").get_data(as_text=True))})  # fmt: skip
    with guest.session_transaction() as session:
        session["compare"] = [product.id]

    page = guest.get(f"/products/{product.id}")

    assert "X-Cache" not in page.headers
    assert '<span id="cart-count" class="cart-count">1</span>' in page.get_data(as_text=True)
    assert "1</strong> product to compare" in page.get_data(as_text=True)
    assert cached.test_client().get(f"/products/{product.id}").headers["X-Cache"] == "hit"


def test_a_flashed_message_is_never_cached(cached):
    client = cached.test_client()
    client.get("/")
    with client.session_transaction() as session:
        session["_flashes"] = [("info", "Only for you")]

    page = client.get("/")

    assert "X-Cache" not in page.headers and "Only for you" in page.get_data(as_text=True)
    assert "Only for you" not in cached.test_client().get("/").get_data(as_text=True)


def test_a_price_change_through_the_admin_service_shows_at_once(cached):
    product = make_product("Oxford Shirt", price="45.00")
    admin = make_admin()
    client = cached.test_client()
    client.get(f"/products/{product.id}")
    assert client.get(f"/products/{product.id}").headers["X-Cache"] == "hit"

    admin_products.update_product(Actor(user=admin), product.id, {"price": "39.00"})
    page = client.get(f"/products/{product.id}")

    assert page.headers["X-Cache"] == "miss" and "$39.00" in page.get_data(as_text=True)


def _warm(client, path: str) -> None:
    client.get(path)
    assert client.get(path).headers["X-Cache"] == "hit"


def test_a_review_invalidates(cached):
    product = make_product("Oxford Shirt")
    client = cached.test_client()
    _warm(client, f"/products/{product.id}")

    reviews.save_review(Actor(guest_id="guest-1"), product.id, 5, "Lovely shirt", "Ana")

    page = client.get(f"/products/{product.id}")
    assert page.headers["X-Cache"] == "miss" and "Lovely shirt" in page.get_data(as_text=True)


def test_a_variant_stock_change_invalidates(cached):
    product = make_product("Oxford Shirt", sizes=("L",), stock=9)
    client = cached.test_client()
    _warm(client, f"/products/{product.id}?size=L")

    db.session.get(ProductVariant, product.variants[0].id).stock = 2
    db.session.commit()

    assert "Only 2 left" in client.get(f"/products/{product.id}?size=L").get_data(as_text=True)


def test_a_sale_starting_invalidates(cached):
    make_product("Oxford Shirt", price="40.00")
    client = cached.test_client()
    _warm(client, "/catalog")

    today = pricing.today()
    db.session.add(Sale(name="Flash", discount_percentage=Decimal(50), is_active=True, start_date=today,
                        end_date=today))  # fmt: skip
    db.session.commit()

    assert "$20.00" in client.get("/catalog").get_data(as_text=True)


def test_entries_end_at_the_next_sale_boundary(cached):
    today = pricing.today()
    db.session.add(Sale(name="Later", discount_percentage=Decimal(10), is_active=True,
                        start_date=today + timedelta(days=2), end_date=today + timedelta(days=3)))  # fmt: skip
    db.session.add(Sale(name="Now", discount_percentage=Decimal(10), is_active=True, start_date=today,
                        end_date=today))  # fmt: skip
    db.session.commit()
    now = datetime.combine(today, datetime.min.time(), tzinfo=UTC) + timedelta(hours=23, minutes=59)
    cached.config["PAGE_CACHE_SECONDS"] = 3600

    with cached.test_request_context("/"):
        assert pricing.next_price_change(now) == datetime.combine(today + timedelta(days=1), datetime.min.time(), UTC)
        assert web_page_cache._seconds_to_keep(now) == 60


def test_memory_entries_are_bounded_least_recently_used_first(tmp_path):
    memory = MemoryBackend(GenerationFile(str(tmp_path)), max_entries=2)
    generation = memory.generation.read()
    memory.set("a", 1, 60, generation)
    memory.set("b", 2, 60, generation)
    memory.get("a")
    memory.set("c", 3, 60, generation)

    assert [memory.get(key)[0] for key in "abc"] == [1, None, 3]


def test_a_change_in_one_process_invalidates_the_others(database_url, tmp_path):
    """Two app instances (two gunicorn workers) share only the instance folder: a commit in one ends the other's
    cached copy."""
    workers = [_app_for(database_url, PAGE_CACHE=True) for _ in range(2)]
    for worker in workers:
        worker.instance_path = str(tmp_path / "shared-instance")
        worker.extensions["page_cache"] = PageCache(worker.instance_path, redis_url=None, prefix="t:", max_entries=8)
    with workers[0].app_context():
        product = make_product("Oxford Shirt", price="45.00")
        product_id = product.id
    path = f"/products/{product_id}"
    reader = workers[1].test_client()
    reader.get(path)
    assert reader.get(path).headers["X-Cache"] == "hit"

    with workers[0].app_context():
        admin = make_admin()
        admin_products.update_product(Actor(user=admin), product_id, {"price": "31.00"})
        db.session.remove()

    with workers[1].app_context():
        page = reader.get(path)
        db.session.remove()
    for worker in workers:
        with worker.app_context():
            db.engine.dispose()
    assert page.headers["X-Cache"] == "miss" and "$31.00" in page.get_data(as_text=True)


@pytest.fixture
def redis_prefix():
    prefix = f"insightshop-test-{uuid.uuid4().hex}:"
    yield prefix
    client = redis.Redis.from_url(REDIS_URL)
    for key in client.scan_iter(f"{prefix}*"):
        client.delete(key)


def test_the_redis_backend_shares_pages_and_invalidates(cached, redis_prefix):
    cached.extensions["page_cache"] = PageCache(cached.instance_path, redis_url=REDIS_URL, prefix=redis_prefix,
                                                max_entries=8, signing_key=b"k")  # fmt: skip
    product = make_product("Oxford Shirt", price="45.00")
    client = cached.test_client()
    _warm(client, f"/products/{product.id}")

    product.price = Decimal("29.00")
    db.session.commit()
    page = client.get(f"/products/{product.id}")

    stored = list(redis.Redis.from_url(REDIS_URL).scan_iter(f"{redis_prefix}*"))
    assert page.headers["X-Cache"] == "miss" and "$29.00" in page.get_data(as_text=True)
    assert f"{redis_prefix}generation".encode() in stored and f"{redis_prefix}v2-index:pages".encode() in stored
    assert len(stored) == 3  # the generation, the index of the pages' budget and the one page


def test_unreachable_redis_falls_back_to_memory_and_logs_once(cached, caplog, monkeypatch):
    # Alembic's logging setup (the migrated test database) disables loggers that existed before it ran.
    monkeypatch.setattr(logging.getLogger("insightshop.outages"), "disabled", False)
    cached.extensions["page_cache"] = PageCache(cached.instance_path, redis_url="redis://127.0.0.1:1/0",
                                                prefix="unused:", max_entries=8, signing_key=b"k")  # fmt: skip
    product = make_product("Oxford Shirt")
    client = cached.test_client()

    responses = [client.get(f"/products/{product.id}") for _ in range(3)]
    product.name = "Oxford Shirt Two"
    db.session.commit()
    after = client.get(f"/products/{product.id}")

    assert [r.status_code for r in responses] == [200, 200, 200]
    assert [r.headers["X-Cache"] for r in responses] == ["miss", "hit", "hit"]
    assert after.headers["X-Cache"] == "miss" and "Oxford Shirt Two" in after.get_data(as_text=True)
    assert len([r for r in caplog.records if "Redis (page cache) is unreachable" in r.getMessage()]) == 1


def test_the_cache_is_off_unless_asked_for_in_tests(app, client):
    make_product("Oxford Shirt")
    assert "X-Cache" not in client.get("/").headers
    assert app.config["PAGE_CACHE"] is False and date.today()


def test_facet_counts_are_shared_and_follow_the_catalog(app):
    app.config["DATA_CACHE"] = True  # a data cache: on even where pages are not cached (PAGE_CACHE off)
    make_product("Oxford Shirt", color="white")
    client = app.test_client()
    first = client.get("/api/products/facets?q=shirt").get_json()
    again = client.get("/catalog?q=shirt")

    make_product("Oxford Shirt", color="navy")
    second = client.get("/api/products/facets?q=shirt").get_json()

    assert app.config["PAGE_CACHE"] is False and "X-Cache" not in again.headers
    assert first != second and "navy" in str(second) and "navy" not in str(first)


def test_facet_counts_are_served_from_the_cache(app, monkeypatch):
    app.config["DATA_CACHE"] = True
    make_product("Oxford Shirt", color="white")
    client = app.test_client()
    client.get("/catalog?q=shirt")
    computed = []
    monkeypatch.setattr(catalog, "catalog_facets", lambda query: computed.append(query))

    page = client.get("/catalog?q=shirt&sort=newest&page=1")

    assert page.status_code == 200 and computed == []  # sort and page do not change the counts


def test_shared_page_data_follows_the_catalog_with_pages_uncached(app):
    app.config["DATA_CACHE"] = True  # home rows, catalog results, related rows: shared data, pages still rendered
    first = make_product("Oxford Shirt", color="white")
    client = app.test_client()
    before = [client.get(url).get_data(as_text=True) for url in ("/", "/catalog?q=shirt", f"/products/{first.id}")]

    make_product("Flannel Shirt", color="navy")
    after = [client.get(url).get_data(as_text=True) for url in ("/", "/catalog?q=shirt", f"/products/{first.id}")]

    assert all("Flannel Shirt" not in page for page in before)
    assert all("Flannel Shirt" in page for page in after)


def test_shared_page_data_holds_no_visitors_compare_tray(app):
    app.config["DATA_CACHE"] = True
    product = make_product("Oxford Shirt")
    comparer, other = app.test_client(), app.test_client()
    comparer.get("/catalog?q=shirt")
    comparer.post(f"/compare/{product.id}", data={"csrf_token": token_of(comparer.get("/").get_data(as_text=True))})

    mine = comparer.get("/catalog?q=shirt").get_data(as_text=True)
    theirs = other.get("/catalog?q=shirt").get_data(as_text=True)

    assert "✓ Comparing" in mine and "✓ Comparing" not in theirs and "+ Compare" in theirs


def test_shared_product_page_data_holds_no_visitors_own_review(app):
    app.config["DATA_CACHE"] = True  # the product, pickers and reviews are shared; the visitor's review form is not
    product = make_product("Oxford Shirt")
    author, other = app.test_client(), app.test_client()
    author.post(f"/products/{product.id}/reviews", data={"rating": "3", "comment": "Runs small", "user_name": "Pat",
                "csrf_token": token_of(author.get(f"/products/{product.id}").get_data(as_text=True))})  # fmt: skip

    mine = author.get(f"/products/{product.id}").get_data(as_text=True)
    theirs = other.get(f"/products/{product.id}").get_data(as_text=True)

    assert "Runs small" in mine and "Runs small" in theirs  # the list is everybody's
    assert "Edit your review" in mine and "Delete my review" in mine and '<option selected value="3">' in mine
    assert (
        "\nRuns small</textarea>" in mine and token_of(mine) in mine.split("Delete my review")[0].rsplit("<form", 1)[1]
    )
    assert "Write a review" in theirs and "Delete my review" not in theirs and '<option selected value="5">' in theirs
    assert "\nRuns small</textarea>" not in theirs and token_of(mine) not in theirs


def test_review_form_errors_keep_what_the_visitor_typed(app):
    app.config["DATA_CACHE"] = True
    product = make_product("Oxford Shirt")
    client = app.test_client()
    token = token_of(client.get(f"/products/{product.id}").get_data(as_text=True))

    response = client.post(f"/products/{product.id}/reviews", data={"rating": "2", "comment": "Itchy", "csrf_token": token},
                           headers={"HX-Request": "true"})  # fmt: skip
    html = response.get_data(as_text=True)

    assert response.status_code == 422 and 'class="field field--error"' in html and "Please add your name" in html
    assert '<option selected value="2">' in html and "\nItchy</textarea>" in html
    # The visitor's own token (signed anew, with the second it was signed in: compare the secret it carries).
    field = re.search(r'name="csrf_token"[^>]* value="([^"]+)"', html).group(1)
    assert field.split(".")[0] == token.split(".")[0]


def test_a_returning_anonymous_visitor_is_served_and_stores_copies(cached):
    product = make_product("Oxford Shirt")
    client = cached.test_client()
    client.get("/")

    pages = [client.get(f"/products/{product.id}").headers["X-Cache"] for _ in range(2)]

    assert pages == ["miss", "hit"]


def test_a_hit_is_answered_before_flask_runs_with_its_own_access_line_and_metrics(cached, caplog):
    product = make_product("Oxford Shirt")
    flask_requests = []
    cached.before_request(lambda: flask_requests.append(1))
    labels = {"method": "GET", "endpoint": "/products/<int:product_id>", "status": "200"}
    counted = REGISTRY.get_sample_value("insightshop_http_requests_total", labels) or 0.0
    cached.test_client().get(f"/products/{product.id}")
    caplog.set_level(logging.INFO, logger="insightshop.access")
    caplog.clear()

    hit = cached.test_client().get(f"/products/{product.id}", headers={"X-Request-ID": "req-hit-1"})

    lines = [r for r in caplog.records if r.name == "insightshop.access"]
    assert hit.headers["X-Cache"] == "hit" and hit.headers["X-Request-ID"] == "req-hit-1" and flask_requests == [1]
    assert [(r.getMessage(), r.request_id, r.endpoint, r.status) for r in lines] == [
        (f"GET /products/{product.id} 200", "req-hit-1", "shop.show_product", 200)
    ]
    assert REGISTRY.get_sample_value("insightshop_http_requests_total", labels) == counted + 2


def test_a_returning_visitor_keeps_their_session_and_token(cached):
    product = make_product("Oxford Shirt", sizes=("L",))
    cached.test_client().get(f"/products/{product.id}")
    visitor = cached.test_client()
    first = visitor.get("/")  # a miss: the visitor's session is made by Flask
    with visitor.session_transaction() as session:
        secret = session["csrf_token"]

    hit = visitor.get(f"/products/{product.id}")
    added = visitor.post("/cart/add", data={"product_id": product.id, "size": "L", "quantity": 1,
                                            "csrf_token": token_of(hit.get_data(as_text=True))})  # fmt: skip

    assert (first.headers["X-Cache"], hit.headers["X-Cache"]) == ("miss", "hit")
    assert "Set-Cookie" not in hit.headers  # the same session: nothing to set
    assert added.status_code == 303 and "Oxford Shirt" in visitor.get("/cart").get_data(as_text=True)
    with visitor.session_transaction() as session:
        assert session["csrf_token"] == secret


def test_a_session_cookie_that_does_not_verify_goes_to_the_app(cached):
    product = make_product("Oxford Shirt")
    cached.test_client().get(f"/products/{product.id}")
    client = cached.test_client()
    client.set_cookie("session", "forged.value.here")

    page = client.get(f"/products/{product.id}")

    assert page.status_code == 200 and "X-Cache" not in page.headers


def test_a_head_request_gets_the_headers_of_a_hit_and_no_body(cached):
    product = make_product("Oxford Shirt")
    page = cached.test_client().get(f"/products/{product.id}")

    head = cached.test_client().head(f"/products/{product.id}")

    assert head.headers["X-Cache"] == "hit" and head.data == b""
    assert abs(int(head.headers["Content-Length"]) - len(page.data)) < 20  # another token, maybe another length


def test_a_change_committed_while_a_page_renders_leaves_no_stale_copy(cached, monkeypatch):
    """The copy is stored under the generation read before rendering, so a change committed meanwhile ends it."""
    product = make_product("Oxford Shirt", price="45.00")
    render = web_cached_pages.CachedPageServer._render_and_store

    def render_with_a_change_meanwhile(self, key, stamp, environ, start_response):
        answer = render(self, key, stamp, environ, start_response)
        cached.extensions["page_cache"].bump()  # another worker's commit, after the read, before the store
        return answer

    monkeypatch.setattr(web_cached_pages.CachedPageServer, "_render_and_store", render_with_a_change_meanwhile)
    client = cached.test_client()
    client.get(f"/products/{product.id}")
    monkeypatch.undo()

    assert client.get(f"/products/{product.id}").headers["X-Cache"] == "miss"


@pytest.mark.parametrize("backend", ["memory", "redis"])
def test_a_value_computed_before_a_bump_is_stored_stale(tmp_path, redis_prefix, backend):
    cache = PageCache(str(tmp_path), redis_url=REDIS_URL if backend == "redis" else None, prefix=redis_prefix,
                      max_entries=8, signing_key=b"k")  # fmt: skip
    value, stamp = cache.lookup("facets:x")
    cache.bump()
    cache.store("facets:x", {"white": 3}, 60, stamp)
    fresh, stamp = cache.lookup("facets:x")
    cache.store("facets:x", {"white": 4}, 60, stamp)

    assert (value, fresh, cache.get("facets:x")) == (None, None, {"white": 4})


def test_redis_entries_not_signed_with_the_apps_secret_are_refused(tmp_path, redis_prefix):
    ours = RedisBackend(REDIS_URL, redis_prefix, b"the app's secret")
    intruder = RedisBackend(REDIS_URL, redis_prefix, b"a guess")
    _, generation = ours.get("page:x")
    intruder.set("page:x", "a page of someone else's", 60, generation)
    client = redis.Redis.from_url(REDIS_URL)
    client.set(f"{redis_prefix}signed:page:y", b"\0" * 32 + pickle.dumps((generation, "unsigned")))

    assert ours.get("page:x")[0] is None and ours.get("page:y")[0] is None
    ours.set("page:x", "ours", 60, generation)
    assert ours.get("page:x")[0] == "ours"


def test_an_order_taking_stock_that_pages_do_not_show_keeps_cached_pages(cached):
    """Above VISIBLE_STOCK a page shows no count, so an order taking one of fifty leaves every copy valid; an order
    that brings a size into the counted range (or sells it out) ends them."""
    product = make_product("Oxford Shirt", sizes=("L",), stock=VISIBLE_STOCK + 3)
    client = cached.test_client()
    path = f"/products/{product.id}?size=L"
    _warm(client, path)
    variant = db.session.get(ProductVariant, product.variants[0].id)

    variant.stock -= 2  # still more than any page shows
    db.session.commit()
    kept = client.get(path)
    variant.stock -= 2  # now within the counted range: the page says how many
    db.session.commit()
    ended = client.get(path)

    assert kept.headers["X-Cache"] == "hit" and "In stock in White / L<" in kept.get_data(as_text=True)
    assert ended.headers["X-Cache"] == "miss"
    assert f"({VISIBLE_STOCK - 1} available)" in ended.get_data(as_text=True)


@pytest.mark.parametrize(("before", "after", "visible"), [(50, 49, False), (11, 20, False), (11, 10, True),
                                                          (3, 2, True), (1, 0, True), (0, 40, True)])  # fmt: skip
def test_which_stock_changes_a_page_can_show(before, after, visible):
    assert (shown_stock(before) != shown_stock(after)) is visible


def test_pages_show_no_count_above_the_visible_stock():
    """The display side of VISIBLE_STOCK: two counts above it read the same (so a cached copy is not stale)."""
    from types import SimpleNamespace

    from insightshop.web.display import LOW_STOCK, _availability

    assert LOW_STOCK <= VISIBLE_STOCK  # "Few left" and "Sold out" badges change only within the counted range

    def availability(stock):
        return _availability(None, "white", "L", {"L": SimpleNamespace(stock=stock)})

    assert availability(VISIBLE_STOCK + 1) == availability(500)
    assert availability(VISIBLE_STOCK) != availability(VISIBLE_STOCK + 1)


def test_a_copy_made_by_another_server_says_which_server_answered(database_url, tmp_path):
    """Behind a load balancer the copy may come from another app server (through Redis): X-Served-By is this one's."""
    servers = [_app_for(database_url, PAGE_CACHE=True, INSTANCE_NAME=name) for name in ("app-1", "app-2")]
    shared = PageCache(str(tmp_path), redis_url=None, prefix="t:", max_entries=8)
    for server in servers:
        server.extensions["page_cache"] = shared
    with servers[0].app_context():
        product_id = make_product("Oxford Shirt").id

    made = servers[0].test_client().get(f"/products/{product_id}")
    served = servers[1].test_client().get(f"/products/{product_id}")

    for server in servers:
        with server.app_context():
            db.session.remove()
            db.engine.dispose()
    assert (made.headers["X-Served-By"], made.headers["X-Cache"]) == ("app-1", "miss")
    assert (served.headers["X-Served-By"], served.headers["X-Cache"]) == ("app-2", "hit")


def test_an_error_page_made_after_a_failing_hook_is_never_stored(cached):
    """mark_storable says yes to the 200, a later hook fails, Flask answers 500 with the hooks run again: the 500
    must not be kept for the next visitor."""
    product = make_product("Oxford Shirt")
    failures = [RuntimeError("a hook failed once")]

    def fail_once(response):
        if failures:
            raise failures.pop()
        return response

    cached.after_request_funcs[None].insert(0, fail_once)  # runs after mark_storable (hooks run in reverse)
    cached.config["PROPAGATE_EXCEPTIONS"] = False
    first = cached.test_client().get(f"/products/{product.id}")
    second = cached.test_client().get(f"/products/{product.id}")

    assert first.status_code == 500 and "X-Cache" in first.headers
    assert second.status_code == 200 and second.headers["X-Cache"] == "miss"


def test_a_failing_cache_never_fails_a_page(cached, monkeypatch, caplog):
    product = make_product("Oxford Shirt")

    def broken(_key):
        raise OSError("the generation file cannot be read")

    monkeypatch.setattr(cached.extensions["page_cache"], "lookup", broken)
    page = cached.test_client().get(f"/products/{product.id}")

    assert page.status_code == 200 and "Oxford Shirt" in page.get_data(as_text=True)
    assert any("page cache failed" in record.getMessage() for record in caplog.records)


def test_only_cached_pages_are_looked_up(cached, monkeypatch):
    """/products/2/image.svg shares the product page's prefix but is not a cached page: no lookup, no X-Cache."""
    product = make_product("Oxford Shirt")
    looked_up = []
    lookup = cached.extensions["page_cache"].lookup
    monkeypatch.setattr(cached.extensions["page_cache"], "lookup", lambda key: looked_up.append(key) or lookup(key))
    client = cached.test_client()

    image = client.get(f"/products/{product.id}/image.svg")
    page = client.get(f"/products/{product.id}")

    assert image.status_code == 200 and "X-Cache" not in image.headers and page.headers["X-Cache"] == "miss"
    assert len(looked_up) == 1


def test_a_signed_value_cannot_be_moved_to_another_key(redis_prefix):
    backend = RedisBackend(REDIS_URL, redis_prefix, b"the app's secret")
    _, generation = backend.get("page:a")
    backend.set("page:a", "the page of /a", 60, generation)
    client = redis.Redis.from_url(REDIS_URL)
    client.set(f"{backend.entry_prefix}page:b", client.get(f"{backend.entry_prefix}page:a"))

    assert backend.get("page:a")[0] == "the page of /a" and backend.get("page:b")[0] is None


def test_the_redis_cache_needs_a_signing_key(tmp_path):
    with pytest.raises(ValueError):
        PageCache(str(tmp_path), redis_url=REDIS_URL, prefix="t:", max_entries=8)


class FlakyRedis:
    """A Redis backend that is down until told otherwise, and records its calls."""

    def __init__(self):
        self.up, self.bump_fails, self.calls, self.generation = False, False, [], 0

    def _check(self):
        if not self.up:
            raise redis.ConnectionError("down")

    def get(self, key):
        self._check()
        self.calls.append("get")
        return ("stale copy" if self.generation == 0 else None), self.generation

    def set(self, key, value, ttl, generation):
        self._check()

    def bump(self):
        self._check()
        if self.bump_fails:
            raise redis.ConnectionError("bump failed")
        self.calls.append("bump")
        self.generation += 1


def test_after_an_outage_redis_is_bumped_before_it_is_read_again(tmp_path):
    cache = PageCache(str(tmp_path), redis_url=REDIS_URL, prefix="t:", max_entries=8, signing_key=b"k",
                      retry_seconds=0)  # fmt: skip
    cache.redis = FlakyRedis()
    assert cache.get("page:x") is None and cache.outage.down  # down: memory answers

    cache.redis.up, cache.redis.bump_fails = True, True
    assert cache.get("page:x") is None and cache.outage.down  # the bump failed: still counted as down

    cache.redis.bump_fails = False
    value = cache.get("page:x")
    assert value is None and not cache.outage.down and cache.redis.calls == ["bump", "get"]


# Issue 26 item 8: the shared cache is bounded, whatever URLs anyone asks for.
def test_the_redis_cache_keeps_at_most_its_cap_of_entries(redis_prefix):
    backend = RedisBackend(REDIS_URL, redis_prefix, b"the app's secret", max_entries=5)
    _, generation = backend.get("page:0")
    for number in range(40):
        backend.set(f"page:{number}", "<html>" + "x" * 40_000 + "</html>", 300, generation)
    client = redis.Redis.from_url(REDIS_URL)
    entries = list(client.scan_iter(f"{backend.entry_prefix}*"))

    assert len(entries) == 5
    assert client.zcard(backend.index_keys["pages"]) == 5
    assert sum(client.memory_usage(key) for key in entries) < 5 * 10_000  # stored compressed
    assert backend.get("page:39")[0].startswith("<html>")  # the newest are kept
    assert backend.get("page:0")[0] is None


def test_urls_with_parameters_a_page_does_not_read_are_never_stored(cached):
    product = make_product("Oxford Shirt", price="45.00")
    client = cached.test_client()

    junk = [client.get(f"/catalog?q=shirt&utm_junk={number}").headers["X-Cache"] for number in range(3)]
    product_junk = [client.get(f"/products/{product.id}?x=1").headers["X-Cache"] for _ in range(2)]
    known = client.get("/catalog?q=shirt&sort=price_low").headers["X-Cache"]
    reordered = client.get("/catalog?sort=price_low&q=shirt")

    assert junk == ["miss"] * 3 and product_junk == ["miss"] * 2
    assert known == "miss" and reordered.headers["X-Cache"] == "hit"
    assert "Oxford Shirt" in reordered.get_data(as_text=True)


def test_made_up_searches_and_values_never_push_out_the_shops_own_pages(redis_prefix):
    # Issue 26 item 8 (re-attack): thousands of distinct searches (?q=<random>, ?color=<junk>) only compete with
    # each other, in a budget of a quarter of the cap; department, colour and product pages keep their places.
    from insightshop.services.page_cache import PAGES, SEARCHES

    backend = RedisBackend(REDIS_URL, redis_prefix, b"the app's secret", max_entries=8)
    _, generation = backend.get("page:home")
    for page in ("home", "men", "women", "product-1"):
        backend.set(f"page:{page}", page, 300, generation, PAGES)
    for number in range(50):
        backend.set(f"page:q{number}", "a search", 300, generation, SEARCHES)
    client = redis.Redis.from_url(REDIS_URL)

    assert [backend.get(f"page:{page}")[0] for page in ("home", "men", "women", "product-1")] == [
        "home", "men", "women", "product-1"]  # fmt: skip
    assert client.zcard(backend.index_keys[SEARCHES]) == 2
    assert backend.get("page:q49")[0] == "a search" and backend.get("page:q0")[0] is None


@pytest.mark.parametrize(
    ("endpoint", "args", "budget"),
    [
        ("shop.show_catalog", {}, "pages"),
        ("shop.show_catalog", {"category": "men", "color": "white", "size": "L", "sort": "price_low"}, "pages"),
        ("shop.show_catalog", {"q": "white shirt"}, "searches"),
        ("shop.show_catalog", {"min_price": "10.01"}, "searches"),
        ("shop.show_catalog", {"color": "no-such-colour"}, "searches"),
        ("shop.show_product", {"color": "white", "size": "M"}, "pages"),
        ("shop.show_product", {"color": "x1y2z3"}, "searches"),
        ("shop.show_home", {}, "pages"),
    ],
)
def test_which_urls_count_as_the_shops_own_pages(app, endpoint, args, budget):
    from werkzeug.datastructures import MultiDict

    assert web_page_cache.budget_of(endpoint, MultiDict(args)) == budget
