"""A body that is kept whole, redacted from one C parse instead of token by token.

Most bodies the log sees are a few hundred bytes and are kept whole. For them, reading token by
token (:mod:`.body`) spends most of its time in the Python tokenizer. This module parses such a
body once with the json module's C scanner, keeping what the token writer keeps (member order
and repeated names: pairs, not dicts; a number's text as sent: ``parse_int``/``parse_float``
get the raw text), then writes it with the same rules (:mod:`.redaction`), the same pieces and
the same checks, so the stored text is the token writer's, byte for byte.

It answers only when the whole body is kept: a body longer than WHOLE_CHARS, one with more than
MAX_TOKENS tokens, one whose redacted text would reach the 16 KiB limit (or a string the writer
would cut first), one the token reader refuses (NaN, Infinity) or too deep for the C scanner
gives None, and the token writer reads it as before. ``tests/platform/test_request_log_whole.py``
compares the two on generated documents.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from models.platform.request_log.redaction import (JSON_REDACTED, MARGIN, MAX_BODY_BYTES, MAX_TOKENS, PLAIN,
                                                SCRUBBED_MODES, SKIPPED, Mode, container_mode, field_mode,
                                                json_text, literal_value, number_value, scrub, string_value)

# Longer bodies go to the token writer, which reads only as far as it keeps; a kept body is
# at most 16 KiB of redacted text, and redaction rarely shortens a body by much.
WHOLE_CHARS = 16 * 1024
_LITERALS = {True: "true", False: "false", None: "null"}


class _Number(str):
    """A number's text as sent."""


class _Object(list):
    """An object's members as (name, value) pairs, in order, repeats included."""


class _NotKept(Exception):
    """The token reader refuses what the C scanner takes: NaN and Infinity are not JSON."""


def _refuse_constant(name: str) -> Any:
    raise _NotKept(name)


_decode = json.JSONDecoder(object_pairs_hook=_Object, parse_int=_Number, parse_float=_Number,
                           parse_constant=_refuse_constant).decode


def redact_whole(text: str, device_tokens: bool, wanted: frozenset[str]) -> tuple[str, dict[str, str]] | None:
    """The redacted text of a body kept whole, and the top-level fields asked for; None when the
    token writer must read it."""
    if len(text) > WHOLE_CHARS:
        return None
    try:
        document = _decode(text)
    except (ValueError, RecursionError, _NotKept):
        return None
    pieces: list[str] = []
    append = pieces.append
    fields: dict[str, str] = {}
    count = 0  # tokens read
    # How much longer a string the writer scrubs is than what it becomes, at most (0 when never):
    # ``fit`` cuts a string before scrubbing when it could reach past the limit plus MARGIN.
    slack = 0

    def value(item: Any, mode: Mode, parent: str, comma: str, capture: str | None) -> None:
        """One value found where ``mode`` applies (never SKIPPED: a skipped one is only counted)."""
        nonlocal count, slack
        count += 1
        kind = type(item)
        if kind is str:
            if capture is not None:
                fields[capture] = item
            piece = string_value(mode, item)
            if mode in SCRUBBED_MODES and len(item) - len(piece) > slack:
                slack = len(item) - len(piece)
            append(comma + piece)
        elif kind is _Number:
            append(comma + number_value(mode, item))
        elif kind is _Object or kind is list:
            inner = container_mode(mode)
            if inner is SKIPPED:
                append(comma + JSON_REDACTED)
                count += 1 + _tokens(item)
                return
            count += 1  # the closing token
            if kind is list:
                append(comma + "[")
                for index, each in enumerate(item):
                    value(each, inner, parent, "," if index else "", None)
                append("]")
                return
            append(comma + "{")
            top = item is document
            for index, (name, each) in enumerate(item):
                count += 1
                written, each_mode, each_parent = _member(inner, parent, name, device_tokens)
                if len(name) - len(written) > slack:
                    slack = len(name) - len(written)
                append("," + written if index else written)
                value(each, each_mode, each_parent, "", name if top and name in wanted else None)
            append("}")
        else:
            append(comma + literal_value(mode, _LITERALS[item]))

    try:
        value(document, PLAIN, "", "", None)
    except RecursionError:
        return None
    redacted = "".join(pieces)
    size = len(redacted) if redacted.isascii() else len(redacted.encode())
    # Every check the token writer makes, against the final size: past MAX_TOKENS it stops, past
    # the limit it cuts, and it cuts a string before scrubbing when the size written before it plus
    # its length passes the limit plus MARGIN. What was written before a string is at most the final
    # size less what the string became, so ``size + slack`` bounds that sum for every string.
    if count > MAX_TOKENS or size > MAX_BODY_BYTES or size + slack > MAX_BODY_BYTES + MARGIN:
        return None
    return redacted, fields


def _member_worked_out(mode: Mode, parent: str, name: str, device_tokens: bool) -> tuple[str, Mode, str]:
    """A member's name as written, and its value's mode and parent."""
    return json_text(scrub(name)) + ":", *field_mode(mode, parent, name, device_tokens)


# Bodies repeat the same few names: those are worked out once per process (at most 1,024 names of
# at most CACHED_NAME_CHARS, so what a client sends cannot make the cache hold much).
CACHED_NAME_CHARS = 64
_member_cached = functools.lru_cache(maxsize=1024)(_member_worked_out)


def _member(mode: Mode, parent: str, name: str, device_tokens: bool) -> tuple[str, Mode, str]:
    if len(name) <= CACHED_NAME_CHARS:
        return _member_cached(mode, parent, name, device_tokens)
    return _member_worked_out(mode, parent, name, device_tokens)


def _tokens(value: Any) -> int:
    """The tokens inside a container the writer skips (its own two not counted)."""
    items = (item for _, item in value) if type(value) is _Object else value
    inside = sum(2 + _tokens(item) if type(item) in (_Object, list) else 1 for item in items)
    return inside + len(value) if type(value) is _Object else inside  # an object's names are tokens too
