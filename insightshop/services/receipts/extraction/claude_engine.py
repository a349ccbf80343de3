"""The `claude` extraction engine: seed 000's agent workflow with the official anthropic SDK.

The model gets the receipt file (image or PDF) and the text read from it as numbered lines, and records what it reads
with three tools: extract_receipt_metadata, extract_line_items and validate_extraction (the shop runs seed 000's
rules on what was recorded). Validation errors go back to the model, which may correct them at most 3 times; then
the loop stops with the attempt that had the fewest errors. Every value is checked (claude_checks) and mapped back
onto the document as evidence (claude_evidence): a value the text does not contain keeps a low confidence.

When the API fails (status errors, overload, timeouts, a bad key) or the model gives no extraction (a refusal, an
answer cut short before anything was recorded), extract_with_claude raises Unavailable: the caller reads the
receipt with the offline engine instead.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Mapping
from datetime import date
from decimal import Decimal, InvalidOperation

import anthropic

from ...anthropic_client import anthropic_client, describe_failure
from ...errors import Unavailable
from ..document import ReceiptDocument, ReceiptExtraction
from ..prompts import RECEIPT_SYSTEM_PROMPT, correction_note
from ..validation import validate_extraction
from .claude_answer import Answer, record_items, record_metadata
from .claude_request import EPHEMERAL, receipt_content
from .claude_tools import TOOLS

log = logging.getLogger(__name__)

MAX_ROUNDS = 10  # requests per receipt: 3 tool steps, then up to 3 corrections of 2 steps each
MAX_CORRECTIONS = 3  # seed 000: validation failures go back to the model, max 3 retry attempts
MAX_TOKENS = 8192  # a long receipt's items fit; under the SDK's limit for requests that are not streamed
TIMEOUT = 120.0  # seconds per request: an image and a few thousand output tokens (the job runs in a worker)
SDK_RETRIES = 2  # 429, 5xx and timeouts, retried by the SDK with backoff
COMPARED = ("merchant_name", "purchase_date", "total_amount", "subtotal", "tax_amount")


def extract_with_claude(document: ReceiptDocument, *, source: bytes | None = None, content_type: str | None = None,
                        today: date | None = None, config: Mapping | None = None) -> ReceiptExtraction:  # fmt: skip
    """Extract a receipt with Claude (ANTHROPIC_MODEL) from its file and read text; engine = the model id.
    Raises Unavailable (details: kind) when Claude is not configured, fails or gives no extraction."""
    if config is None:
        from flask import current_app

        config = current_app.config
    if not config.get("ANTHROPIC_API_KEY"):
        raise Unavailable("Claude is not configured (ANTHROPIC_API_KEY)", details=[_detail("not_configured")])
    content = receipt_content(document, source, content_type)
    if not document.lines and len(content) == 1:  # no text and no file the API takes: nothing to read
        raise Unavailable("Claude has nothing to read in this receipt", details=[_detail("nothing_to_read")])
    return _Session(config, document, today or date.today()).run(content)


class _Session:
    """One receipt's tool loop: bounded rounds, each tool call answered, at most MAX_CORRECTIONS corrections."""

    def __init__(self, config: Mapping, document: ReceiptDocument, today: date):
        self.model = config["ANTHROPIC_MODEL"]
        self.client = anthropic_client(config, max_retries=SDK_RETRIES, timeout=TIMEOUT)
        self.document, self.today = document, today
        self.answer = Answer()
        self.attempts: list[tuple[int, Answer]] = []  # (errors, what was recorded) at each validation
        self.failed_validations = 0

    @property
    def corrections_used_up(self) -> bool:
        return self.failed_validations > MAX_CORRECTIONS

    def run(self, content: list[dict]) -> ReceiptExtraction:
        messages = [{"role": "user", "content": content}]
        for _ in range(MAX_ROUNDS):
            response = self._create(messages)
            uses = [block for block in response.content if block.type == "tool_use"]
            if response.stop_reason == "refusal":
                raise Unavailable("Claude declined to read this receipt", details=[_detail("refusal")])
            if response.stop_reason != "tool_use" or not uses:  # end_turn; max_tokens: a cut tool call never runs
                return self._finish(response.stop_reason)
            results = []
            for use in uses:
                results.append(self._result(use))
                if self.corrections_used_up:
                    return self._finish("corrections_used_up")
            messages.append({"role": "assistant", "content": [block.model_dump(exclude_none=True) for block in response.content]})  # fmt: skip
            messages.append({"role": "user", "content": results})
        return self._finish("max_rounds")

    def _create(self, messages: list[dict]):
        tools = TOOLS[:-1] + [{**TOOLS[-1], "cache_control": EPHEMERAL}]  # caches the tools and the system prompt
        system = [{"type": "text", "text": RECEIPT_SYSTEM_PROMPT, "cache_control": EPHEMERAL}]
        try:
            return self.client.messages.create(model=self.model, max_tokens=MAX_TOKENS, system=system, tools=tools,
                                               messages=messages)  # fmt: skip
        except anthropic.APIError as error:
            failure = describe_failure(error, self.model)
            log.warning(
                "Claude receipt extraction failed (%s, model %s): %s", failure.kind, self.model, failure.message
            )
            raise Unavailable(f"Claude could not read the receipt: {failure.message}",
                              details=[_detail(failure.kind, failure.detail)]) from error  # fmt: skip

    def _result(self, use) -> dict:
        """Run one tool call; its result goes back as data (JSON), never as instructions."""
        arguments = use.input if isinstance(use.input, dict) else {}
        if use.name == "extract_receipt_metadata":
            problems = record_metadata(self.answer, arguments, self.document, self.today)
            payload = {"recorded": _shown(self.answer.values), "problems": problems}
        elif use.name == "extract_line_items":
            problems = record_items(self.answer, arguments, self.document)
            payload = {"recorded_items": len(self.answer.items), "problems": problems}
        elif use.name == "validate_extraction":
            payload = self._validate(arguments.get("receipt_data"))
        else:
            payload = {"error": f"There is no tool {use.name!r}."}
        return {"type": "tool_result", "tool_use_id": use.id, "content": json.dumps(payload, default=str),
                "is_error": "error" in payload}  # fmt: skip

    def _validate(self, receipt_data) -> dict:
        """Seed 000's rules on what was recorded (the values the shop will keep), plus where the model's own
        receipt_data differs from them; errors count against the corrections."""
        checked = validate_extraction(self.answer.plain(), today=self.today)
        self.attempts.append((len(checked.errors), dataclasses.replace(self.answer)))
        result = checked.to_dict()
        result["warnings"] += differences(receipt_data, self.answer.plain())
        if checked.errors:
            self.failed_validations += 1
            result["next"] = correction_note(MAX_CORRECTIONS + 1 - self.failed_validations)
        return result

    def _finish(self, reason: str | None) -> ReceiptExtraction:
        if not (self.answer.metadata_recorded or self.answer.items_recorded):
            raise Unavailable(f"Claude gave no extraction ({reason})", details=[_detail(reason or "no_extraction")])
        answer = self.answer
        if reason == "corrections_used_up":  # the attempt with the fewest errors, the latest of equals
            answer = min(reversed(self.attempts), key=lambda attempt: attempt[0])[1]
        log.info("Claude receipt extraction finished (%s): %d items, %d failed validations", reason,
                 len(answer.items), self.failed_validations)  # fmt: skip
        return answer.extraction(self.model)


