"""Demo catalog content for InsightShop as plain, deterministic data.

Everything here is pure stdlib: style tables per clothing type, sentence pools
that are composed into varied product descriptions, and two small generators:
``demo_products()`` (the curated demo catalog) and ``generate_products()``
(any number of plausible products for benchmarks).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Sequence
from decimal import Decimal
from typing import NamedTuple, TypeVar

from .vocabulary import CATEGORIES, CLOTHING_TYPES

_T = TypeVar("_T")

_WOMEN_KIDS_ONLY = frozenset({"blouse", "skirt", "dress"})
TYPES_FOR_CATEGORY: dict[str, tuple[str, ...]] = {
    cat: tuple(t for t in CLOTHING_TYPES if cat != "men" or t not in _WOMEN_KIDS_ONLY) for cat in CATEGORIES
}


class Style(NamedTuple):
    """One product line: a name plus everything needed to build a listing."""

    name: str
    cats: str  # letters: m = men, w = women, k = kids
    fabric: str
    season: str
    lo: int  # adult price range (whole currency units)
    hi: int
    palette: tuple[str, ...]
    hook: str  # opening sentence, specific to this style
    kids_lo: int | None = None
    kids_hi: int | None = None


def _s(
    name: str,
    cats: str,
    fabric: str,
    season: str,
    price: tuple[int, int],
    palette: str,
    hook: str,
    kids_price: tuple[int, int] | None = None,
) -> Style:
    kids_lo, kids_hi = kids_price if kids_price else (None, None)
    return Style(name, cats, fabric, season, price[0], price[1], tuple(palette.split()), hook, kids_lo, kids_hi)


# --------------------------------------------------------------------------------------
# Style tables, one list per clothing type.
# --------------------------------------------------------------------------------------
STYLES: dict[str, list[Style]] = {
    "shirt": [
        _s(
            "Oxford Button-Down Shirt",
            "mwk",
            "cotton",
            "all-season",
            (49, 69),
            "white blue pink navy",
            "A wardrobe staple cut from soft-washed Oxford cloth, with a button-down collar that keeps its roll all day.",
            (24, 32),
        ),
        _s(
            "Crisp Poplin Dress Shirt",
            "m",
            "cotton",
            "all-season",
            (49, 79),
            "white blue navy pink",
            "Tightly woven cotton poplin gives this dress shirt a smooth, crisp finish that looks sharp under a blazer or on its own.",
        ),
        _s(
            "Relaxed Linen Shirt",
            "mw",
            "linen",
            "summer",
            (55, 85),
            "white beige blue green navy",
            "Garment-washed linen in a relaxed, slightly boxy cut that breathes on the hottest days and only gets softer with wear.",
        ),
        _s(
            "Brushed Flannel Shirt",
            "mk",
            "cotton",
            "autumn",
            (45, 69),
            "red green navy brown grey blue",
            "Double-brushed cotton flannel in a classic check that feels cosy from the very first wear.",
            (22, 29),
        ),
        _s(
            "Slim Stretch Shirt",
            "m",
            "cotton",
            "all-season",
            (39, 65),
            "white black blue navy grey",
            "A slim-fitting shirt with a touch of stretch, so it moves with you from the morning commute to after-work drinks.",
        ),
        _s(
            "Non-Iron Twill Shirt",
            "m",
            "cotton",
            "all-season",
            (55, 75),
            "white blue grey",
            "Fine cotton twill treated to come out of the wash smooth, so you can skip the ironing board on busy mornings.",
        ),
        _s(
            "Corduroy Overshirt",
            "mw",
            "corduroy",
            "autumn",
            (65, 95),
            "brown beige green navy",
            "Fine-wale corduroy cut as a roomy overshirt, with two flap chest pockets and horn-effect buttons.",
        ),
        _s(
            "Chambray Work Shirt",
            "mw",
            "cotton",
            "spring",
            (49, 75),
            "blue navy",
            "Lightweight chambray with a worn-in feel, twin flap pockets and a straight hem that works tucked or loose.",
        ),
        _s(
            "Short-Sleeve Camp Shirt",
            "m",
            "viscose",
            "summer",
            (39, 59),
            "white green blue black orange yellow",
            "A breezy camp-collar shirt in drapey viscose, made for holidays, barbecues and warm evenings out.",
        ),
        _s(
            "Oversized Poplin Shirt",
            "w",
            "cotton",
            "all-season",
            (45, 69),
            "white blue pink black",
            "An oversized take on the classic shirt, with dropped shoulders, a longer back hem and crisp cotton poplin.",
        ),
        _s(
            "Tailored Stretch Shirt",
            "w",
            "cotton",
            "all-season",
            (39, 65),
            "white black navy pink",
            "Darted at the back for a neat, tailored fit, with a hint of stretch for comfort at the desk.",
        ),
        _s(
            "Washed Silk Shirt",
            "w",
            "silk",
            "spring",
            (79, 95),
            "beige black navy green",
            "Sandwashed silk gives this relaxed shirt a soft, matte lustre that feels as good as it looks.",
        ),
        _s(
            "Easy-Iron School Shirt",
            "k",
            "cotton",
            "all-season",
            (20, 30),
            "white blue",
            "A smart school shirt in an easy-iron cotton blend that survives the weekly wash and still looks neat on Monday.",
            (12, 18),
        ),
        _s(
            "Short-Sleeve Check Shirt",
            "k",
            "cotton",
            "summer",
            (20, 30),
            "blue red green yellow",
            "A cheerful gingham check on soft cotton, with short sleeves for sunny days and snap buttons little fingers can manage.",
            (16, 24),
        ),
    ],
    "t-shirt": [
        _s(
            "Heavyweight Pocket Tee",
            "mw",
            "cotton",
            "all-season",
            (25, 35),
            "white black grey navy green brown",
            "A sturdy 240gsm cotton tee with a boxy fit, a ribbed collar and a single chest pocket that keeps its shape.",
        ),
        _s(
            "Essential Crew Neck Tee",
            "mwk",
            "cotton",
            "all-season",
            (15, 22),
            "white black grey navy blue red green yellow orange purple pink",
            "Our everyday crew neck in soft, mid-weight cotton, cut to a clean regular fit that works on its own or layered.",
            (9, 14),
        ),
        _s(
            "Slub Cotton V-Neck Tee",
            "m",
            "cotton",
            "summer",
            (18, 28),
            "white grey navy beige",
            "Slub cotton gives this lightweight V-neck a subtle, textured look and an airy feel for warm days.",
        ),
        _s(
            "Supima Cotton Crew Tee",
            "mw",
            "cotton",
            "all-season",
            (29, 40),
            "white black navy grey",
            "Spun from extra-long Supima cotton fibres for a silky-smooth tee that resists pilling and keeps its colour.",
        ),
        _s(
            "Striped Breton Tee",
            "wk",
            "cotton",
            "spring",
            (25, 39),
            "navy white red",
            "The French classic: a long-sleeved Breton in heavy cotton jersey with a wide boat neck and yarn-dyed stripes.",
            (14, 20),
        ),
        _s(
            "Relaxed Boxy Tee",
            "w",
            "cotton",
            "all-season",
            (22, 32),
            "white black beige pink green",
            "A slightly cropped, boxy tee with dropped shoulders and a wide neckline for an effortless, slouchy shape.",
        ),
        _s(
            "Fitted Ribbed Tee",
            "w",
            "jersey",
            "all-season",
            (19, 29),
            "white black beige brown pink",
            "Fine rib jersey in a close, body-skimming fit with a neat crew neck that layers under anything.",
        ),
        _s(
            "Performance Training Tee",
            "mw",
            "polyester",
            "summer",
            (25, 35),
            "black navy grey blue orange",
            "A lightweight training tee that wicks sweat and dries fast, with mesh panels where you run hottest.",
        ),
        _s(
            "Waffle-Knit Long-Sleeve Tee",
            "mk",
            "cotton",
            "autumn",
            (29, 39),
            "grey navy green beige red",
            "A textured waffle knit that traps warmth, cut as a long-sleeved tee for cool mornings.",
            (14, 20),
        ),
        _s(
            "Rocket Print Tee",
            "k",
            "cotton",
            "all-season",
            (15, 20),
            "navy blue grey orange",
            "A soft cotton tee with a playful rocket print, ready for lift-off on every adventure.",
            (10, 15),
        ),
        _s(
            "Rainbow Stripe Tee",
            "k",
            "cotton",
            "spring",
            (15, 20),
            "white yellow pink purple",
            "Bright rainbow stripes on soft cotton jersey make this tee an instant favourite for sunny days.",
            (10, 15),
        ),
    ],
    "polo": [
        _s(
            "Classic Piqué Polo",
            "mwk",
            "cotton",
            "summer",
            (35, 49),
            "white navy black green red blue yellow pink",
            "Breathable cotton piqué in a timeless regular fit, with a ribbed collar that won't curl.",
            (16, 22),
        ),
        _s(
            "Merino Knit Polo",
            "m",
            "wool",
            "spring",
            (65, 89),
            "navy grey brown beige",
            "A fine-gauge merino polo with a three-button placket that sits perfectly between a tee and a shirt.",
        ),
        _s(
            "Performance Golf Polo",
            "m",
            "polyester",
            "summer",
            (39, 55),
            "white blue navy grey orange",
            "A stretchy, moisture-wicking polo with UPF 50 sun protection, built for eighteen holes and the clubhouse after.",
        ),
        _s(
            "Cropped Knit Polo",
            "w",
            "viscose",
            "spring",
            (39, 55),
            "beige white black pink",
            "A cropped, fitted knit polo with a deep V collar and tiny covered buttons, inspired by vintage tennis knits.",
        ),
        _s(
            "Striped Rugby Shirt",
            "mk",
            "cotton",
            "autumn",
            (59, 79),
            "navy green red",
            "A heavyweight rugby shirt with bold hooped stripes, a twill collar and rubber buttons that take a tackle.",
            (22, 30),
        ),
        _s(
            "School Uniform Polo",
            "k",
            "cotton",
            "all-season",
            (12, 18),
            "white navy red green blue yellow",
            "A hard-wearing school polo in soft piqué that keeps its colour through countless washes.",
            (9, 14),
        ),
    ],
    "blouse": [
        _s(
            "Wrap Front Blouse",
            "w",
            "viscose",
            "all-season",
            (39, 59),
            "white black green red pink",
            "A softly draped wrap blouse with a flattering V-neck and a tie at the side you can adjust to suit.",
        ),
        _s(
            "Tie-Neck Satin Blouse",
            "w",
            "polyester",
            "all-season",
            (45, 65),
            "beige black navy pink green",
            "Liquid-soft satin with a pussy-bow tie at the neck that can be worn in a bow or left loose.",
        ),
        _s(
            "Broderie Anglaise Blouse",
            "wk",
            "cotton",
            "summer",
            (39, 55),
            "white yellow blue",
            "Delicate broderie anglaise embroidery on crisp cotton, with scalloped edges and short flutter sleeves.",
            (18, 26),
        ),
        _s(
            "Pure Silk Blouse",
            "w",
            "silk",
            "spring",
            (89, 129),
            "beige white black navy",
            "A refined blouse in pure silk crêpe de chine with a concealed placket and a gently curved hem.",
        ),
        _s(
            "Puff-Sleeve Blouse",
            "wk",
            "cotton",
            "spring",
            (35, 49),
            "white pink yellow purple",
            "Romantic puff sleeves and a square neckline give this cotton blouse a light, vintage-inspired feel.",
            (16, 24),
        ),
        _s(
            "Linen Peasant Blouse",
            "w",
            "linen",
            "summer",
            (45, 65),
            "white beige blue orange",
            "A relaxed peasant blouse in washed linen, with a tie neckline and elasticated cuffs for an easy summer shape.",
        ),
        _s(
            "Peter Pan Collar Blouse",
            "k",
            "cotton",
            "all-season",
            (20, 28),
            "white pink blue",
            "A sweet rounded collar and pearly buttons make this soft cotton blouse perfect for school or parties.",
            (14, 22),
        ),
    ],
    "sweater": [
        _s(
            "Cable-Knit Merino Sweater",
            "mw",
            "wool",
            "winter",
            (69, 99),
            "beige navy grey green brown white",
            "Traditional cable stitches knitted in soft merino wool give this crew neck rich texture and serious warmth.",
        ),
        _s(
            "Cashmere Crew Neck Sweater",
            "mw",
            "cashmere",
            "winter",
            (139, 199),
            "grey navy beige black pink red",
            "Our signature crew neck in two-ply cashmere: light, incredibly soft and warm enough for the coldest days.",
        ),
        _s(
            "Lambswool V-Neck Sweater",
            "m",
            "wool",
            "autumn",
            (59, 79),
            "navy grey brown green red",
            "A classic V-neck in lightweight lambswool that layers neatly over a shirt and tie.",
        ),
        _s(
            "Chunky Roll-Neck Sweater",
            "mw",
            "wool",
            "winter",
            (79, 109),
            "white beige black grey",
            "A chunky rib-knit roll-neck with a generous folded collar, made for frosty walks and fireside evenings.",
        ),
        _s(
            "Lightweight Cotton Knit Sweater",
            "mwk",
            "cotton",
            "spring",
            (45, 65),
            "navy white blue green yellow",
            "A fine-gauge cotton knit that's perfect for in-between weather, with a clean crew neck and ribbed trims.",
            (22, 30),
        ),
        _s(
            "Fair Isle Sweater",
            "wk",
            "wool",
            "winter",
            (79, 99),
            "red navy green white beige",
            "A festive Fair Isle yoke knitted in soft wool, inspired by traditional Shetland patterns.",
            (29, 39),
        ),
        _s(
            "Fine-Knit Cardigan",
            "wk",
            "cotton",
            "all-season",
            (45, 65),
            "beige black pink navy purple yellow",
            "A fine-knit cardigan with pearly buttons and a flattering V-neck, the easiest layer you'll own.",
            (19, 27),
        ),
        _s(
            "Reindeer Knit Sweater",
            "k",
            "cotton",
            "winter",
            (30, 40),
            "red green navy",
            "A cosy holiday knit with a jacquard reindeer across the chest, made for family photos and present opening.",
            (22, 30),
        ),
    ],
    "hoodie": [
        _s(
            "Heavyweight Fleece Hoodie",
            "mwk",
            "fleece",
            "autumn",
            (55, 75),
            "grey black navy green brown purple orange",
            "A substantial hoodie in heavyweight brushed fleece, with a double-layer hood that holds its shape.",
            (25, 35),
        ),
        _s(
            "Zip-Through Hoodie",
            "mwk",
            "cotton",
            "all-season",
            (49, 69),
            "grey navy black red blue",
            "A zip-through hoodie in loopback cotton with a metal two-way zip, the go-to layer for everyday.",
            (22, 32),
        ),
        _s(
            "Loopback Cotton Hoodie",
            "mw",
            "cotton",
            "spring",
            (59, 79),
            "grey beige green navy white",
            "Lighter loopback cotton makes this pullover hoodie ideal for spring mornings and summer evenings.",
        ),
        _s(
            "Cropped Hoodie",
            "w",
            "cotton",
            "all-season",
            (39, 55),
            "pink purple black grey white",
            "A cropped, relaxed hoodie with a raw-edge hem that sits just right over high-waisted jeans or leggings.",
        ),
        _s(
            "Bear Ears Hoodie",
            "k",
            "fleece",
            "winter",
            (25, 35),
            "brown pink grey yellow blue",
            "A super-soft fleece hoodie with little bear ears on the hood that make every walk a bit more fun.",
            (19, 29),
        ),
        _s(
            "Dinosaur Spikes Hoodie",
            "k",
            "cotton",
            "all-season",
            (25, 35),
            "green orange navy purple",
            "Soft cotton with a row of felt dinosaur spikes down the hood and back for roaring good fun.",
            (19, 27),
        ),
    ],
    "jacket": [
        _s(
            "Quilted Puffer Jacket",
            "mwk",
            "nylon",
            "winter",
            (99, 149),
            "black navy green red orange purple yellow",
            "A lightweight puffer with recycled insulation that packs serious warmth without the bulk.",
            (45, 65),
        ),
        _s(
            "Classic Denim Jacket",
            "mwk",
            "denim",
            "spring",
            (69, 99),
            "blue black white",
            "The trucker jacket, done right: rigid cotton denim, pleated front panels and chest pockets with button flaps.",
            (32, 45),
        ),
        _s(
            "Waxed Cotton Field Jacket",
            "m",
            "cotton",
            "autumn",
            (149, 199),
            "green brown navy",
            "Waxed cotton that shrugs off drizzle, with four bellows pockets and a corduroy-trimmed collar.",
        ),
        _s(
            "Leather Biker Jacket",
            "mw",
            "leather",
            "autumn",
            (229, 329),
            "black brown",
            "An asymmetric biker jacket in buttery lambskin, with silver-tone zips and a quilted lining.",
        ),
        _s(
            "Packable Windbreaker",
            "mwk",
            "nylon",
            "spring",
            (59, 85),
            "navy yellow red green black orange blue",
            "A featherlight windbreaker that folds into its own pocket, ready for sudden showers on the go.",
            (29, 39),
        ),
        _s(
            "Harrington Jacket",
            "m",
            "cotton",
            "spring",
            (79, 109),
            "beige navy black green",
            "A modern take on the classic Harrington, with a stand collar, tartan lining and umbrella-style back yoke.",
        ),
        _s(
            "Cropped Tweed Jacket",
            "w",
            "wool",
            "autumn",
            (119, 169),
            "beige pink black white",
            "A cropped jacket in bouclé tweed with frayed edges and gold-tone buttons for a polished, Parisian feel.",
        ),
        _s(
            "Unstructured Linen Blazer",
            "mw",
            "linen",
            "summer",
            (119, 169),
            "beige navy blue white",
            "An unlined, unstructured blazer in breathable linen that keeps summer tailoring light and relaxed.",
        ),
        _s(
            "Fleece-Lined Rain Jacket",
            "k",
            "nylon",
            "autumn",
            (45, 65),
            "yellow red blue navy green pink",
            "A waterproof rain jacket with taped seams and a cosy fleece lining, made for puddle-jumping season.",
            (29, 45),
        ),
        _s(
            "Corduroy Trucker Jacket",
            "mw",
            "corduroy",
            "autumn",
            (89, 119),
            "brown beige green",
            "A trucker-style jacket in chunky corduroy with a warm borg collar and lining.",
        ),
    ],
    "coat": [
        _s(
            "Wool-Blend Overcoat",
            "mw",
            "wool",
            "winter",
            (189, 279),
            "grey navy black beige brown",
            "A single-breasted overcoat in a dense wool blend, cut to fall just above the knee.",
        ),
        _s(
            "Double-Breasted Pea Coat",
            "mw",
            "wool",
            "winter",
            (169, 229),
            "navy black grey",
            "A naval classic in heavy melton wool, with anchor buttons and a wide collar to turn up against the wind.",
        ),
        _s(
            "Belted Trench Coat",
            "mw",
            "cotton",
            "spring",
            (149, 249),
            "beige black navy blue",
            "A water-resistant cotton gabardine trench with storm flaps, a removable belt and buckled cuffs.",
        ),
        _s(
            "Long Down Parka",
            "mw",
            "nylon",
            "winter",
            (199, 299),
            "black green navy blue beige",
            "A longline parka filled with responsibly sourced down, with a faux-fur trimmed hood and two-way zip.",
        ),
        _s(
            "Cashmere-Blend Wrap Coat",
            "w",
            "cashmere",
            "winter",
            (249, 349),
            "beige grey pink brown",
            "A softly tailored wrap coat in a wool and cashmere blend, with a shawl collar and a tie belt.",
        ),
        _s(
            "Teddy Fleece Coat",
            "wk",
            "fleece",
            "winter",
            (129, 169),
            "beige white pink brown",
            "A plush teddy coat in curly fleece that feels like wearing your favourite blanket.",
            (49, 69),
        ),
        _s(
            "Hooded Duffle Coat",
            "k",
            "wool",
            "winter",
            (70, 90),
            "navy red green beige",
            "A classic duffle in warm wool with toggle fastenings and a roomy hood that fits over a hat.",
            (59, 85),
        ),
        _s(
            "Padded School Parka",
            "k",
            "nylon",
            "winter",
            (60, 80),
            "navy blue black green purple red",
            "A warm, padded parka with reflective details for dark mornings and plenty of pocket space.",
            (49, 75),
        ),
        _s(
            "Wool Car Coat",
            "m",
            "wool",
            "winter",
            (179, 249),
            "brown navy grey",
            "A hip-length car coat in brushed wool, easy to wear over a suit or a chunky knit.",
        ),
    ],
    "jeans": [
        _s(
            "Slim Selvedge Jeans",
            "m",
            "denim",
            "all-season",
            (89, 129),
            "blue black navy",
            "Cut from Japanese selvedge denim on vintage shuttle looms, these slim jeans fade into something uniquely yours.",
        ),
        _s(
            "Straight Leg Jeans",
            "mw",
            "denim",
            "all-season",
            (59, 85),
            "blue black grey white",
            "A true straight leg with a mid rise: the no-nonsense jeans you'll wear on repeat.",
        ),
        _s(
            "Relaxed Tapered Jeans",
            "m",
            "denim",
            "all-season",
            (59, 79),
            "blue black grey",
            "Roomy through the seat and thigh, then tapering to the ankle for a modern, comfortable shape.",
        ),
        _s(
            "High-Rise Straight Jeans",
            "w",
            "denim",
            "all-season",
            (69, 95),
            "blue black white beige",
            "A flattering high rise and a straight, ankle-grazing leg in rigid cotton denim with vintage-inspired details.",
        ),
        _s(
            "Skinny Stretch Jeans",
            "w",
            "denim",
            "all-season",
            (49, 69),
            "blue black grey navy",
            "Super-stretch denim that sculpts and holds, with a mid rise and a leg that stays put all day.",
        ),
        _s(
            "Wide-Leg Jeans",
            "w",
            "denim",
            "all-season",
            (69, 99),
            "blue white beige black",
            "A high-waisted, full-length wide leg that elongates the silhouette and swishes as you walk.",
        ),
        _s(
            "Mom Jeans",
            "w",
            "denim",
            "all-season",
            (59, 85),
            "blue black white",
            "A nineties favourite with a high waist, relaxed hips and a tapered, cropped leg.",
        ),
        _s(
            "Pull-On Stretch Jeans",
            "k",
            "denim",
            "all-season",
            (35, 45),
            "blue navy black grey",
            "Stretchy pull-on jeans with an elasticated waist, so getting dressed is quick and there's no fiddly button.",
            (22, 32),
        ),
        _s(
            "Adjustable-Waist Straight Jeans",
            "k",
            "denim",
            "all-season",
            (35, 45),
            "blue black",
            "Straight-leg jeans with an adjustable inner waistband that grows with your child.",
            (24, 35),
        ),
    ],
    "pants": [
        _s(
            "Slim Chino Pants",
            "mw",
            "cotton",
            "all-season",
            (49, 69),
            "beige navy green black grey brown blue",
            "Garment-dyed cotton twill chinos with a slim leg and a soft, lived-in finish.",
        ),
        _s(
            "Tailored Wool Trousers",
            "mw",
            "wool",
            "autumn",
            (89, 129),
            "grey navy black brown blue",
            "Sharp, pressed-crease trousers in a wool flannel that drapes beautifully and resists wrinkles.",
        ),
        _s(
            "Drawstring Linen Pants",
            "mw",
            "linen",
            "summer",
            (49, 75),
            "white beige navy black green",
            "Relaxed linen trousers with a drawstring waist, the answer to every hot-weather dilemma.",
        ),
        _s(
            "Utility Cargo Pants",
            "mk",
            "cotton",
            "all-season",
            (55, 75),
            "green black beige brown",
            "Rugged cotton ripstop with six pockets and adjustable cuffs, built for real use.",
            (22, 30),
        ),
        _s(
            "Jogger Sweatpants",
            "mwk",
            "fleece",
            "all-season",
            (39, 59),
            "grey black navy blue green pink purple",
            "Cosy brushed-back joggers with cuffed ankles and a wide, comfortable waistband.",
            (16, 24),
        ),
        _s(
            "Corduroy Pants",
            "mwk",
            "corduroy",
            "autumn",
            (59, 85),
            "brown beige green navy red",
            "Chunky corduroy trousers in a relaxed straight fit, a seventies classic for colder days.",
            (22, 30),
        ),
        _s(
            "Wide-Leg Pleated Trousers",
            "w",
            "viscose",
            "all-season",
            (55, 79),
            "black beige brown navy",
            "Fluid wide-leg trousers with front pleats and a high waist, effortlessly elegant from desk to dinner.",
        ),
        _s(
            "High-Waist Leggings",
            "w",
            "jersey",
            "all-season",
            (29, 45),
            "black navy grey purple green",
            "Squat-proof leggings with a high, sculpting waistband and a hidden key pocket.",
        ),
        _s(
            "Cotton Play Leggings",
            "k",
            "jersey",
            "all-season",
            (12, 18),
            "pink purple navy blue black grey red",
            "Soft, stretchy cotton leggings with a comfy waistband, perfect for cartwheels and couch days.",
            (9, 14),
        ),
    ],
    "shorts": [
        _s(
            "Chino Shorts",
            "mk",
            "cotton",
            "summer",
            (35, 49),
            "beige navy blue green white red",
            "Classic chino shorts in stretch cotton twill with a seven-inch inseam and a clean flat front.",
            (16, 22),
        ),
        _s(
            "Linen Drawstring Shorts",
            "mw",
            "linen",
            "summer",
            (39, 55),
            "white beige navy blue",
            "Breezy linen shorts with a drawstring waist, made for lazy days and long lunches.",
        ),
        _s(
            "Quick-Dry Swim Shorts",
            "mk",
            "polyester",
            "summer",
            (29, 45),
            "blue red orange yellow green navy",
            "Quick-drying swim shorts with a mesh lining and a zip back pocket for your keys.",
            (14, 20),
        ),
        _s(
            "Denim Cut-Off Shorts",
            "wk",
            "denim",
            "summer",
            (39, 55),
            "blue white black",
            "Vintage-wash denim cut-offs with a high waist and a raw, frayed hem.",
            (18, 25),
        ),
        _s(
            "Running Shorts",
            "mw",
            "polyester",
            "summer",
            (25, 39),
            "black navy grey orange blue",
            "Lightweight running shorts with a built-in liner, split hems and a reflective logo for evening runs.",
        ),
        _s(
            "Paper-Bag Waist Shorts",
            "w",
            "viscose",
            "summer",
            (35, 49),
            "beige green white black",
            "Tailored shorts with a gathered paper-bag waist and a self-tie belt, effortlessly polished.",
        ),
        _s(
            "Jersey Sweat Shorts",
            "mk",
            "jersey",
            "summer",
            (29, 39),
            "grey black navy",
            "Soft jersey sweat shorts with an elasticated waist and deep pockets, ideal for lounging or the gym.",
            (14, 19),
        ),
    ],
    "skirt": [
        _s(
            "Pleated Midi Skirt",
            "w",
            "polyester",
            "all-season",
            (45, 65),
            "black green beige navy blue pink",
            "A sunray-pleated midi that swishes as you move, with an elasticated back waist for comfort.",
        ),
        _s(
            "A-Line Denim Skirt",
            "wk",
            "denim",
            "spring",
            (39, 55),
            "blue black white",
            "A classic A-line denim skirt with a button front and patch pockets.",
            (18, 26),
        ),
        _s(
            "Satin Slip Skirt",
            "w",
            "viscose",
            "all-season",
            (45, 65),
            "beige black green purple brown",
            "A bias-cut satin slip skirt that drapes and flows, with a hidden elasticated waist.",
        ),
        _s(
            "Check Wool Mini Skirt",
            "w",
            "wool",
            "autumn",
            (49, 69),
            "grey brown red navy",
            "A heritage check mini skirt in wool, with a neat A-line shape and a side zip.",
        ),
        _s(
            "Tiered Cotton Maxi Skirt",
            "w",
            "cotton",
            "summer",
            (45, 65),
            "white yellow orange blue",
            "A flowing tiered maxi skirt in lightweight cotton voile, made for holidays and hot afternoons.",
        ),
        _s(
            "Tulle Tutu Skirt",
            "k",
            "polyester",
            "all-season",
            (20, 28),
            "pink purple white yellow black",
            "Layers of soft tulle and a comfy jersey waistband make this tutu perfect for twirling.",
            (15, 24),
        ),
        _s(
            "Pleated School Skirt",
            "k",
            "polyester",
            "all-season",
            (18, 24),
            "navy grey black",
            "A hard-wearing pleated school skirt with permanent pleats and an adjustable waist.",
            (14, 20),
        ),
        _s(
            "Corduroy Button-Front Skirt",
            "wk",
            "corduroy",
            "autumn",
            (45, 59),
            "brown beige green red",
            "A button-front mini in soft needlecord, perfect with tights and boots.",
            (19, 26),
        ),
    ],
    "dress": [
        _s(
            "Wrap Midi Dress",
            "w",
            "viscose",
            "all-season",
            (59, 89),
            "green black red navy blue",
            "A true wrap dress in fluid viscose with a tie waist, a V-neck and fluttering sleeves.",
        ),
        _s(
            "Linen Shirt Dress",
            "w",
            "linen",
            "summer",
            (69, 95),
            "white beige blue green",
            "A relaxed shirt dress in washed linen with a tie belt, patch pockets and a midi length.",
        ),
        _s(
            "Knitted Jumper Dress",
            "w",
            "wool",
            "winter",
            (79, 109),
            "grey beige brown black",
            "A cosy rib-knit jumper dress with a roll neck and a body-skimming fit.",
        ),
        _s(
            "Silk Slip Dress",
            "w",
            "silk",
            "summer",
            (119, 169),
            "black green beige pink purple",
            "A bias-cut slip dress in pure silk charmeuse with delicate adjustable straps.",
        ),
        _s(
            "Smocked Sundress",
            "wk",
            "cotton",
            "summer",
            (49, 69),
            "yellow white blue pink orange",
            "A smocked bodice and a swingy tiered skirt make this cotton sundress a sunny-day favourite.",
            (22, 32),
        ),
        _s(
            "Jersey T-Shirt Dress",
            "w",
            "jersey",
            "all-season",
            (35, 49),
            "black navy grey green",
            "Everything you love about a tee, in dress form: soft jersey, a relaxed shape and a knee-skimming length.",
        ),
        _s(
            "Floral Tea Dress",
            "w",
            "viscose",
            "spring",
            (59, 79),
            "blue pink yellow purple red",
            "A vintage-inspired tea dress in a delicate floral print, with a sweetheart neckline and button front.",
        ),
        _s(
            "Tailored Shift Dress",
            "w",
            "polyester",
            "all-season",
            (69, 95),
            "black navy red",
            "A structured shift dress in crepe with a clean round neck, darts for shape and a concealed back zip.",
        ),
        _s(
            "Tulle Party Dress",
            "k",
            "polyester",
            "all-season",
            (35, 50),
            "pink purple white navy",
            "A sparkly sequinned bodice and a full tulle skirt for birthdays, weddings and every celebration.",
            (29, 45),
        ),
        _s(
            "Corduroy Pinafore Dress",
            "k",
            "corduroy",
            "autumn",
            (28, 38),
            "red green navy brown pink",
            "A classic pinafore in soft corduroy with a front pocket and easy side buttons.",
            (24, 35),
        ),
        _s(
            "Cotton Jersey Play Dress",
            "k",
            "jersey",
            "spring",
            (18, 26),
            "yellow pink blue orange purple green",
            "A comfy jersey dress with a twirly skirt and built-in shorts, so nothing gets in the way of play.",
            (16, 24),
        ),
    ],
    "pajamas": [
        _s(
            "Cotton Poplin Pajama Set",
            "mw",
            "cotton",
            "all-season",
            (49, 69),
            "blue white navy pink green",
            "Crisp cotton poplin pyjamas with contrast piping and a classic notch collar.",
        ),
        _s(
            "Flannel Check Pajama Set",
            "mwk",
            "cotton",
            "winter",
            (45, 65),
            "red green navy blue grey",
            "Brushed cotton flannel in a cosy check, the perfect set for long winter nights.",
            (22, 30),
        ),
        _s(
            "Silk Pajama Set",
            "w",
            "silk",
            "all-season",
            (149, 199),
            "pink black navy beige green",
            "Pure mulberry silk pyjamas with a relaxed shirt and wide-leg trousers for the ultimate in nightwear luxury.",
        ),
        _s(
            "Jersey Lounge Pajama Set",
            "mw",
            "jersey",
            "all-season",
            (39, 55),
            "grey navy black pink",
            "A soft jersey tee and jogger set that's as good for lounging as it is for sleeping.",
        ),
        _s(
            "Glow-in-the-Dark Dino Pajamas",
            "k",
            "cotton",
            "all-season",
            (20, 28),
            "green navy blue orange",
            "Snug-fitting cotton pyjamas with a dinosaur print that glows softly when the lights go out.",
            (16, 24),
        ),
        _s(
            "Hooded Fleece Onesie",
            "k",
            "fleece",
            "winter",
            (28, 36),
            "pink grey purple yellow brown",
            "A snuggly all-in-one in soft fleece with a hood and a long zip for quick changes at bedtime.",
            (22, 32),
        ),
        _s(
            "Space Print Pajamas",
            "k",
            "cotton",
            "all-season",
            (20, 28),
            "navy blue purple",
            "Soft cotton pyjamas covered in planets, stars and rockets for dreams that are out of this world.",
            (16, 24),
        ),
    ],
    "socks": [
        _s(
            "Merino Hiking Socks",
            "mw",
            "wool",
            "winter",
            (15, 19),
            "grey green navy brown red",
            "Cushioned merino hiking socks that keep feet warm, dry and blister-free on the trail.",
        ),
        _s(
            "Ribbed Cotton Crew Socks",
            "mwk",
            "cotton",
            "all-season",
            (9, 13),
            "white black grey navy beige red yellow",
            "Everyday crew socks in soft combed cotton with a classic rib that stays up.",
            (9, 11),
        ),
        _s(
            "Cashmere-Blend Bed Socks",
            "w",
            "cashmere",
            "winter",
            (16, 19),
            "beige pink grey purple",
            "Indulgent bed socks in a cashmere blend, for cold toes and lazy Sunday mornings.",
        ),
        _s(
            "Patterned Dress Socks",
            "m",
            "cotton",
            "all-season",
            (12, 16),
            "navy red green orange purple blue yellow",
            "Fine-gauge cotton dress socks with a playful pattern to add personality to a sharp suit.",
        ),
        _s(
            "No-Show Trainer Socks",
            "mw",
            "cotton",
            "summer",
            (11, 15),
            "white black grey",
            "Low-cut trainer socks with a silicone heel grip so they never slip down into your shoes.",
        ),
        _s(
            "Striped Everyday Socks",
            "k",
            "cotton",
            "all-season",
            (9, 12),
            "red blue yellow pink green orange purple",
            "Bright striped cotton socks with a comfy seamless toe, for happy feet all day.",
            (9, 12),
        ),
        _s(
            "Anti-Slip Grip Socks",
            "k",
            "cotton",
            "all-season",
            (9, 11),
            "pink blue grey yellow",
            "Soft cotton socks with rubber grip dots on the soles for safe steps on slippery floors.",
            (9, 11),
        ),
        _s(
            "Cushioned Sports Socks",
            "mwk",
            "cotton",
            "all-season",
            (12, 16),
            "white black grey",
            "Cushioned sports socks with arch support and a breathable mesh top for training days.",
            (9, 12),
        ),
    ],
    "sneakers": [
        _s(
            "Classic Leather Sneakers",
            "mwk",
            "leather",
            "all-season",
            (79, 119),
            "white black navy",
            "Minimal low-top sneakers in smooth leather on a stitched cupsole, the pair that goes with everything.",
            (35, 49),
        ),
        _s(
            "Retro Runner Sneakers",
            "mw",
            "nylon",
            "all-season",
            (69, 99),
            "grey navy blue red green beige orange",
            "A seventies running silhouette reimagined with a nylon and suede upper and a cushioned EVA sole.",
        ),
        _s(
            "Suede Low-Top Sneakers",
            "mw",
            "leather",
            "spring",
            (85, 115),
            "brown beige navy green grey",
            "Soft suede sneakers with tonal laces and a natural rubber sole, a smarter alternative to canvas.",
        ),
        _s(
            "Knit Running Sneakers",
            "mwk",
            "nylon",
            "all-season",
            (79, 109),
            "black grey blue pink purple",
            "A sock-like knit upper and a responsive foam midsole make these featherlight runners ready for any distance.",
            (35, 49),
        ),
        _s(
            "High-Top Court Sneakers",
            "mw",
            "leather",
            "all-season",
            (89, 129),
            "white black red",
            "A basketball-inspired high-top in durable leather with a padded ankle collar.",
        ),
        _s(
            "Light-Up Velcro Sneakers",
            "k",
            "nylon",
            "all-season",
            (35, 45),
            "pink blue purple black white",
            "Sneakers with LED lights in the soles that flash with every step, and easy hook-and-loop straps.",
            (29, 39),
        ),
        _s(
            "Easy Strap Sneakers",
            "k",
            "leather",
            "all-season",
            (30, 40),
            "white navy red yellow",
            "Leather sneakers with twin touch-fastening straps so kids can put them on all by themselves.",
            (25, 35),
        ),
    ],
}

# --------------------------------------------------------------------------------------
# Sentence pools for descriptions.
# --------------------------------------------------------------------------------------
TYPE_DETAILS: dict[str, tuple[str, ...]] = {
    "shirt": (
        "Cut with a curved hem, a back box pleat and a single chest pocket.",
        "Finished with mother-of-pearl-effect buttons and a soft, unlined collar.",
        "The regular fit leaves room through the chest without ever looking boxy.",
        "Adjustable two-button cuffs mean the sleeves roll up neatly when the sun comes out.",
        "A locker loop and a back pleat add a quiet touch of old-school tailoring.",
    ),
    "t-shirt": (
        "A ribbed crew neck keeps its shape wash after wash.",
        "Side-seamed construction and a slightly longer back hem help it hang just right.",
        "Pre-shrunk, so the fit you buy is the fit you keep.",
        "Taped shoulder seams and a double-stitched hem make it built to last.",
    ),
    "polo": (
        "A two-button placket and a flat-knit collar keep it neat without looking stiff.",
        "Split side vents and a slightly longer back hem make it easy to wear untucked.",
        "Ribbed cuffs hug the arm for a clean, sharp line.",
        "The collar is reinforced with tape so it lies flat all day.",
    ),
    "blouse": (
        "Concealed buttons keep the front clean and uninterrupted.",
        "Gently gathered at the shoulders for a soft, easy drape.",
        "The relaxed body skims rather than clings, finished with a neatly rolled hem.",
        "Delicate covered buttons at the cuffs add a refined finishing touch.",
    ),
    "sweater": (
        "Ribbed cuffs, hem and neckline hold their shape all season long.",
        "Fully fashioned shoulders give a neat, natural fit.",
        "A mid-weight knit that layers comfortably over a shirt without bulk.",
        "Slightly dropped shoulders and a relaxed body make it easy to throw on.",
    ),
    "hoodie": (
        "Features a lined hood with flat drawcords and a roomy kangaroo pocket.",
        "Ribbed cuffs and hem trap warmth and spring back into shape.",
        "The brushed interior feels soft from day one and only gets cosier.",
        "Flatlock seams lie smooth against the skin, so nothing rubs on long days.",
    ),
    "jacket": (
        "Deep hand pockets and an inside pocket keep the essentials secure.",
        "An adjustable hem and cuffs help seal out the wind.",
        "Cut with enough room to layer over a knit without feeling bulky.",
        "Finished with tonal snaps and a smooth, lightweight lining.",
    ),
    "coat": (
        "Fully lined, with deep welt pockets and an inside pocket for your phone.",
        "It falls to mid-thigh for extra warmth without getting in the way.",
        "Roomy through the shoulders, so it layers easily over a chunky knit.",
        "A back vent and horn-effect buttons add classic tailoring details.",
    ),
    "jeans": (
        "Classic five-pocket styling, with a button fly and sturdy copper rivets.",
        "They sit at the natural waist and hold their shape through the day.",
        "A touch of stretch gives comfort without bagging at the knees.",
        "Finished with a clean hem that can be cuffed or worn full length.",
    ),
    "pants": (
        "An elasticated back waistband adds comfort without spoiling a neat front.",
        "Slanted side pockets and welt back pockets keep the lines clean.",
        "Cut with a mid rise and a leg that tapers gently to the ankle.",
        "Belt loops and a hook-and-bar fastening give a polished finish.",
    ),
    "shorts": (
        "They hit just above the knee, with a relaxed leg that's easy to move in.",
        "An elasticated waist with an inner drawcord means no belt needed.",
        "Deep side pockets and a back pocket hold your phone, keys and wallet.",
        "Quick to dry and light to pack for holidays.",
    ),
    "skirt": (
        "A concealed side zip keeps the silhouette smooth.",
        "The high waist sits comfortably and flatters the figure.",
        "Fully lined, so it moves freely without clinging.",
        "The length works just as well with flats and boots as it does with heels.",
    ),
    "dress": (
        "A softly fitted waist creates an easy, flattering silhouette.",
        "Side-seam pockets included, because every dress deserves them.",
        "The skirt falls in soft folds that move beautifully as you walk.",
        "Lined to the hem and finished with a concealed back zip.",
    ),
    "pajamas": (
        "A button-through top with piped edges comes with matching drawstring bottoms.",
        "An elasticated waistband and relaxed legs mean total comfort all night.",
        "Soft, breathable and roomy enough to sleep in any position.",
        "Neatly finished seams and a tagless neck keep things comfortable until morning.",
    ),
    "socks": (
        "A reinforced heel and toe mean they last wash after wash.",
        "The ribbed cuff stays up all day without pinching.",
        "Hand-linked toe seams are flat and smooth, so nothing rubs.",
        "A cushioned footbed adds comfort for long days on your feet.",
    ),
    "sneakers": (
        "A padded collar and cushioned insole keep them comfortable from morning to night.",
        "The grippy rubber sole is stitched for durability.",
        "Tonal laces and a subtle heel tab keep the look clean.",
        "A removable footbed makes them easy to refresh.",
    ),
}

TYPE_STYLING: dict[str, tuple[str, ...]] = {
    "shirt": (
        "Wear it buttoned up with chinos or open over a tee at the weekend.",
        "In {color}, it pairs just as well with a tailored blazer as with faded denim.",
        "Tuck it into tailored trousers for the office, or leave it loose with shorts.",
    ),
    "t-shirt": (
        "Layer the {color} one under an overshirt or wear it solo with jeans.",
        "An easy base layer you'll reach for all year round.",
        "It goes with everything from chinos to swim shorts.",
    ),
    "polo": (
        "Smart enough for a lunch meeting, relaxed enough for the weekend.",
        "Team the {color} with chino shorts and loafers for easy summer dressing.",
        "Wear it with tailored trousers for a smart-casual look that always works.",
    ),
    "blouse": (
        "Tuck it into high-waisted jeans or wear it loose over tailored trousers.",
        "In {color}, it works for the office and dinner alike.",
        "Pair it with a pleated skirt for an instantly polished look.",
    ),
    "sweater": (
        "Layer it over a collared shirt or wear it on its own with jeans.",
        "The {color} shade is easy to pair with denim, cords or tailored trousers.",
        "Throw it over your shoulders on cool summer evenings.",
    ),
    "hoodie": (
        "Made for lazy Sundays, school runs and post-gym coffees.",
        "Throw the {color} one over a tee with joggers for an easy off-duty look.",
        "Layer it under a denim or puffer jacket when the temperature drops.",
    ),
    "jacket": (
        "Throw it on over a hoodie on cooler mornings or over a tee when the sun comes out.",
        "The {color} finish goes with almost everything in your wardrobe.",
        "The kind of jacket you'll grab on your way out the door, every single day.",
    ),
    "coat": (
        "An investment piece that will see you through many winters.",
        "Wear the {color} over a suit on weekdays and a chunky knit at weekends.",
        "Smart enough for the office, warm enough for the weekend walk.",
    ),
    "jeans": (
        "Pair them with a crisp shirt or your favourite tee; they go with everything.",
        "Wear them with sneakers at the weekend or boots and a blazer for evenings out.",
        "The {color} wash is a wardrobe foundation you'll build outfits around.",
    ),
    "pants": (
        "Dress them up with a shirt and loafers or down with a tee and sneakers.",
        "The {color} pair works with almost any top in your wardrobe.",
        "Comfortable enough for travel days, smart enough for dinner on arrival.",
    ),
    "shorts": (
        "Made for beach days, city breaks and everything in between.",
        "Pair the {color} with a linen shirt or a simple tee.",
        "Roll them into your suitcase; they come out ready to wear.",
    ),
    "skirt": (
        "Tuck in a knit for autumn or wear it with a tee and sneakers in summer.",
        "In {color}, it pairs beautifully with neutral tops and denim jackets.",
        "Add tights and ankle boots and it works straight through the colder months.",
    ),
    "dress": (
        "Dress it up with heels or down with sandals and a denim jacket.",
        "The {color} shade is just right for weddings, dinners and holidays alike.",
        "A one-and-done outfit for days when you don't want to think.",
    ),
    "pajamas": (
        "Lovely as a gift, or as a treat to yourself.",
        "Ideal for slow mornings, movie nights and everything in between.",
        "Comes folded in a reusable cotton bag, ready for gifting.",
    ),
    "socks": (
        "A small upgrade you'll notice every single day.",
        "They make a great stocking filler or last-minute gift.",
        "Buy a few pairs and retire those tired old socks for good.",
    ),
    "sneakers": (
        "Wear them with jeans, chinos or even tailoring for a modern edge.",
        "The {color} colourway goes with practically everything.",
        "They come with a spare set of laces in the box.",
    ),
}

FABRIC_FEEL: dict[str, tuple[str, ...]] = {
    "cotton": (
        "The cotton is soft, breathable and easy to care for.",
        "Made from long-staple cotton that gets softer with every wash.",
        "We use responsibly sourced cotton with a smooth, comfortable feel.",
    ),
    "linen": (
        "Pure linen keeps you cool and lets air move freely.",
        "The European flax linen has a natural slub texture and a relaxed crumple.",
        "Linen's natural creases are part of its easy-going charm.",
    ),
    "wool": (
        "The wool regulates temperature and naturally resists odour.",
        "Warm but breathable wool with a soft, springy handle.",
        "Responsibly sourced wool that keeps its shape season after season.",
    ),
    "cashmere": (
        "Grade-A Mongolian cashmere is incredibly soft and surprisingly warm for its weight.",
        "The cashmere is gently brushed for a light, cloud-like feel.",
        "Pure cashmere that only gets softer with time.",
    ),
    "denim": (
        "Made from sturdy cotton denim with a subtle slub texture.",
        "The denim has a soft, broken-in feel from the very first wear.",
        "Heavy-duty denim that ages with real character.",
    ),
    "polyester": (
        "Made with recycled polyester that dries quickly and resists creasing.",
        "The fabric is light, crease-resistant and holds its colour.",
        "Recycled fibres keep it light, quick-drying and easy to pack.",
    ),
    "fleece": (
        "The brushed fleece traps warmth without adding weight.",
        "Soft fleece with a peach-skin finish that feels cosy from day one.",
        "Made from a warm, pill-resistant fleece that stays fluffy.",
    ),
    "silk": (
        "Pure mulberry silk with a gentle lustre and a fluid drape.",
        "The silk feels cool against the skin and drapes beautifully.",
        "Sandwashed silk with a soft, matte finish.",
    ),
    "leather": (
        "Full-grain leather that softens and develops a patina over time.",
        "Supple leather with a smooth, lightly waxed finish.",
        "Responsibly tanned leather chosen for its softness and durability.",
    ),
    "nylon": (
        "Lightweight recycled nylon with a water-repellent finish.",
        "The ripstop nylon is tough, light and shrugs off showers.",
        "Made from recycled nylon that packs down small.",
    ),
    "viscose": (
        "Fluid viscose drapes beautifully and feels cool on warm days.",
        "The viscose has a soft, silky hand and a gentle movement.",
        "Responsibly sourced viscose gives it a fluid, flattering drape.",
    ),
    "jersey": (
        "Soft stretch jersey moves with you and recovers its shape.",
        "The cotton-rich jersey is smooth, breathable and gently stretchy.",
        "Made from a mid-weight jersey with just the right amount of stretch.",
    ),
    "corduroy": (
        "Soft corduroy with a velvety wale that feels warm and substantial.",
        "The cotton corduroy is garment-dyed for a rich, lived-in colour.",
        "Needlecord that softens beautifully with wear.",
    ),
}

# Fabric sentences that read better for specific clothing types.
FABRIC_FEEL_OVERRIDE: dict[tuple[str, str], tuple[str, ...]] = {
    ("sneakers", "leather"): (
        "Full-grain leather uppers soften and mould to your feet.",
        "The smooth leather upper wipes clean in seconds.",
    ),
    ("sneakers", "nylon"): (
        "Breathable nylon mesh uppers keep feet cool on warm days.",
        "The lightweight nylon upper flexes naturally with every step.",
    ),
    ("socks", "cotton"): (
        "Combed cotton with a little stretch keeps them soft and breathable.",
        "The cotton yarn is soft against the skin and keeps feet fresh.",
    ),
    ("socks", "wool"): ("Merino wool keeps feet warm in winter and cool on the move.",),
}

CARE: dict[str, tuple[str, ...]] = {
    "cotton": ("Machine washable at 30°C.", "Machine wash cold and tumble dry low."),
    "linen": ("Machine wash at 30°C and hang to dry.", "Wash cool and line dry; skip the iron for that lived-in look."),
    "wool": ("Hand wash cold or dry clean.", "Wash on a cool wool cycle and dry flat."),
    "cashmere": ("Hand wash cold, dry flat and store folded.", "Dry clean or hand wash gently."),
    "denim": ("Wash inside out and cold to keep the colour rich.", "Wash sparingly, inside out, and line dry."),
    "polyester": ("Machine washable and quick to dry.", "Machine wash cold; no ironing needed."),
    "fleece": (
        "Machine wash cold and skip the fabric softener to keep it fluffy.",
        "Machine washable; tumble dry low.",
    ),
    "silk": ("Dry clean or hand wash cold.", "Hand wash in cool water and dry flat in the shade."),
    "leather": ("Wipe clean with a damp cloth.", "Treat with a leather conditioner now and then to keep it supple."),
    "nylon": ("Machine wash cold and hang to dry.", "Wipe clean or machine wash on a gentle cycle."),
    "viscose": ("Hand wash cold or machine wash on a delicate cycle.", "Wash cool and dry flat to keep its shape."),
    "jersey": ("Machine washable at 30°C.", "Machine washable and ready to wear straight from the line."),
    "corduroy": ("Wash inside out at 30°C to keep the pile soft.", "Machine wash cold inside out and tumble dry low."),
}

KIDS_NOTES: tuple[str, ...] = (
    "Designed to keep up with climbing frames, puddles and playdates.",
    "Easy for little hands to put on and take off.",
    "Made to survive as many washes as family life demands.",
    "Cut with a little room to grow, to last more than one season.",
    "Tough enough for the playground and soft enough for naps.",
    "There's a name label inside for school and nursery.",
)

# --------------------------------------------------------------------------------------
# Palettes, sizes, demo quotas.
# --------------------------------------------------------------------------------------
_KIDS_BRIGHT_TYPES = frozenset({"t-shirt", "polo", "hoodie", "jacket", "socks", "sneakers", "pajamas", "shorts"})
_KIDS_BRIGHTS = ("yellow", "orange", "red", "green", "blue", "purple", "pink")
_MEN_PINK_OK = frozenset({"shirt", "polo", "t-shirt", "socks"})
_MEN_PURPLE_OK = frozenset({"t-shirt", "polo", "hoodie", "socks", "sneakers"})
_NAVY_BLUE_BLACK = ("navy", "blue", "black")

DEMO_COUNTS: dict[str, dict[str, int]] = {
    "men": {
        "shirt": 11,
        "t-shirt": 6,
        "polo": 4,
        "sweater": 5,
        "hoodie": 4,
        "jacket": 5,
        "coat": 4,
        "jeans": 5,
        "pants": 5,
        "shorts": 4,
        "pajamas": 3,
        "socks": 4,
        "sneakers": 5,
    },
    "women": {
        "shirt": 7,
        "t-shirt": 5,
        "polo": 3,
        "blouse": 7,
        "sweater": 5,
        "hoodie": 4,
        "jacket": 5,
        "coat": 4,
        "jeans": 5,
        "pants": 5,
        "shorts": 3,
        "skirt": 6,
        "dress": 9,
        "pajamas": 3,
        "socks": 3,
        "sneakers": 4,
    },
    "kids": {
        "shirt": 4,
        "t-shirt": 5,
        "polo": 3,
        "blouse": 3,
        "sweater": 3,
        "hoodie": 4,
        "jacket": 4,
        "coat": 3,
        "jeans": 3,
        "pants": 3,
        "shorts": 3,
        "skirt": 3,
        "dress": 5,
        "pajamas": 4,
        "socks": 3,
        "sneakers": 3,
    },
}

# Listings that must exist in the demo catalog: (category, type) -> [(style name, colour)].
DEMO_FORCED: dict[tuple[str, str], list[tuple[str, str]]] = {
    ("men", "shirt"): [
        ("Oxford Button-Down Shirt", "white"),
        ("Crisp Poplin Dress Shirt", "white"),
        ("Relaxed Linen Shirt", "white"),
        ("Slim Stretch Shirt", "white"),
        ("Non-Iron Twill Shirt", "white"),
        ("Oxford Button-Down Shirt", "blue"),
        ("Slim Stretch Shirt", "black"),
    ],
    ("women", "blouse"): [("Pure Silk Blouse", "navy"), ("Tie-Neck Satin Blouse", "navy")],
    ("women", "shirt"): [
        ("Oversized Poplin Shirt", "white"),
        ("Tailored Stretch Shirt", "white"),
        ("Relaxed Linen Shirt", "white"),
        ("Tailored Stretch Shirt", "black"),
    ],
    ("kids", "shirt"): [("Easy-Iron School Shirt", "white"), ("Oxford Button-Down Shirt", "white")],
}

_CAT_LETTER = {"men": "m", "women": "w", "kids": "k"}
_SLUG_RE = re.compile(r"[^a-z0-9]+")
_ADULT_WORDS = re.compile(r"office|suit|blazer|tailor|wedding|meeting|desk|dinner|heels|high-waisted|loafers|travel")


def slugify(text: str) -> str:
    """Lowercase `text` and reduce it to a-z, 0-9 and single hyphens."""
    return _SLUG_RE.sub("-", text.lower().replace("é", "e")).strip("-")


def _styles_for(category: str, ctype: str) -> list[Style]:
    letter = _CAT_LETTER[category]
    return [s for s in STYLES[ctype] if letter in s.cats]


def _palette(style: Style, category: str, ctype: str) -> tuple[str, ...]:
    colours = list(style.palette)
    if category == "kids" and ctype in _KIDS_BRIGHT_TYPES and style.cats != "k" and style.fabric != "denim":
        colours += [c for c in _KIDS_BRIGHTS if c not in colours]
    elif category == "men":
        colours = [
            c for c in colours if (c != "pink" or ctype in _MEN_PINK_OK) and (c != "purple" or ctype in _MEN_PURPLE_OK)
        ]
    return tuple(colours)


def _sizes(rng: random.Random, category: str, ctype: str) -> list[str]:
    roll = rng.random()
    if ctype == "socks":
        return ["XS", "S", "M"] if category == "kids" else ["S", "M", "L"]
    if category == "kids":
        if roll < 0.65:
            return ["XS", "S", "M", "L"]
        return ["XS", "S", "M"] if roll < 0.85 else ["XS", "S", "M", "L", "XL"]
    if ctype == "sneakers":
        return ["S", "M", "L", "XL"] if category == "men" else ["XS", "S", "M", "L"]
    if category == "men":
        if roll < 0.7:
            return ["S", "M", "L", "XL", "XXL"]
        return ["S", "M", "L", "XL"] if roll < 0.85 else ["XS", "S", "M", "L", "XL"]
    if roll < 0.65:
        return ["XS", "S", "M", "L", "XL"]
    return ["S", "M", "L", "XL", "XXL"] if roll < 0.85 else ["XS", "S", "M", "L"]


def _pick(rng: random.Random, seq: Sequence[_T]) -> _T:
    """Like rng.choice, but cheaper (matters for 100k generated products)."""
    return seq[int(rng.random() * len(seq))]


def _stock(rng: random.Random, colours: list[str], sizes: list[str]) -> dict[str, int]:
    stock: dict[str, int] = {}
    last = len(sizes) - 1
    rand = rng.random  # plain floats keep 100k-product generation fast
    for colour in colours:
        for i, size in enumerate(sizes):
            roll = rand()
            if roll < 0.06:
                qty = 0
            elif roll < 0.12:
                qty = 1 if roll < 0.09 else 2
            else:
                qty = 3 + int((roll - 0.12) / 0.88 * 28)  # 3..30
                if 0 < i < last and rand() < 0.3:  # middle sizes sell (and restock) more
                    qty = min(40, qty + 2 + int(rand() * 9))
            stock[f"{colour}/{size}"] = qty
    return stock


_ENDINGS = (0, 50, 95, 99)
_ENDING_CUM = (30, 45, 75, 100)


def _price(rng: random.Random, style: Style, category: str, ctype: str) -> Decimal:
    if category == "kids":
        lo = style.kids_lo if style.kids_lo is not None else round(style.lo * 0.6)
        hi = style.kids_hi if style.kids_hi is not None else round(style.hi * 0.6)
    else:
        lo, hi = style.lo, style.hi
    if ctype == "socks":
        lo, hi = max(lo, 9), min(hi, 19)
    roll = rng.random() * _ENDING_CUM[-1]
    cents = _ENDINGS[next(i for i, w in enumerate(_ENDING_CUM) if roll < w)]
    top = hi if cents == 0 or hi <= lo else hi - 1
    whole = lo + int(rng.random() * (top - lo + 1))
    return Decimal(f"{whole}.{cents:02d}")


def _rating(rng: random.Random, days_old: int) -> tuple[Decimal, int]:
    if days_old <= 14 and rng.random() < 0.7:
        return Decimal("0.0"), 0
    value = min(5.0, max(3.2, rng.triangular(3.2, 5.0, 4.6)))
    count = int(400 * rng.random() ** 2.2 * min(1.0, 0.3 + days_old / 200)) + 1
    return Decimal(f"{value:.1f}"), min(count, 400)


def _days_old(rng: random.Random) -> int:
    return int(rng.random() * 31) if rng.random() < 0.15 else int(rng.random() * 366)


def _feel(rng: random.Random, style: Style, ctype: str) -> str | None:
    if "Blend" in style.name:
        return None
    pool = FABRIC_FEEL_OVERRIDE.get((ctype, style.fabric)) or FABRIC_FEEL[style.fabric]
    return _pick(rng, pool)


def _describe(rng: random.Random, style: Style, category: str, ctype: str, colour: str) -> str:
    """Compose 2-3 sentences: the style's hook plus detail / fabric / styling / care lines."""
    detail = _pick(rng, TYPE_DETAILS[ctype])
    feel = _feel(rng, style, ctype)
    styling = _pick(rng, TYPE_STYLING[ctype]).format(color=colour)
    care = _pick(rng, CARE[style.fabric])
    kids = _pick(rng, KIDS_NOTES) if category == "kids" else None

    middle = feel if feel and rng.random() < 0.45 else detail
    if kids:
        # Kids' listings skip grown-up styling lines (office, blazers, weddings...).
        closer_pool = [kids, kids, kids, care]
        if not _ADULT_WORDS.search(styling):
            closer_pool += [styling]
        else:
            styling = kids
    else:
        closer_pool = [styling, styling, care]
    closer = _pick(rng, closer_pool)
    pattern = rng.random()
    if pattern < 0.55:
        parts = [style.hook, middle, closer]
    elif pattern < 0.75:
        parts = [style.hook, middle]
    elif pattern < 0.9:
        parts = [style.hook, detail, feel or care]
    else:
        parts = [style.hook, closer]

    text = " ".join(parts)
    extras = [p for p in (detail, feel, styling, care, kids) if p and p not in parts]
    while len(text) < 150 and extras:
        parts.append(extras.pop(0))
        text = " ".join(parts)
    while len(text) > 400 and len(parts) > 2:
        parts.pop()
        text = " ".join(parts)
    return text


