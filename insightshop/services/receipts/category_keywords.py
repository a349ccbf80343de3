"""Data for categorize_item: keywords per spending category, receipt shorthand, and a curated item table.

Plain data read by one small pipeline (services/receipts/categorize.py). Keywords are matched on word boundaries
after the same normalisation as the item name (lower case, singular, shorthand expanded), so "Bananas" meets
"banana" and "CHOCLT" meets "chocolate"; the longest keyword wins ("peanut butter" over "butter"). Malaysian
receipts mix English, Malay and shop shorthand (AYAM chicken, IKAN fish, TEH tea, AIS ice, KOPI coffee, NASI
rice, MEE noodles, SOS sauce, TEPUNG flour, SUSU milk, PASIR sand, SIMEN cement, PAKU nails).

Clothing words come from the shop's own vocabulary (services.vocabulary and the search synonyms), so a receipt
for "2 tees" or "trainers" lands where the catalog puts them.
"""

from __future__ import annotations

from ..search_terms import TYPE_WORDS
from ..vocabulary import CLOTHING_TYPES, FABRICS

# A word is kept out of matching when it says nothing about what was bought.
NOISE_WORDS = frozenset({
    "sr", "zr", "zrl", "gst", "rm", "myr", "usd", "pc", "pcs", "pkt", "pkts", "pk", "pack", "ea", "each", "unit", "units",
    "nos", "ctn", "box", "btl", "tin", "per", "new", "price", "promo", "offer", "free", "item", "qty", "disc", "sz",
    "size", "and", "with", "for", "the", "of", "w", "c",
})  # fmt: skip

# Shorthand printed on receipts → the words it stands for (whole tokens, after lower-casing).
ABBREVIATIONS = {
    "choclt": "chocolate", "choc": "chocolate", "coklat": "chocolate", "vege": "vegetable", "veg": "vegetable",
    "veggie": "vegetable", "sayur": "vegetable", "ckn": "chicken", "chkn": "chicken", "chic": "chicken",
    "ayam": "chicken", "ikan": "fish", "udang": "prawn", "sotong": "squid", "daging": "beef", "lembu": "beef",
    "kambing": "mutton", "babi": "pork", "telur": "egg", "susu": "milk", "roti": "bread", "nasi": "rice",
    "beras": "rice", "tepung": "flour", "gula": "sugar", "garam": "salt", "minyak": "oil", "sos": "sauce",
    "kicap": "soy sauce", "ais": "ice", "kopi": "coffee", "teh": "tea", "buah": "fruit", "pisang": "banana",
    "tembikai": "watermelon", "bawang": "onion", "cili": "chilli", "chili": "chilli", "jagung": "corn",
    "kacang": "bean", "mee": "noodle", "mi": "noodle", "bihun": "vermicelli", "meehoon": "vermicelli",
    "kuey": "noodle", "sabun": "soap", "berus": "brush", "paku": "nail", "simen": "cement", "pasir": "sand",
    "kayu": "wood", "kertas": "paper", "mech": "mechanical", "drk": "drink", "jce": "juice", "yoghurt": "yogurt",
    "yogourt": "yogurt", "btr": "butter", "brd": "bread", "wml": "wholemeal", "tissu": "tissue", "shmp": "shampoo",
    "tpaste": "toothpaste", "batt": "battery", "tapau": "takeaway", "bungkus": "takeaway", "dbl": "double",
    "crm": "cream", "frzn": "frozen",
}  # fmt: skip

# Multi-character shorthand that contains punctuation, rewritten in the lower-cased name before it is split.
PHRASE_REWRITES = (
    (r"\bm/water\b", "mineral water"),
    (r"\bb[/']scotch\b", "butterscotch"),
    (r"\bt\.\s?away\b", "takeaway"),
    (r"\bt/a\b", "takeaway"),
    (r"\bw/melon\b", "watermelon"),
    (r"\bh/duty\b", "heavy duty"),
    (r"\bs/steel\b", "stainless steel"),
    (r"\bs/socket\b", "switch socket"),
    (r"\bc/tape\b", "correction tape"),
    (r"\bcorr\.\s?pen\b", "correction pen"),
    (r"\bp\.\s?copy\b", "photocopy paper"),
    (r"\bt[\s-]?shirts?\b", "t-shirt"),
    (r"\bflip[\s-]flops?\b", "flipflop"),
    (r"\b(\w+)'s\b", r"\1s"),
)

