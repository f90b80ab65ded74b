"""One HTTP parser (issue 36): every request is framed by Sanic's own parser, so a body that arrives
after its request was answered (a GET's, a 404's, a 405's, or one refused before its body was read)
is read as that request's body and never as a request of its own. Before, a fast path below Sanic
took such a body for a new request: a send that no proxy in front of Herald ever saw was accepted,
written and answered, putting the connection's answers out of step (request smuggling)."""

from __future__ import annotations

import json

import pytest

from models.platform.message import Message
from models.platform.tenant import Tenant
from tests.fixtures.platform import email
from tests.fixtures.rawhttp import late_body, request

HEALTHZ = request("GET", "/healthz")


def hidden_send(key: str, recipient: str) -> bytes:
    return request("POST", "/v1/emails/send", json.dumps(email(to=[recipient])).encode(),
                   Authorization=f"Bearer {key}", Content_Type="application/json")


def announcing(method: str, target: str, body: bytes, **headers: str) -> bytes:
    """The head of a request whose Content-Length announces ``body``, without the body."""
    return request(method, target, body, **headers)[:-len(body)]


@pytest.mark.parametrize("method, target, first_status", [
    ("GET", "/healthz", 200),  # a GET route never reads its body
    ("POST", "/nowhere", 404),  # no route: refused before the body is read
    ("PUT", "/v1/emails/send", 405),  # no such method
    ("GET", "/v1/logs", 401),  # refused by the gate (middleware), the body unread
])
async def test_a_late_body_is_the_answered_requests_body_never_a_request(platform, servers, sender, method, target,
                                                                        first_status):
    recipient = f"smuggled-{method.lower()}-{first_status}@example.com"
    body = hidden_send(sender.key, recipient)
    answers = await late_body(servers("platform").url, announcing(method, target, body), body, then=HEALTHZ)

    statuses = [status for status, _, _ in answers]
    assert statuses == [first_status, 200], statuses  # the request's answer, then the next request's
    assert json.loads(answers[1][2])["status"] == "ok"  # the healthz asked for after the body
    tenant = await Tenant.get(public_id=sender.tenant_id)
    assert await Message.filter(tenant_id=tenant.id, recipient=recipient).count() == 0


async def test_a_body_over_the_limit_closes_the_connection_with_one_answer(platform, servers, sender):
    """Refused at its head (413): the rest of the connection is never read as requests."""
    recipient = "smuggled-413@example.com"
    body = hidden_send(sender.key, recipient)
    # A route of the 2 MiB limit (an e-mail send's is larger: it may carry 10 MB of attachments).
    head = request("POST", "/v1/sms/send", Authorization=f"Bearer {sender.key}", Content_Length=str(3 * 1024 * 1024))
    answers = await late_body(servers("platform").url, head, body, then=HEALTHZ)

    assert [status for status, _, _ in answers] == [413]
    tenant = await Tenant.get(public_id=sender.tenant_id)
    assert await Message.filter(tenant_id=tenant.id, recipient=recipient).count() == 0


async def test_a_send_in_one_write_is_still_accepted(platform, servers, sender):
    """The route answers what the fast path used to: a whole send written at once, then another on
    the same connection."""
    from tests.fixtures.rawhttp import Connection

    connection = await Connection.open(servers("platform").url)
    try:
        await connection.send(hidden_send(sender.key, "one-write@example.com") + HEALTHZ)
        first, second = await connection.answer(), await connection.answer()
    finally:
        await connection.close()
    assert (first[0], second[0]) == (202, 200)
    tenant = await Tenant.get(public_id=sender.tenant_id)
    assert await Message.filter(tenant_id=tenant.id, recipient="one-write@example.com").count() == 1
