"""Acts for the shopper intents (see acts/__init__.py): a message becomes edits to the brief's search frame
(brief.py) plus one search, for what the phrase rules cannot read — needs and occasions ("something smart for a
christening"), materials ruled out ("nothing with wool, I react to it") and let back in ("wool is fine now"),
follow-ups on the list just shown ("any cheaper ones?", "what about in green", "more like the second one").
Anything else returns None and the rules answer; apply_brief() then reads their search back into the brief and
keeps its standing exclusions on it. Words are data (data/lexicons/{needs,materials,colours,brief_words}.json).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from ....services.vocabulary import COLORS, normalise_color
from .. import brief, sizes
from ..rules import ADD, ORDINALS, Interpretation, Msg, PlannedCall
from . import act

TOKEN = re.compile(r"\$?\d+(?:\.\d+)?(?:st|nd|rd|th)?|[a-z][a-z']*|[,;.!?]")
BOUNDARY = {",", ";", ".", "!", "?"}
DEPARTMENTS = {"men": "Men's", "women": "Women's", "kids": "Kids'"}
SHOWN = 3
PAGE = 10  # results per search (the executor's page size)


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text.lower().replace("-", " ").replace("’", "'"))


def _near(word: str, cue: str) -> bool:
    """One letter added, dropped, changed or two swapped (words of 6+ letters only)."""
    if word == cue:
        return True
    if min(len(word), len(cue)) < 6 or abs(len(word) - len(cue)) > 1:
        return False
    if len(word) == len(cue):
        diff = [i for i, (a, b) in enumerate(zip(word, cue, strict=True)) if a != b]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and word[diff[0]] == cue[diff[1]]
                                  and word[diff[1]] == cue[diff[0]])  # fmt: skip
    short, long = sorted((word, cue), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


class Phrases:
    """Phrases (as word tuples) → a value, longest first; single words of 6+ letters also match within a typo.
    Indexed by first and last word, so a message is read in a fraction of a millisecond."""

    def __init__(self, rows: dict[tuple[str, ...], str]):
        self.table = tuple(sorted(rows.items(), key=lambda row: -len(row[0])))
        self.by_first: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        self.by_last: dict[str, list[tuple[str, ...]]] = {}
        for phrase, value in self.table:
            self.by_first.setdefault(phrase[0], []).append((phrase, value))
            self.by_last.setdefault(phrase[-1], []).append(phrase)
        self.singles = tuple((p[0], v) for p, v in self.table if len(p) == 1 and len(p[0]) >= 6)
        self._near_cache: dict[str, str | None] = {}

    @classmethod
    def of(cls, mapping: dict[str, str]) -> Phrases:
        return cls({tuple(tokens(p)): v for p, v in mapping.items() if tokens(p)})

    def near(self, word: str) -> str | None:
        """The value of a single-word phrase within one typo of this word (6+ letters)."""
        if len(word) < 6:
            return None
        if word not in self._near_cache:
            if len(self._near_cache) > 20_000:  # words people type are unbounded: the cache is not
                self._near_cache.clear()
            self._near_cache[word] = next((v for cue, v in self.singles if _near(word, cue)), None)
        return self._near_cache[word]

    def find(self, words: list[str]) -> list[tuple[int, int, str]]:
        """(start, end, value) of each phrase found, left to right, not overlapping."""
        found, index = [], 0
        while index < len(words):
            hit = next(((index + len(p), v) for p, v in self.by_first.get(words[index], ())
                        if tuple(words[index : index + len(p)]) == p), None)  # fmt: skip
            if hit is None and (value := self.near(words[index])) is not None:
                hit = (index + 1, value)
            if hit is None:
                index += 1
                continue
            found.append((index, *hit))
            index = hit[0]
        return found

    def ends_at(self, words: list[str], end: int) -> bool:
        if end <= 0:
            return False
        return any(
            end >= len(p) and tuple(words[end - len(p) : end]) == p for p in self.by_last.get(words[end - 1], ())
        )

    def starts_at(self, words: list[str], start: int) -> bool:
        if start >= len(words):
            return False
        return any(tuple(words[start : start + len(p)]) == p for p, _ in self.by_first.get(words[start], ()))


@cache
def words_table(name: str) -> Phrases:
    return Phrases.of(dict.fromkeys(brief.lexicon("brief_words")[name], name))


@cache
def material_phrases() -> Phrases:
    table = brief.lexicon("materials")["materials"]
    return Phrases.of({word: name for name, row in table.items() for word in [name, *row["words"]]})


@cache
def need_phrases() -> Phrases:
    return Phrases.of({cue: name for name, row in brief.needs().items() for cue in row["cues"]})


@cache
def skip_words() -> frozenset[str]:
    return frozenset(brief.lexicon("brief_words")["skip"]) | {"s", "'s", "is", "are", "now", "actually", "totally"}


# Reading a message ---------------------------------------------------------------------------------------------------


@dataclass
class Reading:
    """What one message says to the brief."""

    colors_in: list[str] = field(default_factory=list)
    colors_out: list[str] = field(default_factory=list)
    materials_in: list[str] = field(default_factory=list)
    materials_out: list[str] = field(default_factory=list)
    lifted: list[str] = field(default_factory=list)  # colours or materials let back in
    needs: list[str] = field(default_factory=list)
    cheaper: bool = False
    pricier: bool = False
    similar: bool = False
    refine: bool = False
    more: bool = False
    ordinal: int | None = None

    @property
    def edits_materials(self) -> bool:
        return bool(self.materials_out or set(self.lifted) & set(brief.lexicon("materials")["materials"]))


def read(text: str) -> Reading:
    """The brief's edits in one message: colours and materials wanted, ruled out or let back in, needs, and the
    follow-up cues (cheaper, pricier, more like one of the list, another colour of the same)."""
    words = tokens(text)
    reading = Reading()
    mentions = [(s, e, "material", v) for s, e, v in material_phrases().find(words)]
    mentions += [(i, i + 1, "colour", c) for i, w in enumerate(words) if (c := normalise_color(w)) and c in COLORS]
    for start, end, kind, value in sorted(mentions):
        if _lifted(words, start, end):
            reading.lifted.append(value)
        elif _excluded(words, start):
            (reading.materials_out if kind == "material" else reading.colors_out).append(value)
        else:
            (reading.materials_in if kind == "material" else reading.colors_in).append(value)
    for word, groups in brief.lexicon("brief_words")["implied_exclusions"].items():
        if _has(words, tokens(word)):
            reading.materials_out += [g for g in groups if g not in reading.materials_out]
    reading.needs = list(dict.fromkeys(v for _s, _e, v in need_phrases().find(words)))
    reading.needs.sort(key=list(brief.needs()).index)
    reading.cheaper = bool(words_table("cheaper").find(words))
    reading.pricier = bool(words_table("pricier").find(words))
    reading.similar = bool(words_table("similar").find(words))
    reading.refine = bool(words_table("refine").find(words))
    reading.more = bool(words_table("more_results").find(words))
    reading.ordinal = next((ORDINALS[w] for w in words if w in ORDINALS), None)
    for listed in (reading.colors_in, reading.colors_out, reading.materials_in, reading.materials_out):
        listed[:] = list(dict.fromkeys(listed))
    return reading


def _has(words: list[str], phrase: list[str]) -> bool:
    return any(words[i : i + len(phrase)] == phrase for i in range(len(words) - len(phrase) + 1))


def _excluded(words: list[str], start: int) -> bool:
    """A mention ruled out by the words before it ("not white", "nothing with wool", "no wool or cashmere") or
    after it ("wool-free"); mentions listed together share their cue."""
    index, skipped = start, 0
    exclude, skip = words_table("exclude"), skip_words()
    while index > 0 and skipped <= 4:
        if exclude.ends_at(words, index):
            return True
        word = words[index - 1]
        if word in BOUNDARY or (word not in skip and not _mention(word)):
            break
        index, skipped = index - 1, skipped + 1
    after = start + 1
    while after < len(words) and (words[after] in skip or _mention(words[after])) and after < start + 4:
        after += 1
    return words_table("exclude_after").starts_at(words, start + 1) or words_table("exclude_after").starts_at(
        words, after
    )


def _lifted(words: list[str], start: int, end: int) -> bool:
    """ "wool is fine now", "happy with wool again", "white is ok after all"."""
    after = end
    while after < len(words) and words[after] in {"is", "are", "s", "'s", "actually", "totally", "now", "really"}:
        after += 1
    if words_table("lift").starts_at(words, after) and (
        after > end or words[after : after + 1] != ["ok"] or end == len(words) - 1
    ):
        return True
    before = start
    while not words_table("lift_before").ends_at(words, before):
        if before == 0 or words[before - 1] not in {"with", "in", "the", "a", "some", "any", "wearing", "again"}:
            return False
        before -= 1
    return True


def _mention(word: str) -> bool:
    color = normalise_color(word)
    return bool(color and color in COLORS) or word in material_phrases().by_first or bool(material_phrases().near(word))


# The acts ------------------------------------------------------------------------------------------------------------


@cache
def not_mine() -> Phrases:
    """Words that make a message another act's (cart, orders, policies, admin changes): the rules or its act answer."""
    return Phrases.of(dict.fromkeys(brief.lexicon("brief_words")["other_acts"], "other"))