def _make_product(
    rng: random.Random, style: Style, category: str, ctype: str, colour: str, extra_pool: list[str], slug: str
) -> dict:
    colours = [colour]
    if extra_pool and rng.random() < 0.3:
        colours += rng.sample(extra_pool, min(len(extra_pool), _pick(rng, (1, 1, 2))))
    sizes = _sizes(rng, category, ctype)
    days_old = _days_old(rng)
    rating, rating_count = _rating(rng, days_old)
    return {
        "name": style.name,
        "slug": slug,
        "description": _describe(rng, style, category, ctype, colour),
        "price": _price(rng, style, category, ctype),
        "category": category,
        "clothing_type": ctype,
        "color": colour,
        "colors": colours,
        "sizes": sizes,
        "fabric": style.fabric,
        "season": style.season,
        "stock": _stock(rng, colours, sizes),
        "rating": rating,
        "rating_count": rating_count,
        "days_old": days_old,
        "featured": False,
    }


def _plan_demo() -> list[tuple[str, str, Style, str]]:
    """Decide (category, type, style, primary colour) for each demo listing, balancing colours."""
    type_counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    global_counts: dict[str, int] = defaultdict(int)
    plan: list[tuple[str, str, Style, str]] = []
    for category in CATEGORIES:
        for ctype in TYPES_FOR_CATEGORY[category]:
            styles = _styles_for(category, ctype)
            by_name = {s.name: s for s in styles}
            used: set[tuple[str, str]] = set()
            chosen: list[tuple[Style, str]] = []
            for name, colour in DEMO_FORCED.get((category, ctype), []):
                chosen.append((by_name[name], colour))
                used.add((name, colour))
                type_counts[ctype][colour] += 1
                global_counts[colour] += 1
            i = 0
            target = DEMO_COUNTS[category][ctype]
            while len(chosen) < target and i < target * 20:
                style = styles[i % len(styles)]
                i += 1
                palette = _palette(style, category, ctype)
                free = [c for c in palette if (style.name, c) not in used]
                if not free:
                    continue

                def score(c: str, ctype: str = ctype, palette: tuple[str, ...] = palette) -> float:
                    n = type_counts[ctype][c]
                    bonus = 12 if c in _NAVY_BLUE_BLACK and n < 2 else 0
                    return n * 3 + global_counts[c] * 0.25 + palette.index(c) * 0.6 - bonus

                colour = min(free, key=score)
                chosen.append((style, colour))
                used.add((style.name, colour))
                type_counts[ctype][colour] += 1
                global_counts[colour] += 1
            plan.extend((category, ctype, s, c) for s, c in chosen)
    return plan


