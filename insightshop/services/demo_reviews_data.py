"""Review texts and reviewer names for the demo catalog (deterministic per product)."""

from __future__ import annotations

import random
import zlib
from decimal import Decimal

NAMES = (
    "Amelia R.", "Noah K.", "Priya S.", "Lucas M.", "Hannah W.", "Mateo G.", "Chloe B.", "Samuel O.", "Aisha N.",
    "Jonas F.", "Grace L.", "Diego P.", "Ella T.", "Omar H.", "Sofia V.", "Ben C.", "Mia D.", "Leo A.", "Zoe J.",
    "Ethan Y.",
)  # fmt: skip

COMMENTS = {
    5: (
        "Exactly as pictured and the fit is spot on. Already ordered a second one.",
        "Lovely quality for the price — the fabric feels much more expensive than it is.",
        "Washed it several times now and it still looks new. Highly recommend.",
        "True to size and really comfortable. My new favourite {kind}.",
        "Bought this as a gift and it went down a treat. Great colour in person.",
    ),
    4: (
        "Really nice {kind}, just a touch longer than I expected. Would buy again.",
        "Good fit and soft fabric. Colour is slightly darker than the photo.",
        "Comfortable and well made. Sizing runs a little generous, so consider one down.",
        "Solid everyday {kind}. Arrived quickly and well packed.",
    ),
    3: (
        "It's fine — decent quality, but the fit is a bit boxy on me.",
        "Nice colour, though the fabric is thinner than I hoped.",
        "Okay for the price. Needed ironing straight out of the bag.",
    ),
    2: (
        "Shrank a little after the first wash even on cold. Disappointed.",
        "The sizing felt off; I had to return it for a bigger one.",
    ),
    1: ("Seams came loose after two wears. Not what I expected from this shop.",),
}


def demo_reviews(slug: str, clothing_type: str, target: Decimal, count: int) -> list[tuple[str, int, str]]:
    """Up to 6 (name, rating, comment) reviews averaging close to the target rating."""
    rng = random.Random(zlib.crc32(slug.encode()))
    reviews = []
    floor = max(1, min(5, int(target)))
    fraction = float(target) - floor
    names = rng.sample(NAMES, min(count, 6))
    unused = {stars: rng.sample(texts, len(texts)) for stars, texts in COMMENTS.items()}
    for name in names:
        rating = min(5, floor + (1 if rng.random() < fraction else 0))
        texts = unused[rating] or list(COMMENTS[rating])
        comment = texts.pop().replace("{kind}", clothing_type)
        reviews.append((name, rating, comment))
    return reviews
