"""The rules of storing received mail, called directly on the mail database: a mailbox's quota, the
same message stored once, and the 30-day retention sweep (schedules/mail/received.py)."""

from __future__ import annotations

import pytest
from tortoise import connections

from app.http import errors
from app.mail.received import service
from app.mail.received.service import Incoming, MailboxFull
from models.mail import ReceivedMessage
from schedules.mail.received import prune_received
from tests.mail.conftest import sign_up, verified_domain


def raw(subject: str, size: int) -> bytes:
    head = f"From: a@elsewhere.example\r\nSubject: {subject}\r\n\r\n".encode()
    return head + b"x" * (size - len(head))


async def test_quota_duplicates_and_retention(mail, core, dns_server):
    person = await sign_up(core)
    name = await verified_domain(mail, dns_server, person.headers)
    assert (await mail.post("/v1/mailboxes", headers=person.headers, json={"address": f"q@{name}"})).status_code == 201
    conn = connections.get("mail")

    first, new = await service.store(conn, Incoming(f"q@inbound.{name}", "a@elsewhere.example", raw("one", 600)), 1000)
    assert new and first.size == 600 and first.tenant_id == person.tenant_id
    again, new = await service.store(conn, Incoming(f"q@{name}", "a@elsewhere.example", raw("one", 600)), 1000)
    assert not new and again.id == first.id
    with pytest.raises(MailboxFull):
        await service.store(conn, Incoming(f"q@{name}", "a@elsewhere.example", raw("two", 600)), 1000)
    second, new = await service.store(conn, Incoming(f"q@{name}", "a@elsewhere.example", raw("two", 300)), 1000)
    assert new
    with pytest.raises(errors.NotFound):
        await service.store(conn, Incoming(f"nobody@{name}", "a@elsewhere.example", raw("three", 10)), 1000)

    await conn.execute_query("UPDATE received_messages SET received_at = now() - interval '31 days' WHERE id = $1",
                             [first.id])
    assert await prune_received() >= 1
    assert not await ReceivedMessage.filter(id=first.id).exists()
    assert await ReceivedMessage.filter(id=second.id).exists()
