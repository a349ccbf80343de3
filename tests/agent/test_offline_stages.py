"""Each stage of the offline engine on its own: normalise, entities, intent, slots, and the conversation memory."""

from __future__ import annotations

import pytest

from insightshop.agent.conversation_context import remember
from insightshop.agent.offline import entities, intent, interpret
from insightshop.agent.offline.normalise import normalise, numbers_in_words
from insightshop.services.shop_vocabulary import demo_vocabulary, from_items

V = demo_vocabulary()


# normalise ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed, meant",
    [("ad 2 larg whte shrts", "add 2 large white shirts"), ("wht tee", "white tee"), ("blk hoody sz xl", "black hoodie size xl"),
     ("purpel sneakrs", "purple sneakers"), ("shw me jaket", "show me jacket"), ("cheep dresess", "cheap dresses")],
)  # fmt: skip
def test_typos_are_corrected_against_the_shop_vocabulary(typed, meant):
    assert normalise(typed, V).text == meant


@pytest.mark.parametrize("text", ["write a review", "decent quality", "I want to know", "the weather is nice",
                                  "ship to Dana Lee, 9 Pine Rd", "my email is jo@shop.io", "tracking 1Z999AA10123456784"])  # fmt: skip
def test_real_words_names_and_codes_are_left_alone(text):
    assert normalise(text, V).text == text


def test_product_name_words_come_from_the_catalog():
    shop = from_items([{"name": "Zephyrine Anorak", "category": "men", "clothing_type": "jacket", "color": "green",
                        "price": "99.00", "sizes": ["M"]}])  # fmt: skip
    assert normalise("the zephyrin anorak", shop).text == "the zephyrine anorak"
    assert "zephyrin" in normalise("the zephyrin anorak", V).text  # not a word of the demo catalog


@pytest.mark.parametrize(
    "words, digits",
    [("under sixty bucks", "under 60 bucks"), ("forty-five dollars", "45 dollars"), ("half a dozen socks", "6 socks"),
     ("a couple of pairs of socks", "2 pairs of socks"), ("five dollars", "5 dollars"), ("under twenty",
     "under 20"), ("over a hundred dollars", "over 100 dollars"), ("the second one", "the second one")],
)  # fmt: skip
def test_numbers_and_prices_in_words(words, digits):
    assert numbers_in_words(words) == digits


@pytest.mark.parametrize("text", ["a coat for my 6-year-old", "for my 8 year old", "pajamas for my niece",
                                  "jacket for a toddler", "hoodie for my 10yo son"])  # fmt: skip
def test_ages_and_relations_become_the_kids_department(text):
    assert "kids" in normalise(text, V).text


def test_contractions_are_expanded_for_intent_cues_only():
    result = normalise("Please don't clear my basket", V)
    assert result.plain == "please do not clear my basket" and "don't" in result.text


# entities ----------------------------------------------------------------------------------------------------


def test_products_are_found_by_name_in_the_order_written():
    mentions = entities.product_mentions("compare the crisp poplin dress shirt with the oxford button-down shirt", V)
    assert [m.name for m in mentions] == ["crisp poplin dress shirt", "oxford button-down shirt"]


def test_a_partial_name_with_the_type_narrows_to_one_product():
    [mention] = entities.product_mentions("5 stars for the linen shirt", V, ["shirt"])
    assert mention.name == "relaxed linen shirt"


def test_generic_words_name_no_product():
    assert entities.product_mentions("add 2 large white shirts", V, ["shirt"]) == []


def test_choosing_prefers_adults_unless_a_department_is_named():
    products = V.by_name["oxford button-down shirt"]
    assert {p.category for p in entities.choose(products, "white")} == {"men", "women"}
    assert [p.id for p in entities.choose(products, "white", "kids")] == [145]


@pytest.mark.parametrize(
    "text, carrier, tracking",
    [("with UPS tracking 1Z999AA10123456784", "UPS", "1Z999AA10123456784"),
     ("shipped via fedex, tracking number 123456789012", "FedEx", "123456789012"),
     ("DHL JD014600006281230704", "DHL", "JD014600006281230704"), ("mark order 3 as shipped", None, None)],
)  # fmt: skip
def test_carriers_and_tracking_numbers(text, carrier, tracking):
    assert entities.carrier(text) == carrier
    assert entities.tracking_number(text) == tracking


@pytest.mark.parametrize(
    "text, name",
    [("I'm Jordan, 5 stars", "Jordan"), ("my name is Sam Lee, great", "Sam Lee"), ("love it - Priya", "Priya"),
     ("I'm looking for shirts", None), ("5 stars, love it", None)],
)  # fmt: skip
def test_the_writers_own_name(text, name):
    found = entities.self_name(text)
    assert (found[0] if found else None) == name


# intent ------------------------------------------------------------------------------------------------------


def _request(text: str, context: dict | None = None) -> intent.Request:
    return intent.Request(normalise(text, V), context or {}, False, V)


