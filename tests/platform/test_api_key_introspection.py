"""POST /internal/v1/api-keys/introspect: what the pages system (and later the runtime) learns about
a key it was given: the account, the scopes it may use under the /v1 gate's rules, the publishable
flag; the service credential only; an unknown key is 404."""

from __future__ import annotations

from app.platform.api_key.service import revoke_key
from models.platform.api_key import KeyKind
from tests.fixtures.identity import service_headers

PATH = "/internal/v1/api-keys/introspect"


async def test_a_key_is_introspected_with_its_account_and_usable_scopes(platform, make_account):
    account = await make_account(scopes=("pages:read", "pages:write", "email:send"))
    answer = await platform.post(PATH, headers=service_headers(), json={"Key": account.key})
    assert answer.status_code == 200, answer.text
    key = answer.json()["Key"]
    assert key["Id"] == account.key_id and key["TenantId"] == account.tenant_id and key["TenantStatus"] == "active"
    assert key["Scopes"] == ["email:send", "pages:read", "pages:write"]
    assert key["Publishable"] is False and key["Revoked"] is False and key["Mode"] == "live"


async def test_a_publishable_key_uses_only_the_publishable_scopes(platform, make_account):
    account = await make_account(scopes=("pages:read", "forms:read"), kind=KeyKind.PUBLISHABLE)
    key = (await platform.post(PATH, headers=service_headers(), json={"Key": account.key})).json()["Key"]
    assert key["Publishable"] is True and key["Scopes"] == ["forms:read", "pages:read"]


async def test_unknown_revoked_and_unauthenticated(platform, make_account):
    unknown = await platform.post(PATH, headers=service_headers(), json={"Key": "sk_live_" + "0" * 48})
    assert unknown.status_code == 404
    assert (await platform.post(PATH, headers=service_headers(), json={"Key": "garbage"})).status_code == 404
    account = await make_account(scopes=("pages:read",))
    assert (await platform.post(PATH, json={"Key": account.key})).status_code == 401
    assert (await platform.post(PATH, headers={"Authorization": account.headers["Authorization"]},
                                json={"Key": account.key})).status_code == 401
    assert (await platform.post(PATH, headers=service_headers(), json={"Key": account.key, "X": 1})).status_code == 400
    await revoke_key(account.key_id)  # seen at once: the caller's cache is the only one
    revoked = await platform.post(PATH, headers=service_headers(), json={"Key": account.key})
    assert revoked.status_code == 200 and revoked.json()["Key"]["Revoked"] is True
