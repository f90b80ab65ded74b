"""Delivery re-checks, driven through the real accept path and the real actor code."""

from datetime import datetime, timezone

from app.platform.accept import Draft, Item, accept
from app.platform.principal import KeyDirectory
from models.platform.domain import SenderDomain, Suppression
from models.platform.message import Message, MessageEvent
from models.platform.tenant import Tenant
from tasks.delivery import deliver
from tests.platform.conftest import verify_domain


async def _accept_one(account, sender_address: str, recipient: str = "to@example.com") -> Message:
    principal = await KeyDirectory().lookup(account.key)
    draft = Draft(recipient, "to", sender_address, "s", {"Text": "t", "Html": None}, None)
    [outcome] = await accept(principal, "email", "email.send", [Item([draft])], compare_bodies=False)
    return await Message.get(public_id=outcome.message_ids[0])


async def test_a_domain_that_loses_verification_fails_its_queued_messages(make_account):
    account = await make_account(scopes=("email:send",))
    await verify_domain(account.tenant_id, "lost.example")
    message = await _accept_one(account, "news@lost.example")
    await SenderDomain.filter(name="lost.example").update(verified_at=None)
    # Whoever gets the message first (this call, or the test pipeline's worker), it fails.
    await deliver(message.id)
    await message.refresh_from_db()
    assert message.status == "failed"
    assert message.failure_reason.startswith("DomainNotVerified")
    assert message.provider is None  # never handed to a provider, with this sender or another


async def test_a_suppressed_recipient_fails(make_account):
    account = await make_account(scopes=("email:send",))
    await verify_domain(account.tenant_id, "ok.example")
    tenant = await Tenant.get(public_id=account.tenant_id)
    await Suppression.create(tenant=tenant, channel="email", address="gone@example.com", reason="bounce")
    message = await _accept_one(account, "a@ok.example", "gone@example.com")
    await deliver(message.id)
    await message.refresh_from_db()
    assert message.status == "failed" and message.failure_reason.startswith("SuppressedAddress")


async def test_delivering_twice_sends_once(make_account):
    account = await make_account(scopes=("email:send",))
    await verify_domain(account.tenant_id, "twice.example")
    message = await _accept_one(account, "a@twice.example")
    outcomes = {await deliver(message.id), await deliver(message.id)}
    await message.refresh_from_db()
    assert message.status == "sent"
    assert "skipped" in outcomes
    assert await MessageEvent.filter(message_id=message.id, type="sent").count() == 1
    assert message.updated_at <= datetime.now(timezone.utc)
