"""The dashboard's "done when" path over HTTP, both servers really running: sign up through the
identity server, sign in at /api/auth/login with a cookie, turn TOTP on, sign in again with the
code, reset the password and find every old session dead."""

from __future__ import annotations

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import (
    PASSWORD,
    bearer,
    cookie,
    make_person,
    outbox_for,
    sign_in,
)
from tests.fixtures.identity import as_if_a_step_passed

NEW_PASSWORD = "a much longer new passphrase 7"


async def test_sign_in_turn_on_totp_sign_in_with_the_code_and_reset(dashboard, identity):
    person = await make_person(identity, "flow", login=False)
    first = (await sign_in(dashboard, person))["Token"]

    off = await dashboard.get("/api/auth/2fa", headers=cookie(first))
    assert off.status_code == 200 and off.json()["Status"] == "NONE" and off.json()["Enabled"] is False
    empty = await dashboard.post("/api/auth/2fa/setup", json={"Password": ""}, headers=cookie(first))
    assert empty.status_code == 400, empty.text
    wrong = await dashboard.post("/api/auth/2fa/setup", json={"Password": "not it"}, headers=cookie(first))
    assert wrong.status_code == 401, wrong.text
    setup = await dashboard.post("/api/auth/2fa/setup", json={"Password": PASSWORD}, headers=cookie(first))
    assert setup.status_code == 200, setup.text
    assert setup.json()["QrUrl"].startswith("otpauth://totp/") and setup.json()["Status"] == "PENDING"
    person.totp_secret = setup.json()["Secret"]
    pending = await dashboard.get("/api/auth/2fa", headers=cookie(first))
    assert pending.json()["Status"] == "PENDING" and pending.json()["Enabled"] is False  # a secret is not a factor
    assert (await sign_in(dashboard, person))["TwoFactorRequired"] is False  # not enforced before verify
    verify = await dashboard.post("/api/auth/2fa/verify", json={"Code": person.code()}, headers=cookie(first))
    assert verify.status_code == 200, verify.text
    recovery = verify.json()["RecoveryCodes"]
    assert len(recovery) == 10
    confirmed = await dashboard.get("/api/auth/2fa", headers=bearer(first))
    assert confirmed.json()["Status"] == "CONFIRMED" and confirmed.json()["Enabled"] is True

    challenged = await sign_in(dashboard, person)
    assert challenged["TwoFactorRequired"] is True and challenged["Token"] == ""
    ticket = challenged["TwoFactorToken"]
    bad = await dashboard.post("/api/auth/2fa", json={"TwoFactorToken": ticket, "Code": "000000"})
    assert bad.status_code == 401 and bad.json()["Error"]["Code"].startswith("TwoFactor"), bad.text
    await as_if_a_step_passed(person)
    second = await dashboard.post("/api/auth/2fa", json={"TwoFactorToken": ticket, "Code": person.code()})
    assert second.status_code == 200, second.text
    second_token = second.json()["Token"]
    assert second.json()["UserId"] == person.id and "herald_session=" in second.headers["set-cookie"]
    assert (await dashboard.get("/api/auth/me", headers=cookie(second_token))).status_code == 200

    for email in (person.email, "nobody-flow@example.com"):  # neutral either way
        asked = await dashboard.post("/api/auth/password-reset", json={"Email": email})
        assert asked.status_code == 200 and asked.json()["Status"] == "ok", asked.text
    token = (await outbox_for(person.email, "reset"))["data"]["token"]
    forged = await dashboard.post("/api/auth/password-reset/confirm",
                                  json={"Token": "hpr_forged", "Password": NEW_PASSWORD})
    assert forged.status_code == 401 and forged.json()["Error"]["Code"] == "InvalidToken", forged.text
    no_code = await dashboard.post("/api/auth/password-reset/confirm", json={"Token": token, "Password": NEW_PASSWORD})
    assert no_code.status_code == 401 and no_code.json()["Error"]["Code"] == "TwoFactorRequired", no_code.text
    short = await dashboard.post("/api/auth/password-reset/confirm",
                                 json={"Token": token, "Password": "short1", "RecoveryCode": recovery[0]})
    assert short.status_code == 422, short.text
    breached = await dashboard.post("/api/auth/password-reset/confirm",
                                    json={"Token": token, "Password": "password1234", "RecoveryCode": recovery[0]})
    assert breached.status_code == 422, breached.text
    done = await dashboard.post("/api/auth/password-reset/confirm",
                                json={"Token": token, "Password": NEW_PASSWORD, "RecoveryCode": recovery[0]})
    assert done.status_code == 200, done.text
    assert "token" not in {key.lower() for key in done.json()}  # no new session

    for old in (first, second_token):
        dead = await dashboard.get("/api/auth/me", headers=cookie(old))
        assert dead.status_code == 401, dead.text
    again = await dashboard.post("/api/auth/login", json={"email": person.email, "password": PASSWORD})
    assert again.status_code == 401
    person.password = NEW_PASSWORD
    assert (await sign_in(dashboard, person))["TwoFactorRequired"] is True


