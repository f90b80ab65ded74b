"""The /api/me family and /api/auth/me/emails over HTTP, both servers really running; and the
issue's "done when" walk: sign up through the identity server, sign in with the cookie, turn TOTP
on, sign in with the code, add and verify a recovery address, generate recovery codes, reset the
password and find every old session dead."""

from __future__ import annotations

import re

from tortoise import connections

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import (
    PASSWORD,
    bearer,
    cookie,
    jwt_parts,
    make_person,
    outbox_for,
    sign_in,
    unique_email,
)
from tests.fixtures.identity import as_if_a_step_passed

NEW_PASSWORD = "an entirely new passphrase 9"
CODE = re.compile(r"^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$")


async def age(token: str, minutes: int = 11) -> None:
    """The dashboard session as if its last proof was ``minutes`` ago."""
    await connections.get("identity").execute_query(
        "UPDATE sessions SET created_at = created_at - make_interval(mins => $2), "
        "reauthenticated_at = reauthenticated_at - make_interval(mins => $2) WHERE public_id = $1",
        [jwt_parts(token)[1]["sid"], minutes])


async def test_done_when_walk(dashboard, identity):
    person = await make_person(identity, "walk", login=False)  # signed up through the identity server
    first = await dashboard.post("/api/auth/login", json={"email": person.email, "password": PASSWORD})
    assert first.status_code == 200 and "herald_session=" in first.headers["set-cookie"], first.text
    first_token = first.json()["Token"]

    setup = await dashboard.post("/api/auth/2fa/setup", json={"Password": PASSWORD}, headers=cookie(first_token))
    person.totp_secret = setup.json()["Secret"]
    verify = await dashboard.post("/api/auth/2fa/verify", json={"Code": person.code()}, headers=cookie(first_token))
    assert verify.status_code == 200, verify.text

    await as_if_a_step_passed(person)
    challenged = await sign_in(dashboard, person)
    assert challenged["TwoFactorRequired"] is True and challenged["Token"] == ""
    second = await dashboard.post("/api/auth/2fa", json={"TwoFactorToken": challenged["TwoFactorToken"],
                                                         "Code": person.code()})
    assert second.status_code == 200, second.text
    token = second.json()["Token"]

    backup = unique_email("walkbackup")
    added = await dashboard.post("/api/me/emails", json={"email": backup}, headers=cookie(token))
    assert added.status_code == 202 and added.json()["ok"] is True, added.text
    link = (await outbox_for(backup, "verify"))["data"]["token"]
    assert (await dashboard.post("/api/auth/verify", json={"Token": link})).status_code == 200
    rows = (await dashboard.get("/api/me/emails", headers=cookie(token))).json()["emails"]
    assert [(row["email"], row["primario"], row["verificado"]) for row in rows] == [
        (person.email, True, False), (backup, False, True)]

    # The password-only session must prove a second factor before generating codes.
    refused = await dashboard.post("/api/me/codigos-recuperacao", headers=cookie(first_token))
    assert refused.status_code == 403, refused.text
    error = refused.json()["Error"]
    assert error["Code"] == "ReauthRequired" and error["Details"]["metodos_aceitos"] == ["totp", "email_otp"]
    assert {row["metodo"]: row["disponivel"] for row in error["Details"]["metodos"]} == {"totp": True,
                                                                                        "email_otp": True}
    [destination] = error["Details"]["destinos"]
    assert destination == {"email_id": rows[1]["id"], "mascarado": f"{backup[0]}***@example.com", "primario": False}

    started = await dashboard.post("/api/me/reautenticar/iniciar", headers=cookie(first_token),
                                   json={"metodo": "email_otp", "email_id": destination["email_id"]})
    assert started.status_code == 200 and started.json()["destino"]["mascarado"] == destination["mascarado"], \
        started.text
    code = (await outbox_for(backup, "2fa_code"))["data"]["code"]
    done = await dashboard.post("/api/me/reautenticar", headers=cookie(first_token), json={
        "metodo": "email_otp", "desafio_id": started.json()["desafio_id"], "codigo": code})
    assert done.status_code == 200 and done.json()["metodo"] == "email_otp", done.text

    generated = await dashboard.post("/api/me/codigos-recuperacao", headers=cookie(first_token))
    assert generated.status_code == 200, generated.text
    codes = generated.json()["codigos"]
    assert len(codes) == 10 and all(CODE.match(code) for code in codes)
    again = (await dashboard.post("/api/me/codigos-recuperacao", headers=cookie(token))).json()["codigos"]
    assert set(again).isdisjoint(codes)  # the session signed in with the app code may too; earlier codes void
    ticket = (await sign_in(dashboard, person))["TwoFactorToken"]
    stale = await dashboard.post("/api/auth/2fa", json={"TwoFactorToken": ticket, "RecoveryCode": codes[0]})
    assert stale.status_code == 401, stale.text

    assert (await dashboard.post("/api/auth/password-reset", json={"Email": person.email})).status_code == 200
    reset = (await outbox_for(person.email, "reset"))["data"]["token"]
    confirmed = await dashboard.post("/api/auth/password-reset/confirm",
                                     json={"Token": reset, "Password": NEW_PASSWORD, "RecoveryCode": again[0]})
    assert confirmed.status_code == 200 and confirmed.json()["SessionsRevoked"] is True, confirmed.text
    for old in (first_token, token):
        assert (await dashboard.get("/api/auth/me", headers=cookie(old))).status_code == 401
        assert (await dashboard.get("/api/me", headers=bearer(old))).status_code == 401

    person.password = NEW_PASSWORD
    ticket = (await sign_in(dashboard, person))["TwoFactorToken"]
    fresh = (await dashboard.post("/api/auth/2fa", json={"TwoFactorToken": ticket, "RecoveryCode": again[1]})).json()
    trail = await dashboard.get("/api/me/eventos?limite=50", headers=bearer(fresh["Token"]))
    assert trail.status_code == 200, trail.text
    kinds = [row["tipo"] for row in trail.json()["eventos"]]
    for kind in ("login", "password_reset", "recovery_codes_generated", "email_verified", "email_added",
                 "totp_enabled", "reauthenticated", "two_factor_failed"):
        assert kind in kinds, (kind, kinds)
    assert kinds.index("login") < kinds.index("password_reset")  # newest first


