"""Login, sessions, validation and revocation through the real identity server."""

from __future__ import annotations

import pytest

from tests.fixtures.harness import post_declaring
from tests.fixtures.identity import PASSWORD, make_person, unique_email


async def test_login_issues_a_session_with_user_agent_and_ip(client, people):
    plain = people["plain"]
    response = await client.post("/v1/auth/login", json={"email": plain.email.upper(), "password": PASSWORD},
                                 headers={"User-Agent": "pytest-agent/1"})
    assert response.status_code == 200
    body = response.json()
    assert body["two_factor_required"] is False
    assert body["token"].startswith("hst_")
    assert body["user"]["id"] == plain.id and body["session"]["id"].startswith("ses_")
    assert "password" not in response.text.replace('"method":"password"', "")
    sessions = await client.get("/v1/auth/sessions", headers={"Authorization": f"Bearer {body['token']}"})
    mine = next(s for s in sessions.json()["sessions"] if s["id"] == body["session"]["id"])
    assert mine["user_agent"] == "pytest-agent/1"
    assert mine["ip"] == "127.0.0.1"
    assert mine["current"] is True


async def test_wrong_password_and_unknown_user_answer_the_same(client, people):
    wrong = await client.post("/v1/auth/login", json={"email": people["plain"].email, "password": "nope" * 4})
    unknown = await client.post("/v1/auth/login", json={"email": unique_email("ghost"), "password": "nope" * 4})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json()["error"] == unknown.json()["error"]
    assert wrong.json()["error"]["code"] == "InvalidCredentials"


async def test_validate_answers_user_id(client, people):
    plain = people["plain"]
    response = await client.get("/v1/auth/validate", headers=plain.auth)
    assert response.status_code == 200
    assert response.json()["user"]["id"] == plain.id


@pytest.mark.parametrize("headers, code", [
    ({}, "MissingToken"),
    ({"Authorization": "Basic dXNlcjpwYXNz"}, "MissingToken"),
    ({"Authorization": "Bearer hst_not-a-real-token"}, "InvalidToken"),
    ({"Authorization": "Bearer something-else"}, "InvalidToken"),
])
async def test_validate_refuses_missing_and_invalid_tokens(client, headers, code):
    response = await client.get("/v1/auth/validate", headers=headers)
    assert response.status_code == 401
    assert response.json()["error"]["code"] == code


async def test_a_revoked_session_fails_validation_at_once(client, people):
    plain = people["plain"]
    login = await client.post("/v1/auth/login", json={"email": plain.email, "password": PASSWORD})
    token, session_id = login.json()["token"], login.json()["session"]["id"]
    auth = {"Authorization": f"Bearer {token}"}
    assert (await client.get("/v1/auth/validate", headers=auth)).status_code == 200
    deleted = await client.delete(f"/v1/auth/sessions/{session_id}", headers=plain.auth)
    assert deleted.status_code == 204
    after = await client.get("/v1/auth/validate", headers=auth)
    assert after.status_code == 401
    assert after.json()["error"]["code"] == "ExpiredToken"
    listed = await client.get("/v1/auth/sessions", headers=plain.auth)
    assert session_id not in {s["id"] for s in listed.json()["sessions"]}


async def test_an_expired_session_answers_expired_token(client, people):
    from datetime import datetime, timedelta, timezone

    from models.identity import Session

    plain = people["plain"]
    login = await client.post("/v1/auth/login", json={"email": plain.email, "password": PASSWORD})
    past = datetime.now(timezone.utc) - timedelta(seconds=1)
    await Session.filter(public_id=login.json()["session"]["id"]).update(idle_expires_at=past)
    response = await client.get("/v1/auth/validate", headers={"Authorization": f"Bearer {login.json()['token']}"})
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "ExpiredToken"


async def test_another_persons_session_is_404(client, people):
    other = await client.post("/v1/auth/login", json={"email": people["plain"].email, "password": PASSWORD})
    guarded = people["guarded"]
    response = await client.delete(f"/v1/auth/sessions/{other.json()['session']['id']}", headers=guarded.auth)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NotFound"
    unknown = await client.delete("/v1/auth/sessions/ses_000000000000000000000000", headers=guarded.auth)
    assert unknown.status_code == 404
    still = await client.get("/v1/auth/validate", headers={"Authorization": f"Bearer {other.json()['token']}"})
    assert still.status_code == 200


async def test_logout_revokes_the_current_session(client):
    person = await make_person(client, "leaver")
    assert (await client.post("/v1/auth/logout", headers=person.auth)).status_code == 204
    assert (await client.get("/v1/auth/validate", headers=person.auth)).json()["error"]["code"] == "ExpiredToken"


@pytest.mark.parametrize("content, detail", [
    (b"", None),
    (b'{"email": ', None),
    (b"[1, 2]", None),
    (b'{"email": "a@b.co", "password": "x", "remember": true}', "remember"),
])
async def test_malformed_bodies_are_400_invalid_request(client, content, detail):
    response = await client.post("/v1/auth/login", content=content, headers={"content-type": "application/json"})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "InvalidRequest"
    if detail:
        assert detail in error["message"]


async def test_body_above_one_mebibyte_is_400_invalid_request(identity_url):
    status, body = await post_declaring(identity_url, "/v1/auth/login", 1024 * 1024 + 10)
    assert status == 400
    assert body["error"]["code"] == "InvalidRequest"


async def test_missing_field_is_400_invalid_input(client):
    response = await client.post("/v1/auth/login", json={"email": "a@b.co"})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "InvalidInput"
    assert response.json()["error"]["details"] == {"password": "required"}
