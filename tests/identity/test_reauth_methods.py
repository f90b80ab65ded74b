"""Re-authentication by each method: password, app code, a code e-mailed to a chosen verified
address, the person's own passkey; recovery codes need a recent second factor."""

from __future__ import annotations

from tests.fixtures.authenticator import MiniAuthenticator
from tests.fixtures.identity import PASSWORD, make_person, outbox_for, unique_email
from tests.identity.test_address import add_verified
from tests.identity.test_passkey import register
from tests.identity.test_session_reauth import age_session


async def status(client, person, accepted: str = "") -> dict:
    answer = await client.get("/v1/auth/reauth" + (f"?accepted={accepted}" if accepted else ""), headers=person.auth)
    assert answer.status_code == 200, answer.text
    return answer.json()


async def test_an_emailed_code_to_a_verified_address(client):
    person = await make_person(client, "otp")
    backup = await add_verified(client, person)
    await age_session(person)
    state = await status(client, person)
    assert state["recent"] is False
    [destination] = [row for row in state["destinations"] if not row["primary"]]
    assert destination["masked"] == f"{backup[0]}***@example.com"
    assert not any(row["primary"] for row in state["destinations"])  # the primary is not verified

    known = state["destinations"][0]["email_id"]
    other = known[:-1] + ("1" if known.endswith("0") else "0")  # an id of nobody's (the last hex digit changed)
    unverified = await client.post("/v1/auth/reauth/start", json={"method": "email_otp", "email_id": other},
                                   headers=person.auth)
    assert unverified.status_code in (400, 404), unverified.text
    started = await client.post("/v1/auth/reauth/start", json={"method": "email_otp",
                                                               "email_id": destination["email_id"]}, headers=person.auth)
    assert started.status_code == 200, started.text
    challenge = started.json()["challenge_id"]
    mail = await outbox_for(backup, "2fa_code")
    assert mail["subject"] == "Your Herald confirmation code" and mail["data"]["code"] not in mail["subject"]
    wrong = await client.post("/v1/auth/reauth", json={"method": "email_otp", "challenge_id": challenge,
                                                       "code": "000000" if mail["data"]["code"] != "000000" else "111111"},
                              headers=person.auth)
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "TwoFactorFailed"
    done = await client.post("/v1/auth/reauth", json={"method": "email_otp", "challenge_id": challenge,
                                                      "code": mail["data"]["code"]}, headers=person.auth)
    assert done.status_code == 200 and done.json()["method"] == "email_otp", done.text
    assert (await status(client, person, "totp,email_otp"))["recent"] is True
    reused = await client.post("/v1/auth/reauth", json={"method": "email_otp", "challenge_id": challenge,
                                                        "code": mail["data"]["code"]}, headers=person.auth)
    assert reused.status_code == 401


async def test_app_code_and_recovery_codes_need_a_second_factor_proof(client, app_code_person):
    person = app_code_person  # the app on, its step made older: its next code needs no wait
    fresh = await client.post("/v1/auth/recovery-codes", headers=person.auth)
    assert fresh.status_code == 403, fresh.text  # the login was by password alone
    details = fresh.json()["error"]["details"]
    assert details["accepted"] == ["totp", "email_otp"] and details["methods"][0] == {
        "method": "totp", "available": True, "reason": None}

    password_only = await client.post("/v1/auth/reauth", json={"method": "password", "password": PASSWORD},
                                      headers=person.auth)
    assert password_only.status_code == 400 and password_only.json()["error"]["code"] == "TwoFactorMissing"
    by_app = await client.post("/v1/auth/reauth", json={"method": "totp", "code": person.code()}, headers=person.auth)
    assert by_app.status_code == 200 and by_app.json()["method"] == "totp", by_app.text
    codes = await client.post("/v1/auth/recovery-codes", headers=person.auth)
    assert codes.status_code == 200 and len(codes.json()["recovery_codes"]) == 10, codes.text
    old = person.recovery_codes[0]
    login = await client.post("/v1/auth/login", json={"email": person.email, "password": PASSWORD})
    stale = await client.post("/v1/2fa/check", json={"ticket": login.json()["ticket"], "recovery_code": old})
    assert stale.status_code == 401  # earlier codes stop working


async def test_the_persons_own_passkey(client, identity_url):
    person = await make_person(client, "pkre")
    device = MiniAuthenticator()
    assert (await register(client, person, device, identity_url)).status_code == 201
    other = await make_person(client, "pkother")
    await age_session(person)
    started = await client.post("/v1/auth/reauth/start", json={"method": "passkey"}, headers=person.auth)
    assert started.status_code == 200, started.text
    body = started.json()
    assert body["options"]["allowCredentials"]
    foreign = await client.post("/v1/auth/reauth", headers=other.auth, json={
        "method": "passkey", "challenge_id": body["challenge_id"], "credential": device.get(body["options"], identity_url)})
    assert foreign.status_code == 400 and foreign.json()["error"]["code"] == "DesafioExpirado"  # not theirs
    done = await client.post("/v1/auth/reauth", headers=person.auth, json={
        "method": "passkey", "challenge_id": body["challenge_id"], "credential": device.get(body["options"], identity_url)})
    assert done.status_code == 200 and done.json()["method"] == "passkey", done.text
    added = await client.post("/v1/auth/emails", json={"email": unique_email("pk")}, headers=person.auth)
    assert added.status_code == 202
    nokey = await client.post("/v1/auth/reauth/start", json={"method": "passkey"}, headers=other.auth)
    assert nokey.status_code == 400