@act("product_search", "refine_results")
def shop(request, guess) -> Interpretation | None:
    """Search or refine by the brief, or None for the rules (also when the message is another act's)."""
    if request.pending or not request.plain.strip():
        return None
    words = tokens(request.plain)
    if _other_act(words):
        return None
    reading = read(request.plain)
    context = request.context
    saved = brief.load(context)
    frame = saved["frame"]
    msg = Msg(re.sub(r"(?<=[a-z])'s\b", "", request.norm.text))  # "my wife's birthday": the department is the wife's
    listed = context.get("last_shown") if context.get("last_action") == "search_products" else None
    listed = listed if isinstance(listed, list) and listed else None
    if listed and _follows_the_list(reading, msg, frame, listed):
        return _on_the_list(request, saved, listed, reading, msg)
    if reading.needs and not (msg.types or msg.product_ids or request.is_admin) and (_shopping(words) or msg.category):
        return _need_search(request, saved, reading, msg)  # a garment named: the rules search for it and its words
    if reading.edits_materials and (msg.types or listed or frame):
        return _material_edit(request, saved, reading, msg)
    if reading.materials_out and not (msg.types or msg.colors or msg.category or msg.product_ids):
        return _noted(request, saved, reading)  # "I'm allergic to wool": kept for every search to come
    if listed and _brief_only(frame) and (reading.colors_in or reading.lifted) and not _new_garment(msg, frame):
        edited = _edited(frame, reading, msg)
        return _search(request, saved, edited)
    if listed and frame and not _new_garment(msg, frame) and not msg.has(ADD) and not _picks(words):
        return _size_edit(request, saved, reading, msg)
    return None


