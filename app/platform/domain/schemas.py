"""Request bodies of the sender-domain routes (the mail system's internal ones, the dashboard's)."""

from __future__ import annotations

from pydantic import Field

from app.http.bodies import Body, example


class DomainAdd(Body):
    model_config = example({"Name": "example.com", "Dmarc": True})

    name: str = Field(min_length=1, max_length=253)
    """The domain name to send from."""
    dmarc: bool = False
    """Publish (and report) a DMARC record too."""
