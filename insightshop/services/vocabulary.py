"""The shop's vocabulary: the words every other part (search, forms, tools, seed data) agrees on."""

from __future__ import annotations

CATEGORIES = ("men", "women", "kids")
CATEGORY_LABELS = {"men": "Men", "women": "Women", "kids": "Kids"}

CLOTHING_TYPES = (
    "shirt", "t-shirt", "polo", "blouse", "sweater", "hoodie", "jacket", "coat",
    "jeans", "pants", "shorts", "skirt", "dress", "pajamas", "socks", "sneakers",
)  # fmt: skip
CLOTHING_TYPE_LABELS = {
    t: ("T-shirts" if t == "t-shirt" else t.capitalize() + ("" if t.endswith("s") else "s")) for t in CLOTHING_TYPES
}
CLOTHING_TYPE_LABELS.update({"jeans": "Jeans", "pants": "Pants", "shorts": "Shorts", "pajamas": "Pajamas",
                             "socks": "Socks", "sneakers": "Sneakers", "dress": "Dresses", "blouse": "Blouses"})  # fmt: skip

COLORS = (
    "white", "black", "grey", "navy", "blue", "red", "green",
    "pink", "yellow", "beige", "brown", "purple", "orange",
)  # fmt: skip

SIZES = ("XS", "S", "M", "L", "XL", "XXL")

FABRICS = (
    "cotton", "linen", "wool", "cashmere", "denim", "polyester", "fleece",
    "silk", "leather", "nylon", "viscose", "jersey", "corduroy",
)  # fmt: skip

SEASONS = ("all-season", "spring", "summer", "autumn", "winter")

SORTS = ("relevance", "rating", "price_low", "price_high", "newest")
SORT_LABELS = {
    "relevance": "Best match",
    "rating": "Top rated",
    "price_low": "Price: low to high",
    "price_high": "Price: high to low",
    "newest": "Newest",
}

# Spoken size names → the size codes variants use ("2 large white shirts").
SIZE_ALIASES = {
    "xs": "XS", "extra small": "XS", "x small": "XS", "xsmall": "XS",
    "s": "S", "small": "S",
    "m": "M", "medium": "M", "med": "M",
    "l": "L", "large": "L",
    "xl": "XL", "extra large": "XL", "x large": "XL", "xlarge": "XL",
    "xxl": "XXL", "2xl": "XXL", "extra extra large": "XXL", "xx large": "XXL", "xxlarge": "XXL",
}  # fmt: skip

COLOR_ALIASES = {"gray": "grey", "charcoal": "grey", "cream": "beige", "tan": "beige", "khaki": "beige",
                 "ivory": "white", "burgundy": "red", "maroon": "red", "olive": "green", "violet": "purple",
                 "lilac": "purple", "camel": "brown", "indigo": "blue", "sky": "blue"}  # fmt: skip


def normalise_size(value: str | None) -> str | None:
    """Map "large", "l", "L" to "L"; None when the value is not a shop size."""
    if value is None:
        return None
    return SIZE_ALIASES.get(" ".join(value.lower().replace("-", " ").split())) or (
        value.upper() if value.upper() in SIZES else None
    )


def normalise_color(value: str | None) -> str | None:
    """Map "Gray", "grey" to "grey"; None when the value is not a shop colour."""
    if value is None:
        return None
    word = value.strip().lower()
    return word if word in COLORS else COLOR_ALIASES.get(word)
