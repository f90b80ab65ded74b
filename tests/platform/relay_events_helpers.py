"""What the relay event tests share: an account sending through a relay configured against a local
server that speaks the relay's API, messages really delivered through it (so the relay's message id
is the one delivery kept), and the checks of a message's end state."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timezone

from app.platform.domain.service import add_sender_domain
from models.platform.api_key import KeyKind
from models.platform.message import Message, MessageEvent
from models.platform.provider_config import set_provider_config
from models.platform.suppression import Suppression
from models.platform.tenant import Tenant
from tasks.platform.delivery import deliver
from tests.fixtures.webhooks import register

SCOPES = ("email:send", "email:read", "suppressions:read", "webhooks:manage")
EVENTS = ["email.delivered", "email.bounced", "email.complained"]


@dataclass
class RelaySender:
    account: object
    tenant: Tenant
    domain: str

    @property
    def tenant_id(self) -> str:
        return self.account.tenant_id


async def relay_sender(make_account, platform, receiver, key: str, settings: dict, secret: dict) -> RelaySender:
    """A live account with a verified domain, sending through ``key``, its webhooks to ``receiver``."""
    account = await make_account(scopes=SCOPES, kind=KeyKind.LIVE)
    tenant = await Tenant.get(public_id=account.tenant_id)
    domain = await add_sender_domain(tenant.id, f"relay{secrets.token_hex(4)}.example")
    domain.verified_at = datetime.now(timezone.utc)
    await domain.save()
    await set_provider_config(tenant.id, "email", key, settings, secret)
    await register(platform, account, receiver.url, EventTypes=EVENTS)
    return RelaySender(account, tenant, domain.name)


async def sent_message(sender: RelaySender, recipient: str) -> Message:
    message = await Message.create(tenant=sender.tenant, channel="email", mode="live", recipient=recipient,
                                   recipient_role="to", sender=f"Ana <ana@{sender.domain}>", subject="Your order",
                                   content={"Text": "Thanks", "To": [recipient]})
    assert await deliver(message.id) == "sent"
    await message.refresh_from_db()
    sent = await MessageEvent.get(message_id=message.id, type="sent")
    assert sent.detail["RelayMessageId"] == message.provider_message_id  # on the timeline
    return message


async def status_of(message: Message) -> str:
    await message.refresh_from_db()
    return message.status


async def timeline(message: Message) -> list[str]:
    return [event.type for event in await MessageEvent.filter(message_id=message.id).order_by("id")]


async def suppressed(sender: RelaySender, address: str) -> str | None:
    row = await Suppression.get_or_none(tenant_id=sender.tenant.id, address=address)
    return row.reason if row else None


def tag() -> str:
    return secrets.token_hex(3)
