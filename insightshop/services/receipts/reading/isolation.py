"""Reading untrusted receipt files in a child process, never in the caller's memory: an address-space cap
(RLIMIT_AS) set by the child on itself, and a wall-time limit enforced by the parent, which kills the child.

One child per process (started on first use, with `python -m`, so nothing of the parent is inherited: no
threads, no database connections), reused for the next readings so that the OCR engine loads once; it is
replaced after a kill, a memory error or MAX_READINGS readings. Requests and answers are JSON over pipes (the
answer is data, never a pickle: whatever a file does to the child, it cannot run code in the parent).

A reading that hits a cap becomes UnreadableDocument with a message for the owner, like any unreadable file.

Across the machine at most `slots` readings run at once, whatever the number of app and queue worker processes:
a reading first takes one of `slots` flock()ed files in `slots_dir` (the app's instance folder), waiting at most
`wait` seconds for one, and fails with ReadersBusy when none frees up. Image downscaling for the model
(downscale_isolated) runs in the same child under the same caps. The child also caps its CPU time per reading
(RLIMIT_CPU), exits when its parent process is gone (it checks every second, even mid-reading), and exits after
`idle_seconds` unused, so an idle worker process does not keep the OCR model resident.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import json
import logging
import os
import select
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from ..document import ReceiptDocument, TextLine, TextSegment
from .errors import DocumentTooLarge, UnreadableDocument, UnsupportedDocument

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT_SECONDS = 180.0
DEFAULT_MEMORY_MB = 3072  # OCR (ONNX Runtime) maps about 1.9 GB of address space at its peak
MAX_READINGS = 200  # then the child is replaced, returning whatever memory it kept
DEFAULT_SLOTS = 2  # readings at once on the machine (RECEIPT_READERS_PER_MACHINE)
DEFAULT_WAIT_SECONDS = 600.0  # how long a reading waits for a free slot before it fails
DEFAULT_IDLE_SECONDS = 300.0  # a child unused this long exits
CPU_SECONDS_PER_WALL_SECOND = 2  # RLIMIT_CPU per reading: its wall-time limit times this (threads add up)
PARENT_CHECK_SECONDS = 1.0
_HEADER = struct.Struct(">I")
_PROJECT_ROOT = str(Path(__file__).resolve().parents[4])  # the folder holding the insightshop package


class ReadingKilled(UnreadableDocument):
    """The reading ran out of its time or memory and was stopped."""


class ReadersBusy(UnreadableDocument):
    """Every reading slot of the machine stayed taken for as long as a reading may wait."""


def read_isolated(data: bytes, content_type: str, filename: str | None = None, *,
                  timeout: float = DEFAULT_TIMEOUT_SECONDS, memory_mb: int = DEFAULT_MEMORY_MB,
                  slots_dir: str | None = None, slots: int = DEFAULT_SLOTS, wait: float = DEFAULT_WAIT_SECONDS,
                  idle_seconds: float = DEFAULT_IDLE_SECONDS) -> ReceiptDocument:  # fmt: skip
    """read_document(data, …) run in the reader child: the document, or the error read_document would raise."""
    answer = _run({"content_type": content_type, "filename": filename}, data, timeout=timeout,
                  memory_mb=memory_mb, slots_dir=slots_dir, slots=slots, wait=wait, idle_seconds=idle_seconds)  # fmt: skip
    if "error" in answer:
        raise _error_from(answer["error"], memory_mb)
    return _document_from(answer["document"])


def downscale_isolated(data: bytes, **settings) -> bytes | None:
    """extraction.claude_request._downscale(data) run in the reader child (an image is decoded there only, under
    its caps): the smaller JPEG, or None when it cannot be made."""
    answer = _run({"op": "downscale"}, data, **settings)
    return base64.b64decode(answer["jpeg"]) if answer.get("jpeg") else None


def settings_from(config) -> dict:
    """read_isolated's keyword settings from an app's config (RECEIPT_READ_*, RECEIPT_READERS_PER_MACHINE)."""
    return {
        "timeout": float(config.get("RECEIPT_READ_TIMEOUT_SECONDS") or DEFAULT_TIMEOUT_SECONDS),
        "memory_mb": int(config.get("RECEIPT_READ_MEMORY_MB") or DEFAULT_MEMORY_MB),
        "slots_dir": config.get("RECEIPT_READER_SLOTS_DIR") or None,
        "slots": int(config.get("RECEIPT_READERS_PER_MACHINE") or DEFAULT_SLOTS),
        "wait": float(config.get("RECEIPT_READER_WAIT_SECONDS") or DEFAULT_WAIT_SECONDS),
        "idle_seconds": float(config.get("RECEIPT_READER_IDLE_SECONDS") or DEFAULT_IDLE_SECONDS),
    }


def _run(header: dict, data: bytes, *, timeout: float = DEFAULT_TIMEOUT_SECONDS, memory_mb: int = DEFAULT_MEMORY_MB,
         slots_dir: str | None = None, slots: int = DEFAULT_SLOTS, wait: float = DEFAULT_WAIT_SECONDS,
         idle_seconds: float = DEFAULT_IDLE_SECONDS) -> dict:  # fmt: skip
    deadline = time.monotonic() + wait
    if not _lock.acquire(timeout=max(wait, 0.0)):
        raise _busy(wait)
    try:
        with _machine_slot(slots_dir, slots, deadline, wait):
            child = _child(memory_mb, idle_seconds)
            header = header | {"cpu_seconds": int(timeout * CPU_SECONDS_PER_WALL_SECOND) + 1}
            try:
                answer = child.ask(header, data, timeout)
            except TimeoutError:
                _stop(child)
                raise ReadingKilled(
                    f"Reading this receipt took longer than {timeout:g} seconds, so it was stopped. Please upload "
                    "a smaller photo or a shorter PDF.",
                    reason="timeout",
                ) from None
            except (EOFError, OSError, ValueError) as error:  # the child died: killed by the kernel, crashed…
                _stop(child)
                log.warning("the receipt reader process died: %r", error)
                raise _out_of_memory(memory_mb) from None
            child.readings += 1
            child.last_used = time.monotonic()
            if answer.get("error", {}).get("kind") == "memory" or child.readings >= MAX_READINGS:
                _stop(child)
    finally:
        _lock.release()
    return answer


@contextlib.contextmanager
def _machine_slot(slots_dir: str | None, slots: int, deadline: float, wait: float):
    """One of `slots` lock files in slots_dir, held (flock, released by the kernel if this process dies) for the
    reading; ReadersBusy when none is free before the deadline."""
    import fcntl

    folder = Path(slots_dir or tempfile.gettempdir())
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    try:
        for number in range(max(slots, 1)):
            files.append(open(folder / f"receipt-reader-{number}.lock", "a+b"))  # noqa: SIM115
        while True:
            for slot in files:
                try:
                    fcntl.flock(slot.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError as error:
                    if error.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                        raise
                    continue
                try:
                    yield
                finally:
                    fcntl.flock(slot.fileno(), fcntl.LOCK_UN)
                return
            if time.monotonic() >= deadline:
                raise _busy(wait)
            time.sleep(min(0.1, max(deadline - time.monotonic(), 0.01)))
    finally:
        for slot in files:
            slot.close()


def _busy(wait: float) -> ReadersBusy:
    return ReadersBusy(
        f"The receipt readers were all busy for {wait:g} seconds, so this receipt was not read. Please try "
        "reading it again in a few minutes.",
        reason="readers_busy",
    )


def _out_of_memory(memory_mb: int) -> ReadingKilled:
    return ReadingKilled(
        f"Reading this receipt needed more than the {memory_mb} MB of memory a receipt may use, so it was stopped. "
        "Please upload a smaller photo or a simpler PDF.",
        reason="out_of_memory",
    )


class _Child:
    def __init__(self, memory_mb: int, idle_seconds: float = DEFAULT_IDLE_SECONDS):
        self.memory_mb = memory_mb
        self.idle_seconds = idle_seconds
        self.owner = os.getpid()
        self.readings = 0
        self.last_used = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-m", __name__, str(memory_mb), str(os.getpid()), str(idle_seconds)],
            env=_child_environment(),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True, start_new_session=True,
        )  # fmt: skip

    def alive(self) -> bool:
        return self.owner == os.getpid() and self.process.poll() is None

    def stale(self) -> bool:
        """Close to its idle exit: replaced rather than raced (a request sent as it exits would be lost)."""
        return time.monotonic() - self.last_used > self.idle_seconds * 0.9

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


def _child(memory_mb: int, idle_seconds: float = DEFAULT_IDLE_SECONDS) -> _Child:
    global _current
    if (_current is None or not _current.alive() or _current.stale() or _current.memory_mb != memory_mb
            or _current.idle_seconds != idle_seconds):  # fmt: skip
        if _current is not None and _current.owner == os.getpid():
            _stop(_current)
        _current = _Child(memory_mb, idle_seconds)
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

    if header.get("op") == "downscale":
        return _downscaled(data)
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


def _downscaled(data: bytes) -> dict:
    from ..extraction.claude_request import _downscale

    try:
        scaled = _downscale(data)
    except MemoryError:
        return {"error": {"kind": "memory"}}
    return {"jpeg": base64.b64encode(scaled).decode("ascii") if scaled else None}


def _watch_parent(parent: int) -> None:
    """Exit as soon as the parent process is gone (reparented), even in the middle of a reading."""

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(1)
            time.sleep(PARENT_CHECK_SECONDS)

    threading.Thread(target=watch, name="reader-parent-watch", daemon=True).start()


def _limit_cpu(seconds: int) -> None:
    """RLIMIT_CPU counts the process's whole life: the next reading may use `seconds` more (SIGXCPU ends it)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = int(usage.ru_utime + usage.ru_stime) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (used + seconds, resource.RLIM_INFINITY))


