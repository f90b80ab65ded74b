"""The mail API's gate and envelope: Bearer keys only, publishable keys and missing scopes refused,
a person's session for the product ``mail``, every error exactly {error, message}, every answer
with X-Request-Id."""

from __future__ import annotations

import httpx

from tests.fixtures.access import new_tenant_id
from tests.mail.conftest import sign_up


def assert_envelope(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert set(answer.json()) == {"error", "message"} and answer.json()["error"] == code, answer.text
    assert answer.headers["X-Request-Id"].startswith("req_")


async def test_keys_travel_as_bearer_only(mail, make_account):
    account = await make_account(scopes=("mail:admin",))
    key = account.key
    assert_envelope(await mail.get("/v1/mailboxes"), 401, "AuthorizationError")
    assert_envelope(await mail.get("/v1/mailboxes", headers={"X-Api-Key": key}), 401, "AuthorizationError")
    assert_envelope(await mail.get("/v1/mailboxes", params={"api_key": key}), 401, "AuthorizationError")
    assert_envelope(await mail.get("/v1/mailboxes", headers={"Authorization": "Bearer sk_live_" + "0" * 48}), 401,
                    "AuthorizationError")
    answer = await mail.get("/v1/mailboxes", headers=account.headers)
    assert answer.status_code == 200 and answer.headers["X-Request-Id"] == answer.json()["RequestId"]


async def test_scopes_and_publishable_keys(mail, make_account):
    from models.platform.api_key import KeyKind

    sender = await make_account(scopes=("email:send",))
    assert_envelope(await mail.get("/v1/mailboxes", headers=sender.headers), 403, "InsufficientScope")
    assert "mail:admin" in (await mail.get("/v1/domains", headers=sender.headers)).json()["message"]
    admin = await make_account(scopes=("mail:admin",))
    assert_envelope(await mail.post("/v1/emails", headers=admin.headers, json={}), 403, "InsufficientScope")
    publishable = await make_account(scopes=("pages:read",), kind=KeyKind.PUBLISHABLE)
    assert_envelope(await mail.get("/v1/mailboxes", headers=publishable.headers), 403, "PermissionDenied")


async def test_sessions_need_the_product_role_and_the_account(mail, core):
    person = await sign_up(core)
    assert (await mail.get("/v1/mailboxes", headers=person.session)).status_code == 200
    no_header = await mail.get("/v1/mailboxes", headers={"Authorization": f"Bearer {person.token}"})
    assert_envelope(no_header, 400, "ValidationError")
    assert_envelope(await mail.get("/v1/mailboxes", headers={**person.session, "X-Service-Tenant": new_tenant_id()}),
                    404, "NotFound")


async def test_bodies_are_strict_and_unknown_paths_answer_in_the_envelope(mail, make_account):
    account = await make_account(scopes=("mail:admin", "email:send"))
    unknown = await mail.post("/v1/mailboxes", headers=account.headers, json={"address": "a@b.example", "x": 1})
    assert_envelope(unknown, 400, "ValidationError")
    assert "'x'" in unknown.json()["message"]
    assert_envelope(await mail.post("/v1/mailboxes", headers=account.headers, content=b"{"), 400, "InvalidJson")
    assert_envelope(await mail.get("/v1/nothing-here", headers=account.headers), 404, "NotFound")
    assert_envelope(await mail.put("/v1/mailboxes", headers=account.headers), 405, "MethodNotAllowed")
    assert_envelope(await mail.get("/internal/v1/mailboxes", params={"account": account.tenant_id}), 401,
                    "AuthorizationError")


async def test_the_openapi_document_is_served(mail):
    document = (await mail.get("/openapi.json")).json()
    assert {"/v1/emails", "/v1/domains", "/v1/domains/{name}/verify", "/v1/mailboxes", "/v1/organizations"} <= set(
        document["paths"])
    assert document["components"]["schemas"]["FlatError"]["required"] == ["error", "message"]
