from insightshop.services.search_terms import parse_query


def test_synonyms_map_shop_words_to_the_catalog_vocabulary():
    assert parse_query("tee ").groups == (("tshirt",),)
    assert parse_query("trousers ").groups == (("pants", "trousers"),)
    assert parse_query("jumper ").groups == (("sweater", "jumper"),)
    assert parse_query("pullover ").groups == (("sweater", "pullover"),)
    assert parse_query("denim ").groups == (("denim", "jeans"),)
    assert parse_query("trainers ").groups == (("sneakers", "trainers"),)


def test_plurals_are_looked_up_by_their_singular():
    assert parse_query("tees ").groups == (("tshirt",),)
    assert parse_query("jumpers ").groups == (("sweater", "jumper"),)


def test_t_shirt_spellings_become_one_word():
    for text in ("t-shirt ", "T shirts ", "tee-shirt ", "tshirt "):
        assert parse_query(text).groups == (("tshirt",),), text


def test_department_words_become_categories_not_terms():
    parsed = parse_query("ladies dresses ")
    assert parsed.categories == ("women",)
    assert parsed.groups == (("dresses",),)
    assert parse_query("boys hoodie ").categories == ("kids",)
    assert parse_query("children ").categories == ("kids",)
    assert parse_query("men's polo ").categories == ("men",)


def test_size_words_become_sizes():
    parsed = parse_query("large white shirt ")
    assert parsed.sizes == ("L",)
    assert parsed.groups == (("white",), ("shirt",))
    assert parse_query("extra large hoodie ").sizes == ("XL",)


def test_the_word_being_typed_also_matches_as_a_prefix():
    assert parse_query("white sh").groups == (("white",), ("sh", "sh*"))
    assert parse_query("white sh ").groups == (("white",), ("sh",))


def test_stopwords_and_punctuation_are_ignored():
    parsed = parse_query('show me some "navy" socks, please! ')
    assert parsed.groups == (("navy",), ("socks",))


def test_empty_and_hostile_text_parse_to_nothing_harmful():
    assert not parse_query("").has_terms
    assert not parse_query("   ").has_terms
    parsed = parse_query('"; DROP TABLE products; -- OR * NEAR( ')
    assert all(term.replace("*", "").isalnum() for group in parsed.groups for term in group)
