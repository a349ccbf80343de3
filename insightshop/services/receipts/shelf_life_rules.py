"""Data for estimate_expiration_date: conservative shelf lives, never a model's guess (seed 000).

Days are counted from the purchase date for food kept as recommended, at or below the short end of common food-safety
guidance (USDA FoodKeeper-style refrigerator and pantry times); the service then applies a safety margin
(EXPIRY_SAFETY_MARGIN_DAYS, default −1). Where the seed's sketch was longer than that guidance (fresh meat 7 days,
condiments 730) the shorter figure is used: an estimate may be early, never late. Storage is one of fridge, freezer,
pantry, counter.
"""

from __future__ import annotations

DEFAULT_SAFETY_MARGIN_DAYS = -1
DEFAULT_RULE = (7, "fridge")  # the seed's conservative default when nothing else applies

CATEGORY_RULES: dict[str, tuple[int, str]] = {
    "Vegetables": (5, "fridge"),
    "Fruits": (5, "counter"),
    "Meat": (3, "fridge"),
    "Poultry": (2, "fridge"),
    "Seafood": (2, "fridge"),
    "Dairy": (7, "fridge"),
    "Bakery": (3, "pantry"),
    "Grains": (180, "pantry"),
    "Condiments": (180, "pantry"),
    "Snacks": (60, "pantry"),
    "Beverages": (30, "pantry"),
    "Prepared Food": (1, "fridge"),
}

# Categories whose goods do not go off: no date is invented for them, the answer says why.
NON_PERISHABLE: dict[str, str] = {
    "Clothing": "Clothing does not expire.",
    "Footwear": "Footwear does not expire.",
    "Accessories": "Accessories do not expire.",
    "Household": "Household goods are not food; cleaning products print their own date on the pack.",
    "Personal Care": "Personal care products and medicines print their own expiry or period-after-opening mark; "
    "check the pack.",
    "Stationery": "Stationery does not expire.",
    "Electronics": "Electronics do not expire.",
    "Hardware": "Hardware does not expire; paints and sealants print their own date on the tin.",
    "Toys": "Toys do not expire.",
    "Services": "A service is not something that can go off.",
}

# A word that changes how the food keeps, whatever it is: checked before the item table.
STORAGE_WORDS: dict[str, tuple[int, str]] = {
    "frozen": (90, "freezer"),
    "canned": (365, "pantry"),
    "dried": (180, "pantry"),
    "kering": (180, "pantry"),  # Malay: dried (udang kering, dried shrimp)
}

# Item-specific shelf lives: (phrase, days, storage, category the phrase belongs to). A phrase applies only when the
# item's category is unknown or the same, so "milk" does not give milk chocolate a fridge life.
ITEM_RULES: tuple[tuple[str, int, str, str], ...] = (
    ("egg", 21, "fridge", "Poultry"),
    ("salted egg", 21, "fridge", "Poultry"),
    ("chicken breast", 2, "fridge", "Poultry"),
    ("minced", 2, "fridge", "Meat"),
    ("mince", 2, "fridge", "Meat"),
    ("ground beef", 2, "fridge", "Meat"),
    ("sausage", 2, "fridge", "Meat"),
    ("bacon", 7, "fridge", "Meat"),
    ("ham", 5, "fridge", "Meat"),
    ("luncheon meat", 365, "pantry", "Meat"),
    ("milk", 7, "fridge", "Dairy"),
    ("evaporated milk", 180, "pantry", "Dairy"),
    ("condensed milk", 180, "pantry", "Dairy"),
    ("creamer", 180, "pantry", "Dairy"),
    ("yogurt", 14, "fridge", "Dairy"),
    ("cheese", 14, "fridge", "Dairy"),
    ("cheddar", 21, "fridge", "Dairy"),
    ("parmesan", 21, "fridge", "Dairy"),
    ("mozzarella", 7, "fridge", "Dairy"),
    ("cream cheese", 7, "fridge", "Dairy"),
    ("cream", 5, "fridge", "Dairy"),
    ("butter", 30, "fridge", "Dairy"),
    ("margarine", 30, "fridge", "Dairy"),
    ("bread", 3, "pantry", "Bakery"),
    ("cake", 3, "fridge", "Bakery"),
    ("banana", 5, "counter", "Fruits"),
    ("apple", 21, "fridge", "Fruits"),
    ("orange", 14, "fridge", "Fruits"),
    ("berry", 3, "fridge", "Fruits"),
    ("strawberry", 3, "fridge", "Fruits"),
    ("cut fruit", 2, "fridge", "Fruits"),
    ("potato", 21, "pantry", "Vegetables"),
    ("onion", 30, "pantry", "Vegetables"),
    ("garlic", 30, "pantry", "Vegetables"),
    ("carrot", 14, "fridge", "Vegetables"),
    ("lettuce", 3, "fridge", "Vegetables"),
    ("spinach", 3, "fridge", "Vegetables"),
    ("salad", 3, "fridge", "Vegetables"),
    ("mushroom", 4, "fridge", "Vegetables"),
    ("rice", 365, "pantry", "Grains"),
    ("flour", 180, "pantry", "Grains"),
    ("sugar", 730, "pantry", "Condiments"),
    ("salt", 730, "pantry", "Condiments"),
    ("honey", 365, "pantry", "Condiments"),
    ("mayonnaise", 60, "fridge", "Condiments"),
    ("ice cream", 60, "freezer", "Snacks"),
    ("orange juice", 7, "fridge", "Beverages"),
    ("fresh juice", 3, "fridge", "Beverages"),
    ("ice", 1, "fridge", "Beverages"),  # an iced drink from a counter: drink it today
    ("beer", 120, "pantry", "Beverages"),
)
