"""``POST /v1/auth/verify/resend``: the session's own verification link again, throttled."""

from __future__ import annotations

from tests.fixtures.identity import make_person, outbox_for


async def test_resend_sends_a_new_link_until_verified(client):
    person = await make_person(client, "reverify")
    first = (await outbox_for(person.email, "verify"))["data"]["token"]
    assert (await client.post("/v1/auth/verify/resend")).status_code == 401
    sent = await client.post("/v1/auth/verify/resend", headers=person.auth)
    assert sent.status_code == 202 and sent.json()["sent"] is True, sent.text
    newer = (await outbox_for(person.email, "verify"))["data"]["token"]
    assert newer != first
    assert (await client.post("/v1/auth/verify", json={"token": first})).status_code == 200  # both links work
    done = await client.post("/v1/auth/verify/resend", headers=person.auth)
    assert done.status_code == 409 and done.json()["error"]["code"] == "Conflict"