async def test_disable_needs_the_password_and_removes_the_app_factor(dashboard, identity):
    person = await make_person(identity, "disable", login=False)
    token = (await sign_in(dashboard, person))["Token"]
    setup = await dashboard.post("/api/auth/2fa/setup", json={"Password": PASSWORD}, headers=bearer(token))
    person.totp_secret = setup.json()["Secret"]
    assert (await dashboard.post("/api/auth/2fa/verify", json={"Code": person.code()},
                                 headers=bearer(token))).status_code == 200
    by_code = await dashboard.post("/api/auth/2fa/disable", json={"Code": "123456"}, headers=bearer(token))
    assert by_code.status_code == 400  # a code is not accepted: the password is
    off = await dashboard.post("/api/auth/2fa/disable", json={"Password": PASSWORD}, headers=bearer(token))
    assert off.status_code == 200 and off.json()["Enabled"] is False, off.text  # no verified address: removed
    assert (await dashboard.get("/api/auth/2fa", headers=bearer(token))).json()["Status"] == "NONE"
    assert (await sign_in(dashboard, person))["TwoFactorRequired"] is False


async def test_verify_the_address_then_disable_switches_to_the_email_method(dashboard, identity):
    person = await make_person(identity, "switch", login=False)
    invalid = await dashboard.post("/api/auth/verify", json={"Token": "hev_not_a_token"})
    assert invalid.status_code == 400, invalid.text
    link = (await outbox_for(person.email, "verify"))["data"]["token"]
    verified = await dashboard.post("/api/auth/verify", json={"Token": link})
    assert verified.status_code == 200 and verified.json()["UserId"] == person.id, verified.text
    token = (await sign_in(dashboard, person))["Token"]
    setup = await dashboard.post("/api/auth/2fa/setup", json={"Password": PASSWORD}, headers=bearer(token))
    person.totp_secret = setup.json()["Secret"]
    assert (await dashboard.post("/api/auth/2fa/verify", json={"Code": person.code()},
                                 headers=bearer(token))).status_code == 200
    switched = await dashboard.post("/api/auth/2fa/disable", json={"Password": PASSWORD}, headers=bearer(token))
    assert switched.status_code == 200, switched.text
    assert switched.json()["Method"] == "email" and switched.json()["Enabled"] is True
    state = (await dashboard.get("/api/auth/2fa", headers=bearer(token))).json()
    assert state["Status"] == "CONFIRMED" and state["Method"] == "email"
    challenged = await sign_in(dashboard, person)
    assert challenged["TwoFactorRequired"] is True and "email_code" in challenged["TwoFactorMethods"]
    resent = await dashboard.post("/api/auth/2fa/resend", json={"TwoFactorToken": challenged["TwoFactorToken"]})
    assert resent.status_code == 429 and resent.headers["Retry-After"], resent.text  # a code was just sent
    assert resent.json()["Error"]["Details"]["RetryAfterSeconds"] >= 1


async def test_the_verification_link_is_sent_again_until_the_ceiling(dashboard, identity):
    person = await make_person(identity, "resend", login=False)
    token = (await sign_in(dashboard, person))["Token"]
    first = (await outbox_for(person.email, "verify"))["data"]["token"]
    again = await dashboard.post("/api/auth/me/verify/resend", headers=bearer(token))
    assert again.status_code == 200 and again.json()["Status"] == "sent", again.text
    newer = (await outbox_for(person.email, "verify"))["data"]["token"]
    assert newer != first
    answers = [await dashboard.post("/api/auth/me/verify/resend", headers=bearer(token)) for _ in range(5)]
    limited = answers[-1]
    assert limited.status_code == 429 and limited.headers["Retry-After"], limited.text  # upstream 429 as 429
    assert limited.json()["Error"]["Code"] == "TooManyAttempts"
    assert (await dashboard.post("/api/auth/verify", json={"Token": newer})).status_code == 200
    assert (await dashboard.post("/api/auth/me/verify/resend", headers=bearer(token))).status_code == 409


async def test_resend_without_a_ticket_is_401(dashboard):
    missing = await dashboard.post("/api/auth/2fa/resend", json={})
    assert missing.status_code == 401 and missing.json()["RequestId"], missing.text
    for path, body in (("/api/auth/2fa/resend", {"TwoFactorToken": "not-a-ticket"}),
                       ("/api/auth/2fa", {"TwoFactorToken": "not-a-ticket", "Code": "123456"})):
        forged = await dashboard.post(path, json=body)
        assert forged.status_code == 401 and forged.json()["Error"]["Code"] == "TwoFactorExpired", forged.text
