"""Account takeover paths: changing the e-mail and adding a passkey need a recent
re-authentication; an e-mail change tells the old address and voids its pending reset links."""

from __future__ import annotations

from tortoise import connections

from tests.fixtures.authenticator import MiniAuthenticator
from tests.fixtures.identity import PASSWORD, enable_totp, make_person, outbox_for, service_headers, unique_email
from tests.identity.test_passkey import register


async def age_session(person, minutes: int = 11) -> None:
    """The session as if its credentials were last presented ``minutes`` ago."""
    from app.identity.tokens import digest

    await connections.get("identity").execute_query(
        "UPDATE sessions SET created_at = created_at - make_interval(mins => $2), "
        "reauthenticated_at = reauthenticated_at - make_interval(mins => $2) WHERE token_hash = $1",
        [digest(person.token), minutes])


async def test_an_old_session_must_reauthenticate_to_change_the_email_or_add_a_passkey(client, identity_url):
    person = await make_person(client, "stale")
    await age_session(person)
    moved = await client.patch(f"/v1/users/{person.id}", json={"email": unique_email("thief")}, headers=person.auth)
    assert moved.status_code == 403
    assert moved.json()["error"]["code"] == "ReauthRequired"
    details = moved.json()["error"]["details"]
    assert details["requires"] == ["password"] and details["max_age_seconds"] == 600
    assert details["accepted"] == ["password", "totp", "email_otp", "passkey"]
    assert {row["method"]: row["available"] for row in details["methods"]} == {
        "password": True, "totp": False, "email_otp": False, "passkey": False}
    assert details["destinations"] == []  # no verified address yet
    options = await client.post("/v1/passkeys/register/options", headers=person.auth)
    assert options.status_code == 403 and options.json()["error"]["code"] == "ReauthRequired"
    renamed = await client.patch(f"/v1/users/{person.id}", json={"name": "Renamed"}, headers=person.auth)
    assert renamed.status_code == 200  # the name is not a way into the account

    wrong = await client.post("/v1/auth/reauth", json={"password": "not the password at all"}, headers=person.auth)
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "InvalidCredentials"
    done = await client.post("/v1/auth/reauth", json={"password": PASSWORD}, headers=person.auth)
    assert done.status_code == 200, done.text
    assert {"reauthenticated_at", "reauth_expires_at"} <= set(done.json())

    assert (await register(client, person, MiniAuthenticator(), identity_url)).status_code == 201
    new_email = unique_email("owner")
    moved = await client.patch(f"/v1/users/{person.id}", json={"email": new_email}, headers=person.auth)
    assert moved.status_code == 200 and moved.json()["user"]["email"] == new_email


async def test_a_passkey_started_on_a_fresh_session_cannot_be_finished_on_a_stale_one(client, identity_url):
    person = await make_person(client, "slowreg")
    options = (await client.post("/v1/passkeys/register/options", headers=person.auth)).json()
    await age_session(person)
    credential = MiniAuthenticator().create(options["options"], identity_url)
    finished = await client.post("/v1/passkeys/register", headers=person.auth,
                                 json={"challenge_id": options["challenge_id"], "credential": credential})
    assert finished.status_code == 403 and finished.json()["error"]["code"] == "ReauthRequired"


async def test_with_an_app_factor_reauthentication_needs_the_code_too(client):
    person = await make_person(client, "stale2fa")
    await enable_totp(client, person)
    await age_session(person)
    moved = await client.patch(f"/v1/users/{person.id}", json={"email": unique_email("thief")}, headers=person.auth)
    assert moved.json()["error"]["details"]["requires"] == ["password", "totp"]

    password_only = await client.post("/v1/auth/reauth", json={"password": PASSWORD}, headers=person.auth)
    assert password_only.status_code == 400 and password_only.json()["error"]["code"] == "TwoFactorMissing"
    wrong = await client.post("/v1/auth/reauth", json={"password": PASSWORD, "recovery_code": "AAAA-BBBB-CCCC"},
                              headers=person.auth)
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "TwoFactorFailed"
    still = await client.patch(f"/v1/users/{person.id}", json={"email": unique_email("thief")}, headers=person.auth)
    assert still.status_code == 403  # a failed re-authentication changes nothing

    # A recovery code stands in for the app (the app's code goes through the same check, and the
    # current step was just used to turn the app on).
    done = await client.post("/v1/auth/reauth", json={"password": PASSWORD, "recovery_code": person.recovery_codes[0]},
                             headers=person.auth)
    assert done.status_code == 200, done.text
    moved = await client.patch(f"/v1/users/{person.id}", json={"email": unique_email("owner")}, headers=person.auth)
    assert moved.status_code == 200


async def test_an_email_change_tells_the_old_address_and_voids_its_reset_links(client):
    person = await make_person(client, "oldbox")
    assert (await client.post("/v1/auth/password/reset", json={"email": person.email})).status_code == 202
    token = (await outbox_for(person.email, "reset"))["data"]["token"]

    new_email = unique_email("newbox")
    moved = await client.patch(f"/v1/users/{person.id}", json={"email": new_email}, headers=person.auth)
    assert moved.status_code == 200, moved.text
    notice = await outbox_for(person.email, "email_changed")
    assert notice["data"] == {"user_id": person.id}
    assert new_email not in notice["text"] and f"{new_email[0]}***@example.com" in notice["text"]
    assert "token" not in notice["text"] and "http" not in notice["text"]
    assert (await outbox_for(new_email, "verify"))["data"]["token"].startswith("hev_")

    late = await client.post("/v1/auth/password/reset/confirm",
                             json={"token": token, "password": "a brand new long passphrase"})
    assert late.status_code == 400 and late.json()["error"]["code"] == "InvalidInput"


async def test_the_service_credential_changes_an_email_without_a_session(client):
    person = await make_person(client, "serviced")
    await age_session(person)
    new_email = unique_email("serviced")
    moved = await client.patch(f"/v1/users/{person.id}", json={"email": new_email}, headers=service_headers())
    assert moved.status_code == 200 and moved.json()["user"]["email"] == new_email
