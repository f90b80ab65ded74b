"""app/http/identity.py against the real identity server: the session hop, token verification with
its JWKS, and cached authorization decisions; outages through local callees and closed ports."""

from __future__ import annotations

import base64
import json
import os
import secrets
from types import SimpleNamespace

import httpx
import jwt
import pytest
from authlib.common.security import generate_token
from sanic import Sanic

from app.http import errors
from app.http.identity import (DECISION_TTL_SECONDS, JWKS_MAX_AGE_SECONDS, JWKS_REFETCH_SECONDS,
                               JWKS_STALE_SECONDS, SESSION_COOKIE, Decisions, TokenVerifier, decisions,
                               token_verifier, validate_session)
from app.http.services import ServiceClient, services
from kit.settings import load_settings
from tests.fixtures.upstream import Reply, calling, surface
from tests.fixtures.identity import PASSWORD, make_person, service_headers
from tests.identity.test_oauth import REDIRECT, browser_login, make_oauth

# -- the session hop -----------------------------------------------------------------------------


async def test_a_live_session_validates(http, identity):
    person = await make_person(http, "hop")
    principal = await validate_session(identity, person.token)
    assert principal.user_id == person.id and principal.email == person.email
    assert principal.session_id.startswith("ses_") and principal.email_verified is False
    assert person.token not in repr(principal)


async def test_after_logout_the_session_fails_at_once(http, identity):
    person = await make_person(http, "logout")
    assert (await validate_session(identity, person.token)).user_id == person.id
    assert (await http.post("/v1/auth/logout", headers=person.auth)).status_code == 204
    with pytest.raises(errors.AuthorizationError) as raised:
        await validate_session(identity, person.token)
    assert raised.value.status == 401


@pytest.mark.parametrize("token", ["", "hst_a\r\nX-Injected: 1", "hst_é", "x" * 3000, "a b"])
async def test_malformed_tokens_are_refused_without_asking_identity(token):
    async with calling(system="identity") as (callee, client):
        with pytest.raises(errors.AuthorizationError):
            await validate_session(client, token)
    assert callee.requests == [] and client.breaker.failures == 0


async def test_identity_unreachable_is_502_never_an_allow(closed_url):
    async with ServiceClient("identity", closed_url, "t" * 40) as client:
        with pytest.raises(errors.UpstreamError) as raised:
            await validate_session(client, "hst_" + "a" * 43)
    assert raised.value.status == 502


@pytest.mark.parametrize("reply", [
    Reply(200, {"valid": False}),
    Reply(200, {"valid": True, "user": {"id": ""}, "session": {"id": "ses_1"}}),
    Reply(200, {"valid": True, "user": {"id": "usr_1", "email": "a@b.c"}}),
    Reply(429, {"error": {"code": "TooManyAttempts"}}),
    Reply(503, {"error": {"code": "ServiceUnavailable"}}),
])
async def test_an_answer_that_is_not_a_live_session_is_502_not_an_allow(reply):
    async with calling(lambda seen: reply, system="identity") as (callee, client):
        with pytest.raises(errors.UpstreamError):
            await validate_session(client, "hst_" + "a" * 43)
    assert callee.requests[0].headers["authorization"] == "Bearer hst_" + "a" * 43


async def test_a_surface_gate_reads_bearer_or_cookie_and_answers_401_and_502(http, settings, closed_url):
    person = await make_person(http, "surface")
    async with surface(settings) as (url, app), httpx.AsyncClient(base_url=url, timeout=10) as browser:
        by_bearer = await browser.get("/me", headers=person.auth)
        assert by_bearer.status_code == 200 and by_bearer.json()["UserId"] == person.id
        missing = await browser.get("/me")
        assert missing.status_code == 401 and missing.json()["Error"]["Code"] == "AuthorizationError"
        browser.cookies.set(SESSION_COOKIE, person.token)
        by_cookie = await browser.get("/me")
        assert by_cookie.status_code == 200 and by_cookie.json()["UserId"] == person.id
        await http.post("/v1/auth/logout", headers=person.auth)
        revoked = await browser.get("/me")
        assert revoked.status_code == 401
        client = app.ctx.service_clients.client("identity")
    assert client._http is None  # closed when the server stopped

    down = load_settings({**os.environ, "IDENTITY_URL": closed_url})
    async with surface(down) as (url, _), httpx.AsyncClient(base_url=url, timeout=10) as browser:
        outage = await browser.get("/me", headers={"Authorization": "Bearer hst_" + "a" * 43})
    assert outage.status_code == 502
    assert outage.json()["Error"] == {"Type": "Receiver", "Code": "UpstreamError",
                                      "Message": errors.UpstreamError.message}