def _picks(words: list[str]) -> bool:
    """ "the navy ones in 34", "them in a 10": a pick from the list (the rules'), not the list again in a size."""
    return bool(words_table("picked").find(words))


def _size_edit(request, saved: dict, reading: Reading, msg: Msg) -> Interpretation | None:
    """ "the same in a 10", "any in medium?": the list again in that size, a numeric size read through the size
    guide for the garment and department of the brief (the reply says how it was read)."""
    frame = saved["frame"]
    kinds = frame.get("types") or []
    said = None
    size = msg.size
    if not size:
        kind = kinds[0] if len(kinds) == 1 else None
        department = msg.category or frame.get("department")
        adults = None if department else sizes.making(request, kind, None)  # a dress "10" is no 10-year-old's
        found = sizes.resolve(request.norm.text, department, kind, departments=adults)
        if found is None:
            return None
        size, said = found
    edited = {**_edited(frame, reading, msg), "size": size}
    result = _search(request, saved, edited)
    if said:
        result.context["offline_note"] = f"In our size guide {said}."
    return result


def _shopping(words: list[str]) -> bool:
    """A need to dress for ("something for football"), not one said in passing ("who won the football?")."""
    return bool(words_table("shopping").find(words))


def _other_act(words: list[str]) -> bool:
    """Exact words only: a typo of "order" is no reason to leave a search to the rules."""
    table = not_mine()
    return any(table.starts_at(words, i) for i in range(len(words)))