@pytest.mark.parametrize("text", ["please don't clear my basket yet", "I almost removed the sneakers — no, leave them",
                                  "I was going to delete the jeans", "never mind, keep everything",
                                  "do not add the socks"])  # fmt: skip
def test_negated_and_hypothetical_actions_are_not_performed(text):
    result = intent.negation(_request(text))
    assert result is not None and not isinstance(result, str) and not result.calls


def test_the_rest_of_a_partly_negated_message_goes_on():
    assert intent.negation(_request("don't remove the hoodie, remove the jeans")) == "remove the jeans"


@pytest.mark.parametrize("text", ["remove the hoodie", "I don't want the jeans anymore", "show me red dresses"])
def test_plain_requests_are_not_negations(text):
    assert intent.negation(_request(text)) is None


def test_shop_questions_go_to_the_policy_tool_with_the_question():
    [call] = intent.policy_question(_request("How much is shipping?")).calls
    assert (call.name, call.arguments) == ("search_shop_policies_and_faqs", {"query": "How much is shipping?"})


def test_an_address_is_not_a_shipping_question():
    assert intent.policy_question(_request("ship to Jane Doe, 12 Oak St, Springfield, IL 62701")) is None


# slots and memory --------------------------------------------------------------------------------------------


def test_remember_keeps_the_shown_list_in_order_with_prices_and_the_last_added_line():
    context = remember({}, [
        {"name": "search_products", "outcome": "executed", "result": {"products": [
            {"id": 7, "name": "A", "price": "19.50", "category": "men", "available_colors": ["red"],
             "available_sizes": ["M"]},
            {"id": 3, "name": "B", "price": "9.00", "category": "kids", "available_colors": ["blue"],
             "available_sizes": ["S", "M"]}]}},
        {"name": "cart_add_item", "outcome": "executed",
         "result": {"added": [{"product_id": 3, "size": "M", "color": "blue", "quantity": 2, "name": "B",
                               "unit_price": "9.00"}]}},
        {"name": "cart_clear", "outcome": "needs_confirmation"},
    ])  # fmt: skip
    assert context["last_shown"] == [
        {"id": 7, "name": "A", "price": 19.5, "category": "men", "colors": ["red"], "sizes": ["M"]},
        {"id": 3, "name": "B", "price": 9.0, "category": "kids", "colors": ["blue"], "sizes": ["S", "M"]},
    ]
    assert context["last_line"] == {"product_id": 3, "size": "M", "color": "blue", "quantity": 2, "name": "B",
                                    "unit_price": "9.00", "category": None}  # fmt: skip
    assert context["last_product_ids"] == [7, 3]


def test_remember_falls_back_to_suggestions_when_nothing_matched():
    context = remember({}, [{"name": "search_products", "outcome": "executed",
                             "result": {"products": [], "suggestions": [{"id": 5, "name": "C", "price": "60.95",
                                                                         "unmet": ["max_price"]}]}}])  # fmt: skip
    assert [p["id"] for p in context["last_shown"]] == [5]


def test_make_that_n_reaches_the_target_from_the_lines_real_quantity():
    context = {
        "last_action": "cart_add_item",
        "last_line": {"product_id": 9, "size": "S", "color": None, "quantity": 4},
    }
    [call] = interpret("make that 6", context, vocabulary=V).calls
    assert (call.name, call.arguments) == ("cart_add_item", {"product_id": 9, "selected_size": "S", "quantity": 2})
    [call] = interpret("make it 1", context, vocabulary=V).calls
    assert (call.name, call.arguments) == ("cart_remove_item", {"product_id": 9, "selected_size": "S", "quantity": 3})


def test_checkout_fills_only_what_the_shopper_did_not_say_from_the_last_order():
    last = {"email": "d@x.io", "shipping_name": "Dana Lee", "shipping_address": "5 Elm St", "shipping_city": "Portland",
            "shipping_state": "OR", "shipping_zip": "97201"}  # fmt: skip
    [call] = interpret("checkout, ship to 1 Main St, Austin, TX 73301", {"last_shipping": last}, vocabulary=V).calls
    assert call.arguments["shipping_address"] == "1 Main St" and call.arguments["shipping_city"] == "Austin"
    assert call.arguments["shipping_name"] == "Dana Lee" and call.arguments["email"] == "d@x.io"


# Ordinary messages the new phrase rules must leave alone (found by a review of those rules) -------------------


@pytest.mark.parametrize("message, expected", [
    ("buy us 2 black hoodies in M", ("cart_add_item", {"clothing_type": "hoodie", "selected_color": "black",
                                                       "selected_size": "M", "quantity": 2})),
    ("throw in 2 pairs of socks", ("cart_add_item", {"clothing_type": "socks", "quantity": 2})),
    ("add a hoodie - 2 please", ("cart_add_item", {"clothing_type": "hoodie", "quantity": 2})),
    ("add a black hoodie, nothing more expensive than $50",
     ("cart_add_item", {"clothing_type": "hoodie", "selected_color": "black", "quantity": 1})),
    ("swim shorts for the pool", ("search_products", {"query": "swim pool", "clothing_type": "shorts"})),
    ("compare the zip-through and the loopback", ("compare_products", {"product_ids": [28, 29]})),
])  # fmt: skip
def test_ordinary_requests_are_not_taken_for_sizes_negatives_superlatives_or_typos(message, expected):
    result = interpret(message)
    assert [(c.name, c.arguments) for c in result.calls] == [expected]


