"""Request bodies of the webhook routes (strict, PascalCase on the wire)."""

from __future__ import annotations

from typing import Any

from pydantic import Field
from sanic import Request

from app.http import errors
from app.http.bodies import Body, example, load_json, validate
from models.platform.events import TEST_EVENT
from models.platform.webhook import ALL_EVENTS, DEFAULT_ROTATION_OVERLAP, MAX_ROTATION_OVERLAP

MAX_BODY_BYTES = 64 * 1024
UPDATABLE = ("url", "event_types", "enabled", "description")


class WebhookCreate(Body):
    model_config = example({
        "Url": "https://example.com/hooks/herald",
        "EventTypes": ["email.delivered", "email.bounced"],
        "Description": "Order system",
    })
    url: str = Field(min_length=1, max_length=2048)
    """Where events are POSTed: an https URL on the public internet."""
    event_types: list[str] = Field(default_factory=lambda: [ALL_EVENTS], min_length=1, max_length=100)
    """The event types to deliver (`email.delivered` ...), or `["*"]` (the default) for all."""
    enabled: bool = True
    """Whether events are delivered to it."""
    description: str = Field("", max_length=500)
    """Your note on the endpoint (at most 500 characters)."""


class WebhookUpdate(Body):
    model_config = example({"EventTypes": ["*"], "Enabled": True})
    url: str | None = Field(None, min_length=1, max_length=2048)
    """Where events are POSTed: an https URL on the public internet."""
    event_types: list[str] | None = Field(None, min_length=1, max_length=100)
    """The event types to deliver, or `["*"]` for all."""
    enabled: bool | None = None
    """Whether events are delivered to it."""
    description: str | None = Field(None, max_length=500)
    """Your note on the endpoint (at most 500 characters)."""

    def changes(self) -> dict[str, Any]:
        """The fields the request sets (at least one, none of them null)."""
        changes = self.model_dump(exclude_unset=True)
        if not changes:
            raise errors.Unprocessable("Give at least one of Url, EventTypes, Enabled, Description.",
                                       details={"body": "at least one of Url, EventTypes, Enabled, Description"})
        for name in UPDATABLE:
            if name in changes and changes[name] is None:
                raise errors.ValidationError(f"Field {name!r} cannot be null.", details={name: "cannot be null"})
        return changes


class SecretRotation(Body):
    overlap_seconds: int = Field(DEFAULT_ROTATION_OVERLAP, ge=0, le=MAX_ROTATION_OVERLAP)
    """How long the old secret still signs deliveries beside the new one: 0 to 604800 seconds, 86400 by default."""


class TestEvent(Body):
    event_type: str = TEST_EVENT
    """The event type the test delivery carries: `webhook.test` by default."""


def optional_body(request: Request, model: type[Body]) -> Body:
    """The body, or the model's defaults when the request has none."""
    if not (request.body or b"").strip():
        return model()
    return validate(load_json(request, max_bytes=MAX_BODY_BYTES), model)


# --- the internal events route (app/platform/webhook/internal.py) ---------------------------------

EVENT_BODY_BYTES = 16 * 1024


class ForeignEvent(Body):
    """An event another system saw (``email.received``: the mail system), for the account's webhooks."""
    model_config = example({"Type": "email.received", "Data": {
        "ReceivedId": "rcv_0123456789abcdef01234567", "Mailbox": "support@shop.example", "Subject": "Hello",
        "Url": "https://mail.example.com/v1/received/rcv_0123456789abcdef01234567"}})
    type: str = Field(min_length=1, max_length=64)
    """The event type; only email.received is taken from another system."""
    data: dict[str, Any]
    """The event's data, as the webhook delivers it."""
