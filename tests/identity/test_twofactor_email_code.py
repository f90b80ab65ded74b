"""E-mail code as the second factor: switch with the password, code by e-mail (read from the
identity outbox, decrypted), single use, superseded by a resend, expiry, cap on issues."""

from __future__ import annotations

import httpx
import pytest
from tortoise import connections

from tests.fixtures.identity import PASSWORD, enable_totp, from_ip, make_person, outbox_for


@pytest.fixture
async def http(proxied_identity):
    # Own client address per test: the e-mail code limits (per IP) never spill between tests.
    async with httpx.AsyncClient(base_url=proxied_identity, timeout=20, headers=from_ip()) as client:
        yield client


async def email_person(http: httpx.AsyncClient, tag: str):
    person = await make_person(http, tag)
    unverified = await http.post("/v1/2fa/email", json={"password": PASSWORD}, headers=person.auth)
    assert unverified.status_code == 409  # codes go to the address: it must be proved first
    token = (await outbox_for(person.email, "verify"))["data"]["token"]
    assert (await http.post("/v1/auth/verify", json={"token": token})).status_code == 200
    wrong = await http.post("/v1/2fa/email", json={"password": "not the password at all"}, headers=person.auth)
    assert wrong.status_code == 401
    on = await http.post("/v1/2fa/email", json={"password": PASSWORD}, headers=person.auth)
    assert on.status_code == 200, on.text
    assert on.json()["method"] == "email" and len(on.json()["recovery_codes"]) == 10
    person.recovery_codes = on.json()["recovery_codes"]
    return person