def _new_garment(msg: Msg, frame: dict) -> bool:
    return bool(msg.types) and not set(msg.types) <= set(frame.get("types", []))


def _brief_only(frame: dict) -> bool:
    """A frame the rules' own follow-ups cannot carry (several garments or colours, needs, exclusions)."""
    return bool(frame.get("needs") or len(frame.get("types", [])) > 1 or len(frame.get("colors", [])) > 1
                or frame.get("colors_out") or frame.get("materials_out") or frame.get("exclude_ids"))  # fmt: skip


def _edited(frame: dict, reading: Reading, msg: Msg) -> dict:
    """The frame with this message's edits: colours and materials in or out (a colour wanted leaves the ruled-out
    list), department, size, prices, sale."""
    frame = dict(frame)
    if reading.colors_in:
        frame["colors"] = list(reading.colors_in)
    out = [c for c in frame.get("colors_out", []) if c not in reading.colors_in and c not in reading.lifted]
    frame["colors_out"] = list(dict.fromkeys(out + reading.colors_out))
    if reading.materials_in:
        frame["materials"] = list(reading.materials_in)
    kept = [m for m in frame.get("materials_out", []) if m not in reading.materials_in and m not in reading.lifted]
    frame["materials_out"] = list(dict.fromkeys(kept + reading.materials_out))
    frame["materials"] = [m for m in frame.get("materials", []) if m not in frame["materials_out"]]
    if msg.types:
        frame["types"] = list(dict.fromkeys(msg.types))
    if msg.category:
        frame["department"] = msg.category
    for key, value in (("size", msg.size), ("max_price", msg.max_price), ("min_price", msg.min_price)):
        if value:
            frame[key] = value
    if msg.max_price:
        frame.pop("under", None)
    if msg.on_sale:
        frame["on_sale"] = True
    frame.pop("exclude_ids", None)
    frame.pop("page", None)
    return {key: value for key, value in frame.items() if value not in (None, [], "")}


def _need_search(request, saved: dict, reading: Reading, msg: Msg) -> Interpretation:
    """ "something smart for a christening, I'm a man": a new frame from the need, with what the message adds."""
    frame = brief.new_frame(saved["frame"], needs=reading.needs, department=msg.category)
    return _search(request, saved, _edited(frame, reading, msg))


def _material_edit(request, saved: dict, reading: Reading, msg: Msg) -> Interpretation:
    """ "a cardigan but nothing with wool" (a new frame), "not wool" / "wool is fine now" (the same frame edited)."""
    frame = saved["frame"]
    if _new_garment(msg, frame) or not frame:
        frame = brief.new_frame(frame)
    return _search(request, saved, _edited(frame, reading, msg))


def _noted(request, saved: dict, reading: Reading) -> Interpretation:
    frame = dict(saved["frame"])
    frame["materials_out"] = list(dict.fromkeys([*frame.get("materials_out", []), *reading.materials_out]))
    fabrics = brief.fabrics_of(reading.materials_out)
    said = ", ".join(fabrics[:-1]) + (" or " if len(fabrics) > 1 else "") + fabrics[-1]
    context = brief.save(dict(request.context), {**saved, "frame": frame})
    return Interpretation(reply=f"Noted — I'll leave out anything made of {said} from now on. What are you looking for?",
                          context=context)  # fmt: skip


def _follows_the_list(reading: Reading, msg: Msg, frame: dict, listed: list) -> bool:
    """The next page, more like one of the list, or cheaper / pricier than it."""
    return bool(_wants_more(reading, msg) or reading.similar and (reading.ordinal is not None or len(listed) == 1)
                or (reading.cheaper or reading.pricier) and not _new_garment(msg, frame))  # fmt: skip


def _on_the_list(request, saved: dict, listed: list, reading: Reading, msg: Msg) -> Interpretation | None:
    if _wants_more(reading, msg):
        return _next_page(request, saved)
    if reading.similar and (reading.ordinal is not None or len(listed) == 1):
        return _more_like(request, saved, listed, reading, msg)
    return _price_step(request, saved, listed, reading, msg)


def _wants_more(reading: Reading, msg: Msg) -> bool:
    return reading.more and not (reading.similar or reading.cheaper or reading.pricier) and _only_more(msg, reading)


