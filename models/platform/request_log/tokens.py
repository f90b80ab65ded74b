"""JSON read one token at a time, so that a reader can stop wherever it wants.

``tokens(text)`` yields ``(kind, start, value)`` in document order and checks the grammar on the
way (RFC 8259; a ValueError at the first fault). Nothing is built beyond the current token, so a
reader that stops after a few thousand tokens has spent a few thousand steps, whatever the size
or depth of the document. A string, however long, is one step: the json module's C scanner
decodes it.
"""

from __future__ import annotations

import enum
import re
from json.decoder import scanstring
from typing import Iterator


class Token(enum.Enum):
    OPEN_OBJECT = "{"
    CLOSE_OBJECT = "}"
    OPEN_ARRAY = "["
    CLOSE_ARRAY = "]"
    KEY = "key"          # value: the decoded name
    STRING = "string"    # value: the decoded string
    NUMBER = "number"    # value: the number's text as written
    LITERAL = "literal"  # value: "true", "false" or "null"


# Looking a member up on an Enum class costs a metaclass call (Python 3.11): hot loops use these.
OPEN_OBJECT, CLOSE_OBJECT = Token.OPEN_OBJECT, Token.CLOSE_OBJECT
OPEN_ARRAY, CLOSE_ARRAY = Token.OPEN_ARRAY, Token.CLOSE_ARRAY
KEY, STRING, NUMBER, LITERAL = Token.KEY, Token.STRING, Token.NUMBER, Token.LITERAL

_SPACE = re.compile(r"[ \t\n\r]*")
_SPACE_CHARS = frozenset(" \t\n\r")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_LITERALS = {"t": "true", "f": "false", "n": "null"}


def _skip_space(text: str, pos: int) -> int:
    # Most bodies are compact: look at one character before asking the pattern.
    if text[pos:pos + 1] in _SPACE_CHARS:
        return _SPACE.match(text, pos).end()
    return pos


def _key(text: str, pos: int) -> tuple[str, int]:
    """The member name at ``pos`` and where its value starts (after the colon)."""
    if not text.startswith('"', pos):
        raise ValueError(f"a member name expected at {pos}")
    name, pos = scanstring(text, pos + 1, True)
    pos = _skip_space(text, pos)
    if not text.startswith(":", pos):
        raise ValueError(f"':' expected at {pos}")
    return name, _skip_space(text, pos + 1)


def tokens(text: str) -> Iterator[tuple[Token, int, object]]:
    stack: list[bool] = []  # True for an object, False for an array
    size = len(text)
    pos = _skip_space(text, 0)
    while True:
        # A value starts at pos.
        char = text[pos] if pos < size else ""
        if char == '"':
            value, end = scanstring(text, pos + 1, True)
            yield STRING, pos, value
            pos = end
        elif char == "{" or char == "[":
            is_object = char == "{"
            yield (OPEN_OBJECT if is_object else OPEN_ARRAY), pos, None
            pos = _skip_space(text, pos + 1)
            if text.startswith("}" if is_object else "]", pos):
                yield (CLOSE_OBJECT if is_object else CLOSE_ARRAY), pos, None
                pos += 1
            else:
                stack.append(is_object)
                if is_object:
                    name, value_at = _key(text, pos)
                    yield KEY, pos, name
                    pos = value_at
                continue
        elif char == "-" or "0" <= char <= "9":
            match = _NUMBER.match(text, pos)
            if match is None:
                raise ValueError(f"bad number at {pos}")
            yield NUMBER, pos, match.group()
            pos = match.end()
        else:
            literal = _LITERALS.get(char)
            if literal is None or not text.startswith(literal, pos):
                raise ValueError(f"a value expected at {pos}")
            yield LITERAL, pos, literal
            pos += len(literal)
        # After a value: the containers it closes, then a comma before the next value.
        while True:
            pos = _skip_space(text, pos)
            if not stack:
                if pos != size:
                    raise ValueError(f"extra data at {pos}")
                return
            char = text[pos] if pos < size else ""
            if char == ",":
                pos = _skip_space(text, pos + 1)
                if stack[-1]:
                    name, value_at = _key(text, pos)
                    yield KEY, pos, name
                    pos = value_at
                break
            if char != ("}" if stack[-1] else "]"):
                raise ValueError(f"',' or the end of the container expected at {pos}")
            yield (CLOSE_OBJECT if stack.pop() else CLOSE_ARRAY), pos, None
            pos += 1
