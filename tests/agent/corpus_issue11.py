"""Issue 11's behaviours as labelled utterances, many phrasings each (see test_offline_corpus.py for the format).

Product ids are the demo catalog's (services.shop_vocabulary.demo_vocabulary(): 1 Oxford Button-Down Shirt (men,
white), 2 Crisp Poplin Dress Shirt, 3 Relaxed Linen Shirt (men, white), 61 Classic Leather Sneakers (men) …)."""

from __future__ import annotations

ASK, REPLY = "follow_up", "reply"
OUT = REPLY  # out of scope: a short polite reply, no call


def C(tool: str, /, **arguments) -> list[tuple[str, dict]]:  # noqa: N802
    return [(tool, arguments)]


def add(**arguments):
    return C("cart_add_item", **arguments)


def search(**arguments):
    return C("search_products", **arguments)


def policy(query: str):
    return C("search_shop_policies_and_faqs", query=query)


SHOWN = {"last_action": "search_products", "last_search": {"clothing_type": "shirt", "color": "white", "terms": ["shirt"]},
         "last_product_ids": [4, 1, 3],
         "last_shown": [{"id": 4, "name": "Slim Stretch Shirt", "price": 56.95, "category": "men", "colors": ["white"],
                         "sizes": ["S", "M", "L"]},
                        {"id": 1, "name": "Oxford Button-Down Shirt", "price": 66.95, "category": "men",
                         "colors": ["white"], "sizes": ["S", "M", "L", "XL"]},
                        {"id": 3, "name": "Relaxed Linen Shirt", "price": 60.95, "category": "men", "colors": ["white"],
                         "sizes": ["M", "L"]}]}  # fmt: skip
PAIR = {"last_action": "compare_products", "last_product_ids": [2, 13],
        "last_shown": [{"id": 2, "name": "Crisp Poplin Dress Shirt", "price": 64.5, "category": "men", "colors": ["white"],
                        "sizes": ["M", "L"]},
                       {"id": 13, "name": "Essential Crew Neck Tee", "price": 18.99, "category": "men",
                        "colors": ["navy"], "sizes": ["M", "L"]}]}  # fmt: skip
LINE = {
    "last_action": "cart_add_item",
    "last_line": {"product_id": 1, "size": "L", "color": "white", "quantity": 2},
    "last_item": {"clothing_type": "shirt", "selected_color": "white", "selected_size": "L"},
    "last_quantity": 2,
}
CART = {"last_action": "cart_show"}
ME = {"user_email": "sam@example.com"}
SHIPPING = {"email": "dana@example.com", "shipping_name": "Dana Lee", "shipping_address": "5 Elm St",
            "shipping_city": "Portland", "shipping_state": "OR", "shipping_zip": "97201"}  # fmt: skip
LAST = {"user_email": "dana@example.com", "last_shipping": SHIPPING}
WHITE_L2 = add(clothing_type="shirt", selected_color="white", selected_size="L", quantity=2)
SNEAKERS = {"last_action": "cart_show"}