@pytest.mark.parametrize("message", ["what goes well with my brown boots?", "something to wear with heels"])
def test_what_a_shopper_wears_with_is_not_a_thing_the_shop_must_sell(message):
    result = interpret(message)
    assert not (result.reply or "").startswith("Sorry, we don't sell")


@pytest.mark.parametrize("follow_up", ["no red", "I mean grey looks nice", "grey should be fine", "L"])
def test_remarks_after_an_add_do_not_change_the_cart(follow_up):
    added = interpret("add a black hoodie M")
    result = interpret(follow_up, added.context)
    assert not any(c.name in ("cart_add_item", "cart_remove_item") for c in result.calls)


@pytest.mark.parametrize("message", ["what size hoodie should i get if i am 6ft", "what colour goes with navy jeans",
                                     "what size should I get?"])  # fmt: skip
def test_advice_about_sizes_or_colours_is_not_a_stock_question(message):
    result = interpret(message, {})
    assert not any(getattr(c.then, "aspect", None) for c in result.calls)


def test_this_in_a_size_after_a_list_narrows_the_list_not_asks_about_one_product():
    shown = {"last_action": "search_products", "last_search": {"clothing_type": "shirt", "color": "white"},
             "last_shown": [{"id": 4, "name": "Slim Stretch Shirt", "category": "men"}]}  # fmt: skip
    result = interpret("do you have this in XL?", shown)
    assert [(c.name, c.arguments) for c in result.calls] == [
        ("search_products", {"color": "white", "clothing_type": "shirt", "size": "XL"})
    ]


@pytest.mark.parametrize("message, arguments", [
    ("i am looking for shirts", {"clothing_type": "shirt"}),
    ("i was wondering if you have red dresses", {"color": "red", "clothing_type": "dress"}),
    ("wat do u have in kids jakets", {"clothing_type": "jacket", "category": "kids"}),
    ("do you have any discounts right now?", {"on_sale": True}),
])  # fmt: skip
def test_filler_and_chat_spelling_never_become_search_words(message, arguments):
    result = interpret(message, {})
    assert [(c.name, c.arguments) for c in result.calls] == [("search_products", arguments)]


def test_a_size_letter_between_commas_belongs_to_the_item_before_it():
    result = interpret("add a mens polo in white, L, and a pair of navy shorts M", {})
    sizes = [(c.arguments["clothing_type"], c.arguments.get("selected_size")) for c in result.calls]
    assert sizes == [("polo", "L"), ("shorts", "M")]


@pytest.mark.parametrize("message, bounds", [
    ("show me dresses more expensive than 50", {"min_price": 50}),
    ("dresses not more expensive than 80", {"max_price": 80}),
])  # fmt: skip
def test_more_expensive_than_is_a_floor_and_its_negation_a_ceiling(message, bounds):
    [planned] = interpret(message, {}).calls
    assert planned.arguments == {"clothing_type": "dress", **bounds}


@pytest.mark.parametrize("message", ["delete all reviews", "delete all reviews of product 3", "remove all my orders"])
def test_everything_of_something_else_never_clears_the_cart_or_deletes_a_product(message):
    result = interpret(message, {}, is_admin=True)
    assert not {c.name for c in result.calls} & {"cart_clear", "admin_product_delete"}


@pytest.mark.parametrize("message", ["add 0 socks", "add 1.5 shirts", "add half a shirt"])
def test_a_count_the_cart_cannot_hold_asks_how_many(message):
    result = interpret(message, {})
    assert not result.calls and "from 1 to 10" in result.reply


def test_a_shopper_asking_to_change_a_price_is_told_plainly_and_nothing_is_searched():
    result = interpret("set the price of the grey hoodie to 1 dollar", {})
    assert not result.calls and "only the shop's admins can change prices" in result.reply


@pytest.mark.parametrize("message, tool", [("can i hav 2 navy polo shirts in medium", "cart_add_item"),
                                           ("i wnat a red dres for my dautgher size s", "search_products")])  # fmt: skip
def test_chat_spellings_of_want_and_have_are_read(message, tool):
    [planned] = interpret(message, {}).calls
    assert planned.name == tool and "query" not in planned.arguments


@pytest.mark.parametrize("message, arguments", [
    ("show me denim jackets", {"query": "denim", "clothing_type": "jacket"}),
    ("what sizes does the puffer jacket come in", {"query": "puffer", "clothing_type": "jacket"}),
    ("tees and shirts", {"clothing_type": "shirt"}),
    ("show me sale items under 30", {"max_price": 30, "on_sale": True}),
])  # fmt: skip
def test_a_garment_word_right_before_the_garment_describes_it(message, arguments):
    [planned] = interpret(message, {}).calls
    assert planned.arguments == arguments


