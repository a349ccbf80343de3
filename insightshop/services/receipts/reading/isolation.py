"""Reading untrusted receipt files in a child process, never in the caller's memory: an address-space cap
(RLIMIT_AS) set by the child on itself, and a wall-time limit enforced by the parent, which kills the child.

One child per process (started on first use, with `python -m`, so nothing of the parent is inherited: no
threads, no database connections), reused for the next readings so that the OCR engine loads once; it is
replaced after a kill, a memory error or MAX_READINGS readings. Requests and answers are JSON over pipes (the
answer is data, never a pickle: whatever a file does to the child, it cannot run code in the parent).

A reading that hits a cap becomes UnreadableDocument with a message for the owner, like any unreadable file.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import select
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

from ..document import ReceiptDocument, TextLine, TextSegment
from .errors import DocumentTooLarge, UnreadableDocument, UnsupportedDocument

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_SECONDS = 180.0
DEFAULT_MEMORY_MB = 3072  # OCR (ONNX Runtime) maps about 1.9 GB of address space at its peak
MAX_READINGS = 200  # then the child is replaced, returning whatever memory it kept
_HEADER = struct.Struct(">I")
_PROJECT_ROOT = str(Path(__file__).resolve().parents[4])  # the folder holding the insightshop package


class ReadingKilled(UnreadableDocument):
    """The reading ran out of its time or memory and was stopped."""


def read_isolated(data: bytes, content_type: str, filename: str | None = None, *,
                  timeout: float = DEFAULT_TIMEOUT_SECONDS, memory_mb: int = DEFAULT_MEMORY_MB) -> ReceiptDocument:  # fmt: skip
    """read_document(data, …) run in the reader child: the document, or the error read_document would raise."""
    with _lock:
        child = _child(memory_mb)
        try:
            answer = child.ask({"content_type": content_type, "filename": filename}, data, timeout)
        except TimeoutError:
            _stop(child)
            raise ReadingKilled(
                f"Reading this receipt took longer than {timeout:g} seconds, so it was stopped. Please upload a "
                "smaller photo or a shorter PDF.",
                reason="timeout",
            ) from None
        except (EOFError, OSError, ValueError) as error:  # the child died: killed by the kernel, crashed, aborted
            _stop(child)
            log.warning("the receipt reader process died: %r", error)
            raise _out_of_memory(memory_mb) from None
        child.readings += 1
        if answer.get("error", {}).get("kind") == "memory" or child.readings >= MAX_READINGS:
            _stop(child)
    if "error" in answer:
        raise _error_from(answer["error"], memory_mb)
    return _document_from(answer["document"])


def _out_of_memory(memory_mb: int) -> ReadingKilled:
    return ReadingKilled(
        f"Reading this receipt needed more than the {memory_mb} MB of memory a receipt may use, so it was stopped. "
        "Please upload a smaller photo or a simpler PDF.",
        reason="out_of_memory",
    )


class _Child:
    def __init__(self, memory_mb: int):
        self.memory_mb = memory_mb
        self.owner = os.getpid()
        self.readings = 0
        self.process = subprocess.Popen(
            [sys.executable, "-m", __name__, str(memory_mb)], env=_child_environment(),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True, start_new_session=True,
        )  # fmt: skip

    def alive(self) -> bool:
        return self.owner == os.getpid() and self.process.poll() is None

    def ask(self, header: dict, data: bytes, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        message = json.dumps(header).encode()
        self.process.stdin.write(_HEADER.pack(len(message)) + message + _HEADER.pack(len(data)))
        self.process.stdin.write(data)
        self.process.stdin.flush()
        size = _HEADER.unpack(self._read(_HEADER.size, deadline))[0]
        return json.loads(self._read(size, deadline))

    def _read(self, size: int, deadline: float) -> bytes:
        fd, chunks, left = self.process.stdout.fileno(), [], size
        while left:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                raise TimeoutError
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                raise EOFError("the reader process closed its output")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)


_lock = threading.Lock()
_current: _Child | None = None


def _child(memory_mb: int) -> _Child:
    global _current
    if _current is None or not _current.alive() or _current.memory_mb != memory_mb:
        if _current is not None and _current.owner == os.getpid():
            _stop(_current)
        _current = _Child(memory_mb)
    return _current


def _stop(child: _Child) -> None:
    global _current
    if child.owner == os.getpid():
        child.process.kill()
        child.process.wait()
        for pipe in (child.process.stdin, child.process.stdout):
            with contextlib.suppress(OSError):
                pipe.close()
    if _current is child:
        _current = None


def _child_environment() -> dict[str, str]:
    """Only what a reader needs: no secrets (keys, database URLs) for a file to reach through a decoder's bug."""
    kept = {name: value for name, value in os.environ.items()
            if name in _KEPT_ENVIRONMENT or name.startswith(("LC_", "OMP_", "ORT_"))}  # fmt: skip
    return kept | {"PYTHONPATH": _PROJECT_ROOT}