async def login(http, person) -> dict:
    answer = await http.post("/v1/auth/login", json={"email": person.email, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return answer.json()


async def last_code(person) -> str:
    payload = await outbox_for(person.email, "2fa_code")
    assert payload["data"]["code"] in payload["text"] and len(payload["data"]["code"]) == 6
    # Subjects end up in message lists, webhooks and logs: the code travels in the body only.
    assert payload["subject"] == "Your Herald sign-in code"
    return payload["data"]["code"]


async def age_codes(person, seconds: int) -> None:
    await connections.get("identity").execute_query(
        "UPDATE email_codes SET created_at = created_at - make_interval(secs => $2) "
        "WHERE user_id = (SELECT id FROM users WHERE public_id = $1)", [person.id, seconds])


async def test_login_sends_a_code_by_email_that_works_once(http):
    person = await email_person(http, "mailcode")
    state = await http.get("/v1/2fa", headers=person.auth)
    assert {key: state.json()[key] for key in ("enabled", "method", "status")} == {
        "enabled": True, "method": "email", "status": "confirmed"}

    first = await login(http, person)
    assert first["two_factor_required"] is True and first["token"] is None
    assert first["methods"] == ["email_code", "recovery_code"] and first["ticket_expires_in"] == 600
    code = await last_code(person)

    wrong = await http.post("/v1/2fa/check", json={"ticket": first["ticket"],
                                                   "code": "000000" if code != "000000" else "111111"})
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "TwoFactorFailed"
    ok = await http.post("/v1/2fa/check", json={"ticket": first["ticket"], "code": code})
    assert ok.status_code == 200, ok.text
    validated = await http.get("/v1/auth/validate", headers={"Authorization": f"Bearer {ok.json()['token']}"})
    assert validated.json()["session"]["method"] == "password+email_code"

    again = await http.post("/v1/2fa/check", json={"ticket": first["ticket"], "code": code})
    assert again.status_code == 401
    # A code belongs to its login: another login's ticket does not take it.
    second = await login(http, person)
    other = await http.post("/v1/2fa/check", json={"ticket": second["ticket"], "code": code})
    assert other.status_code == 401
    recovery = await http.post("/v1/2fa/check", json={"ticket": second["ticket"],
                                                      "recovery_code": person.recovery_codes[0]})
    assert recovery.status_code == 200


async def test_resend_supersedes_the_old_code_and_is_capped(http):
    person = await email_person(http, "resend")
    ticket = (await login(http, person))["ticket"]
    old = await last_code(person)

    too_soon = await http.post("/v1/2fa/resend", json={"ticket": ticket})
    assert too_soon.status_code == 429 and int(too_soon.headers["Retry-After"]) <= 30
    await age_codes(person, 60)
    resent = await http.post("/v1/2fa/resend", json={"ticket": ticket})
    assert resent.status_code == 200, resent.text
    new = await last_code(person)

    if new != old:
        stale = await http.post("/v1/2fa/check", json={"ticket": ticket, "code": old})
        assert stale.status_code == 401 and stale.json()["error"]["code"] == "TwoFactorSuperseded"
    for _ in range(3):  # 5 codes per login in all
        await age_codes(person, 60)
        assert (await http.post("/v1/2fa/resend", json={"ticket": ticket})).status_code == 200
    await age_codes(person, 60)
    capped = await http.post("/v1/2fa/resend", json={"ticket": ticket})
    assert capped.status_code == 429 and capped.json()["error"]["code"] == "TooManyAttempts"
    latest = await last_code(person)
    assert (await http.post("/v1/2fa/check", json={"ticket": ticket, "code": latest})).status_code == 200


async def test_an_expired_code_is_refused(http):
    person = await email_person(http, "expired")
    ticket = (await login(http, person))["ticket"]
    code = await last_code(person)
    await connections.get("identity").execute_query(
        "UPDATE email_codes SET expires_at = now() - interval '1 second' "
        "WHERE user_id = (SELECT id FROM users WHERE public_id = $1)", [person.id])
    late = await http.post("/v1/2fa/check", json={"ticket": ticket, "code": code})
    assert late.status_code == 401 and late.json()["error"]["code"] == "TwoFactorCodeExpired"


async def test_resend_needs_an_email_code_login_and_the_app_replaces_the_email_method(http):
    person = await email_person(http, "switch")
    forged = await http.post("/v1/2fa/resend", json={"ticket": "bogus.ticket"})
    assert forged.status_code == 400
    await enable_totp(http, person)
    answer = await login(http, person)
    assert answer["methods"] == ["totp", "recovery_code"]
    not_email = await http.post("/v1/2fa/resend", json={"ticket": answer["ticket"]})
    assert not_email.status_code == 400
    assert (await http.get("/v1/2fa", headers=person.auth)).json()["method"] == "totp"
    off = await http.post("/v1/2fa/disable", json={"password": PASSWORD}, headers=person.auth)
    assert off.status_code == 200
    assert (await login(http, person))["two_factor_required"] is False


async def test_the_login_page_asks_for_the_emailed_code(http):
    from authlib.common.security import generate_token

    from tests.fixtures.identity import service_headers
    from tests.identity.test_oauth import REDIRECT, hidden

    registered = await http.post("/v1/clients", headers=service_headers(),
                                 json={"name": "Mail code app", "redirect_uris": [REDIRECT]})
    assert registered.status_code == 201, registered.text
    person = await email_person(http, "pagecode")
    page = await http.get("/authorize", params={
        "response_type": "code", "client_id": registered.json()["client"]["client_id"], "redirect_uri": REDIRECT,
        "scope": "openid email", "state": "s1", "code_challenge": generate_token(43),
        "code_challenge_method": "S256"})
    assert page.status_code == 200, page.text[:300]
    blob = hidden(page.text, "request")
    form = await http.post("/authorize", data={"request": blob, "step": "password", "email": person.email,
                                               "password": PASSWORD})
    assert form.status_code == 200 and "e-mailed to you" in form.text and 'name="code"' in form.text
    done = await http.post("/authorize", data={"request": blob, "step": "totp", "by_email": "1",
                                               "ticket": hidden(form.text, "ticket"),
                                               "code": await last_code(person)})
    assert done.status_code == 303 and done.headers["location"].startswith(REDIRECT + "?code=")


async def test_the_second_factor_address_cannot_be_moved_without_the_password(http):
    person = await email_person(http, "move")
    moved = await http.patch(f"/v1/users/{person.id}", json={"email": f"elsewhere-{person.email}"},
                             headers=person.auth)
    assert moved.status_code == 409
    assert moved.json()["error"]["details"] == {"email": "second factor address"}
    renamed = await http.patch(f"/v1/users/{person.id}", json={"name": "Still Me"}, headers=person.auth)
    assert renamed.status_code == 200