def _only_more(msg: Msg, reading: Reading) -> bool:
    """ "show me more", "any more?": the next results of the same search, nothing else asked for."""
    edits = (reading.colors_in, reading.colors_out, reading.materials_in, reading.materials_out, reading.needs)
    asked = (msg.types, msg.category, msg.size, msg.max_price, msg.min_price, msg.product_ids, msg.has(ADD))
    return not any(edits) and not any(asked)


def _next_page(request, saved: dict) -> Interpretation:
    """The next ten results of the search the brief holds (the frame unchanged, its page one further)."""
    frame = {**saved["frame"], "page": int(saved["frame"].get("page") or 1) + 1}
    result = _search(request, saved, frame)
    result.calls[0].then = NextPage(brief.describe(frame), frame["page"])
    return result


def _price_step(request, saved: dict, listed: list[dict], reading: Reading, msg: Msg) -> Interpretation:
    """ "any cheaper ones?": below the cheapest shown, cheapest first; "pricier?": above the dearest shown."""
    frame = _edited(saved["frame"], reading, msg)
    prices = [p["price"] for p in listed if isinstance(p.get("price"), (int, float))]
    if not prices:
        return None
    if reading.cheaper and not msg.max_price:
        cheapest = min(prices)
        frame.update(max_price=round(cheapest - 0.01, 2), under=cheapest, sort="price_low")
        frame.pop("min_price", None)
    elif reading.pricier and not msg.min_price:
        frame.update(min_price=round(max(prices) + 0.01, 2), sort="price_low")
        frame.pop("max_price", None)
        frame.pop("under", None)
    return _search(request, saved, frame)


def _more_like(request, saved: dict, listed: list[dict], reading: Reading, msg: Msg) -> Interpretation | None:
    """ "more like the second one": the same garment, department and colour family, that one left out."""
    index = reading.ordinal if reading.ordinal is not None else 0
    if not -len(listed) <= index < len(listed):
        return None
    shown = listed[index]
    product = request.vocabulary.by_id.get(shown.get("id"))
    kind = product.clothing_type if product else None
    colors = list(shown.get("colors") or (product.colors if product else ()))
    if not kind or not colors:
        return None
    frame = brief.new_frame(saved["frame"], types=[kind], department=shown.get("category"),
                            colors=brief.colour_family(colors[0]), exclude_ids=[shown["id"]])  # fmt: skip
    frame["colors_out"] = [c for c in saved["frame"].get("colors_out", []) if c not in frame["colors"]]
    return _search(request, saved, frame, like=shown.get("name"))


def _search(request, saved: dict, frame: dict, *, like: str | None = None) -> Interpretation:
    """One search for the frame; the brief and the rules' memory of the search updated; the reply from the result."""
    frame = {key: value for key, value in frame.items() if value not in (None, [], "")}
    saved = {**saved, "frame": frame}
    context = {k: v for k, v in request.context.items() if k not in ("pending", "excluded_colour")}
    context = brief.save(context, saved)
    context.update(last_action="search_products", last_search=brief.legacy_parts(frame))
    arguments = brief.search_arguments(frame)
    return Interpretation(calls=[PlannedCall("search_products", arguments, then=BriefReply(brief.describe(frame), like))],
                          context=context)  # fmt: skip


# The reply -----------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BriefReply:
    """The reply from the search's result, honest about what matched: the brief in words, the products that meet it,
    or that none do and the closest ones with what each misses. No internal text (argument names, ids)."""

    described: str
    like: str | None = None

    def label(self) -> dict:
        """The reply's brief, for the labelled corpus."""
        return {"brief": self.described}

    def __call__(self, result: dict) -> tuple[list, str]:
        products, suggestions = result.get("products") or [], result.get("suggestions") or []
        total = (result.get("pagination") or {}).get("total", len(products))
        lead = f"More like the {self.like} — {self.described}" if self.like else _capitalised(self.described)
        if products:
            listed = "; ".join(_words(p) for p in products[:SHOWN])
            more = f" (and {total - SHOWN} more)" if total > SHOWN else ""
            return [], f"{lead}: here {'is the one match' if total == 1 else f'are {total}'} — {listed}{more}."
        if suggestions:
            closest = "; ".join(
                f"{_words(s)} ({', '.join(s.get('unmet_reasons') or ['close'])})" for s in suggestions[:SHOWN]
            )
            return [], f"{lead}: I have nothing that fits all of that. The closest: {closest}."
        return (
            [],
            f"{lead}: I have nothing that fits all of that, nor anything close. Try fewer details or a wider budget.",
        )