# -- token verification --------------------------------------------------------------------------


@pytest.fixture(scope="module")
async def oauth_client(identity_url) -> str:
    async with httpx.AsyncClient(base_url=identity_url) as http:
        response = await http.post("/v1/clients", headers=service_headers(),
                                   json={"name": "Service client tests", "redirect_uris": [REDIRECT]})
    assert response.status_code == 201, response.text
    return response.json()["client"]["client_id"]


async def login_for_tokens(http, identity_url: str, client_id: str):
    """A real authorization-code flow with PKCE: what a dashboard does to get tokens."""
    person = await make_person(http, "tokens", login=False)
    oauth = make_oauth(identity_url, client_id)
    verifier = generate_token(48)
    url, state = oauth.create_authorization_url(f"{identity_url}/authorize", code_verifier=verifier)
    location = await browser_login(http, url, person.email, PASSWORD)
    tokens = await oauth.fetch_token(authorization_response=location, state=state, code_verifier=verifier)
    return person, oauth, tokens


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def tampered(token: str, **claims) -> str:
    """The token with claims changed and its signature kept."""
    head, payload, signature = token.split(".")
    body = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    return f"{head}.{b64(json.dumps({**body, **claims}).encode())}.{signature}"


async def test_a_token_issued_by_identity_verifies_and_a_tampered_one_fails(http, identity, identity_url,
                                                                            oauth_client):
    person, oauth, tokens = await login_for_tokens(http, identity_url, oauth_client)
    verifier = TokenVerifier(identity, issuer=identity_url, audience=oauth_client)
    claims = await verifier.verify(tokens["id_token"])
    assert claims["sub"] == person.id and claims["email"] == person.email
    assert (await verifier.verify(tokens["access_token"], typ="at+jwt"))["sub"] == person.id

    refused = [
        tampered(tokens["id_token"], sub="usr_someone_else"),
        tokens["id_token"][:-4] + ("AAAA" if not tokens["id_token"].endswith("AAAA") else "BBBB"),
        jwt.encode({"sub": person.id, "iss": identity_url, "aud": oauth_client}, "k" * 32, algorithm="HS256",
                   headers={"kid": jwt.get_unverified_header(tokens["id_token"])["kid"]}),
        "not-a-jwt",
    ]
    for token in refused:
        with pytest.raises(errors.AuthorizationError):
            await verifier.verify(token)
    with pytest.raises(errors.AuthorizationError):  # an ID token is not an access token
        await verifier.verify(tokens["id_token"], typ="at+jwt")
    other_audience = TokenVerifier(identity, issuer=identity_url, audience="another-client")
    with pytest.raises(errors.AuthorizationError):
        await other_audience.verify(tokens["id_token"])
    other_issuer = TokenVerifier(identity, issuer="https://auth.example.com", audience=oauth_client)
    with pytest.raises(errors.AuthorizationError):
        await other_issuer.verify(tokens["id_token"])
    await oauth.aclose()


async def test_a_new_signing_key_is_fetched_on_its_first_token(http, identity, identity_url, oauth_client,
                                                                clock):
    _, oauth, tokens = await login_for_tokens(http, identity_url, oauth_client)
    verifier = TokenVerifier(identity, issuer=identity_url, audience=oauth_client, clock=clock)
    await verifier.verify(tokens["access_token"])  # the key set is now cached
    rotated = await http.post("/v1/auth/keys/rotate", headers=service_headers())
    assert rotated.status_code == 201
    fresh = await oauth.refresh_token(refresh_token=tokens["refresh_token"])
    await oauth.aclose()
    assert jwt.get_unverified_header(fresh["access_token"])["kid"] == rotated.json()["kid"]
    # Right after a fetch an unknown key cannot be looked up yet: "try again", never "invalid".
    with pytest.raises(errors.ServiceUnavailable) as raised:
        await verifier.verify(fresh["access_token"])
    assert raised.value.headers["Retry-After"] == str(int(JWKS_REFETCH_SECONDS))
    clock.advance(JWKS_REFETCH_SECONDS)
    assert (await verifier.verify(fresh["access_token"], typ="at+jwt"))["client_id"] == oauth_client
    assert (await verifier.verify(tokens["access_token"]))["client_id"] == oauth_client  # the retired key too