async def test_profile_trail_paging_and_reauthentication(dashboard, identity):
    person = await make_person(identity, "meprof", login=False)
    token = (await sign_in(dashboard, person))["Token"]
    account = await dashboard.get("/api/me", headers=bearer(token))
    assert account.status_code == 200, account.text
    assert account.json()["email"] == person.email and account.json()["segundo_fator"]["status"] == "NONE"
    renamed = await dashboard.patch("/api/me", json={"nome": "Fresh Name"}, headers=bearer(token))
    assert renamed.status_code == 200 and renamed.json()["nome"] == "Fresh Name", renamed.text
    assert (await dashboard.patch("/api/me", json={"nome": "X", "email": "a@b.c"}, headers=bearer(token))
            ).status_code == 400

    await age(token)
    stale = await dashboard.patch("/api/me", json={"nome": "Thief"}, headers=bearer(token))
    assert stale.status_code == 403 and stale.json()["Error"]["Code"] == "ReauthRequired", stale.text
    details = stale.json()["Error"]["Details"]
    assert details["metodos_aceitos"] == ["password", "totp", "email_otp", "passkey"]
    assert {row["metodo"]: (row["disponivel"], bool(row["motivo"])) for row in details["metodos"]} == {
        "password": (True, False), "totp": (False, True), "email_otp": (False, True), "passkey": (False, True)}
    assert details["destinos"] == []
    added = await dashboard.post("/api/me/emails", json={"email": unique_email("late")}, headers=bearer(token))
    assert added.status_code == 403 and added.json()["Error"]["Code"] == "ReauthRequired"  # enforced by identity
    state = (await dashboard.get("/api/me/reautenticar", headers=bearer(token))).json()
    assert state["recente"] is False

    wrong = await dashboard.post("/api/me/reautenticar", json={"metodo": "password", "senha": "not it at all"},
                                 headers=bearer(token))
    assert wrong.status_code == 401, wrong.text
    done = await dashboard.post("/api/me/reautenticar", json={"metodo": "password", "senha": PASSWORD},
                                headers=bearer(token))
    assert done.status_code == 200 and done.json()["metodo"] == "password", done.text
    assert (await dashboard.patch("/api/me", json={"nome": "Owner"}, headers=bearer(token))).status_code == 200
    nocodes = await dashboard.post("/api/me/codigos-recuperacao", headers=bearer(token))
    assert nocodes.status_code == 403  # a password is not a second factor

    trail = await dashboard.get("/api/me/eventos?limite=1", headers=bearer(token))
    assert trail.status_code == 200 and trail.json()["HasMore"] is True, trail.text
    [newest] = trail.json()["eventos"]
    assert newest["tipo"] == "reauthenticated" and newest["detalhes"]["method"] == "password"
    older = await dashboard.get(f"/api/me/eventos?antes={trail.json()['NextCursor']}&limite=1", headers=bearer(token))
    assert older.json()["eventos"][0]["id"] != newest["id"]
    for query in ("cursor=x", "limite=0", "antes=nope"):
        assert (await dashboard.get(f"/api/me/eventos?{query}", headers=bearer(token))).status_code == 422, query
    other = await make_person(identity, "meother", login=False)
    other_token = (await sign_in(dashboard, other))["Token"]
    foreign = await dashboard.get(f"/api/me/eventos?antes={newest['id']}", headers=bearer(other_token))
    assert foreign.status_code == 422


