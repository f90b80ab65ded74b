"""Request bodies of the destination routes."""

from __future__ import annotations

from pydantic import Field

from app.http.bodies import SnakeBody, example

MAX_BODY_BYTES = 8 * 1024


class DestinationCreate(SnakeBody):
    model_config = example({
        "url": "https://example.com/hooks/crm",
        "eventos": ["contact.created", "contact.unsubscribed"],
        "descricao": "Data warehouse",
    })
    url: str = Field(min_length=1, max_length=2048)
    """Where the CRM's events are POSTed."""
    eventos: list[str] = Field(min_length=1, max_length=20)
    """The event types it receives (1 to 20)."""
    descricao: str = Field(default="", max_length=200)
    """Your note on it (at most 200 characters)."""
    ativo: bool = True
    """Whether events are delivered to it."""


class DestinationPatch(SnakeBody):
    model_config = example({"eventos": ["contact.created"], "ativo": True})
    url: str | None = Field(default=None, min_length=1, max_length=2048)
    """A new URL."""
    eventos: list[str] | None = Field(default=None, min_length=1, max_length=20)
    """New event types (1 to 20)."""
    descricao: str | None = Field(default=None, max_length=200)
    """A new note."""
    ativo: bool | None = None
    """Whether events are delivered to it."""