@pytest.mark.parametrize("message", ["my cart please", "cart pls"])
def test_asking_for_the_cart_with_a_please_shows_it(message):
    assert [c.name for c in interpret(message, {}).calls] == ["cart_show"]


def test_a_size_letter_after_a_named_product_is_its_size():
    [planned] = interpret("add product 5 M", {}).calls
    assert planned.arguments == {"product_id": 5, "selected_size": "M", "quantity": 1}


@pytest.mark.parametrize("message, excluded", [("show me blouses that aren't pink", "pink"),
                                               ("a jacket that isn't leather", "leather")])  # fmt: skip
def test_what_is_ruled_out_with_a_contraction_is_never_searched_for(message, excluded):
    [planned] = interpret(message, {}).calls
    wanted = {k: v for k, v in planned.arguments.items() if not k.startswith("exclude_")}  # ruled out is not wanted
    assert excluded not in str(wanted) and "aren" not in str(planned.arguments)


@pytest.mark.parametrize(
    "message", ["add the oxford shirt in navy M", "add the Oxford Button-Down Shirt in white, size S, for kids"]
)
def test_a_named_product_that_fits_one_entry_is_added_without_a_question(message):
    [planned] = interpret(message, {}).calls
    assert planned.name == "cart_add_item" and "product_id" in planned.arguments


@pytest.mark.parametrize("message", ["show me oxford shirts", "compare the oxford shirt and the linen shirt",
                                     "add a white shirt in M"])  # fmt: skip
def test_only_an_add_naming_a_product_asks_which_of_that_name(message):
    result = interpret(message, {})
    assert result.calls and not (result.context.get("pending") or {}).get("pick")


@pytest.mark.parametrize("message", ["how much is shipping for 2 items", "how much for the first one"])
def test_a_price_question_without_a_count_gives_no_total(message):
    shown = [{"id": 1, "name": "Oxford Button-Down Shirt", "price": 66.95, "colors": ["white"], "sizes": ["M"]}]
    result = interpret(message, {"last_shown": shown})
    assert "come to" not in (result.reply or "")


@pytest.mark.parametrize("typed, meant", [("lookin for jeans", "looking for jeans"),
                                          ("im tryin to find a hoodie", "im trying to find a hoodie")])  # fmt: skip
def test_chat_spellings_of_ing_words_become_the_word(typed, meant):
    assert normalise(typed, V).text == meant


@pytest.mark.parametrize("text", ["a satin skirt in a begin size", "within the cabin"])
def test_words_ending_in_in_that_are_no_ing_word_are_left_alone(text):
    assert normalise(text, V).text == text


def test_wait_alone_after_an_add_changes_nothing_but_wait_with_a_count_sets_it():
    context = {"last_action": "cart_add_item", "last_item": {"clothing_type": "hoodie"}, "last_quantity": 2}
    assert interpret("wait", context).calls == []
    [planned] = interpret("no wait, just one", context).calls
    assert planned.name == "cart_remove_item" and planned.arguments["quantity"] == 1


def test_add_it_after_a_failed_add_or_with_a_size_still_adds():
    line = {"product_id": 26, "size": "L", "color": "blue", "quantity": 1, "name": "Sweater"}
    context = {"last_action": "cart_add_item", "last_item": {"product_id": 26}, "last_line": line}
    assert interpret("add it", context).calls == []
    assert [c.name for c in interpret("add it", {**context, "last_add_failed": True}).calls] == ["cart_add_item"]
    assert [c.name for c in interpret("add it in M", context).calls] == ["cart_add_item"]


@pytest.mark.parametrize("message", ["not today", "no thanks", "not black jeans, blue ones"])
def test_only_a_colour_ruled_out_after_a_search_reruns_it_without_that_colour(message):
    context = {"last_action": "search_products", "last_search": {"clothing_type": "hoodie"}}
    assert not any(c.then for c in interpret(message, context).calls)


@pytest.mark.parametrize("message, query", [("need a warm coat for winter", "warm winter"),
                                            ("show me the puffer jacket in warm colours", "warm puffer")])  # fmt: skip
def test_only_a_question_about_a_named_product_narrows_the_search_to_its_name(message, query):
    [planned] = interpret(message, {}).calls
    assert sorted(planned.arguments.get("query", "").split()) == sorted(query.split())


def test_a_question_asking_for_a_kind_keeps_every_word_of_it():
    [planned] = interpret("do you have any floral summer dresses?", {}).calls
    assert planned.arguments["query"] == "floral summer"


@pytest.mark.parametrize("message", ["i want the tie neck blouse", "i want a black blouse in size m",
                                     "i want the tie neck blouse in M?"])  # fmt: skip
def test_wanting_without_a_named_product_and_a_size_is_a_search(message):
    assert [c.name for c in interpret(message, {}).calls] == ["search_products"]