def _serve(memory_mb: int, parent: int | None = None, idle_seconds: float = DEFAULT_IDLE_SECONDS) -> None:
    """The child: cap its own address space, then answer requests on stdin until it closes, its parent dies or
    it is left idle for idle_seconds."""
    import resource

    _watch_parent(parent if parent is not None else os.getppid())
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    _limit_cpu(int(DEFAULT_TIMEOUT_SECONDS * CPU_SECONDS_PER_WALL_SECOND))
    requests = os.fdopen(os.dup(0), "rb")
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything a library prints goes to stderr, never into the answers
    while True:
        if not select.select([requests.fileno()], [], [], idle_seconds)[0]:
            return  # idle: the parent starts a new child when it needs one
        head = requests.read(_HEADER.size)
        if len(head) < _HEADER.size:
            return
        header = json.loads(requests.read(_HEADER.unpack(head)[0]))
        data = requests.read(_HEADER.unpack(requests.read(_HEADER.size))[0])
        _limit_cpu(int(header.get("cpu_seconds") or DEFAULT_TIMEOUT_SECONDS * CPU_SECONDS_PER_WALL_SECOND))
        answer = json.dumps(_answer(header, data), default=float).encode()
        answers.write(_HEADER.pack(len(answer)) + answer)
        answers.flush()


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    arguments = sys.argv[1:]
    _serve(int(arguments[0]) if arguments else DEFAULT_MEMORY_MB,
           int(arguments[1]) if len(arguments) > 1 else None,
           float(arguments[2]) if len(arguments) > 2 else DEFAULT_IDLE_SECONDS)  # fmt: skip
