"""The security trail: what happened to an account, newest first, in keyset pages."""

from __future__ import annotations

from tests.fixtures.identity import PASSWORD, make_person, outbox_for


async def test_the_trail_records_and_pages(client):
    person = await make_person(client, "trail")
    wrong = await client.post("/v1/auth/login", json={"email": person.email, "password": "not the password"},
                              headers={"User-Agent": "trail-test"})
    assert wrong.status_code == 401
    second = await client.post("/v1/auth/login", json={"email": person.email, "password": PASSWORD})
    sid = second.json()["session"]["id"]
    assert (await client.delete(f"/v1/auth/sessions/{sid}", headers=person.auth)).status_code == 204

    first = await client.get("/v1/auth/events?limit=2", headers=person.auth)
    assert first.status_code == 200, first.text
    page = first.json()
    assert [row["kind"] for row in page["events"]] == ["session_revoked", "login"]
    assert page["has_more"] is True and page["next_before"] == page["events"][-1]["id"]
    rest = (await client.get(f"/v1/auth/events?before={page['next_before']}", headers=person.auth)).json()
    kinds = [row["kind"] for row in rest["events"]]
    assert kinds == ["login_failed", "login"] and rest["has_more"] is False and rest["next_before"] is None
    assert rest["events"][0]["user_agent"] == "trail-test"

    other = await make_person(client, "trail2")
    foreign = await client.get(f"/v1/auth/events?before={page['next_before']}", headers=other.auth)
    assert foreign.status_code == 400  # another person's event names no place in this trail
    assert (await client.get("/v1/auth/events?limit=0", headers=person.auth)).status_code == 400
    assert (await client.get("/v1/auth/events?color=red", headers=person.auth)).status_code in (400, 422)


async def test_a_reset_of_an_email_method_account_needs_the_emailed_code(client):
    person = await make_person(client, "resetotp")
    link = (await outbox_for(person.email, "verify"))["data"]["token"]
    assert (await client.post("/v1/auth/verify", json={"token": link})).status_code == 200
    switched = await client.post("/v1/2fa/email", json={"password": PASSWORD}, headers=person.auth)
    assert switched.status_code == 200, switched.text
    assert (await client.post("/v1/auth/password/reset", json={"email": person.email})).status_code == 202
    token = (await outbox_for(person.email, "reset"))["data"]["token"]
    forged = await client.post("/v1/auth/password/reset/send-otp", json={"token": "hpr_forged"})
    assert forged.status_code == 202  # neutral
    missing = await client.post("/v1/auth/password/reset/confirm",
                                json={"token": token, "password": "a brand new long passphrase"})
    assert missing.status_code == 400 and missing.json()["error"]["code"] == "TwoFactorMissing"
    sent = await client.post("/v1/auth/password/reset/send-otp", json={"token": token})
    assert sent.status_code == 202, sent.text
    mail = await outbox_for(person.email, "2fa_code")
    assert mail["subject"] == "Your Herald password reset code"
    done = await client.post("/v1/auth/password/reset/confirm",
                             json={"token": token, "password": "a brand new long passphrase",
                                   "code": mail["data"]["code"]})
    assert done.status_code == 200, done.text
    assert (await client.get("/v1/auth/sessions", headers=person.auth)).status_code == 401