def test_a_colour_the_product_is_made_in_keeps_the_product():
    [planned] = interpret("add product 2 in navy size M", {}).calls
    assert planned.arguments["product_id"] == 2
    [planned] = interpret("add product 1 in black size M", {}).calls  # no men's Oxford in black: the shop says so
    assert planned.arguments["product_id"] == 1


@pytest.mark.parametrize("message", ["i only want 1 black hoodie", "i just want to look"])
def test_only_wanting_a_count_of_no_named_line_reads_no_cart(message):
    assert "cart_show" not in [c.name for c in interpret(message, {}).calls]


@pytest.mark.parametrize(
    "message", ["do you have a pink onesie?", "compare the onesie and product 3", "show me a shift"]
)
def test_a_rare_name_word_names_a_product_only_in_an_add(message):
    result = interpret(message, {})
    assert all(c.name != "cart_add_item" for c in result.calls)


@pytest.mark.parametrize("message", ["where is order 3", "order 3 status please"])
def test_an_order_number_without_an_address_change_is_still_looked_up(message):
    result = interpret(message, {})
    assert all(c.name != "search_shop_policies_and_faqs" for c in result.calls)


@pytest.mark.parametrize("message, expected", [("give it 5 stars", {"product_id": 3, "rating": 5}),
                                               ("5 stars for product 3", {"product_id": 3, "rating": 5})])  # fmt: skip
def test_a_review_with_only_stars_has_no_comment(message, expected):
    [planned] = interpret(message, {"last_product_id": 3}).calls
    assert planned.name == "review_create" and planned.arguments == expected


@pytest.mark.parametrize("message", ["empty my cart", "please don't clear my cart, keep the hoodie", "keep the hoodie"])
def test_keeping_a_line_only_spares_it_from_a_clear_the_shopper_asked_for(message):
    calls = interpret(message, {}).calls
    assert all(c.name != "cart_show" or c.then is None for c in calls)


@pytest.mark.parametrize("message", ["my son wants a cool top", "add a low price hoodie", "add a big hoodie in L"])
def test_everyday_three_letter_words_name_no_product(message):
    for planned in interpret(message, {}).calls:
        assert planned.name != "cart_add_item" or "product_id" not in planned.arguments


def test_add_it_in_a_colour_with_nothing_to_refer_to_asks_what():
    result = interpret("add it in red", {})
    assert not result.calls and "What would you like me to add" in result.follow_up


def test_change_the_size_after_a_search_narrows_that_search():
    [planned] = interpret("change the size to XL", {"last_action": "search_products",
                                                    "last_search": {"clothing_type": "hoodie"}}).calls  # fmt: skip
    assert planned.name == "search_products" and planned.arguments == {"clothing_type": "hoodie", "size": "XL"}


def test_the_linen_one_without_an_add_just_before_changes_no_line():
    shown = [{"id": 3, "name": "Relaxed Linen Shirt", "price": 60.95, "colors": ["white"], "sizes": ["M"]}]
    result = interpret("actually the linen one", {"last_action": "search_products", "last_shown": shown})
    assert all(c.name != "cart_remove_item" for c in result.calls)


@pytest.mark.parametrize("message", ["the third time I ask", "first, show me jeans"])
def test_an_ordinal_inside_a_sentence_is_no_bare_pick(message):
    shown = [{"id": 3, "name": "Relaxed Linen Shirt", "price": 60.95, "colors": ["white"], "sizes": ["M"]}]
    result = interpret(message, {"last_action": "search_products", "last_shown": shown})
    assert "That's the Relaxed Linen Shirt" not in (result.reply or "")


def test_an_age_in_a_search_shows_the_kids_range_and_says_its_size():
    result = interpret("pants for my 10 year old son", {})
    [planned] = result.calls
    assert "size" not in planned.arguments and planned.arguments["category"] == "kids"
    assert result.context["offline_note"] == "In our size guide a 10-year-old is a kids' L."


def test_an_age_in_an_add_is_the_size_guides_size():
    [planned] = interpret("add a red hoodie for my 6-year-old", {}).calls
    assert planned.arguments["selected_size"] == "S" and planned.arguments["category"] == "kids"


def test_a_bigger_size_with_nothing_added_changes_nothing():
    result = interpret("a bigger size", {})
    assert all(c.name not in ("cart_add_item", "cart_remove_item") for c in result.calls)


def test_an_admin_cancelling_an_order_by_number_still_changes_its_status():
    [planned] = interpret("cancel order 5", {}, is_admin=True).calls
    assert planned.name == "admin_order_update_status" and planned.arguments == {"order_id": 5, "status": "cancelled"}


def test_the_shops_own_garment_word_removes_by_type_without_reading_the_cart():
    [planned] = interpret("remove the hoodie", {}).calls
    assert planned.name == "cart_remove_item" and planned.arguments == {"clothing_type": "hoodie"}


