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
    metric: Literal["failure_rate", "bounce_rate", "queue_depth", "relay_lag"]
    channel: Literal["email", "sms", "push", "whatsapp"] | None = None
    tenant_id: str | None = Field(default=None, max_length=40)
    threshold: float = Field(ge=0, le=1e12, allow_inf_nan=False)
    window_minutes: int = Field(default=60, ge=1, le=WINDOW_MAX)