async def test_unknown_kids_refetch_the_key_set_at_most_once_per_interval(http, identity_url, oauth_client,
                                                                          clock):
    _, oauth, tokens = await login_for_tokens(http, identity_url, oauth_client)
    await oauth.aclose()
    published = (await http.get("/.well-known/jwks.json")).json()
    header = {"alg": "RS256", "kid": secrets.token_hex(8)}
    forged = ".".join(b64(part) for part in (json.dumps(header).encode(), b'{"sub": "usr_x"}', b"signature"))

    async with calling(lambda seen: Reply(200, published), system="identity", token=None) as (jwks, c):
        verifier = TokenVerifier(c, issuer=identity_url, audience=oauth_client, clock=clock)
        await verifier.verify(tokens["id_token"])
        assert len(jwks.requests) == 1 and "authorization" not in jwks.requests[0].headers
        for _ in range(5):
            with pytest.raises(errors.ServiceUnavailable):
                await verifier.verify(forged)
        assert len(jwks.requests) == 1  # within the interval: no refetch for a forged kid
        clock.advance(JWKS_REFETCH_SECONDS)
        with pytest.raises(errors.AuthorizationError):  # fetched again: the kid is truly unknown
            await verifier.verify(forged)
        assert len(jwks.requests) == 2
        await verifier.verify(tokens["id_token"])
        assert len(jwks.requests) == 2  # known kid, fresh set: from the cache


async def test_identity_down_with_no_cached_key_is_503_and_cached_keys_outlive_it(
        http, identity_url, oauth_client, clock, closed_url):
    _, oauth, tokens = await login_for_tokens(http, identity_url, oauth_client)
    await oauth.aclose()
    async with ServiceClient("identity", closed_url, None) as down:
        with pytest.raises(errors.ServiceUnavailable) as raised:
            await TokenVerifier(down, issuer=identity_url, audience=oauth_client).verify(tokens["id_token"])
    assert raised.value.status == 503 and raised.value.headers["Retry-After"]

    published = (await http.get("/.well-known/jwks.json")).json()
    async with calling(lambda seen: Reply(200, published), system="identity", token=None) as (jwks, c):
        verifier = TokenVerifier(c, issuer=identity_url, audience=oauth_client, clock=clock)
        await verifier.verify(tokens["id_token"])
        jwks.answer = lambda seen: Reply(500, {"error": "down"})
        clock.advance(JWKS_MAX_AGE_SECONDS)  # stale: a refetch is tried, fails, the cached keys still verify
        assert (await verifier.verify(tokens["id_token"]))["aud"] == oauth_client
        assert len(jwks.requests) == 2
        clock.advance(JWKS_STALE_SECONDS)  # too old to trust any longer
        with pytest.raises(errors.ServiceUnavailable):
            await verifier.verify(tokens["id_token"])


# -- authorization decisions ---------------------------------------------------------------------


async def recorded_decisions(http, tenant: str) -> list[dict]:
    response = await http.get(f"/v1/tenants/{tenant}/authz/decisoes", params={"limite": "500"},
                              headers=service_headers())
    assert response.status_code == 200, response.text
    return response.json()["decisoes"]


async def test_decisions_are_cached_at_most_60_seconds(http, identity, clock):
    person = await make_person(http, "decide", login=False)
    tenant = f"acc_{secrets.token_hex(6)}"
    headers = service_headers()
    assert (await http.post(f"/v1/tenants/{tenant}/produtos", json={"produto": "crm", "status": "ativo"},
                            headers=headers)).status_code == 200
    grant = {"user_id": person.id, "produto": "crm", "papel": "editor"}
    assert (await http.post(f"/v1/tenants/{tenant}/acessos", json=grant, headers=headers)).status_code == 201
    decisions = Decisions(identity, clock=clock)

    first = await decisions.decide(person.id, tenant, "crm")
    assert first.allowed and (first.reason, first.role, first.level) == ("permitido", "editor", 20)
    assert await decisions.decide(person.id, tenant, "crm") == first
    assert len(await recorded_decisions(http, tenant)) == 1  # the second answer came from the cache

    above = await decisions.decide(person.id, tenant, "crm", role="admin")  # another question: asked
    assert not above.allowed and above.reason == "papel_insuficiente"
    assert len(await recorded_decisions(http, tenant)) == 2

    revoke = await http.delete(f"/v1/tenants/{tenant}/acessos/{person.id}/crm", headers=headers)
    assert revoke.status_code == 204
    clock.advance(DECISION_TTL_SECONDS - 1)
    assert (await decisions.decide(person.id, tenant, "crm")).allowed  # within the bound
    clock.advance(1)
    revoked = await decisions.decide(person.id, tenant, "crm")
    assert not revoked.allowed and revoked.reason == "sem_acesso"
    assert len(await recorded_decisions(http, tenant)) == 3