def test_add_it_after_a_search_with_several_results_keeps_the_searched_garment():
    context = {"last_action": "search_products", "last_product_ids": [1, 2],
               "last_search": {"clothing_type": "shirt", "terms": ["oxford"]}}  # fmt: skip
    [planned] = interpret("add it in M", context).calls
    assert "product_id" not in planned.arguments and planned.arguments["clothing_type"] == "shirt"


def test_swap_the_hoodie_for_a_black_one_is_still_a_cart_swap():
    [planned] = interpret("swap the hoodie for a black one", {}).calls
    assert planned.name == "cart_show" and planned.then is not None


LINE_ADDED = {"last_action": "cart_add_item", "last_item": {"clothing_type": "shirt", "selected_color": "red"},
              "last_line": {"product_id": 11, "color": "red", "size": "L", "quantity": 1}}  # fmt: skip


@pytest.mark.parametrize("message, quantity", [("one more of the same", 1), ("same again please", 1),
                                               ("add 2 more", 2), ("can i get another one?", 1)])  # fmt: skip
def test_more_of_the_same_is_the_line_just_added(message, quantity):
    [planned] = interpret(message, LINE_ADDED).calls
    assert planned.arguments == {"product_id": 11, "selected_size": "L", "selected_color": "red", "quantity": quantity}


def test_one_more_in_a_colour_the_product_is_not_made_in_is_not_that_product():
    result = interpret("one more but in pink", LINE_ADDED)
    assert all(c.arguments.get("product_id") != 11 for c in result.calls)


@pytest.mark.parametrize("message", ["actually make the hoodies 2", "make my hoodie 2 please"])
def test_make_the_named_garment_n_reads_the_cart_to_set_its_count(message):
    [planned] = interpret(message, {}).calls
    assert planned.name == "cart_show" and planned.then.label() == {"line": {"clothing_type": "hoodie"}, "count": 2}


def test_make_the_line_a_size_is_a_size_change_not_a_count():
    [planned] = interpret("make the hoodie XL", {"last_action": "cart_add_item",
                                                 "last_item": {"clothing_type": "hoodie", "selected_size": "M"}}).calls  # fmt: skip
    assert planned.then.label() == {"line": {"clothing_type": "hoodie"}, "replace_with": {"selected_size": "XL"},
                                    "quantity": None}  # fmt: skip


def test_for_adults_after_a_search_is_that_search_for_men_and_for_women():
    context = {"last_action": "search_products", "last_search": {"clothing_type": "pajamas", "category": "kids"}}
    planned = interpret("do you have these for adults?", context).calls
    assert [c.arguments for c in planned] == [{"clothing_type": "pajamas", "category": "men"},
                                              {"clothing_type": "pajamas", "category": "women"}]  # fmt: skip


@pytest.mark.parametrize("message", ["what size should an adult get?", "add one for adults"])
def test_more_than_a_department_for_adults_is_no_repeated_search(message):
    context = {"last_action": "search_products", "last_search": {"clothing_type": "pajamas", "category": "kids"}}
    planned = interpret(message, context).calls
    assert [c.arguments.get("category") for c in planned if c.name == "search_products"] != ["men", "women"]


def test_what_the_shop_does_not_sell_is_taken_out_of_a_request_that_names_something_it_does():
    result = interpret("add a black leather belt and a white shirt in M", {})
    [planned] = result.calls
    assert planned.arguments == {
        "clothing_type": "shirt",
        "selected_color": "white",
        "selected_size": "M",
        "quantity": 1,
    }
    assert result.context["offline_note"] == "Sorry, we don't sell belts, so I left that out."


@pytest.mark.parametrize("message, size", [("add black jeans 32 waist for men", "M"), ("add men's black jeans waist 29", "S"),
                                           ("add men's black jeans w40", "XL"), ("add men's black jeans, 94cm waist", "L")])  # fmt: skip
def test_a_waist_is_read_in_the_size_guides_waist_column(message, size):
    [planned] = interpret(message, {}).calls
    assert planned.arguments == {"clothing_type": "jeans", "selected_color": "black", "selected_size": size,
                                 "category": "men", "quantity": 1}  # fmt: skip


def test_a_waist_past_the_size_guide_is_no_letter():
    result = interpret("add men's black jeans 50 waist", {})
    assert not result.calls and "sizes are letters" in result.follow_up


@pytest.mark.parametrize("message, expected", [
    ("add 3 white shirts: 2 in M and 1 in L", [("white", "M", 2), ("white", "L", 1)]),
    ("add 2 hoodies, a black one in M and a grey one in L", [("black", "M", 1), ("grey", "L", 1)]),
    ("add 3 socks - 2 black 1 grey, size M", [("black", "M", 2), ("grey", "M", 1)]),
    ("add 2 t-shirts: one navy M and one grey L", [("navy", "M", 1), ("grey", "L", 1)]),
])  # fmt: skip
def test_a_count_spread_over_parts_is_one_add_per_part(message, expected):
    planned = interpret(message, {}).calls
    assert [(c.arguments.get("selected_color"), c.arguments.get("selected_size"), c.arguments["quantity"])
            for c in planned] == expected  # fmt: skip