def demo_products() -> list[dict]:
    """The demo catalog: at least 180 products, deterministic."""
    rng = random.Random(20240607)
    plan = _plan_demo()
    primaries: dict[tuple[str, str], set[str]] = defaultdict(set)
    for category, _ctype, style, colour in plan:
        primaries[(category, style.name)].add(colour)

    products: list[dict] = []
    seen_descriptions: set[str] = set()
    for category, ctype, style, colour in plan:
        palette = _palette(style, category, ctype)
        extra_pool = [c for c in palette if c not in primaries[(category, style.name)]]
        slug = f"{slugify(style.name)}-{colour}-{category}"
        product = _make_product(rng, style, category, ctype, colour, extra_pool, slug)
        for _ in range(10):  # same style in another colourway: don't repeat its text verbatim
            if product["description"] not in seen_descriptions:
                break
            product["description"] = _describe(rng, style, category, ctype, colour)
        seen_descriptions.add(product["description"])
        if category == "men" and ctype == "shirt" and colour == "white" and "L" in product["sizes"]:
            # Shoppers ask for "2 large white shirts": keep those reliably in stock.
            product["stock"]["white/L"] = max(product["stock"]["white/L"], 6 + rng.randint(0, 14))
        products.append(product)

    # Feature four well-rated products per category, each of a different type.
    for category in CATEGORIES:
        pool = [p for p in products if p["category"] == category and p["rating"] >= Decimal("4.2")]
        rng.shuffle(pool)
        seen_types: set[str] = set()
        for p in pool:
            if p["clothing_type"] not in seen_types:
                p["featured"] = True
                seen_types.add(p["clothing_type"])
            if len(seen_types) == 4:
                break
    return products