async def test_recovery_addresses_on_both_surfaces(dashboard, identity):
    person = await make_person(identity, "meaddr", login=False)
    token = (await sign_in(dashboard, person))["Token"]
    backup = unique_email("meaddrb")
    added = await dashboard.post("/api/auth/me/emails", json={"Email": backup}, headers=bearer(token))
    assert added.status_code == 202 and added.json()["Status"] == "sent", added.text
    listed = (await dashboard.get("/api/auth/me/emails", headers=bearer(token))).json()["Emails"]
    assert [row["Email"] for row in listed] == [person.email, backup] and listed[0]["Primary"] is True
    backup_id = listed[1]["Id"]

    resent = await dashboard.post(f"/api/me/emails/{backup_id}/reenviar", headers=bearer(token))
    assert resent.status_code == 204, resent.text
    again = await dashboard.post(f"/api/auth/me/emails/{backup_id}/verify/resend", headers=bearer(token))
    assert again.status_code == 200 and again.json()["Status"] == "sent", again.text
    early = await dashboard.post(f"/api/me/emails/{backup_id}/primario", headers=bearer(token))
    assert early.status_code == 409, early.text
    link = (await outbox_for(backup, "verify"))["data"]["token"]
    assert (await dashboard.post("/api/auth/verify", json={"Token": link})).status_code == 200
    verified = await dashboard.post(f"/api/me/emails/{backup_id}/reenviar", headers=bearer(token))
    assert verified.status_code == 422 and verified.json()["Error"]["Code"] == "EnderecoNaoRecebe", verified.text
    conflict = await dashboard.post(f"/api/auth/me/emails/{backup_id}/verify/resend", headers=bearer(token))
    assert conflict.status_code == 409

    primary = await dashboard.post(f"/api/auth/me/emails/{backup_id}/primary", headers=bearer(token))
    assert primary.status_code == 200 and primary.json()["Emails"][0]["Email"] == backup, primary.text
    me = (await dashboard.get("/api/auth/me", headers=bearer(token))).json()
    assert me["UserEmail"] == backup
    old_id = primary.json()["Emails"][1]["Id"]
    assert (await dashboard.delete(f"/api/me/emails/{backup_id}", headers=bearer(token))).status_code == 409
    assert (await dashboard.delete(f"/api/auth/me/emails/{old_id}", headers=bearer(token))).status_code == 204
    for path in (f"/api/me/emails/{old_id}", "/api/me/emails/eml_000000000000000000000000", "/api/me/emails/zzz"):
        assert (await dashboard.delete(path, headers=bearer(token))).status_code == 404, path

    statuses = [(await dashboard.post("/api/me/emails", json={"email": unique_email(f"d{i}")},
                                      headers=bearer(token))).status_code for i in range(10)]
    assert statuses[-1] == 429 and statuses[:9] == [202] * 9, statuses  # the first addition counted too
    last = await dashboard.post("/api/me/emails", json={"email": unique_email("over")}, headers=bearer(token))
    assert last.json()["Error"]["Code"] == "TooManyAttempts" and last.headers["Retry-After"]
    strict = await dashboard.post("/api/me/emails", json={"email": "a@example.com", "extra": 1}, headers=bearer(token))
    assert strict.status_code == 400 and "extra" in strict.json()["Error"]["Message"]


