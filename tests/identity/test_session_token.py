"""The dashboard's session JWT (``POST /v1/auth/session-token``) and the client address the
platform forwards for the people it signs in (``X-Service-Client-Ip`` with ``X-Service-Token``)."""

from __future__ import annotations

import base64
import json
import os
import secrets

import httpx

from tests.fixtures.identity import make_person


def claims_of(token: str) -> tuple[dict, dict]:
    def part(text: str) -> dict:
        return json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))

    header, claims, _ = token.split(".")
    return part(header), part(claims)


async def test_the_session_jwt_names_its_session_and_dies_with_it(client, identity_url):
    person = await make_person(client, "jwt")
    issued = await client.post("/v1/auth/session-token", headers=person.auth)
    assert issued.status_code == 200, issued.text
    token = issued.json()["token"]
    header, claims = claims_of(token)
    assert header["alg"] == "RS256" and header["typ"] == "session+jwt"
    keys = (await client.get("/.well-known/jwks.json")).json()["keys"]
    assert header["kid"] in {key["kid"] for key in keys}
    assert claims["iss"] == identity_url and claims["aud"] == "herald-dashboard"
    assert claims["sub"] == person.id and claims["sid"] == issued.json()["session_id"]

    valid = await client.get("/v1/auth/validate", headers={"Authorization": f"Bearer {token}"})
    assert valid.status_code == 200 and valid.json()["session"]["id"] == claims["sid"], valid.text
    head, body, signature = token.split(".")
    forged = f"{head}.{body}.{signature[:-4]}AAAA"
    refused = await client.get("/v1/auth/validate", headers={"Authorization": f"Bearer {forged}"})
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "InvalidToken"

    out = await client.post("/v1/auth/logout", headers={"Authorization": f"Bearer {token}"})
    assert out.status_code == 204
    dead = await client.get("/v1/auth/validate", headers={"Authorization": f"Bearer {token}"})
    assert dead.status_code == 401 and dead.json()["error"]["code"] == "ExpiredToken"
    assert (await client.get("/v1/auth/validate", headers=person.auth)).status_code == 401  # the same session


async def test_an_oauth_style_jwt_is_not_a_session(client):
    person = await make_person(client, "notjwt")
    issued = (await client.post("/v1/auth/session-token", headers=person.auth)).json()["token"]
    head, body, signature = issued.split(".")
    header = json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))
    header["typ"] = "at+jwt"
    other = base64.urlsafe_b64encode(json.dumps(header).encode()).rstrip(b"=").decode()
    refused = await client.get("/v1/auth/validate", headers={"Authorization": f"Bearer {other}.{body}.{signature}"})
    assert refused.status_code == 401


def fresh_ip() -> str:
    return f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


async def test_the_forwarded_client_address_counts_only_with_the_service_credential(start_server):
    identity = start_server("identity", AUTH_IP_LIMIT="3")
    proof = {"X-Service-Token": os.environ["SERVICE_TOKEN"]}
    limited, other = fresh_ip(), fresh_ip()
    async with httpx.AsyncClient(base_url=identity.url, timeout=20) as http:
        async def attempt(**headers: str) -> int:
            return (await http.post("/v1/auth/login", json={}, headers=headers)).status_code

        for _ in range(3):
            assert await attempt(**{"X-Service-Client-Ip": limited}, **proof) == 400
        assert await attempt(**{"X-Service-Client-Ip": limited}, **proof) == 429  # that person is limited
        assert await attempt(**{"X-Service-Client-Ip": other}, **proof) == 400  # another is not
        # Without the credential the header names nobody: every attempt counts against the peer,
        # so four "different" addresses still meet the ceiling of 3.
        statuses = [await attempt(**{"X-Service-Client-Ip": fresh_ip(), "X-Service-Token": "wrong"})
                    for _ in range(4)]
        assert 429 in statuses, statuses