def differences(receipt_data, recorded: dict) -> list[str]:
    """Where the receipt_data the model validated differs from what it recorded."""
    if not isinstance(receipt_data, dict):
        return []
    said = [
        f"receipt_data.{name} {receipt_data.get(name)!r} is not the recorded {_plain(recorded[name])}; the recorded "
        "values are what is validated"
        for name in COMPARED
        if not _same(receipt_data.get(name), recorded[name])
    ]
    items = receipt_data.get("items") if isinstance(receipt_data.get("items"), list) else []
    if len(items) != len(recorded["items"]):
        said.append(f"receipt_data has {len(items)} items, {len(recorded['items'])} were recorded")
    return said


def _same(passed, recorded) -> bool:
    if passed in (None, "") or recorded is None:
        return passed in (None, "") and recorded is None
    if isinstance(recorded, Decimal):
        try:
            return Decimal(str(passed).strip()) == recorded
        except InvalidOperation:
            return False
    return str(passed).strip().casefold() == str(recorded).casefold()


def _shown(values: dict) -> dict:
    """What was recorded, as the model may read it back (null where a value was refused or absent)."""
    return {name: _plain(value.value) for name, value in values.items()}


def _plain(value):
    return None if value is None else str(value)


def _detail(kind: str, detail: str | None = None) -> dict:
    return {"engine": "claude", "kind": kind} | ({"detail": detail} if detail else {})