_GARMENT_WORDS = (
    "underwear", "brief", "boxer", "bra", "vest", "singlet", "legging", "tights", "cardigan", "blazer", "suit",
    "trouser", "chino", "slack", "sweatpants", "tracksuit", "jogger", "romper", "jumpsuit", "overall", "kurung",
    "baju", "kebaya", "sarong", "sari", "uniform", "swimsuit", "swimwear", "bikini", "raincoat", "windbreaker",
    "tank top", "crop top", "polo shirt", "sweatshirt", "hoody", "pullover", "jumper", "gown", "frock", "parka",
    "anorak", "overcoat", "nightgown", "nightie", "robe", "bathrobe", "baby romper", "onesie", "cargo pants",
    "rain jacket", "denim jacket", "sports bra", "pyjama set", "pajamas set",
)  # fmt: skip


def _clothing_words() -> tuple[str, ...]:
    """The catalog's garment words (types and their synonyms) except shoes, which are Footwear."""
    shoes = {"sneakers"}
    words = [kind for kind in CLOTHING_TYPES if kind not in shoes]
    words += [word for word, kinds in TYPE_WORDS.items() if not set(kinds) & shoes and word not in AMBIGUOUS_SHOP_WORDS]
    return tuple(dict.fromkeys((*words, *_GARMENT_WORDS)))


def _footwear_words(*words: str) -> tuple[str, ...]:
    """The catalog's words for sneakers (trainers, shoes …) and the other footwear words."""
    shop = (word for word, kinds in TYPE_WORDS.items() if "sneakers" in kinds and word not in AMBIGUOUS_SHOP_WORDS)
    return tuple(dict.fromkeys((*shop, *words)))


# Shop synonyms too loose for receipts: "top" is also a plug top and a top-up, "kick" a kick scooter.
AMBIGUOUS_SHOP_WORDS = frozenset({"top", "kick"})

