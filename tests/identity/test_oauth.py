"""OIDC with PKCE end to end: authlib is the client, pyjwt verifies against the JWKS."""

from __future__ import annotations

import re
import secrets
from html import unescape

import httpx
import jwt
import pytest
from authlib.common.security import generate_token
from authlib.integrations.httpx_client import AsyncOAuth2Client, OAuthError

from tests.fixtures.identity import PASSWORD, make_person, service_headers

REDIRECT = "http://127.0.0.1:9999/callback"


@pytest.fixture(scope="module")
async def oauth_client(identity_url) -> str:
    async with httpx.AsyncClient(base_url=identity_url) as http:
        response = await http.post("/v1/clients", headers=service_headers(), json={
            "name": "Test app", "redirect_uris": [REDIRECT], "post_logout_redirect_uris": [REDIRECT + "/bye"]})
    assert response.status_code == 201, response.text
    return response.json()["client"]["client_id"]


def hidden(html: str, name: str) -> str:
    match = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert match, f"no hidden field {name}"
    return unescape(match.group(1))


async def browser_login(http: httpx.AsyncClient, url: str, email: str, password: str, code=None) -> str:
    """What a person does in a browser: open /authorize, fill the form(s); returns the redirect."""
    page = await http.get(url)
    assert page.status_code == 200 and 'label for="password"' in page.text
    request_blob = hidden(page.text, "request")
    answer = await http.post("/authorize", data={"request": request_blob, "step": "password", "email": email,
                                                 "password": password})
    if code is not None:
        assert answer.status_code == 200 and 'name="code"' in answer.text
        answer = await http.post("/authorize", data={"request": request_blob, "step": "totp",
                                                     "ticket": hidden(answer.text, "ticket"), "code": code()})
    assert answer.status_code == 303, answer.text[:500]
    return answer.headers["location"]


def make_oauth(identity_url: str, client_id: str) -> AsyncOAuth2Client:
    return AsyncOAuth2Client(client_id=client_id, redirect_uri=REDIRECT, scope="openid profile email",
                             code_challenge_method="S256", token_endpoint=f"{identity_url}/token")


async def test_discovery_advertises_only_code_s256_rs256(client, identity_url):
    body = (await client.get("/.well-known/openid-configuration")).json()
    assert body["issuer"] == identity_url
    assert body["response_types_supported"] == ["code"]
    assert body["code_challenge_methods_supported"] == ["S256"]
    assert body["id_token_signing_alg_values_supported"] == ["RS256"]
    keys = (await client.get("/.well-known/jwks.json")).json()["keys"]
    assert keys and all(k["kty"] == "RSA" and k["alg"] == "RS256" and k["kid"] for k in keys)
    assert all("d" not in k for k in keys)


async def test_full_flow_with_pkce_refresh_rotation_and_reuse_detection(client, identity_url, oauth_client):
    person = await make_person(client, "oidc", login=False)
    oauth = make_oauth(identity_url, oauth_client)
    verifier, nonce = generate_token(48), generate_token(20)
    url, state = oauth.create_authorization_url(f"{identity_url}/authorize", code_verifier=verifier, nonce=nonce)
    location = await browser_login(client, url, person.email, person.password)
    assert location.startswith(REDIRECT + "?") and f"state={state}" in location

    token = await oauth.fetch_token(authorization_response=location, state=state, code_verifier=verifier)
    jwks = jwt.PyJWKSet.from_dict((await client.get("/.well-known/jwks.json")).json())
    kid = jwt.get_unverified_header(token["id_token"])["kid"]
    key = next(k for k in jwks.keys if k.key_id == kid)
    claims = jwt.decode(token["id_token"], key, algorithms=["RS256"], audience=oauth_client, issuer=identity_url,
                        options={"require": ["exp", "iat", "iss", "aud", "sub"]})
    assert claims["sub"] == person.id and claims["nonce"] == nonce and claims["email"] == person.email

    info = await client.get("/userinfo", headers={"Authorization": f"Bearer {token['access_token']}"})
    assert info.status_code == 200
    assert info.json()["sub"] == person.id and info.json()["email"] == person.email and "name" in info.json()

    first_refresh = token["refresh_token"]
    rotated = await oauth.refresh_token(refresh_token=first_refresh)
    assert rotated["refresh_token"] != first_refresh
    with pytest.raises(OAuthError) as reuse:
        await oauth.refresh_token(refresh_token=first_refresh)
    assert reuse.value.error == "invalid_grant"
    with pytest.raises(OAuthError):  # the whole family is revoked
        await oauth.refresh_token(refresh_token=rotated["refresh_token"])
    await oauth.aclose()


async def test_code_is_single_use_and_needs_the_verifier(client, identity_url, oauth_client):
    person = await make_person(client, "pkce", login=False)
    oauth = make_oauth(identity_url, oauth_client)
    verifier = generate_token(48)
    url, state = oauth.create_authorization_url(f"{identity_url}/authorize", code_verifier=verifier)
    location = await browser_login(client, url, person.email, person.password)
    with pytest.raises(OAuthError) as wrong:
        await oauth.fetch_token(authorization_response=location, state=state, code_verifier=generate_token(48))
    assert wrong.value.error == "invalid_grant"
    url, state = oauth.create_authorization_url(f"{identity_url}/authorize", code_verifier=verifier)
    location = await browser_login(client, url, person.email, person.password)
    token = await oauth.fetch_token(authorization_response=location, state=state, code_verifier=verifier)
    with pytest.raises(OAuthError):
        await oauth.fetch_token(authorization_response=location, state=state, code_verifier=verifier)
    # The replayed code revoked what it had issued.
    info = await client.get("/userinfo", headers={"Authorization": f"Bearer {token['access_token']}"})
    assert info.status_code == 401
    await oauth.aclose()


