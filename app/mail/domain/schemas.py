"""Request bodies of the mail API's domain routes (snake_case, strict)."""

from __future__ import annotations

from pydantic import Field

from app.http.bodies import SnakeBody, example


class DomainAdd(SnakeBody):
    model_config = example({"name": "example.com", "dmarc": True})

    name: str = Field(min_length=1, max_length=253)
    """The domain (`example.com`)."""
    # Publish (and report) a DMARC record too.
    dmarc: bool = False
    """Whether to publish (and report) a DMARC record too."""