_KEPT_ENVIRONMENT = {"PATH", "HOME", "LANG", "TMPDIR", "TZ", "VIRTUAL_ENV", "PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE"}


def _error_from(error: dict, memory_mb: int) -> Exception:
    kind, message = error.get("kind"), error.get("message") or "The receipt could not be read."
    if kind == "memory":
        return _out_of_memory(memory_mb)
    if kind == "unsupported":
        return UnsupportedDocument(message, detected=error.get("detected") or "unknown")
    if kind == "too_large":
        return DocumentTooLarge(message)
    if kind == "unreadable":
        return UnreadableDocument(message, reason=error.get("reason") or "broken")
    return RuntimeError(f"reading the receipt failed: {message}")


def _document_to(document: ReceiptDocument) -> dict:
    return {
        "source": document.source,
        "pages": document.pages,
        "lines": [
            {"index": line.index, "text": line.text, "page": line.page, "bbox": line.bbox, "page_size": line.page_size,
             "confidence": line.confidence, "char_offset": line.char_offset,
             "segments": [[s.start, s.end, s.bbox, s.confidence] for s in line.segments]}
            for line in document.lines
        ],
    }  # fmt: skip


def _document_from(raw: dict) -> ReceiptDocument:
    def box(value):
        return tuple(float(x) for x in value) if value is not None else None

    lines = tuple(
        TextLine(index=line["index"], text=line["text"], page=line["page"], bbox=box(line["bbox"]),
                 page_size=tuple(line["page_size"]) if line["page_size"] is not None else None,
                 confidence=line["confidence"], char_offset=line["char_offset"],
                 segments=tuple(TextSegment(start, end, box(bbox), confidence)
                                for start, end, bbox, confidence in line["segments"]))
        for line in raw["lines"]
    )  # fmt: skip
    return ReceiptDocument(lines=lines, source=raw["source"], pages=raw["pages"])


def _answer(header: dict, data: bytes) -> dict:
    from . import read_document

    try:
        document = read_document(data, header.get("content_type") or "", header.get("filename"))
    except MemoryError:
        return {"error": {"kind": "memory"}}
    except UnsupportedDocument as error:
        return {"error": {"kind": "unsupported", "message": error.message, "detected": error.detected}}
    except DocumentTooLarge as error:
        return {"error": {"kind": "too_large", "message": error.message}}
    except UnreadableDocument as error:
        return {"error": {"kind": "unreadable", "message": error.message, "reason": error.reason}}
    except Exception as error:
        log.exception("reading a receipt failed in the reader process")
        return {"error": {"kind": "crash", "message": repr(error)[:500]}}
    return {"document": _document_to(document)}


def _serve(memory_mb: int) -> None:
    """The child: cap its own address space, then answer requests on stdin until it closes."""
    import resource

    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    requests = os.fdopen(os.dup(0), "rb")
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything a library prints goes to stderr, never into the answers
    while True:
        head = requests.read(_HEADER.size)
        if len(head) < _HEADER.size:
            return
        header = json.loads(requests.read(_HEADER.unpack(head)[0]))
        data = requests.read(_HEADER.unpack(requests.read(_HEADER.size))[0])
        answer = json.dumps(_answer(header, data), default=float).encode()
        answers.write(_HEADER.pack(len(answer)) + answer)
        answers.flush()


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    _serve(int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_MEMORY_MB)