@pytest.mark.parametrize("message", ["add 2 large white shirts and 1 medium in black", "add 2 red shirts, no make it 3",
                                     "add 2 tees one in red"])  # fmt: skip
def test_requests_that_are_no_spread_count_are_read_as_before(message):
    from insightshop.agent.offline import _split_counts

    assert _split_counts(message) == message


@pytest.mark.parametrize("message", ["make the hoodie bigger", "make the order arrive sooner", "make it quick"])
def test_make_the_line_something_that_is_no_colour_or_size_swaps_nothing(message):
    result = interpret(message, {})
    assert all(
        c.name != "cart_show" or c.then is None or c.then.label().get("replace_with") is None for c in result.calls
    )


def test_make_the_hoodie_red_swaps_the_hoodie_line_for_red():
    [planned] = interpret("make the hoodie red", {}).calls
    assert planned.then.label() == {"line": {"clothing_type": "hoodie"}, "replace_with": {"selected_color": "red"},
                                    "quantity": None}  # fmt: skip


@pytest.mark.parametrize("message, size, note", [("add a green coat for my daughter, she's 9", "L", "a 9-year-old is a kids' L."),
                                                 ("add a red hoodie for my 6-year-old", "S", "a 6-year-old is a kids' S.")])  # fmt: skip
def test_an_age_adds_the_size_guides_size_and_notes_how_it_was_read(message, size, note):
    result = interpret(message, {})
    [planned] = result.calls
    assert planned.arguments["selected_size"] == size and result.context["offline_note"] == f"In our size guide {note}"


def test_a_size_said_with_an_age_needs_no_hint():
    result = interpret("add a blue hoodie in size S for my 6-year-old", {})
    assert "offline_note" not in result.context


@pytest.mark.parametrize("message", ["wait", "hold on", "no wait, leave it", "i won't need to pay for shipping, right?",
                                     "I almost scrapped the jeans", "don't scrap the jeans"])  # fmt: skip
def test_a_pause_or_a_need_that_is_no_line_removes_nothing(message):
    context = {"last_action": "cart_add_item", "last_item": {"clothing_type": "hoodie"}, "last_quantity": 2}
    assert all(c.name != "cart_remove_item" for c in interpret(message, context).calls)


@pytest.mark.parametrize("message", ["show me todays sales", "todays deals on hoodies"])
def test_today_is_no_search_word(message):
    [planned] = interpret(message, {}).calls
    assert planned.arguments.get("on_sale") and "query" not in planned.arguments


@pytest.mark.parametrize("message, expected", [
    ("compare 2 and 3", ("compare_products", {"product_ids": [2, 3]})),
    ("show me the 2 cheapest jeans", ("search_products", {"clothing_type": "jeans", "sort_by": "price_low"})),
])  # fmt: skip
def test_numbers_and_rankings_without_a_ranked_comparison_are_read_as_before(message, expected):
    [planned] = interpret(message, {}).calls
    assert (planned.name, planned.arguments) == expected and planned.then is None


def test_compare_the_cheapest_with_nothing_described_or_shown_asks_which():
    result = interpret("compare the 2 cheapest", {})
    assert not result.calls and "Which products should I compare?" in result.follow_up


@pytest.mark.parametrize(
    "message", ["a black one in M", "the black one and the grey hoodie", "a black one in M and the jeans"]
)
def test_ones_that_are_not_all_colour_or_size_parts_are_no_multi_add(message):
    context = {"last_action": "search_products", "last_search": {"clothing_type": "hoodie"}}
    assert len([c for c in interpret(message, context).calls if c.name == "cart_add_item"]) < 2


@pytest.mark.parametrize("message", ["3 kids hoodies under 40", "5 star hoodies", "2 hoodies?", "2 dresses like the red one",
                                     "10 year old son needs jeans"])  # fmt: skip
def test_a_count_with_a_price_rating_question_or_age_stays_a_search(message):
    assert all(c.name != "cart_add_item" for c in interpret(message, {}).calls)


@pytest.mark.parametrize("message", ["add 2 black and white shirts in L", "add 2 tees one in red"])
def test_colours_without_one_each_are_not_split_per_colour(message):
    from insightshop.agent.offline import _one_each

    assert _one_each(message) == message


@pytest.mark.parametrize("message, expected", [
    ("3 tshirts for my son, one each in red, white and navy, size M",
     [("red", "M", "kids"), ("white", "M", "kids"), ("navy", "M", "kids")]),
    ("can i get 2 hoodies, one in black and one in grey, both M", [("black", "M", None), ("grey", "M", None)]),
    ("add 2 kids polos for my son, one red one orange, size S", [("red", "S", "kids"), ("orange", "S", "kids")]),
])  # fmt: skip
def test_whose_they_are_and_both_in_a_size_keep_to_every_part(message, expected):
    planned = interpret(message, {}).calls
    assert [(c.arguments.get("selected_color"), c.arguments.get("selected_size"), c.arguments.get("category"))
            for c in planned] == expected  # fmt: skip


