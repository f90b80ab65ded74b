"""E-mail attachments at accept: checked, decoded and sealed once per request.

An attachment is ``{Filename, Content (base64), ContentType?}``. Refused here, before anything is
written: content that is not base64 (400, as any malformed field), more than MAX_ATTACHMENTS or more
than MAX_ATTACHMENT_BYTES decoded per message (413 ``PayloadTooLarge``), a file name mail clients
block (an executable or script type: 422). What is stored is the sealed bytes (kit sealing, purpose
ATTACHMENT), the same sealed text on every recipient's message of the request; the final transition
of a message drops it (models/platform/message.py: purge_content_sql), so an attachment lives as
long as its message may still be sent.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import mimetypes
import re
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from app.http import errors
from app.http.bodies import Body
from kit.sealing import PLATFORM
from models.platform.message import ATTACHMENT_SEAL

MAX_ATTACHMENTS = 20
MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024  # decoded, all attachments of one message together
# Each recipient's message stores its own copy (sealed): what one request (a batch: all its items) may
# store, so 10 MB go to 5 recipients at once, 1 MB to 50.
MAX_STORED_BYTES = 50 * 1024 * 1024
# The types Gmail, Outlook and others refuse to carry (executables, scripts, installers, shortcuts).
BLOCKED_EXTENSIONS = frozenset({
    "ade", "adp", "apk", "appx", "appxbundle", "bat", "cab", "chm", "cmd", "com", "cpl", "dll", "dmg", "exe",
    "hta", "ins", "isp", "iso", "jar", "js", "jse", "lib", "lnk", "mde", "msc", "msi", "msix", "msixbundle", "msp",
    "mst", "nsh", "pif", "ps1", "scr", "sct", "shb", "sys", "vb", "vbe", "vbs", "vxd", "wsc", "wsf", "wsh"})
_CONTENT_TYPE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\Z")
_FILENAME_FORBIDDEN = ("\r", "\n", "\0", "/", "\\", '"')


def _filename(value: str) -> str:
    if any(character in value for character in _FILENAME_FORBIDDEN) or not value.strip(" ."):
        raise ValueError("a file name without path separators, quotes, CR, LF or NUL")
    return value


def _content_type(value: str) -> str:
    if not _CONTENT_TYPE.match(value):
        raise ValueError("a MIME type such as application/pdf")
    return value


class AttachmentsTooLarge(errors.PayloadTooLarge):
    def __init__(self, what: str) -> None:
        errors.HttpError.__init__(self, what, details={"Attachments": what, "MaxBytes": MAX_ATTACHMENT_BYTES})


class Attachment(Body):
    filename: Annotated[str, Field(min_length=1, max_length=255), AfterValidator(_filename)]
    """The file's name as recipients see it (1 to 255 characters); types mail clients block (`.exe` ...) are refused."""
    # base64 of at most MAX_ATTACHMENT_BYTES (4 characters per 3 bytes, line breaks allowed)
    content: Annotated[str, Field(min_length=1, max_length=MAX_ATTACHMENT_BYTES * 4 // 3 + 1024 * 1024)]
    """The file, base64."""
    content_type: Annotated[str, AfterValidator(_content_type)] | None = None
    """Its MIME type (`application/pdf`); guessed from the file name when absent."""


def blocked(filename: str) -> bool:
    """Whether mail clients block this file name's type (its last extension, any case)."""
    stem, dot, extension = filename.rstrip(" .").rpartition(".")
    return bool(dot) and extension.lower() in BLOCKED_EXTENSIONS


def decoded(attachment: Attachment) -> bytes:
    try:
        return base64.b64decode("".join(attachment.content.split()), validate=True)
    except (binascii.Error, ValueError):
        raise errors.ValidationError(f"The content of {attachment.filename!r} is not base64.",
                                     details={"Attachments": f"{attachment.filename}: Content is not base64"}) from None


def sealed(attachments: list[Attachment] | None, field: str = "Attachments") -> list[dict[str, Any]]:
    """The stored form of a message's attachments (sealed bytes with name, type, size, digest), or
    a refusal: 413 past the size, 422 for a blocked type, 400 for content that is not base64."""
    if not attachments:
        return []
    if len(attachments) > MAX_ATTACHMENTS:
        raise errors.Unprocessable(f"At most {MAX_ATTACHMENTS} attachments per message.",
                                   details={field: f"at most {MAX_ATTACHMENTS}"})
    for attachment in attachments:
        if blocked(attachment.filename):
            raise errors.Unprocessable(
                f"{attachment.filename!r}: this file type is blocked by mail clients (executables and scripts); "
                "send it inside an archive or as a link.", details={field: f"{attachment.filename}: blocked type"})
    out, total = [], 0
    for attachment in attachments:
        data = decoded(attachment)
        total += len(data)
        if total > MAX_ATTACHMENT_BYTES:
            raise AttachmentsTooLarge(f"The attachments are larger than {MAX_ATTACHMENT_BYTES} bytes decoded.")
        kind = attachment.content_type or mimetypes.guess_type(attachment.filename)[0] or "application/octet-stream"
        out.append({"Filename": attachment.filename, "ContentType": kind.lower(), "Size": len(data),
                    "Sha256": hashlib.sha256(data).hexdigest(), "Sealed": PLATFORM.seal_text(ATTACHMENT_SEAL, data)})
    return out


def stored_bytes(content: dict[str, Any], copies: int) -> int:
    """What ``copies`` messages of this content store of its files (decoded sizes)."""
    return copies * sum(item.get("Size", 0) for item in content.get("Attachments") or [])


def check_stored(total: int) -> None:
    if total > MAX_STORED_BYTES:
        raise AttachmentsTooLarge(
            f"The attachments times the recipients pass {MAX_STORED_BYTES} bytes for one request (each recipient's "
            "message keeps its own copy until sent); send to fewer recipients per request.")


def listed(content: dict[str, Any]) -> list[dict[str, Any]]:
    """What a read shows of a message's attachments: never their bytes."""
    return [{key: item.get(key) for key in ("Filename", "ContentType", "Size", "Sha256")}
            for item in content.get("Attachments") or []]