async def test_totp_protected_login_needs_the_code(client, identity_url, oauth_client, app_code_person):
    person = app_code_person  # the app on, its step made older: its next code needs no wait
    oauth = make_oauth(identity_url, oauth_client)
    verifier = generate_token(48)
    url, state = oauth.create_authorization_url(f"{identity_url}/authorize", code_verifier=verifier)
    location = await browser_login(client, url, person.email, person.password, code=person.code)
    token = await oauth.fetch_token(authorization_response=location, state=state, code_verifier=verifier)
    assert token["access_token"]
    await oauth.aclose()


async def test_unregistered_redirect_uri_never_redirects(client, oauth_client):
    response = await client.get("/authorize", params={
        "response_type": "code", "client_id": oauth_client, "redirect_uri": "https://evil.example/cb",
        "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method": "S256"})
    assert response.status_code == 400
    assert "location" not in response.headers and "text/html" in response.headers["content-type"]


async def test_missing_pkce_is_an_error_sent_back_to_the_client(client, oauth_client):
    response = await client.get("/authorize", params={"response_type": "code", "client_id": oauth_client,
                                                      "redirect_uri": REDIRECT, "state": "s1"})
    assert response.status_code == 303
    assert "error=invalid_request" in response.headers["location"] and "state=s1" in response.headers["location"]


@pytest.mark.parametrize("token", [None, "not-a-jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln"])
async def test_userinfo_refuses_bad_tokens_with_invalid_token(client, token):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = await client.get("/userinfo", headers=headers)
    assert response.status_code == 401
    assert response.json()["error"] == "invalid_token"
    assert 'error="invalid_token"' in response.headers["www-authenticate"]


async def test_key_rotation_new_key_signs_old_still_verifies(client, identity_url, oauth_client):
    person = await make_person(client, "rotate", login=False)
    oauth = make_oauth(identity_url, oauth_client)
    verifier = generate_token(48)
    url, state = oauth.create_authorization_url(f"{identity_url}/authorize", code_verifier=verifier)
    token = await oauth.fetch_token(authorization_response=await browser_login(client, url, person.email, PASSWORD),
                                    state=state, code_verifier=verifier)
    old_kid = jwt.get_unverified_header(token["access_token"])["kid"]
    assert (await client.post("/v1/auth/keys/rotate")).status_code == 401
    rotated = await client.post("/v1/auth/keys/rotate", headers=service_headers())
    assert rotated.status_code == 201
    new_kid = rotated.json()["kid"]
    kids = {k["kid"] for k in (await client.get("/.well-known/jwks.json")).json()["keys"]}
    assert {old_kid, new_kid} <= kids
    assert (await client.get("/userinfo", headers={"Authorization": f"Bearer {token['access_token']}"})
            ).status_code == 200
    fresh = await oauth.refresh_token(refresh_token=token["refresh_token"])
    assert jwt.get_unverified_header(fresh["access_token"])["kid"] == new_kid
    await oauth.aclose()


async def test_logout_with_a_bearer_ends_the_session(client, identity_url, oauth_client):
    person = await make_person(client, "bye", login=False)
    oauth = make_oauth(identity_url, oauth_client)
    verifier = generate_token(48)
    url, state = oauth.create_authorization_url(f"{identity_url}/authorize", code_verifier=verifier)
    token = await oauth.fetch_token(authorization_response=await browser_login(client, url, person.email, PASSWORD),
                                    state=state, code_verifier=verifier)
    assert (await client.get("/logout")).status_code == 401
    out = await client.get("/logout", headers={"Authorization": f"Bearer {token['access_token']}"})
    assert out.status_code == 200
    assert (await client.get("/userinfo", headers={"Authorization": f"Bearer {token['access_token']}"})
            ).status_code == 401
    with pytest.raises(OAuthError):
        await oauth.refresh_token(refresh_token=token["refresh_token"])
    await oauth.aclose()


async def test_registering_a_client_needs_the_service_credential(client):
    body = {"name": "x", "redirect_uris": [REDIRECT]}
    assert (await client.post("/v1/clients", json=body)).status_code == 401
    bad = await client.post("/v1/clients", json=body, headers={"Authorization": f"Bearer {secrets.token_hex(20)}"})
    assert bad.status_code == 401 and bad.json()["error"]["code"] == "InvalidToken"
    insecure = await client.post("/v1/clients", json={"name": "x", "redirect_uris": ["http://evil.example/cb"]},
                                 headers=service_headers())
    assert insecure.status_code == 400


async def test_authorize_ignores_parameters_it_does_not_know(client, oauth_client):
    """RFC 6749 section 3.1: unknown request parameters are ignored, not refused."""
    response = await client.get("/authorize", params={
        "response_type": "code", "client_id": oauth_client, "redirect_uri": REDIRECT, "state": "s",
        "code_challenge": "x" * 43, "code_challenge_method": "S256", "scope": "openid",
        "ui_locales": "pt-BR", "some_vendor_extension": "1"})
    assert response.status_code == 200, response.text
    assert 'name="request"' in response.text  # the sign-in page, not an error page
