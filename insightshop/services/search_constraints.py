"""What a shopper asked the catalog for, as hard constraints, and how to say what a product misses.

Every stated constraint must hold for a product to be a match. When there are none or few, the closest
products come from relaxing one constraint at a time (then two), in RELAX_ORDER; each suggestion names
the constraints it misses (`unmet`) with a short reason a page or the assistant can show.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from itertools import combinations

from .vocabulary import CATEGORY_LABELS, CLOTHING_TYPE_LABELS

# Closest first: a dress over budget is nearer to "red dresses under $50" than a dress of another colour,
# which is nearer than a red skirt. Names are the ones the tools' `unmet` lists use ("query" = other words).
RELAX_ORDER = (
    "max_price", "min_price", "color", "size", "in_stock", "on_sale",
    "fabric", "season", "query", "category", "clothing_type",
)  # fmt: skip
FACET_NAMES = ("category", "clothing_type", "color", "size", "fabric", "season")

# Fewer matches than this and the closest other products are offered too.
SUGGEST_BELOW = 3
SUGGESTION_LIMIT = 6


@dataclass(frozen=True)
class Constraints:
    """Hard constraints: a facet is None when unconstrained, () when the text and a filter contradict each other."""

    terms: tuple[tuple[str, ...], ...] = ()
    category: tuple[str, ...] | None = None
    clothing_type: tuple[str, ...] | None = None
    color: tuple[str, ...] | None = None
    size: tuple[str, ...] | None = None
    fabric: tuple[str, ...] | None = None
    season: tuple[str, ...] | None = None
    min_price: Decimal | None = None
    max_price: Decimal | None = None
    on_sale: bool = False
    in_stock: bool = False
    # Exclusions hold for matches and suggestions alike (never relaxed): "not white", "nothing with wool".
    color_out: tuple[str, ...] = ()
    fabric_out: tuple[str, ...] = ()
    exclude_ids: tuple[int, ...] = ()

    def stated(self) -> list[str]:
        """The names of the constraints in force, closest-to-relax first."""
        return [name for name in RELAX_ORDER if self._is_stated(name)]

    def _is_stated(self, name: str) -> bool:
        if name == "query":
            return bool(self.terms)
        if name in FACET_NAMES:
            return getattr(self, name) is not None
        value = getattr(self, name)
        return value is not None and value is not False

    def relax(self, *names: str) -> Constraints:
        """The same constraints with some dropped."""
        changes: dict = {}
        for name in names:
            if name == "query":
                changes["terms"] = ()
            elif name in FACET_NAMES or name in ("min_price", "max_price"):
                changes[name] = None
            else:
                changes[name] = False
        return replace(self, **changes)

    def relaxations(self) -> list[list[tuple[str, ...]]]:
        """Phases of constraint sets to drop, closest first; a later phase is tried only when an earlier one found
        nothing: one constraint, then two, keeping the garment; only then another garment."""
        stated = self.stated()
        keep_type = [name for name in stated if name != "clothing_type"]
        phases = [[(name,) for name in keep_type], list(combinations(keep_type, 2))]
        if "clothing_type" in stated:
            phases.append([("clothing_type",), *(("clothing_type", name) for name in keep_type)])
        return [phase for phase in phases if phase]


def money_words(amount: Decimal) -> str:
    """$50 for whole amounts, $49.99 otherwise."""
    return f"${amount:.0f}" if amount == amount.to_integral_value() else f"${amount:.2f}"


def _plural(kind: str) -> str:
    return CLOTHING_TYPE_LABELS.get(kind, kind).lower()


def describe(wanted: Constraints) -> str:
    """The request in words: "red women's dresses in size M under $50"."""
    words = []
    if wanted.in_stock:
        words.append("in-stock")
    if wanted.color:
        words.append(" or ".join(wanted.color))
    if wanted.category:
        words.append(" or ".join(_possessive(c) for c in wanted.category))
    kinds = " or ".join(_plural(k) for k in wanted.clothing_type or ())
    words.append(kinds or "products")
    if wanted.terms:
        words.append("matching “" + terms_text(wanted) + "”")
    if wanted.fabric:
        words.append("in " + " or ".join(wanted.fabric))
    if wanted.season:
        words.append("for " + " or ".join(wanted.season))
    if wanted.size:
        words.append("in size " + " or ".join(wanted.size))
    if wanted.on_sale:
        words.append("on sale")
    words.append(_price_words(wanted.min_price, wanted.max_price))
    words.append(_ruled_out_words(wanted))
    if any(value == () for value in (wanted.category, wanted.clothing_type, wanted.color, wanted.size)):
        words.append("(the search words and the filters ask for different things)")
    return " ".join(w for w in words if w)


def _ruled_out_words(wanted: Constraints) -> str:
    ruled_out = (*wanted.color_out, *wanted.fabric_out)
    return "(no " + " or ".join(ruled_out) + ")" if ruled_out else ""


def _possessive(category: str) -> str:
    return {"men": "men's", "women": "women's", "kids": "kids'"}.get(category, category)


def _price_words(low: Decimal | None, high: Decimal | None) -> str:
    if low is not None and high is not None:
        return f"between {money_words(low)} and {money_words(high)}"
    if high is not None:
        return f"under {money_words(high)}"
    if low is not None:
        return f"over {money_words(low)}"
    return ""


def terms_text(wanted: Constraints) -> str:
    return " ".join(group[-1].rstrip("*") if group[-1].endswith("*") else group[0] for group in wanted.terms)


def matched_color(product, wanted: Constraints) -> str:
    """The colour to show a product in: the first of its colours the shopper asked for, else its own."""
    for color in wanted.color or ():
        if color in product.available_colors:
            return color
    return product.color


def unmet_reasons(product, unmet: list[str], wanted: Constraints) -> list[str]:
    """Short words for what a suggested product misses: "over $50", "navy, not red"."""
    return [REASONS[name](product, wanted) for name in unmet if name in REASONS]


def _garment(kind: str) -> str:
    """ "a dress", "a t-shirt", but "jeans", "socks"."""
    return kind if kind.endswith("s") else f"a {kind}"


def _either(values) -> str:
    return " or ".join(values or ())


REASONS = {
    "max_price": lambda p, w: f"over {money_words(w.max_price)}",
    "min_price": lambda p, w: f"under {money_words(w.min_price)}",
    "color": lambda p, w: f"{'/'.join(p.available_colors[:3])}, not {_either(w.color) or 'that colour'}",
    "clothing_type": lambda p, w: f"{_garment(p.clothing_type)}, not {_either(map(_garment, w.clothing_type or ()))}",
    "category": lambda p, w: (
        f"{CATEGORY_LABELS.get(p.category, p.category)}, not {_either(CATEGORY_LABELS.get(c, c) for c in w.category or ())}"
    ),
    "size": lambda p, w: f"no {_either(w.size)} in stock",
    "in_stock": lambda p, w: "out of stock",
    "on_sale": lambda p, w: "not on sale",
    "query": lambda p, w: f"doesn't mention “{terms_text(w)}”",
    "fabric": lambda p, w: f"{p.fabric or 'another fabric'}, not {_either(w.fabric)}",
    "season": lambda p, w: f"{p.season or 'another season'}, not {_either(w.season)}",
}
