"""Users, e-mail verification and password reset (tokens read from the identity outbox)."""

from __future__ import annotations

import httpx

from tests.fixtures.identity import PASSWORD, make_person, outbox_for, service_headers, unique_email


async def test_create_user_on_both_paths_and_never_return_the_hash(client):
    for path in ("/v1/users", "/v1/users/"):
        email = unique_email("new")
        response = await client.post(path, json={"email": email, "password": PASSWORD, "name": "New"})
        assert response.status_code == 201, response.text
        user = response.json()["user"]
        assert user["id"].startswith("usr_") and user["email"] == email
        assert user["email_verified"] is False
        assert "$2b$" not in response.text and "password" not in response.text


async def test_bcrypt_cost_is_at_least_12(start_server):
    """On a server with the product's default cost (the tests' other servers hash at cost 4)."""
    from models.identity import User

    server = start_server("identity", PASSWORD_HASH_COST="")
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        person = await make_person(http, "cost", login=False)
    stored = await User.get(public_id=person.id)
    assert int(stored.password_hash.split("$")[2]) >= 12


async def test_duplicate_email_is_409_case_insensitive(client, people):
    response = await client.post("/v1/users", json={"email": people["plain"].email.upper(), "password": PASSWORD})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "Conflict"


async def test_common_password_is_refused(client):
    response = await client.post("/v1/users", json={"email": unique_email(), "password": "password123"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "WeakPassword"


async def test_get_user_needs_own_session_or_service_credential(client, people):
    plain, guarded = people["plain"], people["guarded"]
    own = await client.get(f"/v1/users/{plain.id}", headers=plain.auth)
    assert own.status_code == 200 and own.json()["user"]["email"] == plain.email
    other = await client.get(f"/v1/users/{plain.id}", headers=guarded.auth)
    assert other.status_code == 404
    service = await client.get(f"/v1/users/{plain.id}", headers=service_headers())
    assert service.status_code == 200
    anonymous = await client.get(f"/v1/users/{plain.id}")
    assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "MissingToken"


async def test_verify_email_then_change_makes_it_unverified_and_mails_the_new_address(client):
    person = await make_person(client, "verify")
    mail = await outbox_for(person.email, "verify")
    verified = await client.post("/v1/auth/verify", json={"token": mail["data"]["token"]})
    assert verified.status_code == 200 and verified.json()["user"]["email_verified"] is True

    again = await client.post("/v1/auth/verify", json={"token": mail["data"]["token"]})
    bogus = await client.post("/v1/auth/verify", json={"token": "hev_bogus"})
    assert again.status_code == bogus.status_code == 400
    assert again.json()["error"] == bogus.json()["error"]

    new_email = unique_email("moved")
    patched = await client.patch(f"/v1/users/{person.id}", json={"email": new_email, "name": "Moved"},
                                 headers=person.auth)
    assert patched.status_code == 200
    assert patched.json()["user"]["email"] == new_email and patched.json()["user"]["email_verified"] is False
    assert patched.json()["user"]["name"] == "Moved"
    second = await outbox_for(new_email, "verify")
    assert (await client.post("/v1/auth/verify", json={"token": second["data"]["token"]})).status_code == 200


async def test_patch_cannot_change_the_password(client, people):
    plain = people["plain"]
    response = await client.patch(f"/v1/users/{plain.id}", json={"password": "x" * 20}, headers=plain.auth)
    assert response.status_code == 400 and response.json()["error"]["code"] == "InvalidRequest"


async def test_expired_verification_token_answers_like_an_invalid_one(client):
    from datetime import datetime, timedelta, timezone

    from app.identity.tokens import digest
    from models.identity import EmailToken

    person = await make_person(client, "late", login=False)
    token = (await outbox_for(person.email, "verify"))["data"]["token"]
    await EmailToken.filter(token_hash=digest(token)).update(expires_at=datetime.now(timezone.utc) - timedelta(1))
    expired = await client.post("/v1/auth/verify", json={"token": token})
    bogus = await client.post("/v1/auth/verify", json={"token": "hev_nothing"})
    assert expired.status_code == 400 and expired.json()["error"] == bogus.json()["error"]


async def test_password_reset_revokes_every_session(client):
    person = await make_person(client, "reset")
    assert (await client.post("/v1/auth/password/reset", json={"email": person.email})).status_code == 202
    unknown = await client.post("/v1/auth/password/reset", json={"email": unique_email("nobody")})
    assert unknown.status_code == 202
    reset_mail = await outbox_for(person.email, "reset")
    token = reset_mail["data"]["token"]
    assert token in reset_mail["text"] and token not in reset_mail["subject"]

    short = await client.post("/v1/auth/password/reset/confirm", json={"token": token, "password": "Short-pw-1"})
    assert short.status_code == 422 and short.json()["error"]["code"] == "WeakPassword"
    common = await client.post("/v1/auth/password/reset/confirm", json={"token": token, "password": "passwordpassword"})
    assert common.status_code == 422

    new_password = "a new and much longer passphrase"
    done = await client.post("/v1/auth/password/reset/confirm", json={"token": token, "password": new_password})
    assert done.status_code == 200, done.text
    assert (await client.get("/v1/auth/validate", headers=person.auth)).json()["error"]["code"] == "ExpiredToken"
    reuse = await client.post("/v1/auth/password/reset/confirm", json={"token": token, "password": new_password})
    assert reuse.status_code == 400
    old = await client.post("/v1/auth/login", json={"email": person.email, "password": PASSWORD})
    assert old.status_code == 401
    new = await client.post("/v1/auth/login", json={"email": person.email, "password": new_password})
    assert new.status_code == 200


async def test_password_reset_needs_the_second_factor_when_the_account_has_one(client):
    from tests.fixtures.identity import enable_totp

    person = await make_person(client, "reset2fa")
    await enable_totp(client, person)
    await client.post("/v1/auth/password/reset", json={"email": person.email})
    token = (await outbox_for(person.email, "reset"))["data"]["token"]
    new_password = "another long enough passphrase"
    missing = await client.post("/v1/auth/password/reset/confirm", json={"token": token, "password": new_password})
    assert missing.status_code == 400 and missing.json()["error"]["code"] == "TwoFactorMissing"
    wrong = await client.post("/v1/auth/password/reset/confirm",
                              json={"token": token, "password": new_password, "recovery_code": "AAAA-BBBB-CCCC"})
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "TwoFactorFailed"
    done = await client.post("/v1/auth/password/reset/confirm",
                             json={"token": token, "password": new_password,
                                   "recovery_code": person.recovery_codes[0]})
    assert done.status_code == 200, done.text
