"""Request bodies of the mailbox routes (snake_case, strict)."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, Field

from app.http.bodies import SnakeBody, example

# An address as the platform's send routes accept it (app/platform/message/schemas.py spells the same).
ADDRESS = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@(?=.{1,253}\Z)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+"
                     r"[A-Za-z]{2,63}\Z")
_BREAKS = ("\r", "\n", "\0")


def _address(value: str) -> str:
    if len(value) > 254 or not ADDRESS.match(value):
        raise ValueError("not a valid e-mail address")
    return value.lower()


def _one_line(value: str) -> str:
    if any(character in value for character in _BREAKS) or "<" in value or ">" in value:
        raise ValueError("must be one line without '<' or '>' (it goes into the From header)")
    return value


Address = Annotated[str, AfterValidator(_address)]


class MailboxCreate(SnakeBody):
    model_config = example({"address": "hello@example.com", "name": "Acme"})

    address: Address
    """The mailbox's address, on one of the account's domains (a test key: the sandbox domain too)."""
    # The display name written before the address when mail goes out as this mailbox.
    name: Annotated[str, Field(min_length=1, max_length=200), AfterValidator(_one_line)] | None = None
    """The display name written before the address when mail goes out as this mailbox."""
