"""A request or response body as the request log keeps it, in bounded time.

The body is read token by token (:mod:`.tokens`) and each value is redacted as it is read
(:mod:`.redaction` decides what it becomes), so reading stops where the stored text stops: once
MAX_BODY_BYTES of redacted JSON are written, or after MAX_TOKENS tokens, whichever comes first.
A cut text ends with ``[cut len=<bytes> sha256=<16 hex>]``: the length and hash of the rest of the
body (as UTF-8), from the first value not kept whole. The work per body is therefore bounded by
the limits, not by what the client sent: a long string is decoded and hashed by C code in one
step, and a string that reaches past the limit is cut before it is scrubbed (keeping MARGIN
characters more, with any partial word at the cut dropped, so no secret is shown in part).

A body kept whole (the common case: a few hundred bytes) is redacted from one C parse instead
(:mod:`.whole`), to the same text; the token reader takes every other body.
"""

from __future__ import annotations

import hashlib
import json
import string
from dataclasses import dataclass, field

from models.platform.request_log.redaction import (DEVICE_TOKEN_ROUTES, JSON_REDACTED, MARGIN, MAX_BODY_BYTES,
                                                MAX_TOKENS, PLAIN, SCRUBBED_MODES, SKIPPED, Mode, container_mode,
                                                field_mode, json_text, literal_value, marker, number_value,
                                                scrub, string_value)
from models.platform.request_log.tokens import (CLOSE_ARRAY, CLOSE_OBJECT, KEY, NUMBER, OPEN_ARRAY, OPEN_OBJECT,
                                             STRING, tokens)
from models.platform.request_log.whole import redact_whole

# Room kept at the end of a cut text for its ``[cut …]`` marker.
CUT_MARKER_ROOM = 64
# Characters a secret found by its shape is made of, spaces aside: at a cut, a run of them may be
# the first half of a secret, so it is dropped.
SECRET_CHARS = string.ascii_letters + string.digits + "._~+/=-"


@dataclass(frozen=True, slots=True)
class RedactedBody:
    text: str | None
    truncated: bool = False
    # Top-level string fields the caller asked for, as sent (e.g. ``IdempotencyKey``), when read.
    fields: dict[str, str] = field(default_factory=dict)


def cut(text: str, limit: int = MAX_BODY_BYTES) -> tuple[str, bool]:
    """``text`` cut to ``limit`` bytes of UTF-8 (never inside a character), and whether it was cut."""
    raw = text.encode()
    if len(raw) <= limit:
        return text, False
    return raw[:limit].decode(errors="ignore"), True


def cut_marker(rest: str) -> str:
    raw = rest.encode("utf-8", "surrogatepass")
    return f"[cut len={len(raw)} sha256={hashlib.sha256(raw).hexdigest()[:16]}]"


def redact_body(body: bytes | None, *, route: str | None = None,
                fields: frozenset[str] = frozenset()) -> RedactedBody:
    """A request or response body as it may be stored (None when there is none)."""
    if not body:
        return RedactedBody(None)
    try:
        text = body.decode(json.detect_encoding(body), "surrogatepass")
    except (UnicodeDecodeError, LookupError):
        return RedactedBody(marker(body))
    device_tokens = route in DEVICE_TOKEN_ROUTES
    if (whole := redact_whole(text, device_tokens, fields)) is not None:
        return RedactedBody(whole[0], False, whole[1])
    try:
        return redact_tokens(text, device_tokens, fields)
    except ValueError:  # not JSON, as far as it was read
        return RedactedBody(marker(body))


def redact_tokens(text: str, device_tokens: bool, fields: frozenset[str]) -> RedactedBody:
    """The body read token by token, as far as it is kept (ValueError: not JSON, as far as read)."""
    writer = _Writer(text, device_tokens, fields)
    writer.read()
    return writer.result()


class _Frame:
    __slots__ = ("is_object", "mode", "parent", "items", "value_mode", "value_parent", "capture")

    def __init__(self, is_object: bool, mode: Mode, parent: str) -> None:
        self.is_object = is_object
        self.mode = mode
        self.parent = parent
        self.items = 0
        self.value_mode = mode      # objects: the mode of the value after the last name read
        self.value_parent = parent
        self.capture: str | None = None  # a top-level field asked for, whose value comes next