@dataclass(frozen=True)
class NextPage:
    """The reply to "show me more": the next results, or that every match was shown already."""

    described: str
    page: int

    def label(self) -> dict:
        return {"brief": self.described, "page": self.page}

    def __call__(self, result: dict) -> tuple[list, str]:
        products = result.get("products") or []
        total = (result.get("pagination") or {}).get("total", 0)
        if not products:
            every = "the one match" if total == 1 else f"all {total} matches"
            return (
                [],
                f"That's {every} for {self.described} — nothing more to show. Want me to widen it or change something?",
            )
        shown_before = (self.page - 1) * PAGE
        left = total - shown_before - len(products)
        listed = "; ".join(_words(p) for p in products[:SHOWN])
        more = f" ({left} more after these)" if left > 0 else " — that's the last of them"
        return (
            [],
            f"More {self.described}, {shown_before + 1}–{shown_before + len(products)} of {total}: {listed}{more}.",
        )


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def _words(product: dict) -> str:
    color = product.get("matched_color") or product.get("color")
    return ", ".join(filter(None, [product.get("name"), DEPARTMENTS.get(product.get("category"), ""), color,
                                   f"${product.get('price')}"]))  # fmt: skip


# The rules' searches, read back into the brief ------------------------------------------------------------------------


def apply_brief(result: Interpretation, request) -> Interpretation:
    """A search the rules planned, read back into the brief. After a list the rules' own memory cannot carry (a need,
    exclusions, several garments) a search for the same kind of thing edits that frame ("sort them by price", "what
    about for women"); another search starts a new frame. A material ruled out holds for every search."""
    searches = [c for c in result.calls if c.name == "search_products" and not isinstance(c.then, BriefReply)]
    if len(searches) != 1 or len(result.calls) != 1:
        return result
    planned = searches[0]
    saved = brief.load(request.context)
    previous = saved["frame"]
    read_back = brief.frame_from_arguments(planned.arguments)
    ruled_now = list(request.notes.get("without_colours") or ())
    if result.context.get("excluded_colour"):
        ruled_now.append(result.context["excluded_colour"])
    if _continues(previous, read_back, request):
        frame = {
            key: value for key, value in previous.items() if key not in ("exclude_ids", "under", "page")
        } | read_back
        frame["colors_out"] = [
            c for c in [*previous.get("colors_out", []), *ruled_now] if c not in frame.get("colors", [])
        ]
        frame = {key: value for key, value in frame.items() if value not in (None, [], "")}
        arguments = brief.search_arguments(frame)
        then = planned.then or BriefReply(brief.describe(frame))
    else:
        frame = brief.new_frame(previous, **read_back)
        if ruled_now:
            frame["colors_out"] = list(dict.fromkeys(ruled_now))
        arguments, then = dict(planned.arguments), planned.then
        fabrics = brief.fabrics_of(frame.get("materials_out", []))
        if fabrics:
            arguments["exclude_materials"] = list(dict.fromkeys([*arguments.get("exclude_materials", []), *fabrics]))
    if arguments != planned.arguments or then is not planned.then:
        result.calls[0] = PlannedCall(planned.name, arguments, planned.after_success, then)
    result.context = brief.save(result.context, {**saved, "frame": frame})
    return result


def _continues(previous: dict, read_back: dict, request) -> bool:
    """The rules' search edits the previous frame: it followed a list of that frame, the frame holds what the rules
    cannot carry, and it asks for no other kind of garment."""
    if request.context.get("last_action") != "search_products" or not _brief_only(previous):
        return False
    needed = [t for n in previous.get("needs", []) for t in brief.needs().get(n, {}).get("types", [])]
    scope = set(previous.get("types") or needed)
    return not scope or set(read_back.get("types", [])) <= scope