def test_a_decision_cannot_be_kept_longer_than_60_seconds(identity):
    with pytest.raises(ValueError):
        Decisions(identity, ttl=DECISION_TTL_SECONDS + 1)


async def test_the_decision_cache_is_bounded(clock):
    answer = Reply(200, {"permitido": True, "motivo": "permitido", "papel": "leitor", "nivel": 10})
    async with calling(lambda seen: answer, system="identity") as (callee, client):
        decisions = Decisions(client, max_entries=2, clock=clock)
        for sub in ("usr_a", "usr_b", "usr_a", "usr_c", "usr_a", "usr_b"):
            await decisions.decide(sub, "acc_1", "crm")
        # usr_a stays (recently used); usr_b was evicted by usr_c and asked again
        asked = [json.loads(seen.body)["sub"] for seen in callee.requests]
        assert asked == ["usr_a", "usr_b", "usr_c", "usr_b"]
        assert json.loads(callee.requests[0].body) == {"sub": "usr_a", "tenant": "acc_1", "produto": "crm"}


async def test_a_decision_for_a_session_is_never_kept(clock):
    """A support session's decision (``session=``) must not outlive the support session."""
    answer = Reply(200, {"permitido": True, "motivo": "suporte", "papel": "admin", "nivel": 30,
                         "suporte": "sup_0123456789abcdef01234567"})
    async with calling(lambda seen: answer, system="identity") as (callee, client):
        decisions = Decisions(client, clock=clock)
        for _ in range(2):
            decision = await decisions.decide("usr_a", "acc_1", "crm", session="ses_1")
            assert decision.support == "sup_0123456789abcdef01234567" and decision.role == "admin"
        assert len(callee.requests) == 2  # asked each time
        assert json.loads(callee.requests[0].body)["sessao"] == "ses_1"
        await decisions.decide("usr_a", "acc_1", "crm")  # the user's own question is another one
        assert len(callee.requests) == 3 and "sessao" not in json.loads(callee.requests[2].body)


@pytest.mark.parametrize("reply", [
    Reply(503, {"error": {"type": "Receiver", "code": "ServiceUnavailable", "message": "database"}}),
    Reply(500, {"error": {"code": "InternalError"}}),
    Reply(200, {"permitido": "true", "motivo": "permitido"}),
    Reply(200, {"allowed": True}),
    Reply(422, {"error": {"code": "UndeclaredRole"}}),
])
async def test_a_failed_decision_is_never_an_allow(reply):
    async with calling(lambda seen: reply, system="identity") as (callee, client):
        with pytest.raises(errors.ServiceUnavailable) as raised:
            await Decisions(client).decide("usr_a", "acc_1", "crm", role="editor")
    assert raised.value.status == 503 and raised.value.headers["Retry-After"]
    assert json.loads(callee.requests[0].body)["papel"] == "editor"


async def test_identity_unreachable_is_never_an_allow(closed_url):
    async with ServiceClient("identity", closed_url, "t" * 40) as client:
        with pytest.raises(errors.ServiceUnavailable):
            await Decisions(client).decide("usr_a", "acc_1", "crm")


async def test_an_app_has_one_decision_cache_and_one_verifier_per_audience(settings, identity_url):
    app = Sanic(f"helpers_{secrets.token_hex(4)}", ctx=SimpleNamespace(settings=settings))
    assert decisions(app) is decisions(app) and decisions(app).client is services(app).client("identity")
    verifier = token_verifier(app, "herald-dashboard")
    assert token_verifier(app, "herald-dashboard") is verifier
    assert token_verifier(app, "other") is not verifier
    assert verifier.issuer == identity_url and verifier.audience == "herald-dashboard"
    denied = await decisions(app).decide("usr_nobody", f"acc_{secrets.token_hex(6)}", "crm")
    assert not denied.allowed and denied.reason == "produto_nao_assinado"
    await services(app).aclose()