class _Writer:
    """Reads a body's tokens and writes their redacted JSON as pieces, until a limit is reached.
    This loop is the hot path of a hostile body: it is kept to plain attribute and identity tests."""

    def __init__(self, text: str, device_tokens: bool, wanted: frozenset[str]) -> None:
        self.text = text
        self.device_tokens = device_tokens
        self.wanted = wanted
        self.fields: dict[str, str] = {}
        self.pieces: list[str] = []
        self.starts: list[int] = []  # where in the text each piece's token starts
        self.size = 0  # bytes written
        self.partial = False  # the last piece is a string cut before it was scrubbed
        self.stopped_at: int | None = None  # the first token not read, when reading stopped early

    def write(self, piece: str, start: int) -> bool:
        """Adds a piece; False once the limit is passed (reading stops)."""
        self.pieces.append(piece)
        self.starts.append(start)
        self.size += len(piece) if piece.isascii() else len(piece.encode())
        return self.size <= MAX_BODY_BYTES and not self.partial

    def fit(self, value: str) -> str:
        """``value`` cut before it is scrubbed when it would reach past the limit anyway."""
        room = MAX_BODY_BYTES - self.size + MARGIN
        if len(value) <= room:
            return value
        self.partial = True
        return value[:room].rstrip(SECRET_CHARS)

    def read(self) -> None:
        frames: list[_Frame] = []
        frame: _Frame | None = None
        write = self.write
        count = 0
        for kind, start, value in tokens(self.text):
            count += 1
            if count > MAX_TOKENS:
                self.stopped_at = start
                return
            if kind is KEY:
                frame.value_mode, frame.value_parent = field_mode(frame.mode, frame.parent, value,
                                                                  self.device_tokens)
                if frame.mode is SKIPPED:
                    continue
                frame.capture = value if value in self.wanted and len(frames) == 1 else None
                comma = "," if frame.items else ""
                frame.items += 1
                name = json_text(scrub(self.fit(value)))
                # A name cut short is left open, as the text is: it goes on in the rest.
                if not write(f"{comma}{name[:-1]}" if self.partial else f"{comma}{name}:", start):
                    return
                continue
            if kind is CLOSE_OBJECT or kind is CLOSE_ARRAY:
                frames.pop()
                closed, frame = frame, frames[-1] if frames else None
                if closed.mode is not SKIPPED and not write("}" if closed.is_object else "]", start):
                    return
                continue
            # A value: its mode comes from where it sits.
            if frame is None:
                mode, parent, comma = PLAIN, "", ""
            elif frame.is_object:
                mode, parent, comma = frame.value_mode, frame.value_parent, ""
            else:
                mode, parent = frame.mode, frame.parent
                comma = "," if frame.items else ""
                frame.items += 1
            if kind is OPEN_OBJECT or kind is OPEN_ARRAY:
                is_object = kind is OPEN_OBJECT
                inner = container_mode(mode)
                frame = _Frame(is_object, inner, parent)
                frames.append(frame)
                if mode is SKIPPED:
                    continue
                piece = JSON_REDACTED if inner is SKIPPED else "{" if is_object else "["
            elif mode is SKIPPED:
                continue
            elif kind is STRING:
                if frame is not None and frame.capture is not None:
                    self.fields[frame.capture] = value
                piece = string_value(mode, self.fit(value) if mode in SCRUBBED_MODES else value)
                if self.partial:
                    piece = piece[:-1]  # a string cut short is left open
            elif kind is NUMBER:
                piece = number_value(mode, value)
            else:
                piece = literal_value(mode, value)
            if not write(comma + piece if comma else piece, start):
                return

    def result(self) -> RedactedBody:
        if self.stopped_at is None and not self.partial and self.size <= MAX_BODY_BYTES:
            return RedactedBody("".join(self.pieces), False, self.fields)
        room = MAX_BODY_BYTES - CUT_MARKER_ROOM
        whole = len(self.pieces) - 1 if self.partial else len(self.pieces)
        kept = size = 0
        while kept < whole:
            piece_size = len(self.pieces[kept].encode())
            if size + piece_size > room:
                break
            size += piece_size
            kept += 1
        head = "".join(self.pieces[:kept])
        if kept < len(self.pieces):
            head += cut(self.pieces[kept], room - size)[0]
            rest_from = self.starts[kept]
        else:
            rest_from = self.stopped_at
        return RedactedBody(head + cut_marker(self.text[rest_from:]), True, self.fields)
