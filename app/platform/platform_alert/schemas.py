"""Body of POST and PUT /api/admin/platform-alerts (strict; PUT replaces the whole rule)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.http.bodies import Body, example

WINDOW_MAX = 7 * 24 * 60


class AlertRule(Body):
    model_config = example({
        "Name": "E-mail failures",
        "Metric": "failure_rate",
        "Channel": "email",
        "Threshold": 0.05,
        "WindowMinutes": 60,
    })
    name: str = Field(min_length=1, max_length=200)
    """The rule's name."""
    metric: Literal["failure_rate", "bounce_rate", "queue_depth", "relay_lag"]
    """What it watches: failure_rate (needs Channel), bounce_rate, queue_depth or relay_lag (no Channel)."""
    channel: Literal["email", "sms", "push", "whatsapp"] | None = None
    """The channel watched: email, sms, push or whatsapp; absent for all channels."""
    tenant_id: str | None = Field(default=None, max_length=40)
    """bounce_rate only: the account (acc_...) to watch instead of the whole platform."""
    threshold: float = Field(ge=0, le=1e12, allow_inf_nan=False)
    """The rule fires when the value is above it; a rate's is between 0 and 1."""
    window_minutes: int = Field(default=60, ge=1, le=WINDOW_MAX)
    """The minutes a rate is measured over (1 to 10080, default 60)."""
