"""Request bodies of the list routes (strict, snake_case)."""

from __future__ import annotations

from pydantic import Field

from app.http.bodies import SnakeBody

MAX_BODY_BYTES = 512 * 1024
MAX_MEMBERS_PER_CALL = 5000
SLUG = r"^[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?$"


class ListWrite(SnakeBody):
    """A list, created or renamed by its slug (derived from the name when not given)."""

    nome: str = Field(min_length=1, max_length=200)
    """The list's name (1 to 200 characters)."""
    slug: str | None = Field(None, pattern=SLUG)
    """Its slug; derived from the name when absent. A known slug renames that list."""


class MembersAdd(SnakeBody):
    """Contact ids (``ctt_<hex>``) to add; the empty list is a 422 (checked by the service)."""

    contatos: list[str] = Field(max_length=MAX_MEMBERS_PER_CALL)
    """The ids of the contacts to add (`ctt_...`); an empty list is a 422."""
