"""Delivery re-checks, driven through the real accept path and the real actor code.

The session's test pipeline (when one runs) may take a message before these calls do: each test
waits for the message to settle, whoever delivered it, and checks the outcome and what the
provider (the e-mail sink) was asked.
"""

import asyncio
import time

from tortoise import connections

from app.platform.api_key.principal import KeyDirectory
from app.platform.message.service import Draft, Item, accept
from models.platform.domain import SenderDomain, Suppression
from models.platform.message import Message, MessageEvent, MessageStatus
from models.platform.tenant import Tenant
from providers.sink import read_calls
from tasks.platform.delivery import deliver
from tests.fixtures.platform import verify_domain


async def _accept_one(account, sender_address: str, recipient: str = "to@example.com") -> Message:
    principal = await KeyDirectory().lookup(account.key)
    draft = Draft(recipient, "to", sender_address, "s", {"Text": "t", "Html": None}, None)
    [outcome] = await accept(connections.get("platform"), principal, "email", "email.send", [Item([draft])],
                             compare_bodies=False)
    return await Message.get(public_id=outcome.message_ids[0])


async def _settled(message: Message, seconds: float = 20.0) -> Message:
    """The message once it is neither queued nor being sent (whoever delivers it)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await message.refresh_from_db()
        if MessageStatus(message.status).final:
            return message
        await asyncio.sleep(0.05)
    raise AssertionError(f"{message.public_id} still {message.status} after {seconds}s")


def _provider_calls(services, message: Message) -> int:
    calls = read_calls(services.sink_dir / "email")
    return sum(1 for call in calls if call["MessageId"] == message.public_id)


async def test_a_domain_that_loses_verification_fails_its_queued_messages(make_account, services):
    account = await make_account(scopes=("email:send",))
    await verify_domain(account.tenant_id, "lost.example")
    message = await _accept_one(account, "news@lost.example")
    await SenderDomain.filter(name="lost.example").update(verified_at=None)
    await deliver(message.id)
    message = await _settled(message)
    assert message.status == MessageStatus.FAILED
    assert message.failure_reason.startswith("DomainNotVerified")
    assert message.provider is None  # never handed to a provider, with this sender or another
    assert _provider_calls(services, message) == 0


async def test_a_suppressed_recipient_fails(make_account, services):
    account = await make_account(scopes=("email:send",))
    await verify_domain(account.tenant_id, "ok.example")
    tenant = await Tenant.get(public_id=account.tenant_id)
    message = await _accept_one(account, "a@ok.example", "gone@example.com")
    # Suppressed after the accept (which refuses a suppressed address itself): delivery checks again.
    await Suppression.create(tenant=tenant, channel="email", address="gone@example.com", reason="bounce")
    await deliver(message.id)
    message = await _settled(message)
    assert message.status == MessageStatus.FAILED and message.failure_reason.startswith("SuppressedAddress")
    assert _provider_calls(services, message) == 0


async def test_delivering_twice_sends_once(make_account, services):
    account = await make_account(scopes=("email:send",))
    await verify_domain(account.tenant_id, "twice.example")
    message = await _accept_one(account, "a@twice.example")
    first = await deliver(message.id)
    second = await deliver(message.id)
    # The first call sends, unless the pipeline's worker holds the message; the second finds
    # nothing left to claim either way.
    assert first in ("sent", "skipped") and second == "skipped"
    message = await _settled(message)
    assert message.status == MessageStatus.SENT
    # The provider was asked once, by whichever delivery claimed the message.
    assert _provider_calls(services, message) == 1
    assert await MessageEvent.filter(message_id=message.id, type="sent").count() == 1


async def test_a_purge_content_tenant_keeps_no_content_once_final(make_account, services):
    """The system tenant's e-mails carry sign-in codes and reset links: once final, the content
    (bodies, headers) is gone from the platform; another tenant's stays readable."""
    from app.platform.api_key.service import create_key
    from app.platform.tenant.service import create_tenant
    from models.platform.api_key import KeyKind
    from tests.fixtures.platform import Account

    tenant = await create_tenant("Herald system", purge_content=True)
    _, plaintext = await create_key(tenant.public_id, "identity mail", ["email:send"], KeyKind.TEST)
    purged = Account(tenant.public_id, "", plaintext)
    kept = await make_account(scopes=("email:send",), kind=KeyKind.TEST)
    first = await _accept_one(purged, "accounts@sandbox.herald.test")
    second = await _accept_one(kept, "accounts@sandbox.herald.test")
    for message in (first, second):  # delivered here, or by the session's pipeline if it ran
        await deliver(message.id)
        await _settled(message)
    assert first.status == second.status == MessageStatus.SENT.value
    assert first.content == {"Purged": True}
    assert second.content == {"Text": "t", "Html": None}


def _statements_and_outcomes() -> tuple[float, float]:
    from tasks.platform.outcomes import OUTCOMES_PER_STATEMENT

    samples = {sample.name: sample.value for metric in OUTCOMES_PER_STATEMENT.collect() for sample in metric.samples}
    return samples["herald_delivery_outcomes_per_statement_count"], samples["herald_delivery_outcomes_per_statement_sum"]


async def test_outcomes_that_end_together_are_written_together(make_account, services):
    """Deliveries that finish at one moment share one statement (tasks/platform/outcomes.py); each
    message still gets its own state, its one `sent` event and its count in the reports."""
    from models.platform.message import claim
    from tasks.platform import outcomes

    account = await make_account(scopes=("email:send",))
    await verify_domain(account.tenant_id, "together.example")
    messages = [await _accept_one(account, "a@together.example", f"r{index}@example.com") for index in range(12)]
    connection = connections.get("platform")
    claimed = [message for message in messages if await claim(connection, message.id, 60) is not None]
    assert len(claimed) >= 2  # the session's pipeline, when it runs, takes a few at most this soon
    statements, written = _statements_and_outcomes()
    results = await asyncio.gather(*(outcomes.finish(connection, message.id, MessageStatus.SENT, provider="sink",
                                                     provider_message_id=f"p-{message.id}", detail={"Provider": "sink"})
                                     for message in claimed))
    assert results == [True] * len(claimed)
    after = _statements_and_outcomes()
    assert after[1] - written == len(claimed)
    assert after[0] - statements < len(claimed)  # fewer statements than outcomes
    for message in claimed:
        await message.refresh_from_db()
        assert message.status == MessageStatus.SENT and message.provider_message_id == f"p-{message.id}"
        assert await MessageEvent.filter(message_id=message.id, type="sent").count() == 1
    tenant = await Tenant.get(public_id=account.tenant_id)
    [row] = await connection.execute_query_dict(
        "SELECT COALESCE(sum(count), 0) AS n FROM report_counters WHERE tenant_id = $1 AND status = 'sent'", [tenant.id])
    assert row["n"] >= len(claimed)
    # Written again, none is `sending` any more: each caller hears False, nothing changes.
    again = await asyncio.gather(*(outcomes.finish(connection, message.id, MessageStatus.FAILED, failure_reason="x")
                                   for message in claimed))
    assert again == [False] * len(claimed)
    for message in claimed:
        assert await MessageEvent.filter(message_id=message.id, type="failed").count() == 0
