"""``/api/me/passkeys``: a person registers a passkey at the console's origin (after a recent
sign-in), lists it, signs in with it, and removes it only once re-authenticated; with both
servers running and a software authenticator."""

from __future__ import annotations

from tests.fixtures.authenticator import MiniAuthenticator
from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import signed_in_member


async def test_register_list_sign_in_and_remove_a_passkey_at_the_console(dashboard, identity, services):
    console = services.env["CONSOLE_URL"]  # the console's origin is a ceremony origin too
    member = await signed_in_member(identity, dashboard, "mykeys")  # just signed in: recent enough
    assert (await dashboard.get("/api/me/passkeys", headers=member.auth)).json()["passkeys"] == []

    foreign = await dashboard.post("/api/me/passkeys/iniciar", headers=member.auth,
                                   json={"origin": "https://evil.example"})
    assert foreign.status_code == 400 and foreign.json()["Error"]["Details"] == {
        "origin": "not a configured relying party origin"}, foreign.text
    started = await dashboard.post("/api/me/passkeys/iniciar", headers=member.auth, json={"origin": console})
    assert started.status_code == 200, started.text
    device = MiniAuthenticator()
    credential = device.create(started.json()["opcoes"], console)
    made = await dashboard.post("/api/me/passkeys", headers=member.auth, json={
        "desafio_id": started.json()["desafio_id"], "credencial": credential, "nome": "  Work laptop "})
    assert made.status_code == 201, made.text
    passkey = made.json()["passkey"]
    assert passkey["nome"] == "Work laptop" and passkey["id"].startswith("pky_") and passkey["usada_em"] is None
    listed = (await dashboard.get("/api/me/passkeys", headers=member.auth)).json()["passkeys"]
    assert [row["id"] for row in listed] == [passkey["id"]]

    login = await dashboard.post("/api/auth/passkey/login/start", json={"origin": console})
    assert login.status_code == 200, login.text
    finish = await dashboard.post("/api/auth/passkey/login/finish", json={
        "desafio_id": login.json()["desafio_id"], "credencial": device.get(login.json()["opcoes"], console)})
    assert finish.status_code == 200 and finish.json()["UserId"] == member.id, finish.text

    assert (await dashboard.delete("/api/me/passkeys/pky_nothing", headers=member.auth)).status_code == 404
    wrong = await dashboard.request("DELETE", f"/api/me/passkeys/{passkey['id']}", headers=member.auth,
                                    json={"senha": "not the password"})
    assert wrong.status_code == 401, wrong.text
    removed = await dashboard.delete(f"/api/me/passkeys/{passkey['id']}", headers=member.auth)  # signed in lately
    assert removed.status_code == 204, removed.text
    assert (await dashboard.get("/api/me/passkeys", headers=member.auth)).json()["passkeys"] == []


async def test_someone_elses_passkey_answers_404(dashboard, identity, services):
    console = services.env["CONSOLE_URL"]
    owner = await signed_in_member(identity, dashboard, "mykeys-owner")
    other = await signed_in_member(identity, dashboard, "mykeys-other")
    started = await dashboard.post("/api/me/passkeys/iniciar", headers=owner.auth, json={"origin": console})
    made = await dashboard.post("/api/me/passkeys", headers=owner.auth, json={
        "desafio_id": started.json()["desafio_id"],
        "credencial": MiniAuthenticator().create(started.json()["opcoes"], console)})
    assert made.status_code == 201, made.text
    stolen = await dashboard.delete(f"/api/me/passkeys/{made.json()['passkey']['id']}", headers=other.auth)
    assert stolen.status_code == 404, stolen.text
    assert len((await dashboard.get("/api/me/passkeys", headers=owner.auth)).json()["passkeys"]) == 1


async def test_a_passkey_is_renamed_without_reauthentication_by_its_owner_only(dashboard, identity, services):
    console = services.env["CONSOLE_URL"]
    owner = await signed_in_member(identity, dashboard, "mykeys-rename")
    other = await signed_in_member(identity, dashboard, "mykeys-rename-other")
    started = await dashboard.post("/api/me/passkeys/iniciar", headers=owner.auth, json={"origin": console})
    made = await dashboard.post("/api/me/passkeys", headers=owner.auth, json={
        "desafio_id": started.json()["desafio_id"], "nome": "Phone",
        "credencial": MiniAuthenticator().create(started.json()["opcoes"], console)})
    assert made.status_code == 201, made.text
    passkey = made.json()["passkey"]

    # Long after the sign-in a rename still goes through: a name adds no way in, where removing asks.
    from tortoise import connections

    await connections.get("identity").execute_query(
        "UPDATE sessions SET created_at = created_at - interval '11 minutes', "
        "reauthenticated_at = reauthenticated_at - interval '11 minutes' "
        "WHERE user_id = (SELECT id FROM users WHERE public_id = $1)", [owner.id])
    stale = await dashboard.delete(f"/api/me/passkeys/{passkey['id']}", headers=owner.auth)
    assert stale.status_code == 403 and stale.json()["Error"]["Code"] == "ReauthRequired", stale.text
    renamed = await dashboard.patch(f"/api/me/passkeys/{passkey['id']}", headers=owner.auth,
                                    json={"nome": " Pixel 9 "})
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["passkey"] == {**passkey, "nome": "Pixel 9"}
    assert [row["nome"] for row in (await dashboard.get("/api/me/passkeys", headers=owner.auth)).json()["passkeys"]
            ] == ["Pixel 9"]

    blank = await dashboard.patch(f"/api/me/passkeys/{passkey['id']}", headers=owner.auth, json={"nome": "  "})
    assert blank.status_code == 400 and blank.json()["Error"]["Details"] == {"nome": "must not be empty"}, blank.text
    stolen = await dashboard.patch(f"/api/me/passkeys/{passkey['id']}", headers=other.auth, json={"nome": "Mine"})
    assert stolen.status_code == 404, stolen.text
    missing = await dashboard.patch("/api/me/passkeys/pky_nothing", headers=owner.auth, json={"nome": "Mine"})
    assert missing.status_code == 404
    assert [row["nome"] for row in (await dashboard.get("/api/me/passkeys", headers=owner.auth)).json()["passkeys"]
            ] == ["Pixel 9"]
