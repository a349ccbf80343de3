"""The one way the shop sends email: SMTP when MAIL_SERVER is set, else an outbox folder under instance/."""

from __future__ import annotations

import os
import smtplib
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default as default_policy
from pathlib import Path

from flask import current_app


@dataclass(frozen=True)
class OutboxMessage:
    name: str
    to: str
    subject: str
    sent_at: str
    body: str
    html: str | None = None
    attachments: tuple[str, ...] = ()


@dataclass(frozen=True)
class Attachment:
    filename: str
    content_type: str  # "application/pdf"
    data: bytes


def send_mail(to: str, subject: str, body: str, *, html: str | None = None,
              attachments: tuple[Attachment, ...] = ()) -> None:  # fmt: skip
    """Send an email: the plain-text body, optionally an HTML alternative and attachments."""
    message = EmailMessage()
    message["From"] = current_app.config["MAIL_FROM"]
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = datetime.now(UTC).strftime("%a, %d %b %Y %H:%M:%S +0000")
    message.set_content(body)
    if html:
        message.add_alternative(html, subtype="html")
    for attachment in attachments:
        maintype, _, subtype = attachment.content_type.partition("/")
        message.add_attachment(attachment.data, maintype=maintype, subtype=subtype, filename=attachment.filename)
    config = current_app.config
    if config.get("MAIL_SERVER"):
        with smtplib.SMTP(config["MAIL_SERVER"], config["MAIL_PORT"], timeout=10) as smtp:
            if config.get("MAIL_USE_TLS"):
                smtp.starttls()
            if config.get("MAIL_USERNAME"):
                smtp.login(config["MAIL_USERNAME"], config["MAIL_PASSWORD"])
            smtp.send_message(message)
        return
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    _write_private(private_outbox() / f"{stamp}.eml", bytes(message))


def private_outbox() -> Path:
    """The outbox folder, readable by the shop's own user only: its messages hold reset links and order PDFs."""
    folder = outbox_folder()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    if folder.stat().st_mode & 0o077:
        folder.chmod(0o700)  # made by an earlier release (or a umask) with wider rights
    return folder


def _write_private(path: Path, data: bytes) -> None:
    # Created 0600 from the start (never a moment world-readable), whatever the process umask is.
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)


def outbox_folder() -> Path:
    return Path(current_app.instance_path) / "outbox"


def list_outbox() -> list[OutboxMessage]:
    """Messages written to the outbox, newest first."""
    return [_read(path) for path in _outbox_files()]


def read_outbox(name: str) -> OutboxMessage | None:
    """One outbox message by the name list_outbox gave it; any other name (paths, dots, tricks) is None."""
    for path in _outbox_files():
        if path.name == name:
            return _read(path)
    return None


def _outbox_files() -> list[Path]:
    folder = outbox_folder()
    if not folder.is_dir():
        return []
    return sorted((path for path in folder.glob("*.eml") if path.is_file()), reverse=True)


def _read(path: Path) -> OutboxMessage:
    message = BytesParser(policy=default_policy).parsebytes(path.read_bytes())
    plain, html = message.get_body(preferencelist=("plain",)), message.get_body(preferencelist=("html",))
    return OutboxMessage(
        name=path.name,
        to=str(message["To"]),
        subject=str(message["Subject"]),
        sent_at=str(message["Date"]),
        body=plain.get_content() if plain is not None else "",
        html=html.get_content() if html is not None else None,
        attachments=tuple(part.get_filename() or "" for part in message.iter_attachments()),
    )