_GEN_CATEGORY_WEIGHTS = {"men": 36, "women": 40, "kids": 24}


def generate_products(count: int, seed: int = 7) -> list[dict]:
    """`count` plausible products for benchmarks (names may repeat across items, slugs must be unique)."""
    rng = random.Random(seed)
    combos: list[tuple[str, str, list[Style], list[tuple[str, ...]], list[str]]] = []
    weights: list[float] = []
    for category in CATEGORIES:
        total = sum(DEMO_COUNTS[category].values())
        for ctype in TYPES_FOR_CATEGORY[category]:
            styles = _styles_for(category, ctype)
            palettes = [_palette(s, category, ctype) for s in styles]
            slugs = [slugify(s.name) for s in styles]
            combos.append((category, ctype, styles, palettes, slugs))
            weights.append(_GEN_CATEGORY_WEIGHTS[category] * DEMO_COUNTS[category][ctype] / total)
    picks = rng.choices(range(len(combos)), weights=weights, k=count)

    products: list[dict] = []
    for index, combo_index in enumerate(picks, start=1):
        category, ctype, styles, palettes, slugs = combos[combo_index]
        k = rng.randrange(len(styles))
        style, palette = styles[k], palettes[k]
        # Earlier palette colours are a style's core colourways, so favour them.
        colour = palette[min(int(rng.random() ** 1.6 * len(palette)), len(palette) - 1)]
        extra_pool = [c for c in palette if c != colour]
        slug = f"{slugs[k]}-{colour}-{category}-{index}"
        product = _make_product(rng, style, category, ctype, colour, extra_pool, slug)
        product["featured"] = rng.random() < 0.065
        products.append(product)
    return products
