from decimal import Decimal

from insightshop.extensions import db
from insightshop.services.catalog import CatalogQuery, catalog_facets, search_catalog
from tests.factories import make_product


def names(page):
    return [p.name for p in page.products]


def test_white_shirt_lists_only_shirts_that_come_in_white():
    make_product("Heavyweight Pocket Tee", clothing_type="t-shirt", color="white", rating="5.0")
    make_product("Navy Oxford Shirt", clothing_type="shirt", color="navy", rating="5.0",
                 description="Pairs well with white trousers.")  # fmt: skip
    make_product("Poplin Shirt", clothing_type="shirt", color="white", rating="3.5")
    make_product("Linen Shirt", clothing_type="shirt", color="blue", colors=("blue", "white"), rating="4.0")

    page = search_catalog(CatalogQuery(text="white shirt"))

    assert names(page)[:2] == ["Poplin Shirt", "Linen Shirt"] or names(page)[:2] == ["Linen Shirt", "Poplin Shirt"]
    assert "Heavyweight Pocket Tee" not in names(page)  # a t-shirt is not a shirt
    assert "Navy Oxford Shirt" not in names(page)  # "white" in its description does not make it white


def test_synonyms_find_products_described_with_other_words():
    make_product("Crew Neck T-Shirt", clothing_type="t-shirt")
    make_product("Pleated Chinos Trousers", clothing_type="pants", description="Smart pants for the office.")
    make_product("Merino Crew", clothing_type="sweater", description="A fine-gauge knit.")
    make_product("Selvedge Straight Fit", clothing_type="jeans", fabric="denim")
    make_product("Court Runner", clothing_type="sneakers", fabric="leather")

    assert names(search_catalog(CatalogQuery(text="tees"))) == ["Crew Neck T-Shirt"]
    assert names(search_catalog(CatalogQuery(text="trousers"))) == ["Pleated Chinos Trousers"]
    assert names(search_catalog(CatalogQuery(text="jumper"))) == ["Merino Crew"]
    assert names(search_catalog(CatalogQuery(text="pullovers"))) == ["Merino Crew"]
    assert names(search_catalog(CatalogQuery(text="denim"))) == ["Selvedge Straight Fit"]
    assert names(search_catalog(CatalogQuery(text="trainers"))) == ["Court Runner"]


def test_plural_search_finds_singular_products():
    make_product("Wrap Midi Dress", clothing_type="dress", category="women")
    make_product("Ribbed Socks", clothing_type="socks")

    assert names(search_catalog(CatalogQuery(text="dresses"))) == ["Wrap Midi Dress"]
    assert names(search_catalog(CatalogQuery(text="sock"))) == ["Ribbed Socks"]


def test_department_words_filter_by_category():
    make_product("Everyday Hoodie", clothing_type="hoodie", category="kids")
    make_product("Everyday Hoodie", clothing_type="hoodie", category="men")
    make_product("Everyday Hoodie", clothing_type="hoodie", category="women")

    kids = search_catalog(CatalogQuery(text="girls hoodie"))
    ladies = search_catalog(CatalogQuery(text="ladies hoodies"))

    assert [p.category for p in kids.products] == ["kids"]
    assert [p.category for p in ladies.products] == ["women"]


def test_search_as_you_type_matches_a_word_prefix():
    make_product("Quilted Puffer Jacket", clothing_type="jacket")
    make_product("Wool Overcoat", clothing_type="coat")

    assert names(search_catalog(CatalogQuery(text="puf"))) == ["Quilted Puffer Jacket"]
    assert names(search_catalog(CatalogQuery(text="quilted jack"))) == ["Quilted Puffer Jacket"]


def test_when_no_product_has_every_word_nothing_is_padded_and_the_closest_are_suggested():
    make_product("Linen Shirt", clothing_type="shirt", color="white")

    page = search_catalog(CatalogQuery(text="white tuxedo "))

    assert not page.broadened
    assert (page.total, names(page)) == (0, [])
    assert [(s.product.name, s.unmet) for s in page.suggestions] == [("Linen Shirt", ["query"])]


def test_filters_combine_text_colour_size_stock_and_price():
    make_product("Oxford Shirt", color="white", sizes=("S", "M", "L"), stock={"white/L": 3}, price="60.00")
    make_product("Oxford Shirt", color="white", sizes=("S", "M", "L"), stock={"white/M": 3}, price="40.00")
    make_product("Oxford Shirt", color="blue", sizes=("L",), stock=4, price="45.00")

    page = search_catalog(CatalogQuery(text="oxford", color=("white",), size=("L",)))
    assert [(p.color, p.price) for p in page.products] == [("white", Decimal("60.00"))]

    cheap = search_catalog(CatalogQuery(text="oxford", max_price=Decimal("45.00"), sort="price_low"))
    assert [p.price for p in cheap.products] == [Decimal("40.00"), Decimal("45.00")]


