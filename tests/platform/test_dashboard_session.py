"""The dashboard's sign-in surface (/api/auth/*) over HTTP, with the platform and the identity
server really running: sessions as cookie or Bearer, revoked at once, CSRF, limits, outages."""

from __future__ import annotations

import httpx
import pytest

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import bearer, cookie, jwt_parts, make_person, session_cookie, sign_in
from tests.fixtures.harness import free_port, post_declaring


async def test_login_answers_an_rs256_session_jwt_and_sets_a_safe_cookie(dashboard, identity):
    person = await make_person(identity, "dash", login=False)
    answer = await dashboard.post("/api/auth/login", json={"email": person.email, "password": person.password})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["TwoFactorRequired"] is False and body["UserId"] == person.id and body["UserEmail"] == person.email
    assert body["RequestId"].startswith("req_") and body["ExpiresAt"].endswith("Z")
    header, claims = jwt_parts(body["Token"])
    assert header["alg"] == "RS256" and header["kid"]
    assert claims["sub"] == person.id and claims["aud"] == "herald-dashboard" and claims["sid"].startswith("ses_")
    line = session_cookie(answer)
    assert line.startswith(f"herald_session={body['Token']};")
    flags = {part.strip().split("=")[0].lower() for part in line.split(";")}
    assert {"httponly", "secure", "path"} <= flags and "samesite=lax" in line.lower()

    me = await dashboard.get("/api/auth/me", headers=cookie(body["Token"]))
    assert me.status_code == 200, me.text
    assert me.json()["UserId"] == person.id and me.json()["UserEmail"] == person.email
    assert me.json()["TenantId"] == "" and me.json()["RequestId"].startswith("req_")
    assert me.headers["X-Request-Id"] == me.json()["RequestId"]