async def test_reauthentication_with_the_persons_passkey(dashboard, identity, servers):
    from tests.fixtures.authenticator import MiniAuthenticator

    origin = servers("platform").url
    person = await make_person(identity, "mepasskey")  # signed in at the identity server: may add a passkey
    device = MiniAuthenticator()
    options = (await identity.post("/v1/passkeys/register/options", headers=person.auth)).json()
    registered = await identity.post("/v1/passkeys/register", headers=person.auth, json={
        "challenge_id": options["challenge_id"], "credential": device.create(options["options"], origin)})
    assert registered.status_code == 201, registered.text
    token = (await sign_in(dashboard, person))["Token"]
    await age(token)
    stale = await dashboard.patch("/api/me", json={"nome": "Later"}, headers=bearer(token))
    assert {row["metodo"]: row["disponivel"] for row in stale.json()["Error"]["Details"]["metodos"]}["passkey"] is True

    foreign = await dashboard.post("/api/me/reautenticar/iniciar", json={"metodo": "passkey",
                                                                        "origin": "https://evil.example"},
                                   headers=bearer(token))
    assert foreign.status_code == 400
    started = await dashboard.post("/api/me/reautenticar/iniciar", json={"metodo": "passkey", "origin": origin},
                                   headers=bearer(token))
    assert started.status_code == 200 and started.json()["opcoes"]["allowCredentials"], started.text
    done = await dashboard.post("/api/me/reautenticar", headers=bearer(token), json={
        "metodo": "passkey", "desafio_id": started.json()["desafio_id"],
        "credencial": device.get(started.json()["opcoes"], origin)})
    assert done.status_code == 200 and done.json()["metodo"] == "passkey", done.text
    assert (await dashboard.patch("/api/me", json={"nome": "Later"}, headers=bearer(token))).status_code == 200
    state = (await dashboard.get("/api/me/reautenticar?aceitos=totp,email_otp", headers=bearer(token))).json()
    assert state["recente"] is False and state["metodos_aceitos"] == ["totp", "email_otp"]  # a passkey is not those


async def test_recovery_codes_are_never_replayed_from_an_idempotency_key(dashboard, identity):
    person = await make_person(identity, "meidem", login=False)
    token = (await sign_in(dashboard, person))["Token"]
    setup = await dashboard.post("/api/auth/2fa/setup", json={"Password": PASSWORD}, headers=bearer(token))
    person.totp_secret = setup.json()["Secret"]
    assert (await dashboard.post("/api/auth/2fa/verify", json={"Code": person.code()},
                                 headers=bearer(token))).status_code == 200
    await as_if_a_step_passed(person)
    done = await dashboard.post("/api/me/reautenticar", json={"metodo": "totp", "codigo": person.code()},
                                headers=bearer(token))
    assert done.status_code == 200, done.text
    headers = {**bearer(token), "Idempotency-Key": "codes-1"}
    first = await dashboard.post("/api/me/codigos-recuperacao", headers=headers)
    second = await dashboard.post("/api/me/codigos-recuperacao", headers=headers)
    assert first.status_code == second.status_code == 200, (first.text, second.text)
    assert "Idempotent-Replayed" not in second.headers
    assert set(first.json()["codigos"]).isdisjoint(second.json()["codigos"])  # generated again, never stored
