"""TOTP: set-up applies only after verify; login needs the code; no replay; recovery codes."""

from __future__ import annotations

import pyotp

from tests.fixtures.identity import PASSWORD, as_if_a_step_passed, make_person


async def test_setup_applies_only_after_verify(client):
    person = await make_person(client, "pending")
    wrong_password = await client.post("/v1/2fa/setup", json={"password": "not the password"}, headers=person.auth)
    assert wrong_password.status_code == 401
    setup = await client.post("/v1/2fa/setup", json={"password": PASSWORD}, headers=person.auth)
    assert setup.status_code == 200
    body = setup.json()
    assert body["otpauth_url"].startswith("otpauth://totp/") and body["secret"] in body["otpauth_url"]
    # Pending: login does not ask for the code yet.
    login = await client.post("/v1/auth/login", json={"email": person.email, "password": PASSWORD})
    assert login.json()["two_factor_required"] is False
    bad = await client.post("/v1/2fa/verify", json={"code": "000000" if pyotp.TOTP(body["secret"]).now() != "000000"
                                                      else "111111"}, headers=person.auth)
    assert bad.status_code == 401 and bad.json()["error"]["code"] == "TwoFactorFailed"


async def test_login_with_totp_needs_the_code_and_a_code_cannot_be_replayed(client, people):
    guarded = people["guarded"]
    login = await client.post("/v1/auth/login", json={"email": guarded.email, "password": PASSWORD})
    body = login.json()
    assert login.status_code == 200
    assert body["two_factor_required"] is True and body["token"] is None and body["ticket"]

    wrong = await client.post("/v1/2fa/check", json={"ticket": body["ticket"], "code": "12345"})
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "TwoFactorFailed"

    # Turning the app on took this step: rewound, the next code is at once (the replay below is this test's own).
    await as_if_a_step_passed(guarded)
    code = guarded.code()
    ok = await client.post("/v1/2fa/check", json={"ticket": body["ticket"], "code": code})
    assert ok.status_code == 200, ok.text
    assert ok.json()["token"].startswith("hst_")
    assert (await client.get("/v1/auth/validate", headers={"Authorization": f"Bearer {ok.json()['token']}"})
            ).status_code == 200

    second = await client.post("/v1/auth/login", json={"email": guarded.email, "password": PASSWORD})
    replay = await client.post("/v1/2fa/check", json={"ticket": second.json()["ticket"], "code": code})
    assert replay.status_code == 401 and replay.json()["error"]["code"] == "TwoFactorFailed"


async def test_a_tampered_ticket_is_refused(client, people):
    login = await client.post("/v1/auth/login", json={"email": people["guarded"].email, "password": PASSWORD})
    ticket = login.json()["ticket"]
    forged = ticket[:-3] + ("AAA" if not ticket.endswith("AAA") else "BBB")
    response = await client.post("/v1/2fa/check", json={"ticket": forged, "code": "123456"})
    assert response.status_code == 400


async def test_recovery_codes_are_single_use_and_a_new_generation_voids_the_old(client):
    from tests.fixtures.identity import enable_totp

    person = await make_person(client, "recover")
    await enable_totp(client, person)
    codes = person.recovery_codes
    assert len(codes) == 10 and len(set(codes)) == 10
    assert all(len(c) == 14 and c[4] == c[9] == "-" for c in codes)

    async def use(code: str) -> int:
        login = await client.post("/v1/auth/login", json={"email": person.email, "password": PASSWORD})
        answer = await client.post("/v1/2fa/check", json={"ticket": login.json()["ticket"], "recovery_code": code})
        return answer.status_code

    assert await use(codes[0].lower()) == 200
    assert await use(codes[0]) == 401
    fresh = await client.post("/v1/2fa/recovery-codes", json={"password": PASSWORD}, headers=person.auth)
    assert fresh.status_code == 200
    assert await use(codes[1]) == 401
    assert await use(fresh.json()["recovery_codes"][0]) == 200


async def test_disabling_needs_the_password(client):
    from tests.fixtures.identity import enable_totp

    person = await make_person(client, "disable")
    await enable_totp(client, person)
    code_only = await client.post("/v1/2fa/disable", json={"code": "123456"}, headers=person.auth)
    assert code_only.status_code == 400
    wrong = await client.post("/v1/2fa/disable", json={"password": "wrong password here"}, headers=person.auth)
    assert wrong.status_code == 401
    done = await client.post("/v1/2fa/disable", json={"password": PASSWORD}, headers=person.auth)
    assert done.status_code == 200
    login = await client.post("/v1/auth/login", json={"email": person.email, "password": PASSWORD})
    assert login.json()["two_factor_required"] is False


def test_a_code_lives_its_own_step_with_one_step_of_drift_at_most():
    from app.identity.twofactor.service import GRACE, STEP, matching_step

    secret, step = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", 58_000_123
    start, code = step * STEP, pyotp.TOTP("JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP").at(step * STEP)
    assert len({pyotp.TOTP(secret).at((step + shift) * STEP) for shift in (-2, -1, 0, 1, 2)}) == 5
    assert matching_step(secret, code, None, at=start) == step
    assert matching_step(secret, code, None, at=start + STEP - 1) == step
    # Typed as the step ended: taken during the first GRACE seconds of the next step only.
    assert matching_step(secret, code, None, at=start + STEP + GRACE - 1) == step
    assert matching_step(secret, code, None, at=start + STEP + GRACE) is None
    assert matching_step(secret, code, None, at=start + 2 * STEP) is None
    # A code from a later step (an authenticator clock ahead) is not taken early.
    assert matching_step(secret, code, None, at=start - 1) is None
    # Never twice.
    assert matching_step(secret, code, step, at=start) is None
