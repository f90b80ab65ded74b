"""Passkeys with a software authenticator: registration, login, expiry, origin and RP id."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from tests.fixtures.authenticator import MiniAuthenticator
from tests.fixtures.identity import make_person


async def register(client, person, device: MiniAuthenticator, origin: str):
    options = await client.post("/v1/passkeys/register/options", headers=person.auth)
    assert options.status_code == 200, options.text
    body = options.json()
    credential = device.create(body["options"], origin)
    return await client.post("/v1/passkeys/register", headers=person.auth,
                             json={"challenge_id": body["challenge_id"], "credential": credential, "name": "laptop"})


async def test_register_then_log_in_with_a_passkey(client, identity_url):
    person = await make_person(client, "passkey")
    device = MiniAuthenticator()
    registered = await register(client, person, device, identity_url)
    assert registered.status_code == 201, registered.text
    assert registered.json()["passkey"]["id"].startswith("pky_")

    for _ in range(2):  # the sign counter moves forward each time
        options = (await client.post("/v1/passkeys/login/options", json={"email": person.email})).json()
        assertion = device.get(options["options"], identity_url)
        login = await client.post("/v1/passkeys/login", json={"challenge_id": options["challenge_id"],
                                                                "credential": assertion})
        assert login.status_code == 200, login.text
        assert login.json()["user"]["id"] == person.id
        assert login.json()["session"]["method"] == "passkey"

    # A challenge is single use.
    replay = await client.post("/v1/passkeys/login", json={"challenge_id": options["challenge_id"],
                                                             "credential": assertion})
    assert replay.status_code == 400 and replay.json()["error"]["code"] == "DesafioExpirado"


async def test_usernameless_login_with_a_discoverable_credential(client, identity_url):
    person = await make_person(client, "discoverable")
    device = MiniAuthenticator()
    assert (await register(client, person, device, identity_url)).status_code == 201
    options = (await client.post("/v1/passkeys/login/options")).json()
    assert options["options"].get("allowCredentials", []) == []
    login = await client.post("/v1/passkeys/login", json={"challenge_id": options["challenge_id"],
                                                            "credential": device.get(options["options"], identity_url)})
    assert login.status_code == 200 and login.json()["user"]["id"] == person.id


async def test_an_expired_challenge_answers_desafio_expirado(client, identity_url):
    from models.identity import PasskeyChallenge

    person = await make_person(client, "slowkey")
    options = (await client.post("/v1/passkeys/register/options", headers=person.auth)).json()
    await PasskeyChallenge.filter(public_id=options["challenge_id"]).update(
        expires_at=datetime.now(timezone.utc) - timedelta(seconds=1))
    credential = MiniAuthenticator().create(options["options"], identity_url)
    response = await client.post("/v1/passkeys/register", headers=person.auth,
                                 json={"challenge_id": options["challenge_id"], "credential": credential})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "DesafioExpirado"


async def test_wrong_origin_and_wrong_rp_id_are_refused(client, identity_url):
    person = await make_person(client, "phished")
    refused = await register(client, person, MiniAuthenticator(), "https://evil.example")
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "PasskeyRecusada"

    device = MiniAuthenticator()
    assert (await register(client, person, device, identity_url)).status_code == 201
    options = (await client.post("/v1/passkeys/login/options", json={"email": person.email})).json()
    device.creds[next(iter(device.creds))][0] = "evil.example"  # the authenticator signs for another RP
    options["options"]["rpId"] = "evil.example"
    assertion = device.get(options["options"], identity_url)
    login = await client.post("/v1/passkeys/login", json={"challenge_id": options["challenge_id"],
                                                            "credential": assertion})
    assert login.status_code == 401 and login.json()["error"]["code"] == "PasskeyRecusada"


async def test_user_verification_is_required(client, identity_url):
    person = await make_person(client, "nouv")
    response = await register(client, person, MiniAuthenticator(user_verified=False), identity_url)
    assert response.status_code == 401


async def test_a_passkey_is_renamed_by_its_owner_only(client, identity_url):
    owner, stranger = await make_person(client, "renamer"), await make_person(client, "renamer-other")
    registered = await register(client, owner, MiniAuthenticator(), identity_url)
    assert registered.status_code == 201, registered.text
    passkey = registered.json()["passkey"]
    assert passkey["name"] == "laptop"

    renamed = await client.patch(f"/v1/passkeys/{passkey['id']}", headers=owner.auth, json={"name": "  Work laptop "})
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["passkey"] == {**passkey, "name": "Work laptop"}  # the name alone changed
    listed = (await client.get("/v1/passkeys", headers=owner.auth)).json()["passkeys"]
    assert [row["name"] for row in listed] == ["Work laptop"]

    blank = await client.patch(f"/v1/passkeys/{passkey['id']}", headers=owner.auth, json={"name": "   "})
    assert blank.status_code == 400 and blank.json()["error"]["details"] == {"name": "must not be empty"}
    theirs = await client.patch(f"/v1/passkeys/{passkey['id']}", headers=stranger.auth, json={"name": "Mine now"})
    assert theirs.status_code == 404, theirs.text
    anonymous = await client.patch(f"/v1/passkeys/{passkey['id']}", json={"name": "Mine now"})
    assert anonymous.status_code == 401
    assert [row["name"] for row in (await client.get("/v1/passkeys", headers=owner.auth)).json()["passkeys"]] == [
        "Work laptop"]
