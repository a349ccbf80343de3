"""Questions about a product's options: "what sizes does the grey hoodie come in?", "what colours does it come
in?", "is it in stock?", "do you have it in XL?".

The engine asks the shop (search_products) and answers from what comes back: each product's variants with their
stock. In this catalog a product is one colour; the same design in other colours is a sibling product of the same
name and department, so "what colours" answers from the siblings found."""

from __future__ import annotations

from dataclasses import dataclass

from ..replies import DEPARTMENTS

SHOWN = 3


@dataclass(frozen=True)
class OptionsQuestion:
    """What the shopper asked about, answered once the search result is in (see PlannedCall.then)."""

    aspect: str  # "sizes", "colors" or "stock"
    product_id: int | None = None  # the product the question refers to ("it"), when it refers to one
    color: str | None = None  # the colour asked about ("does it come in red?")
    size: str | None = None  # the size asked about ("do you have it in XL?")
    named: tuple[str, ...] | None = None  # the words the product was named by ("trench"): products so named first

    def __call__(self, result: dict) -> tuple[list, str]:
        products = [p for p in result.get("products") or [] if isinstance(p, dict)]
        if self.named:
            by_name = [
                p for p in products if set(self.named) <= set(str(p.get("name", "")).lower().replace("-", " ").split())
            ]
            products = by_name or products  # "the trench coat": the Belted Trench Coats, not a parka whose text says it
        if self.product_id is not None:
            target = next((p for p in products if p.get("id") == self.product_id), None)
            family = [p for p in products if target and _family(p) == _family(target)]
            products = [target, *(p for p in family if p is not target)] if target else []
        if not products:
            return [], "I couldn't find that product in the shop right now."
        if self.aspect == "colors":
            return [], _colors_answer(products, self.color)
        chosen = products[:1] if self.product_id is not None else products[:SHOWN]
        return [], " ".join(_sizes_answer(p, self.size, self.color) for p in chosen)

    def label(self) -> dict:
        return {"options": self.aspect,
                **{k: v for k, v in vars(self).items() if k not in ("aspect", "named") and v is not None}}  # fmt: skip


def _family(product: dict) -> tuple:
    return product.get("name"), product.get("category")


def _title(product: dict, color: str | None = None) -> str:
    details = [DEPARTMENTS.get(product.get("category"), ""), color]
    return f"{product['name']} ({', '.join(filter(None, details))})"


def _shade(product: dict, asked: str | None) -> str | None:
    """The colour an answer is about: the one asked for, else the one the search matched, else the product's own."""
    colors = {v.get("color") for v in product.get("variants") or []}
    for color in (asked, product.get("matched_color"), product.get("color")):
        if color and color in colors:
            return color
    return None


def _colors_in_stock(product: dict) -> list[str]:
    return list(dict.fromkeys(v["color"] for v in product.get("variants") or [] if (v.get("stock") or 0) > 0))


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _sizes_answer(product: dict, size: str | None, color: str | None) -> str:
    shade = _shade(product, color)
    variants = [v for v in product.get("variants") or [] if v.get("color") == shade]
    in_stock = [v["size"] for v in variants if (v.get("stock") or 0) > 0]
    sold_out = [v["size"] for v in variants if (v.get("stock") or 0) <= 0]
    title = _title(product, shade)
    if size:
        wanted = next((v for v in variants if v.get("size") == size), None)
        if wanted is None:
            return f"No — the {title} isn't made in {size}" + (
                f"; it comes in {_listed(in_stock)}." if in_stock else "."
            )
        if (wanted.get("stock") or 0) > 0:
            return f"Yes — the {title} is in stock in {size} ({wanted['stock']} left)."
        others = f"; in stock in {_listed(in_stock)}" if in_stock else ""
        return f"No — the {title} is sold out in {size}{others}."
    if not in_stock:
        return f"The {title} is sold out in every size."
    gone = f"; {_listed(sold_out)} {'is' if len(sold_out) == 1 else 'are'} sold out" if sold_out else ""
    return f"The {title} is in stock in {_listed(in_stock)}{gone}."


def _colors_made(product: dict) -> list[str]:
    return list(dict.fromkeys(v["color"] for v in product.get("variants") or [] if v.get("color")))


def _colors_answer(products: list[dict], color: str | None) -> str:
    """Each design's colours in stock, saying when it comes in one colour only and which colours are sold out."""
    families: dict[tuple, list[dict]] = {}
    for product in products:
        families.setdefault(_family(product), []).append(product)
    sentences = []
    for members in list(families.values())[:SHOWN]:
        colors = list(dict.fromkeys(c for p in members for c in _colors_in_stock(p)))
        made = list(dict.fromkeys(c for p in members for c in _colors_made(p)))
        sold_out = [c for c in made if c not in colors]
        title = _title(members[0])
        only = " only" if len(colors) == 1 else ""
        gone = f" ({_listed(sold_out)} {'is' if len(sold_out) == 1 else 'are'} sold out)" if sold_out and colors else ""
        if not colors:
            sentences.append(f"The {title} is sold out.")
        elif color and color in colors:
            sentences.append(f"Yes — the {title} comes in {_listed(colors)}{only}{gone}.")
        elif color and color in sold_out:
            sentences.append(f"The {title} is sold out in {color}; it comes in {_listed(colors)}{only}.")
        elif color:
            sentences.append(f"No — the {title} comes in {_listed(colors)}{only}{gone}.")
        else:
            sentences.append(f"The {title} comes in {_listed(colors)}{only}{gone}.")
    return " ".join(sentences)
