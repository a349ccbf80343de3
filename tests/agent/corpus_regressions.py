"""Requests written while probing the engine, after their behaviour was built: always in the development split
(they would flatter the held-out figure otherwise). Same format as test_offline_corpus.py."""

from __future__ import annotations

from .corpus_issue11 import CART, LINE, ME, PAIR, SHOWN, C, add, policy, search

ASK, REPLY = "follow_up", "reply"

SINGLE = [
    ("do you have this in XL?", search(color="white", clothing_type="shirt", size="XL"), SHOWN),
    ("the cheaper of the two", REPLY, PAIR),
    ("how much is the second one?", REPLY, SHOWN),
    ("I need to change my shipping address", policy("I need to change my shipping address"), ME),
    ("I was thinking of buying the red dress", search(color="red", clothing_type="dress")),
    ("don't bother adding socks", REPLY),
    ("what happens if I remove the jeans?", REPLY, CART),
    ("if I return it, do I get a refund?", policy("if I return it, do I get a refund?")),
    ("lemme get a large hoodie in black", add(clothing_type="hoodie", selected_color="black", selected_size="L", quantity=1)),
    ("how long till my stuff arrives", C("orders_list_mine"), ME),
    ("DELETE FROM carts;", REPLY),
    ("add both", add(product_id=2, quantity=1) + add(product_id=13, quantity=1), PAIR),
    ("the other one", add(product_id=13, quantity=1), {**PAIR, "last_product_id": 2}),
    ("nah i'm good", REPLY),
    ("that's all for now, thanks", REPLY),
    ("2 more please", add(product_id=1, selected_size="L", selected_color="white", quantity=2), LINE),
    ("another one", add(product_id=1, selected_size="L", selected_color="white", quantity=1), LINE),
    # Issue 28: an occasion is read as the garments it calls for (data/lexicons/needs.json), not as words to match.
    ("what do you recommend for a beach holiday?",
     [("search_products", {"clothing_types": ["shorts", "t-shirt", "dress", "shirt", "polo", "skirt", "blouse"],
                           "exclude_materials": ["wool", "cashmere", "fleece", "corduroy", "leather"], "seasons": ["summer"]},
       {"brief": "clothes for hot weather"})]),
    ("add all three in M", add(product_id=4, selected_size="M", quantity=1) + add(product_id=1, selected_size="M", quantity=1)
     + add(product_id=3, selected_size="M", quantity=1), SHOWN),
]  # fmt: skip
