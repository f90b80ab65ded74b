"""Events that other systems see, for the account's webhooks (service credential).

    POST /internal/v1/tenants/{account}/events    {Type, Data}
        202 {EventId, Deliveries}; 404 for an unknown account; 400 for a type the platform does not
        take from another system

Only the types of :data:`models.platform.events.FOREIGN_EVENTS` (``email.received``, from the mail
system's worker): message events are the platform's own. The event and its deliveries are written
in one transaction through the outbox, as the platform's own events are; ``EventId`` is null when no
enabled endpoint of the account subscribes to the type (nothing is recorded then).
"""

from __future__ import annotations

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.bodies import parse_body
from app.http.openapi import NULLABLE_STRING, answers, described, reply_of
from app.http.responses import reply
from app.http.services import require_service_credential
from app.platform import db
from app.platform.suppression.service import tenant_pk
from app.platform.webhook.schemas import EVENT_BODY_BYTES, ForeignEvent
from models.platform.events import FOREIGN_EVENTS, emit

bp = Blueprint("internal_webhook_events", url_prefix="/internal/v1/tenants/<account:slug>")

EMITTED = reply_of(
    EventId=described(NULLABLE_STRING, "The event's id (evt_...); null when no enabled endpoint subscribes to it."),
    Deliveries=described({"type": "integer"}, "How many endpoints it is delivered to."))


@bp.post("/events", ctx_auth="service", ctx_body=ForeignEvent, ctx_errors=(400, 404),
         ctx_responses=answers({202: EMITTED}))
async def create_event(request: Request, account: str) -> HTTPResponse:
    """An event another system saw, fanned out to the account's live endpoints that subscribe to it."""
    require_service_credential(request)
    body = parse_body(request, ForeignEvent, max_bytes=EVENT_BODY_BYTES)
    if body.type not in FOREIGN_EVENTS:
        raise errors.ValidationError(f"Type must be one of {', '.join(sorted(FOREIGN_EVENTS))}.",
                                     details={"Type": "not an event another system may produce"})
    async with db.transaction() as conn:
        owner = await tenant_pk(conn, account)
        emitted = await emit(conn, tenant_pk=owner, mode="live", event_type=body.type, data=body.data)
    if emitted:
        request.app.ctx.wakeup.poke()
    return reply(request, {"EventId": emitted and emitted["event_id"],
                           "Deliveries": len(emitted["delivery_ids"]) if emitted else 0}, status=202)