# fmt: off
KEYWORDS: dict[str, tuple[str, ...]] = {
    "Clothing": _clothing_words(),
    "Footwear": _footwear_words(
        "boot", "ankle boot", "sandal", "slipper", "flipflop", "loafer", "heel", "high heels", "moccasin", "clog",
        "espadrille", "wellington", "rain boot", "rain shoe", "safety shoe", "school shoe", "running shoe",
        "football boot", "kasut", "selipar", "insole", "shoelace",
    ),
    "Accessories": (
        "belt", "cap", "baseball cap", "hat", "beanie", "scarf", "shawl", "tudung", "glove", "mitten", "tie",
        "bow tie", "handbag", "tote bag", "tote", "backpack", "wallet", "purse", "watch", "wrist watch", "sunglasses",
        "jewellery", "jewelry", "necklace", "bracelet", "earring", "ring", "brooch", "hair clip", "umbrella",
        "cufflink", "keychain", "school bag", "sling bag", "clutch",
    ),
    "Vegetables": (
        "vegetable", "lettuce", "spinach", "kale", "broccoli", "cauliflower", "carrot", "tomato", "potato", "onion",
        "garlic", "ginger", "cabbage", "celery", "cucumber", "zucchini", "courgette", "eggplant", "aubergine",
        "brinjal", "pepper", "capsicum", "bell pepper", "chilli", "corn", "young corn", "baby corn", "sweet corn",
        "pea", "green bean", "long bean", "bean sprout", "taugeh", "mushroom", "button mushroom", "enoki", "shiitake",
        "kailan", "choy sum", "sawi", "bok choy", "pak choy", "kangkung", "bayam", "okra", "bendi", "leek",
        "spring onion", "scallion", "radish", "lobak", "turnip", "pumpkin", "labu", "squash", "sweet potato", "yam",
        "keladi", "tapioca", "asparagus", "beetroot", "salad", "coleslaw mix", "herb", "coriander", "parsley", "basil",
        "mint", "lemongrass", "serai", "shallot", "bawang merah", "petai", "tauhu", "tofu", "tempeh", "kidney bean",
        "chickpea", "lentil", "arugula", "rocket", "watercress", "bawang putih", "daun", "imported veggies",
    ),
    "Fruits": (
        "fruit", "banana", "cavendish", "apple", "fuji apple", "orange", "mandarin", "tangerine", "grape", "berry",
        "strawberry", "blueberry", "raspberry", "blackberry", "cherry", "kiwi", "mango", "papaya", "pineapple",
        "nanas", "watermelon", "melon", "honeydew", "rockmelon", "durian", "rambutan", "longan", "lychee",
        "mangosteen", "guava", "jambu", "dragon fruit", "pear", "peach", "plum", "apricot", "lemon", "lime", "limau",
        "avocado", "coconut", "kelapa", "pomegranate", "persimmon", "starfruit", "jackfruit", "nangka", "cempedak",
        "date", "kurma", "raisin", "prune", "fig", "cut fruit", "valencia", "red globe",
    ),
    "Meat": (
        "meat", "beef", "pork", "lamb", "mutton", "veal", "steak", "ribeye", "sirloin", "brisket", "ground beef",
        "minced beef", "mince", "minced meat", "burger patty", "patty", "sausage", "hotdog", "frankfurter", "bacon",
        "ham", "salami", "pepperoni", "chorizo", "pork belly", "pork leg", "pork chop", "spare rib", "rib", "rashers",
        "luncheon meat", "corned beef", "meatball", "bak kwa", "lap cheong",
    ),
    "Poultry": (
        "chicken", "chicken breast", "chicken thigh", "chicken wing", "drumstick", "whole chicken", "duck", "turkey",
        "turkey mince", "quail", "egg", "eggs", "salted egg", "century egg", "kampung chicken", "ayam kampung",
        "chicken fillet", "chicken mince",
    ),
    "Seafood": (
        "seafood", "fish", "salmon", "tuna", "cod", "mackerel", "sardine", "anchovy", "ikan bilis", "bilis", "tilapia",
        "snapper", "grouper", "siakap", "kembung", "pomfret", "bawal", "catfish", "keli", "trout", "prawn", "shrimp",
        "udang kering", "dried shrimp", "crab", "ketam", "lobster", "squid", "cuttlefish", "octopus", "clam", "lala",
        "mussel", "oyster", "scallop", "cockle", "kerang", "fish ball", "fishball", "fish cake", "fish fillet",
        "fish head", "surimi", "crab stick", "kani", "dried fish", "ikan masin", "salted fish", "fish finger",
    ),
    "Dairy": (
        "milk", "fresh milk", "full cream milk", "low fat milk", "uht milk", "cheese", "cheddar", "mozzarella",
        "parmesan", "feta", "brie", "yogurt", "butter", "cream", "whipping cream", "sour cream", "cream cheese",
        "margarine", "ghee", "evaporated milk", "evap", "condensed milk", "creamer", "krimer", "dairy", "kefir",
        "lassi", "dairy champ",
    ),
    "Bakery": (
        "bread", "loaf", "wholemeal", "white bread", "sourdough", "baguette", "bun", "roll", "bagel", "croissant",
        "muffin", "cake", "cupcake", "pastry", "puff", "curry puff", "kaya puff", "pie", "tart", "scone", "donut",
        "doughnut", "danish", "brioche", "pita", "tortilla", "naan", "chapati", "toast", "gardenia", "delicia",
        "cream roll", "swiss roll", "sandwich loaf", "bakery", "pau", "bao", "waffle", "pancake", "crepe",
        "hotdog bun", "burger bun", "french loaf", "tau sar pneah", "kuih", "kueh", "butter roll", "cheese roll",
        "raisin bread",
    ),
    "Grains": (
        "rice", "basmati", "jasmine rice", "brown rice", "glutinous rice", "pulut", "flour", "wheat flour",
        "corn flour", "cornflour", "rice flour", "tapioca flour", "pasta", "spaghetti", "macaroni", "penne", "fusilli",
        "lasagne", "noodle", "instant noodle", "maggi", "egg noodle", "vermicelli", "udon", "soba", "ramen",
        "kuey teow", "oat", "oats", "oatmeal", "cereal", "granola", "muesli", "cornflakes", "quinoa", "couscous",
        "barley", "semolina", "bread crumb", "breadcrumbs", "baking powder", "yeast", "bran", "beras wangi",
        "soh hoon",
    ),
    "Condiments": (
        "sauce", "soy sauce", "oyster sauce", "chilli sauce", "tomato sauce", "ketchup", "mayonnaise", "mayo",
        "mustard", "vinegar", "oil", "cooking oil", "olive oil", "palm oil", "sesame oil", "minyak masak", "sugar",
        "brown sugar", "rock sugar", "salt", "pepper powder", "black pepper", "spice", "curry powder", "chilli powder",
        "turmeric", "cumin", "cinnamon", "stock", "stock cube", "chicken stock", "bouillon", "msg", "seasoning",
        "belacan", "sambal", "kaya", "jam", "honey", "peanut butter", "nutella", "spread", "dressing",
        "salad dressing", "gravy", "paste", "curry paste", "tomato paste", "coconut milk", "santan", "marmite",
        "vegemite", "syrup", "sesame", "asam", "tamarind", "ketumbar", "lada", "herb mix", "chicken powder",
        "anchovy stock",
    ),
    "Snacks": (
        "snack", "chip", "potato chip", "crisp", "cracker", "biscuit", "cookie", "wafer", "chocolate",
        "dark chocolate", "milk chocolate", "candy", "sweet", "gummy", "jelly", "lollipop", "marshmallow", "toffee",
        "popcorn", "pretzel", "nut", "peanut", "almond", "cashew", "pistachio", "walnut", "trail mix", "granola bar",
        "cereal bar", "ice cream", "magnum", "cornetto", "kerepek", "keropok", "muruku", "rempeyek", "twisties",
        "mamee", "jelly cup", "chewing gum", "mint candy", "dried fruit", "asam boi", "lindt", "kitkat", "snickers",
        "oreo", "pringles", "doritos", "lays",
    ),
    "Beverages": (
        "water", "mineral water", "drinking water", "distilled water", "sparkling water", "soda", "soft drink", "cola",
        "coke", "pepsi", "sprite", "fanta", "7up", "100 plus", "isotonic", "juice", "orange juice", "apple juice",
        "coffee", "latte", "cappuccino", "cappucino", "espresso", "americano", "mocha", "tea", "green tea",
        "black tea", "milk tea", "teh tarik", "teh o", "kopi o", "chinese tea", "herbal tea", "bubble tea", "milo",
        "horlicks", "ovaltine", "nescafe", "neslo", "hot chocolate", "cocoa", "drink", "beverage", "fountain drink",
        "soy milk", "soya", "barley drink", "lemonade", "honey lemon", "sirap", "syrup drink", "ribena", "calpis",
        "yakult", "vitagen", "beer", "tiger", "carlsberg", "heineken", "guinness", "guiness", "stout", "draught",
        "wine", "red wine", "white wine", "whisky", "vodka", "gin", "rum", "sake", "soju", "cider", "spritzer",
        "air kosong", "air mineral", "air tebu", "air sirap", "pokka", "minute maid", "sugarcane", "tebu",
        "coconut water", "kopi", "sky juice", "smoothie", "milkshake", "energy drink", "red bull", "tiger bucket",
        "bucket", "vitamas", "sirap bandung",
    ),
    "Prepared Food": (
        "meal", "set meal", "combo", "value meal", "bento", "don", "katsu", "katsu don", "rice bowl",
        "fried rice", "nasi goreng", "nasi lemak", "nasi campur", "nasi ayam", "chicken rice", "roast chicken rice",
        "economy rice", "mixed rice", "plain rice", "white rice", "mee goreng", "mee mamak", "mee hoon",
        "char kuey teow", "kuey teow soup", "laksa", "curry laksa", "pan mee", "wantan mee", "wonton mee",
        "noodle soup", "fishball noodle", "ramen set", "sushi", "sashimi", "tempura", "teriyaki", "yakitori",
        "karaage", "gyoza", "dim sum", "siu mai", "har gow", "char siu", "roast pork", "braised pork", "roti canai",
        "roti telur", "murtabak", "thosai", "dosa", "biryani", "satay", "rendang", "curry", "tom yam", "soup",
        "miso soup", "wakame soup", "pizza", "burger", "sandwich", "sub", "wrap", "hot dog", "french fries", "fries",
        "nugget", "chicken nugget", "fried chicken", "mcchicken", "big mac", "filet o fish", "filetofish", "mcmuffin",
        "hotcake", "happy meal", "takeaway", "dine in", "salad bowl", "porridge", "bubur", "spring roll", "popiah",
        "otak otak", "yong tau foo", "lok lok", "steamboat", "shabu", "kimchi stew", "omelette", "half boiled egg",
        "steamed egg", "rotisserie chicken", "ready meal", "chahan", "shogayaki", "shoga yaki", "yakiniku", "tonkatsu",
        "unagi", "lo bak", "chap fan", "side dish", "meat dish", "starter", "appetizer", "dessert", "coleslaw",
        "kampung fried rice", "fish and chips",
    ),
    "Household": (
        "detergent", "washing powder", "softener", "bleach", "dish soap", "dishwashing", "sponge", "scrub", "scourer",
        "mop", "broom", "dustpan", "dust pan", "bucket mop", "garbage bag", "rubbish bag", "trash bag", "bin bag",
        "bin", "tissue", "toilet paper", "toilet roll", "kitchen towel", "paper towel", "napkin", "serviette",
        "aluminium foil", "cling film", "cling wrap", "stretch film", "plastic bag", "zip bag", "ziplock", "container",
        "plastic container", "tupperware", "bottle", "jug", "tumbler", "cup", "mug", "plate", "bowl", "spoon", "fork",
        "chopstick", "chopstick holder", "knife", "cutlery", "tongs", "ladle", "spatula", "wok", "pan", "frying pan",
        "pot", "kettle", "chopping board", "cutting board", "tray", "baking tray", "lighter", "kitchen lighter",
        "match", "candle", "air freshener", "insecticide", "mosquito", "ridsect", "baygon", "cleaner", "floor cleaner",
        "glass cleaner", "toilet cleaner", "disinfectant", "dettol", "clorox", "hanger", "coat hanger", "laundry",
        "basket", "pail", "towel", "bedsheet", "pillow", "blanket", "curtain", "mat", "hygienic cup", "paper cup",
        "straw", "table lamp", "storage box", "cooler box", "food container", "tefal", "glove rubber", "wet wipes",
    ),
    "Personal Care": (
        "shampoo", "conditioner", "soap", "body wash", "shower gel", "toothpaste", "toothbrush", "mouthwash", "floss",
        "deodorant", "lotion", "moisturiser", "moisturizer", "sunscreen", "sunblock", "cream face", "facial",
        "cleanser", "toner", "serum", "makeup", "lipstick", "mascara", "powder puff", "perfume", "cologne", "razor",
        "shaver", "shaving", "sanitary pad", "tampon", "diaper", "nappy", "baby wipe", "cotton bud", "cotton swab",
        "cotton wool", "plaster", "bandage", "gauze", "wound dressing", "antiseptic", "alcohol swab", "medicine",
        "liquid medicine", "tablet", "capsule", "paracetamol", "panadol", "ibuprofen", "aspirin", "vitamin",
        "supplement", "cough syrup", "lozenge", "ointment", "gentamicin", "analgesic", "face mask", "mask",
        "hand sanitizer", "sanitiser", "sanitizer", "hand wash", "nitrile glove", "latex glove", "hair gel",
        "hair dye", "comb", "hairbrush", "nail polish", "contact lens", "flanil",
    ),
    "Stationery": (
        "pen", "ballpoint", "ball pen", "gel pen", "pencil", "colour pencil", "color pencil", "mechanical pencil",
        "marker", "highlighter", "crayon", "eraser", "rubber eraser", "sharpener", "ruler", "correction pen",
        "correction tape", "paper", "a4 paper", "photocopy paper", "copy paper", "notebook", "exercise book", "book",
        "envelope", "file", "ring file", "folder", "document holder", "clear holder", "binder", "stapler", "staple",
        "paper clip", "clip", "badge clip", "name badge", "tape", "bopp tape", "opp tape", "double sided tape",
        "masking tape", "glue", "glue stick", "scissors", "cutter", "calculator", "laminating film", "lamination",
        "sticky note", "post it", "card", "greeting card", "wrapping paper", "label", "stamp", "ink", "printing",
        "print", "photocopy", "colour copy", "a4", "foolscap", "diary", "planner", "thumb tack", "tack", "push pin",
        "drawing block", "art paper", "colour paper", "simili", "foamboard", "bunting", "flyer", "compass",
        "protractor", "pilot", "staedtler", "faber castell", "artline", "pentel", "magazine", "newspaper", "comic",
    ),
    "Electronics": (
        "battery", "batteries", "aa battery", "aaa battery", "aa", "aaa", "alkaline", "energizer", "eveready",
        "charger", "phone charger", "cable", "usb", "usb c", "hdmi", "adapter", "power bank", "earphone", "headphone",
        "earbud", "speaker", "mouse", "keyboard", "phone", "smartphone", "tablet device", "laptop", "computer",
        "monitor", "router", "flash drive", "pendrive", "memory card", "sd card", "hard disk", "ssd", "printer",
        "ink cartridge", "toner cartridge", "camera", "television", "tv", "remote", "phone case", "screen protector",
        "reload", "top up", "prepaid", "sim card", "extension cord", "bulb", "led", "torch", "flashlight", "electric",
        "fan", "rice cooker", "blender", "iron", "hair dryer", "computer accessories",
    ),
    "Hardware": (
        "tool", "hammer", "screwdriver", "spanner", "wrench", "pipe wrench", "pliers", "drill", "drill bit", "saw",
        "chisel", "file rasp", "punch", "punch set", "hollow punch", "central punch", "sandpaper", "sand paper",
        "cutting disc", "grinding disc", "welding", "welding glass", "welding rod", "nail", "screw", "bolt",
        "nut bolt", "washer", "rivet", "hinge", "padlock", "lock", "key", "normal key", "chain", "rope", "wire rope",
        "cable tie", "wire", "pvc wire tape", "paint", "emulsion paint", "gloss paint", "spray paint", "primer",
        "varnish", "lacquer", "thinner", "putty", "filler", "paint brush", "paint roller", "roller", "roller handle",
        "roller set", "scraper", "wall scraper", "trowel", "plastering trowel", "cement", "sand", "brick",
        "cement brick", "tile", "grout", "plaster of paris", "roofing sheet", "pipe", "pvc pipe", "underground pipe",
        "fitting", "elbow", "socket", "poly socket", "nipple", "valve", "ball valve", "tap", "sink tap", "bib tap",
        "seal tape", "sealing tape", "silicone", "silicone gun", "sealant", "adhesive", "epoxy", "wd 40", "lubricant",
        "grease", "engine oil", "oil filter", "spark plug", "plug top", "plug", "wall plug", "switch", "switch socket",
        "socket outlet", "circuit breaker", "contactor", "relay", "timer", "gas regulator", "regulator", "fuse",
        "ladder", "wheelbarrow", "hoe", "shovel", "spade", "rake", "garden hose", "hose", "sprayer",
        "pressure sprayer", "power sprayer", "fertiliser", "fertilizer", "pot soil", "soil", "measuring tape",
        "tape measure", "spirit level", "sharpening stone", "wood", "plywood", "timber", "aluminium rod", "rod",
        "towel rod", "bracket", "hardware", "diy", "safety pin", "starter handle", "starter cord", "overflow", "sika",
        "renderoc", "kapur", "batu cement", "pasir halus", "pasir kasar",
    ),
    "Toys": (
        "toy", "lego", "doll", "action figure", "puzzle", "jigsaw", "jigsaw puzzle", "board game", "game", "card game",
        "playing card", "ball", "football", "basketball", "kite", "yo yo", "stuffed toy", "plush", "teddy",
        "teddy bear", "toy car", "remote control car", "rc car", "modelling clay", "play doh", "playdough",
        "plasticine", "slime", "building block", "brick set", "water gun", "bubble", "hobby", "craft", "crafts kit",
        "colouring book", "sticker book", "balloon",
    ),
    "Services": (
        "service", "service charge", "fee", "delivery fee", "delivery", "shipping", "postage", "courier", "parking",
        "parking fee", "toll", "repair", "installation", "labour", "labor", "workmanship", "consultation", "haircut",
        "laundry service", "dry cleaning", "rental", "rent", "subscription", "membership", "insurance", "bag fee",
        "deposit", "tuition", "admission", "ticket", "fuel", "petrol", "diesel", "ron95", "ron97", "car wash",
        "reload fee",
    ),
}
# fmt: on

