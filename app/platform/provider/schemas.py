"""The body of PUT /api/providers/{channel}/{key} and /v1/providers/{channel}/{key} (strict)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from app.http.bodies import Body, example

# A setting is a string or a number; what each provider knows is app/platform/provider/catalog.py's.
Value = str | int | float | None


class ProviderSet(Body):
    """``Settings`` replace the stored ones; each of ``Secrets`` replaces the stored secret of that name
    (``null`` removes it); a secret left out stays as it was."""

    model_config = example({"Settings": {"host": "smtp.example.com", "port": 587, "security": "starttls",
                                         "username": "herald"},
                            "Secrets": {"password": "app-password"}})
    settings: Annotated[dict[str, Value], Field(max_length=20)] = Field(default_factory=dict)
    """The provider's settings (at most 20), replacing the stored ones; `GET /v1/providers` lists each one's."""
    secrets: Annotated[dict[Annotated[str, Field(max_length=64)], Annotated[str, Field(max_length=16384)] | None],
                       Field(max_length=10)] = Field(default_factory=dict)
    """Its secrets (at most 10), never shown again: each replaces the stored one, `null` removes it."""