# (message, expected, context, is_admin)
SINGLE = [
    # The README example and typos
    ("add 2 large white shirts into my cart", WHITE_L2),
    ("ad 2 larg whte shrts", WHITE_L2),
    ("pls add 2 lrg wht shirts to my crt", WHITE_L2),
    ("add two large white shirts to the basket", WHITE_L2),
    ("put 2 white shirts in size large in my cart", WHITE_L2),
    ("add 2 white shirts sz L", WHITE_L2),
    ("can u add 2 white shirts, size large", WHITE_L2),
    ("wht tee", search(color="white", clothing_type="t-shirt")),
    ("show me wht tees", search(color="white", clothing_type="t-shirt")),
    ("blk hoodie sz xl", search(color="black", clothing_type="hoodie", size="XL")),
    ("add a blak hoody in sz xl", add(clothing_type="hoodie", selected_color="black", selected_size="XL", quantity=1)),
    ("any sneakrs under 80?", search(clothing_type="sneakers", max_price=80)),
    ("show me jaket for women", search(clothing_type="jacket", category="women")),
    ("do u have red dreses", search(color="red", clothing_type="dress")),
    ("add 3 navy socs", add(clothing_type="socks", selected_color="navy", quantity=3)),
    # Prices and numbers in words
    ("show me red dresses under 50 dollars", search(color="red", clothing_type="dress", max_price=50)),
    ("red dresses under sixty bucks", search(color="red", clothing_type="dress", max_price=60)),
    ("any red dresses under sixty bucks?", search(color="red", clothing_type="dress", max_price=60)),
    ("jeans for less than forty-five dollars", search(clothing_type="jeans", max_price=45)),
    ("hoodies under twenty five bucks", search(clothing_type="hoodie", max_price=25)),
    ("coats over a hundred dollars", search(clothing_type="coat", min_price=100)),
    ("sneakers between 50 and 90 dollars", search(clothing_type="sneakers", min_price=50, max_price=90)),
    ("add a couple of black hoodies", add(clothing_type="hoodie", selected_color="black", quantity=2)),
    ("add half a dozen white socks", add(clothing_type="socks", selected_color="white", quantity=6)),
    ("I'll take three grey t-shirts", add(clothing_type="t-shirt", selected_color="grey", quantity=3)),
    # Departments and on sale
    ("men's jeans", search(clothing_type="jeans", category="men")),
    ("show me mens jeans", search(clothing_type="jeans", category="men")),
    ("jeans for men", search(clothing_type="jeans", category="men")),
    ("anything on sale?", search(on_sale=True)),
    ("what's on sale right now", search(on_sale=True)),
    ("any deals on hoodies?", search(clothing_type="hoodie", on_sale=True)),
    ("discounted dresses", search(clothing_type="dress", on_sale=True)),
    ("show me jackets in the sale", search(clothing_type="jacket", on_sale=True)),
    # Ages mean kids
    ("a hoodie for my 6-year-old", search(clothing_type="hoodie", category="kids")),
    # an age is read through the size guide (issue 28): a 6-year-old is a kids' S, a 4-year-old an XS
    ("add a red hoodie for my 6-year-old", add(clothing_type="hoodie", selected_color="red", selected_size="S", category="kids",
                                               quantity=1)),
    ("pajamas for my 8 year old", search(clothing_type="pajamas", category="kids")),
    ("sneakers for my niece", search(clothing_type="sneakers", category="kids")),
    ("a dress for my toddler", search(clothing_type="dress", category="kids")),
    ("jacket for my nephew, he is 10", search(clothing_type="jacket", category="kids")),
    ("add 2 t-shirts for my 4 yo", add(clothing_type="t-shirt", selected_size="XS", category="kids", quantity=2)),
    ("socks for my grandson", search(clothing_type="socks", category="kids")),
    ("coat for a 7 year old girl", search(clothing_type="coat", category="kids")),
    # Compare and review by name
    ("compare the Oxford Button-Down Shirt with the Crisp Poplin Dress Shirt", C("compare_products", product_ids=[1, 2])),
    ("compare oxford button-down shirt and crisp poplin dress shirt", C("compare_products", product_ids=[1, 2])),
    ("Oxford Button-Down Shirt vs Crisp Poplin Dress Shirt", C("compare_products", product_ids=[1, 2])),
    ("what's the difference between the Relaxed Linen Shirt and the Oxford Button-Down Shirt?",
     C("compare_products", product_ids=[3, 1])),
    ("compare the quilted puffer jacket with the classic denim jacket", C("compare_products", product_ids=[31, 32])),
    ("I'm Jordan, 5 stars for the linen shirt, love it",
     C("review_create", product_id=3, rating=5, comment="love it", user_name="Jordan")),
    ("5 stars for the Oxford Button-Down Shirt, great fit", C("review_create", product_id=1, rating=5, comment="great fit")),
    ("my name is Priya, 4 stars for the crisp poplin dress shirt: crisp and smart",
     C("review_create", product_id=2, rating=4, comment="crisp and smart", user_name="Priya")),
    ("rate the quilted puffer jacket 3 stars, a bit bulky",
     C("review_create", product_id=31, rating=3, comment="a bit bulky")),
    # Negation and hypotheticals: nothing happens
    ("I almost removed the sneakers — no, leave them", REPLY),
    ("I almost removed the sneakers - no, leave them", REPLY),
    ("please don't clear my basket yet", REPLY),
    ("don't empty my cart", REPLY),
    ("do not remove the hoodie", REPLY),
    ("I was going to delete the jeans but never mind", REPLY),
    ("I was about to clear my cart, but no", REPLY),
    ("never mind, keep everything in the cart", REPLY),
    ("no, leave them", REPLY),
    ("I nearly checked out", REPLY),
    ("don't add the socks", REPLY),
    ("I thought about removing the white shirt but I'll keep it", REPLY),
    ("hold off on clearing the cart", REPLY),
    # Negation with something left to do
    ("don't remove the hoodie, remove the jeans", C("cart_remove_item", clothing_type="jeans")),
    ("I almost removed the sneakers — no, leave them. Show my cart", C("cart_show")),
    # Removal words inside a search are not a removal
    ("show me drop shoulder sweaters", search(query="drop shoulder", clothing_type="sweater")),
    ("find dresses with a drop waist", search(query="drop waist", clothing_type="dress")),
    # Shop questions → the policy tool
    ("how much is shipping?", policy("how much is shipping?")),
    ("what does delivery cost", policy("what does delivery cost")),
    ("do you offer free shipping?", policy("do you offer free shipping?")),
    ("what's your returns policy?", policy("what's your returns policy?")),
    ("can I return something I bought?", policy("can I return something I bought?")),
    ("how long do I have to return an item?", policy("how long do I have to return an item?")),
    ("do you do refunds", policy("do you do refunds")),
    ("what size should I get?", policy("what size should I get?")),
    ("do you have a size chart?", policy("do you have a size chart?")),
    ("do your jeans run small?", policy("do your jeans run small?")),
    ("what payment methods do you accept?", policy("what payment methods do you accept?")),
    ("can I pay with PayPal?", policy("can I pay with PayPal?")),
    ("do you take credit cards?", policy("do you take credit cards?")),
    ("how can I contact customer service?", policy("how can I contact customer service?")),
    ("how long does delivery take?", policy("how long does delivery take?")),
    # Out of scope → a short polite reply
    ("what's the weather like tomorrow?", OUT),
    ("tell me a joke", OUT),
    ("who is the president of france?", OUT),
    ("write me a python script", OUT),
    ("what is the capital of peru", OUT),
    ("what is 17 * 23?", OUT),
    ("recommend a good movie", OUT),
    ("can you help with my homework", OUT),
    # My orders (logged in)
    ("where is my order", C("orders_list_mine"), ME),
    ("where's my order?", C("orders_list_mine"), ME),
    ("show my orders", C("orders_list_mine"), ME),
    ("has my order shipped yet?", C("orders_list_mine"), ME),
    ("what did I order last time?", C("orders_list_mine"), ME),
    ("my order history please", C("orders_list_mine"), ME),
    ("where is my order 15", C("order_status", order_id=15, email="sam@example.com"), ME),
    ("where is my order?", ASK),
    # Checkout reuses the last address; recipient from free text
    ("checkout", C("checkout_proceed", **SHIPPING), LAST),
    ("place my order", C("checkout_proceed", **SHIPPING), LAST),
    ("I'm ready to pay", C("checkout_proceed", **SHIPPING), LAST),
    ("check out and send it to the same address as last time", C("checkout_proceed", **SHIPPING), LAST),
    ("checkout, ship to 9 Pine Rd, Austin, TX 73301, for Dana Lee",
     C("checkout_proceed", email="dana@example.com", shipping_name="Dana Lee", shipping_address="9 Pine Rd",
       shipping_city="Austin", shipping_state="TX", shipping_zip="73301"), {"user_email": "dana@example.com"}),
    ("ship to 77 Sunset Blvd, Los Angeles, CA 90028, for Sam Rivera",
     C("checkout_proceed", email="x@y.com", shipping_name="Sam Rivera", shipping_address="77 Sunset Blvd",
       shipping_city="Los Angeles", shipping_state="CA", shipping_zip="90028"), {"user_email": "x@y.com"}),
    # Admin
    ("mark order 3 as shipped", ASK, None, True),
    ("ship order 12", ASK, None, True),
    ("mark order 3 as shipped with UPS tracking 1Z999AA10123456784",
     C("admin_order_update_status", order_id=3, status="shipped", carrier="UPS", tracking_number="1Z999AA10123456784"),
     None, True),
    ("order 8 shipped via FedEx, tracking number 123456789012",
     C("admin_order_update_status", order_id=8, status="shipped", carrier="FedEx", tracking_number="123456789012"),
     None, True),
    ("set order 4 to shipped, USPS 9400111899223197428490",
     C("admin_order_update_status", order_id=4, status="shipped", carrier="USPS",
       tracking_number="9400111899223197428490"), None, True),
    ("mark order 6 delivered", C("admin_order_update_status", order_id=6, status="delivered"), None, True),
    ("how much revenue this week?", C("admin_sales_report", period="week"), None, True),
    ("what's our revenue today", C("admin_sales_report", period="today"), None, True),
    ("how much did we make this month?", C("admin_dashboard", period="month"), None, True),
    ("total sales this year", C("admin_sales_report", period="year"), None, True),
    ("how many orders did we get today?", C("admin_sales_report", period="today"), None, True),
    ("which products are low on stock?", C("admin_dashboard", period="all"), None, True),
    ("what's running low?", C("admin_dashboard", period="all"), None, True),
    ("show me items with less than 3 units in stock", C("admin_dashboard", period="all", low_stock_threshold=3), None, True),
    ("log me out", C("auth_logout")),
    ("please sign me out", C("auth_logout")),
    ("logout", C("auth_logout")),
    # Follow-ups on a shown list
    ("the second one in medium", add(product_id=1, selected_size="M", quantity=1), SHOWN),
    ("add the second one in medium", add(product_id=1, selected_size="M", quantity=1), SHOWN),
    ("I'll take the first one in large", add(product_id=4, selected_size="L", quantity=1), SHOWN),
    ("the third one, size L", add(product_id=3, selected_size="L", quantity=1), SHOWN),
    ("2 of the first one in small", add(product_id=4, selected_size="S", quantity=2), SHOWN),
    ("the cheapest one", REPLY, SHOWN),
    ("add the cheapest one in medium", add(product_id=4, selected_size="M", quantity=1), SHOWN),
    ("I'll take the most expensive one in L", add(product_id=1, selected_size="L", quantity=1), SHOWN),
    ("take the less expensive one", add(product_id=13, quantity=1), PAIR),
    ("I'll go with the cheaper one", add(product_id=13, quantity=1), PAIR),
    ("take the more expensive one in M", add(product_id=2, selected_size="M", quantity=1), PAIR),
    ("order them cheapest first", search(color="white", clothing_type="shirt", sort_by="price_low"), SHOWN),
    ("sort those by price, lowest first", search(color="white", clothing_type="shirt", sort_by="price_low"), SHOWN),
    ("show the most expensive first", search(color="white", clothing_type="shirt", sort_by="price_high"), SHOWN),
    ("make that 3", add(product_id=1, selected_size="L", selected_color="white", quantity=1), LINE),
    ("actually make it 5", add(product_id=1, selected_size="L", selected_color="white", quantity=3), LINE),
    ("make that 1", C("cart_remove_item", product_id=1, selected_size="L", selected_color="white", quantity=1), LINE),
    ("change the quantity to 4", add(product_id=1, selected_size="L", selected_color="white", quantity=2), LINE),
    ("fine, clear it", C("cart_clear"), CART),
    ("ok clear it", C("cart_clear"), CART),
    ("just empty it", C("cart_clear"), CART),
    ("alright, clear everything", C("cart_clear"), CART),
]  # fmt: skip

CONVERSATIONS = {
    "the cheapest one, then add it": (SHOWN, [
        ("the cheapest one", REPLY),
        ("add it", add(product_id=4, quantity=1)),
    ]),
    "cheapest one then yes in medium": (SHOWN, [
        ("which is the cheapest one?", REPLY),
        ("yes, in medium", add(product_id=4, quantity=1, selected_size="M")),
    ]),
    "shipping asks for carrier and tracking": ({"as_admin": True}, [
        ("mark order 3 as shipped", ASK),
        ("UPS, 1Z999AA10123456784", C("admin_order_update_status", order_id=3, status="shipped", carrier="UPS",
                                      tracking_number="1Z999AA10123456784")),
    ]),
    "shipping asks for the missing tracking number": ({"as_admin": True}, [
        ("ship order 9 with DHL", ASK),
        ("tracking is JD014600006281230704", C("admin_order_update_status", order_id=9, status="shipped", carrier="DHL",
                                              tracking_number="JD014600006281230704")),
    ]),
    "negation then a real request": ({}, [
        ("please don't clear my basket yet", REPLY),
        ("show my cart", C("cart_show")),
    ]),
}  # fmt: skip