def test_large_in_the_text_means_size_l_in_stock():
    make_product("Oxford Shirt", color="white", sizes=("M", "L"), stock={"white/L": 0, "white/M": 5})
    in_stock = make_product("Poplin Shirt", color="white", sizes=("L",), stock=2)

    page = search_catalog(CatalogQuery(text="large white shirts"))

    assert [p.id for p in page.products] == [in_stock.id]


def test_colour_filter_matches_any_variant_colour():
    two_tone = make_product("Striped Polo", clothing_type="polo", color="navy", colors=("navy", "red"))
    make_product("Plain Polo", clothing_type="polo", color="navy")

    page = search_catalog(CatalogQuery(color=("red",)))

    assert [p.id for p in page.products] == [two_tone.id]


def test_inactive_products_are_never_listed():
    make_product("Retired Shirt", is_active=False)

    assert search_catalog(CatalogQuery(text="retired")).total == 0
    assert search_catalog(CatalogQuery()).total == 0


def test_sorts_by_price_rating_and_newest():
    a = make_product("A Tee", clothing_type="t-shirt", price="30.00", rating="3.0")
    b = make_product("B Tee", clothing_type="t-shirt", price="10.00", rating="5.0")
    c = make_product("C Tee", clothing_type="t-shirt", price="20.00", rating="4.0")

    def ids(sort):
        return [p.id for p in search_catalog(CatalogQuery(text="tee", sort=sort)).products]

    assert ids("price_low") == [b.id, c.id, a.id]
    assert ids("price_high") == [a.id, c.id, b.id]
    assert ids("rating") == [b.id, c.id, a.id]
    assert ids("newest") == [c.id, b.id, a.id]


def test_pagination_reports_totals_and_pages():
    for number in range(7):
        make_product(f"Sock Pack {number}", clothing_type="socks")

    page = search_catalog(CatalogQuery(text="socks", per_page=3, page=3))

    assert (page.total, page.pages, len(page.products), page.has_next, page.has_prev) == (7, 3, 1, False, True)


def test_index_follows_product_edits_and_deletions():
    product = make_product("Harbour Jacket", clothing_type="jacket", color="navy")
    assert search_catalog(CatalogQuery(text="harbour")).total == 1

    product.name = "Lighthouse Jacket"
    product.variants[0].color = "yellow"
    db.session.commit()
    assert search_catalog(CatalogQuery(text="harbour")).total == 0
    assert search_catalog(CatalogQuery(text="lighthouse yellow")).total == 1

    db.session.delete(product)
    db.session.commit()
    assert search_catalog(CatalogQuery(text="lighthouse")).total == 0


def test_facet_counts_ignore_their_own_selection():
    make_product("Oxford Shirt", color="white", category="men")
    make_product("Oxford Shirt", color="blue", category="men")
    make_product("Poplin Blouse", clothing_type="blouse", color="white", category="women")

    facets = catalog_facets(CatalogQuery(color=("white",)))

    colors = {v.value: (v.count, v.selected) for v in facets.values["color"]}
    categories = {v.value: v.count for v in facets.values["category"]}
    assert colors == {"white": (2, True), "blue": (1, False)}
    assert categories == {"men": 1, "women": 1}


def test_price_bands_count_matching_products():
    make_product("Socks", clothing_type="socks", price="9.00")
    make_product("Shirt", price="49.99")
    make_product("Coat", clothing_type="coat", price="250.00")

    bands = {(str(b.min_price), str(b.max_price)): b.count for b in catalog_facets(CatalogQuery()).price_bands}

    assert bands == {("0", "25"): 1, ("25", "50"): 1, ("50", "100"): 0, ("100", "200"): 0, ("200", "None"): 1}


def test_deactivating_a_product_or_selling_out_a_size_updates_search():
    product = make_product("Harbour Jacket", clothing_type="jacket", sizes=("M", "L"), stock=3)
    assert search_catalog(CatalogQuery(size=("L",))).total == 1

    product.variant_for("white", "L").stock = 0
    db.session.commit()
    assert search_catalog(CatalogQuery(size=("L",))).total == 0
    assert search_catalog(CatalogQuery(size=("M",), in_stock=True)).total == 1

    product.is_active = False
    db.session.commit()
    assert search_catalog(CatalogQuery(text="harbour")).total == 0
    assert catalog_facets(CatalogQuery(text="harbour")).values["category"] == []


def test_text_department_and_a_different_chosen_department_find_nothing():
    make_product("Everyday Hoodie", clothing_type="hoodie", category="men")
    make_product("Everyday Hoodie", clothing_type="hoodie", category="women")

    assert search_catalog(CatalogQuery(text="ladies hoodie", category=("men",))).total == 0
    assert search_catalog(CatalogQuery(text="ladies hoodie", category=("men", "women"))).total == 1


def test_second_page_of_ranked_results_continues_the_first():
    for number in range(5):
        make_product(f"Field Jacket {number}", clothing_type="jacket")

    first = search_catalog(CatalogQuery(text="jacket", per_page=3))
    second = search_catalog(CatalogQuery(text="jacket", per_page=3, page=2))

    assert len({p.id for p in first.products} | {p.id for p in second.products}) == 5
