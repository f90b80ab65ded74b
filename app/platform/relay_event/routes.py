"""POST /callbacks/<relay>/<account id>: the relays' event webhooks (docs/relays.md).

Not under /v1: a relay holds no API key; what the relay signs (or, for Postmark, the credentials in
the URL the account gave it) is the credential, checked with the account's own configuration of
that relay. Unsigned, badly signed, foreign or replayed: 403, nothing changes. A verified event that
names no message of the account answers 200 too (``unmatched``): the relay must not retry what will
never match. The moves are app/platform/relay_event/apply.py's, in one transaction, then the webhook
relay is nudged. An SNS ``SubscriptionConfirmation`` is confirmed by an actor
(tasks/platform/sns_subscriptions.py), through an outbox row: the handler never calls out.
"""

from __future__ import annotations

import json
import logging

from sanic import Blueprint, HTTPResponse, Request

from app.http import errors
from app.http.responses import reply
from app.platform import db
from app.platform.relay_event import mailgun, postmark, ses, sns
from app.platform.relay_event.accounts import relay_account
from app.platform.relay_event.apply import OUTCOMES, RelayEvent, apply_event
from kit.actors import Actor
from kit.aws_sns import subscribe_url_problem
from models.outbox import enqueue

bp = Blueprint("relay_events", url_prefix="/callbacks")
log = logging.getLogger("herald.relay_events")

# Each relay's own JSON (SNS posts it as text/plain), read by the relay's module: no strict model.
MAX_BODY_BYTES = 512 * 1024  # SNS messages are at most 256 KB; the relays' events are far smaller
REFUSED = "The callback is not signed by this account's relay."


def _payload(request: Request) -> dict:
    body = request.body or b""
    if len(body) > MAX_BODY_BYTES:
        raise errors.PayloadTooLarge(MAX_BODY_BYTES)
    try:
        payload = json.loads(body)
    except ValueError:
        raise errors.InvalidJson() from None
    if not isinstance(payload, dict):
        raise errors.ValidationError("The request body must be a JSON object.")
    return payload


async def _apply(request: Request, tenant_pk: int, events: list[RelayEvent]) -> HTTPResponse:
    outcomes = []
    if events:
        async with db.transaction() as conn:
            for event in events:
                outcomes.append(await apply_event(conn, tenant_pk, event))
        request.app.ctx.wakeup.poke()
    return reply(request, {"Outcomes": outcomes or ["ignored"]})


@bp.post("/postmark/<tenant_id:id>", ctx_auth="signature", ctx_errors=(400, 413),
         ctx_responses=OUTCOMES)
async def postmark_event(request: Request, tenant_id: str) -> HTTPResponse:
    """Receive a Postmark event (delivery, bounce, spam complaint ...) for the account's messages sent through Postmark.

    Called by Postmark: with the account's webhook credential (HTTP Basic) from Postmark's addresses when the account
    names them (403 otherwise). 400 for a body that is not an event."""
    tenant, config = await relay_account(db.connection(), tenant_id, "postmark", request.app.ctx.settings)
    if tenant is None or not postmark.authorized(config, request.headers.get("authorization", "")) \
            or not postmark.from_allowed_source(config, request.remote_addr or request.ip or ""):
        raise errors.PermissionDenied(REFUSED)
    event = postmark.parse(_payload(request))
    return await _apply(request, tenant.id, [event] if event else [])


@bp.post("/mailgun/<tenant_id:id>", ctx_auth="signature", ctx_errors=(400, 413),
         ctx_responses=OUTCOMES)
async def mailgun_event(request: Request, tenant_id: str) -> HTTPResponse:
    """Receive a Mailgun event (delivered, bounced, complained ...) for the account's messages sent through Mailgun.

    Called by Mailgun: the event is signed with the account's Mailgun signing key, and each signature is taken once (403
    otherwise). 400 for a body that is not an event."""
    payload = _payload(request)
    tenant, config = await relay_account(db.connection(), tenant_id, "mailgun", request.app.ctx.settings)
    good, token = mailgun.signed(config, payload)
    if tenant is None or not good or not await mailgun.first_use(request.app.ctx.redis, tenant_id, token):
        raise errors.PermissionDenied(REFUSED)
    event = mailgun.parse(payload)
    try:
        return await _apply(request, tenant.id, [event] if event else [])
    except BaseException:
        await mailgun.forget(request.app.ctx.redis, tenant_id, token)
        raise


@bp.post("/ses/<tenant_id:id>", ctx_auth="signature", ctx_errors=(400, 413, 502), ctx_responses=OUTCOMES)
async def ses_event(request: Request, tenant_id: str) -> HTTPResponse:
    """Amazon SNS posts JSON as text/plain; a SubscriptionConfirmation is confirmed by an actor."""
    envelope = _payload(request)
    settings = request.app.ctx.settings
    tenant, config = await relay_account(db.connection(), tenant_id, "ses", settings)
    try:
        if tenant is None:
            raise sns.NotVerified("no such account")
        await sns.verify(envelope, config, settings)
        if not await sns.first_use(request.app.ctx.redis, tenant_id, envelope.get("MessageId")):
            raise sns.NotVerified("the message was seen before")
    except sns.NotVerified as error:
        raise errors.PermissionDenied(f"{REFUSED} ({error})") from None
    except sns.Unreachable as error:
        log.warning("ses callback of %s: %s", tenant_id, error)
        raise errors.UpstreamError() from None
    try:
        return await _act_on_sns(request, tenant.id, envelope)
    except BaseException:
        await sns.forget(request.app.ctx.redis, tenant_id, envelope.get("MessageId"))
        raise


async def _act_on_sns(request: Request, tenant_pk: int, envelope: dict) -> HTTPResponse:
    kind = envelope.get("Type")
    if kind == "SubscriptionConfirmation":
        url = envelope.get("SubscribeURL")
        problem = subscribe_url_problem(url, envelope.get("TopicArn"))  # the topic: the account's (verified)
        if problem:
            raise errors.PermissionDenied(f"{REFUSED} ({problem})")
        async with db.transaction() as conn:
            await enqueue(conn, Actor.SNS_SUBSCRIPTION_CONFIRM, tenant_pk, url)
        request.app.ctx.wakeup.poke()
        return reply(request, {"Outcomes": ["confirming"]})
    if kind != "Notification":
        return reply(request, {"Outcomes": ["ignored"]})
    return await _apply(request, tenant_pk, ses.parse(envelope.get("Message") or ""))