@pytest.mark.parametrize("message, colours", [("one black in M and one white in L", ["black", "white"]),
                                              ("a navy one in S and a black one in XL", ["navy", "black"])])  # fmt: skip
def test_counted_colours_after_a_list_are_lines_of_the_listed_garment(message, colours):
    context = {"last_action": "search_products", "last_search": {"clothing_type": "jeans", "category": "women"}}
    planned = interpret(message, context).calls
    assert [(c.name, c.arguments["clothing_type"], c.arguments["category"], c.arguments["selected_color"])
            for c in planned] == [("cart_add_item", "jeans", "women", colour) for colour in colours]  # fmt: skip


def test_one_in_m_and_one_in_l_after_an_add_keep_its_colour():
    context = {"last_action": "cart_add_item", "last_item": {"clothing_type": "hoodie", "selected_color": "black"},
               "last_line": {"product_id": 27, "size": "M", "color": "black", "quantity": 1, "category": "men"}}  # fmt: skip
    planned = interpret("one in M and one in L", context).calls
    assert [(c.arguments["selected_color"], c.arguments["selected_size"]) for c in planned] == [
        ("black", "M"),
        ("black", "L"),
    ]


@pytest.mark.parametrize("message", ["scratch the hoodie", "nix the hoodie"])
def test_scratch_the_line_removes_it_but_scratch_that_does_not(message):
    assert [c.name for c in interpret(message, {}).calls] == ["cart_remove_item"]
    assert all(c.name != "cart_remove_item" for c in interpret("scratch that", {}).calls)


@pytest.mark.parametrize("message, removed", [("i dont want the socks but keep the jeans", "socks"),
                                              ("keep the jeans, i dont need the socks anymore", "socks")])  # fmt: skip
def test_a_line_not_wanted_beside_one_kept_is_removed(message, removed):
    [planned] = interpret(message, {}).calls
    assert (planned.name, planned.arguments) == ("cart_remove_item", {"clothing_type": removed})


@pytest.mark.parametrize("message", ["i dont want to remove the socks, keep them", "i dont want anything else, keep my cart",
                                     "i dont want to add the socks"])  # fmt: skip
def test_not_wanting_to_act_or_wanting_nothing_more_changes_nothing(message):
    assert interpret(message, {}).calls == []


@pytest.mark.parametrize("message, department", [("add a xmas jumper for my bf in L", "men"),
                                                 ("a gift for my aunt, something under 40", "women"),
                                                 ("shirts for my uncle", "men")])  # fmt: skip
def test_more_relatives_name_their_department(message, department):
    [planned] = interpret(message, {}).calls
    assert planned.arguments["category"] == department


@pytest.mark.parametrize("text", ["my order was returned", "a retro tee for the party", "my exchange student",
                                  "an interesting print"])  # fmt: skip
def test_shop_question_typo_targets_do_not_rewrite_other_words(text):
    assert normalise(text, V).text == text
    assert normalise("retrun policy", V).text == "return policy"


# Guards found by review: words of the new removal and order rules inside ordinary requests.


@pytest.mark.parametrize("message", ["I want a sweater that's not scratchy", "do you have a sweater that isn't scratchy?",
                                     "a wool jumper that does not scratch", "I don't want to pay more than 60 for jeans",
                                     "i dont want to pay over $50 for a dress"])  # fmt: skip
def test_fabric_wishes_and_budgets_with_a_negation_are_searches(message):
    calls = interpret(message, {}, vocabulary=V).calls
    assert [c.name for c in calls] == ["search_products"]


def test_a_budget_said_as_not_paying_more_is_a_price_ceiling():
    [call] = interpret("I don't want to pay more than 60 for jeans", {}, vocabulary=V).calls
    assert (call.arguments["clothing_type"], call.arguments["max_price"]) == ("jeans", 60)


@pytest.mark.parametrize("message", ["add another black hoodie size M, I won't need a gift box",
                                     "add the navy zip-through hoodie in L. won't need a receipt",
                                     "add the black hoodie in M, I won't need the box"])  # fmt: skip
def test_not_needing_an_extra_beside_an_add_is_an_add(message):
    assert [c.name for c in interpret(message, {}, vocabulary=V).calls] == ["cart_add_item"]


def test_not_needing_anything_else_removes_nothing():
    assert interpret("I won't need anything else, thanks", {}, vocabulary=V).calls == []


@pytest.mark.parametrize("message", ["2 hoodies in stock", "two dresses for a wedding", "5 shirts for work"])
def test_a_count_with_a_purpose_or_stock_word_is_a_search(message):
    assert [c.name for c in interpret(message, {}, vocabulary=V).calls] == ["search_products"]


def test_asking_about_two_of_the_list_adds_nothing():
    context = {"last_action": "search_products", "last_search": {"clothing_type": "hoodie"}}
    calls = interpret("the black one and the navy one?", context, vocabulary=V).calls
    assert "cart_add_item" not in [c.name for c in calls]
