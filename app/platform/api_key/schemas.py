"""Bodies of the dashboard's key routes: snake_case like the contract's creation input (``name``,
``scopes``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.http.bodies import SnakeBody, example


class KeyCreate(SnakeBody):
    model_config = example({"name": "Production server", "scopes": ["email:send", "email:read"], "kind": "live"})
    name: str = Field(max_length=200)
    """The key's name."""
    scopes: list[str] | None = Field(default=None, max_length=64)
    """The scopes it holds, at least one, from GET /api/api-key-scopes."""
    # live (sk_live_, the default), test (sk_test_) or publishable (pk_live_, read-only scopes)
    kind: Literal["live", "test", "publishable"] = "live"
    """live (sk_live_, the default), test (sk_test_) or publishable (pk_live_, read-only scopes)."""