# Words that point somewhere only when nothing more specific matched ("set" alone is a restaurant set, but a
# "paint roller set" is hardware): they lose to any keyword above, whatever their position.
WEAK_KEYWORDS: dict[str, tuple[str, ...]] = {
    "Prepared Food": ("set", "fried", "goreng", "grilled", "roast", "dish", "pax", "dine", "spicy", "hot spicy",
                      "house specialty"),
    "Beverages": ("ice", "iced", "hot", "cold", "panas", "sejuk", "glass", "can"),
    "Clothing": tuple(FABRICS),
    "Household": ("plastic", "kitchen"),
    "Hardware": ("pvc", "heavy duty"),
    "Stationery": ("a5", "gsm"),
}  # fmt: skip

# Item names whose category is settled, as printed on receipts: every item line that recurs on three or more
# receipts of the SROIE development corpus and names one product (Gardenia's bakery codes, McDonald's and kopitiam
# orders, hardware and grocery staples). Matched exactly after normalisation ("O.C. WHITE" is "O.C WHITE").
KNOWN_ITEMS: dict[str, str] = {
    "O.C. WHITE": "Bakery", "O.C JUMBO": "Bakery", "WHOLEMEAL": "Bakery", "CR-CHOCLT": "Bakery",
    "BUN-SBILIS": "Bakery", "DELICIA-B/SCOTCH": "Bakery", "CR-B'SCOTCH": "Bakery", "CR-CORN": "Bakery",
    "CR-VANILLA": "Bakery", "TWIG-CHOC": "Bakery", "SQ-CHOCMLT": "Bakery",
    "TEH (B)": "Beverages", "CHAM (B)": "Beverages", "MILO (B)": "Beverages", "KOPI (B)": "Beverages",
    "GREEN TEA": "Beverages", "HERBAL TEA": "Beverages", "BUNGA KEKWA": "Beverages", "1 L COKE": "Beverages",
    "1 L FRIES": "Prepared Food", "1 MCCHICKEN": "Prepared Food", "1 L MCCHICKEN": "Prepared Food",
    "1 6NUGGETS": "Prepared Food", "WHITE RICE": "Prepared Food",
    "KNORR CHICKEN STOCK 1K": "Condiments", "1 BARBECUE SAUCE": "Condiments", "MARIGOLD HL MILK 1L": "Dairy",
    "PLASTIC BAGS": "Household", "SEKOPLAS H/D GARBAGE 89CM*117CM 10S": "Household",
    "PASIR HALUS (D)": "Hardware", "CEMENT (50KG)": "Hardware", "GLOVE 1200 (PER PAIR)": "Hardware",
    "MAX STAPLE 10-1M": "Stationery", "ALPHA LIPID LIFE LINE 450MG 450G": "Personal Care",
    "PARKING FEE": "Services", "SERVICE CHARGE": "Services",
}  # fmt: skip