async def test_wrong_and_unknown_logins_are_the_same_401(dashboard, identity):
    person = await make_person(identity, "wrongpw", login=False)
    wrong = await dashboard.post("/api/auth/login", json={"email": person.email, "password": "not the password"})
    unknown = await dashboard.post("/api/auth/login", json={"email": "nobody-x1@example.com", "password": "whatever"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json()["Error"]["Code"] == unknown.json()["Error"]["Code"]
    assert "set-cookie" not in wrong.headers
    strict = await dashboard.post("/api/auth/login", json={"email": person.email, "password": "x", "Extra": 1})
    assert strict.status_code == 400 and "Extra" in strict.json()["Error"]["Message"]


async def test_a_revoked_session_is_refused_at_once(dashboard, identity):
    person = await make_person(identity, "revoke", login=False)
    first = (await sign_in(dashboard, person))["Token"]
    second = (await sign_in(dashboard, person))["Token"]
    listed = await dashboard.get("/api/auth/sessions", headers=bearer(first))
    assert listed.status_code == 200, listed.text
    rows = listed.json()["Sessions"]
    current = [row for row in rows if row["Current"]]
    other = jwt_parts(second)[1]["sid"]
    assert len(rows) == 2 and current[0]["Id"] == jwt_parts(first)[1]["sid"]

    gone = await dashboard.delete(f"/api/auth/sessions/{other}", headers=bearer(first))
    assert gone.status_code == 204, gone.text
    refused = await dashboard.get("/api/auth/me", headers=bearer(second))
    assert refused.status_code == 401 and refused.json()["Error"]["Code"] == "AuthorizationError"
    assert (await dashboard.delete("/api/auth/sessions/ses_0000", headers=bearer(first))).status_code == 404

    out = await dashboard.post("/api/auth/logout", headers=bearer(first))
    assert out.status_code == 200 and out.json()["Status"] == "ok", out.text
    assert "max-age=0" in session_cookie(out).lower()
    assert (await dashboard.get("/api/auth/me", headers=bearer(first))).status_code == 401
    assert (await dashboard.post("/api/auth/logout", headers=bearer(first))).status_code == 200  # idempotent
    assert (await dashboard.post("/api/auth/logout", headers=bearer("anything-at-all"))).status_code == 200
    missing = await dashboard.post("/api/auth/logout")
    assert missing.status_code == 401 and missing.json()["RequestId"]


async def test_profile_changes_only_the_name(dashboard, identity):
    person = await make_person(identity, "profile", login=False)
    token = (await sign_in(dashboard, person))["Token"]
    renamed = await dashboard.patch("/api/auth/me", json={"Name": "New Name"}, headers=bearer(token))
    assert renamed.status_code == 200 and renamed.json()["Name"] == "New Name", renamed.text
    email = await dashboard.patch("/api/auth/me", json={"Name": "Ok", "Email": "x@example.com"}, headers=bearer(token))
    assert email.status_code == 400 and email.json()["Error"]["Code"] == "UseEmailsEndpoint"
    empty = await dashboard.patch("/api/auth/me", json={"Name": "  "}, headers=bearer(token))
    assert empty.status_code == 400 and empty.json()["Error"]["Code"] == "ValidationError"
    unknown = await dashboard.patch("/api/auth/me", json={"Name": "A", "Role": "admin"}, headers=bearer(token))
    assert unknown.status_code == 400 and "Role" in unknown.json()["Error"]["Message"]


async def test_cookie_writes_need_the_dashboards_origin(dashboard, identity, servers):
    person = await make_person(identity, "csrf", login=False)
    token = (await sign_in(dashboard, person))["Token"]
    async with httpx.AsyncClient(base_url=servers("platform").url, timeout=20) as bare:
        no_origin = await bare.patch("/api/auth/me", json={"Name": "Forged"}, headers=cookie(token))
        foreign = await bare.patch("/api/auth/me", json={"Name": "Forged"},
                                   headers={**cookie(token), "Origin": "https://evil.example"})
        assert no_origin.status_code == foreign.status_code == 403, (no_origin.text, foreign.text)
        assert foreign.json()["Error"]["Code"] == "PermissionDenied"
        foreign_login = await bare.post("/api/auth/login", json={"email": person.email, "password": "x"},
                                        headers={"Origin": "https://evil.example"})
        assert foreign_login.status_code == 403
        same = await bare.patch("/api/auth/me", json={"Name": "Mine"},
                                headers={**cookie(token), "Origin": servers("platform").url})
        assert same.status_code == 200, same.text
        with_bearer = await bare.patch("/api/auth/me", json={"Name": "Script"}, headers=bearer(token))
        assert with_bearer.status_code == 200, with_bearer.text
        read = await bare.get("/api/auth/me", headers=cookie(token))  # reads need no origin
        assert read.status_code == 200


async def test_no_session_is_401_and_unknown_routes_404(dashboard):
    me = await dashboard.get("/api/auth/me")
    assert me.status_code == 401 and me.json()["Error"]["Code"] == "AuthorizationError" and me.json()["RequestId"]
    forged = await dashboard.get("/api/auth/me", headers=bearer("a.b.c"))
    assert forged.status_code == 401
    nowhere = await dashboard.get("/api/auth/nowhere")
    assert nowhere.status_code == 404 and nowhere.json()["Error"]["Code"] == "NotFound"


async def test_bodies_above_2_mib_are_413(dashboard):
    status, body = await post_declaring(str(dashboard.base_url), "/api/auth/login", 2 * 1024 * 1024 + 40,
                                        {"Origin": dashboard.headers["Origin"]})
    assert status == 413
    assert body["Error"]["Code"] == "PayloadTooLarge" and body["RequestId"]


async def test_identity_down_is_a_generic_502(start_server, services):
    closed = f"http://127.0.0.1:{free_port()}"
    platform = start_server("platform", IDENTITY_URL=closed)
    origin = services.env["PLATFORM_URL"]  # the platform's configured address (this one runs on another port)
    async with httpx.AsyncClient(base_url=platform.url, timeout=20, headers={"Origin": origin}) as http:
        login = await http.post("/api/auth/login", json={"email": "a@example.com", "password": "secret"})
        assert login.status_code == 502, login.text
        assert login.json()["Error"]["Code"] == "UpstreamError" and "127.0.0.1" not in login.text
        me = await http.get("/api/auth/me", headers=bearer("some.session.token"))
        assert me.status_code == 502 and me.json()["RequestId"]
        out = await http.post("/api/auth/logout", headers=bearer("some-token"))
        assert out.status_code == 502 and out.json()["Error"]["Code"] == "LogoutFailed"
