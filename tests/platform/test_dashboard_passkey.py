"""Passkey login on the dashboard, with a software authenticator and both servers running."""

from __future__ import annotations

from tests.fixtures.authenticator import MiniAuthenticator
from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import bearer, jwt_parts, make_person, session_cookie


async def test_passkey_login_through_the_dashboard(dashboard, identity, servers):
    origin = servers("platform").url
    person = await make_person(identity, "dashkey")  # signed in at the identity server: recent enough to add one
    device = MiniAuthenticator()
    options = (await identity.post("/v1/passkeys/register/options", headers=person.auth)).json()
    registered = await identity.post("/v1/passkeys/register", headers=person.auth, json={
        "challenge_id": options["challenge_id"], "credential": device.create(options["options"], origin)})
    assert registered.status_code == 201, registered.text

    foreign = await dashboard.post("/api/auth/passkey/login/start", json={"origin": "https://evil.example"})
    assert foreign.status_code == 400, foreign.text
    start = await dashboard.post("/api/auth/passkey/login/start", json={"origin": origin, "email": person.email})
    assert start.status_code == 200, start.text
    challenge, opcoes = start.json()["desafio_id"], start.json()["opcoes"]
    assertion = device.get(opcoes, origin)
    finish = await dashboard.post("/api/auth/passkey/login/finish",
                                  json={"desafio_id": challenge, "credencial": assertion})
    assert finish.status_code == 200, finish.text
    token = finish.json()["Token"]
    assert finish.json()["UserId"] == person.id and jwt_parts(token)[1]["sub"] == person.id
    assert session_cookie(finish).startswith(f"herald_session={token};")
    assert (await dashboard.get("/api/auth/me", headers=bearer(token))).status_code == 200

    replay = await dashboard.post("/api/auth/passkey/login/finish",
                                  json={"desafio_id": challenge, "credencial": assertion})
    assert replay.status_code == 401 and replay.json()["Error"]["Code"] == "DesafioExpirado", replay.text
    other = await dashboard.post("/api/auth/passkey/login/start", json={"origin": origin})
    wrong_origin = device.get(other.json()["opcoes"], "https://evil.example")
    refused = await dashboard.post("/api/auth/passkey/login/finish",
                                   json={"desafio_id": other.json()["desafio_id"], "credencial": wrong_origin})
    assert refused.status_code == 401 and refused.json()["Error"]["Code"] == "PasskeyRecusada", refused.text


async def test_identity_down_is_503_passkey_indisponivel(start_server, services):
    import httpx

    from tests.fixtures.harness import free_port

    platform = start_server("platform", IDENTITY_URL=f"http://127.0.0.1:{free_port()}")
    origin = services.env["PLATFORM_URL"]
    async with httpx.AsyncClient(base_url=platform.url, timeout=20, headers={"Origin": origin}) as http:
        start = await http.post("/api/auth/passkey/login/start", json={"origin": origin})
        finish = await http.post("/api/auth/passkey/login/finish",
                                 json={"desafio_id": "pkc_0", "credencial": {"id": "x"}})
    for answer in (start, finish):
        assert answer.status_code == 503, answer.text
        assert answer.json()["Error"]["Code"] == "PasskeyIndisponivel" and int(answer.headers["Retry-After"]) >= 1
        assert "127.0.0.1" not in answer.text
