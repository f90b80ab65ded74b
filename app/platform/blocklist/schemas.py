"""Bodies of the blocklist routes (strict: an unknown field is 400 naming it)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.http.bodies import Body, example


class BlockCreate(Body):
    """An entry (or a suggestion): an e-mail address, a domain (and its subdomains) or a phone number."""
    model_config = example({
        "Kind": "domain",
        "Value": "spam-sender.example",
        "Reason": "Bounces and complaints in several accounts",
    })

    kind: Literal["address", "domain", "phone"]
    """What to block: address (an e-mail address), domain (and its subdomains) or phone."""
    value: str = Field(min_length=1, max_length=320)
    """The address, domain or phone number (stored lowercased, a phone in E.164)."""
    reason: str = Field(min_length=1, max_length=500)
    """Why it is blocked (or suggested)."""
