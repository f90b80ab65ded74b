"""Members and API keys of an account over HTTP: roles, inheritance down the tree, the last owner,
the key rules of the CLI, the per-account cap."""

from __future__ import annotations

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, new_child, signed_in_member
from tests.fixtures.identity import service_headers


async def test_members_roles_and_inheritance(dashboard, identity):
    owner = await signed_in_member(identity, dashboard, "mowner")
    colleague = await signed_in_member(identity, dashboard, "mcol")
    root = await new_account(dashboard, owner, "Members Root")
    child = await new_child(dashboard, owner, root["Id"], "Members Child")

    added = await dashboard.post(f"/api/tenants/{root['Id']}/members", json={"UserId": colleague.id, "Role": "member"},
                                 headers=owner.auth)
    assert added.status_code == 201 and added.json()["Member"]["Role"] == "member", added.text
    again = await dashboard.post(f"/api/tenants/{root['Id']}/members", json={"UserId": colleague.id, "Role": "member"},
                                 headers=owner.auth)
    assert again.status_code == 200
    unknown = await dashboard.post(f"/api/tenants/{root['Id']}/members",
                                   json={"UserId": "usr_" + "0" * 24, "Role": "member"}, headers=owner.auth)
    assert unknown.status_code == 404, unknown.text

    seen = {t["Id"]: t["Role"] for t in (await dashboard.get("/api/tenants", headers=colleague.auth)).json()["Tenants"]}
    assert seen == {root["Id"]: "member", child["Id"]: "member"}  # inherited down the tree
    members = await dashboard.get(f"/api/tenants/{child['Id']}/members", headers=colleague.auth)
    assert members.status_code == 200 and members.json()["Members"] == []  # direct members of the child: none
    listed = (await dashboard.get(f"/api/tenants/{root['Id']}/members", headers=colleague.auth)).json()["Members"]
    assert {(m["UserId"], m["Role"], m["Email"]) for m in listed} == {
        (owner.id, "owner", owner.person.email), (colleague.id, "member", colleague.person.email)}

    # A member reads; it does not manage.
    for method, path, body in (("POST", f"/api/tenants/{child['Id']}/api-keys", {"name": "k", "scopes": ["email:send"]}),
                               ("POST", f"/api/tenants/{root['Id']}/children", {"Name": "no"}),
                               ("POST", f"/api/tenants/{root['Id']}/invitations", {"Email": "x@example.com"}),
                               ("GET", f"/api/tenants/{root['Id']}/logs", None)):
        refused = await dashboard.request(method, path, json=body, headers=colleague.auth)
        assert refused.status_code == 403 and refused.json()["Error"]["Code"] == "PermissionDenied", (path, refused.text)

    for tenant in (root, child):  # inherited down the tree, for the other systems' decisions too
        decision = await identity.post("/v1/authz/decide", headers=service_headers(),
                                       json={"sub": colleague.id, "tenant": tenant["Id"], "produto": "crm"})
        assert decision.json()["permitido"] is True, decision.text

    promoted = await dashboard.post(f"/api/tenants/{root['Id']}/members", json={"UserId": colleague.id, "Role": "admin"},
                                    headers=owner.auth)
    assert promoted.status_code == 200 and promoted.json()["Member"]["Role"] == "admin"
    as_admin = await dashboard.post(f"/api/tenants/{child['Id']}/api-keys", json={"name": "k", "scopes": ["email:send"]},
                                    headers=colleague.auth)
    assert as_admin.status_code == 201, as_admin.text
    no_owner = await dashboard.post(f"/api/tenants/{root['Id']}/members", json={"UserId": colleague.id, "Role": "owner"},
                                    headers=colleague.auth)
    assert no_owner.status_code == 403  # an admin grants no owners

    last = await dashboard.delete(f"/api/tenants/{root['Id']}/members/{owner.id}", headers=owner.auth)
    assert last.status_code == 409, last.text
    removed = await dashboard.delete(f"/api/tenants/{root['Id']}/members/{colleague.id}", headers=owner.auth)
    assert removed.status_code == 204
    assert (await dashboard.get(f"/api/tenants/{child['Id']}/members", headers=colleague.auth)).status_code == 404
    for tenant in (root, child):
        decision = await identity.post("/v1/authz/decide", headers=service_headers(),
                                       json={"sub": colleague.id, "tenant": tenant["Id"], "produto": "crm"})
        assert decision.json()["permitido"] is False, tenant


async def test_api_keys_rules_and_cap(dashboard, identity):
    from models.platform import ApiKey, Tenant
    from models.platform.api_key import hash_key

    owner = await signed_in_member(identity, dashboard, "keys")
    account = await new_account(dashboard, owner, "Keys")
    base = f"/api/tenants/{account['Id']}/api-keys"
    for body in ({"name": "none"}, {"name": "bad", "scopes": ["full_access"]}, {"name": "empty", "scopes": []}):
        refused = await dashboard.post(base, json=body, headers=owner.auth)
        assert refused.status_code == 400 and "email:send" in refused.json()["Error"]["Message"], refused.text
        assert "email:send" in refused.json()["Error"]["Details"]["ValidScopes"]
    made = await dashboard.post(base, json={"name": "Server", "scopes": ["email:send", "logs:read"]},
                                headers=owner.auth)
    assert made.status_code == 201, made.text
    key = made.json()["ApiKey"]
    assert key["Key"].startswith("sk_live_") and len(key["Key"]) == len("sk_live_") + 48
    stored = await ApiKey.get(public_id=key["Id"])
    assert stored.key_hash == hash_key(key["Key"]) and key["Key"] not in str(stored.__dict__)
    account_answer = await dashboard.get("/v1/account", headers={"Authorization": f"Bearer {key['Key']}"})
    assert account_answer.status_code == 200 and account_answer.json()["TenantId"] == account["Id"]

    listed = await dashboard.get(base, headers=owner.auth)
    assert [k["Id"] for k in listed.json()["ApiKeys"]] == [key["Id"]] and "Key" not in listed.json()["ApiKeys"][0]
    revoked = await dashboard.delete(f"{base}/{key['Id']}", headers=owner.auth)
    assert revoked.status_code == 204
    assert (await ApiKey.get(public_id=key["Id"])).revoked_at is not None  # the /v1 gate's cache drops it within 2 s
    assert (await dashboard.get(base, headers=owner.auth)).json()["ApiKeys"][0]["RevokedAt"] is not None
    assert (await dashboard.delete(f"{base}/key_{'0' * 24}", headers=owner.auth)).status_code == 404

    tenant = await Tenant.get(public_id=account["Id"])
    for number in range(100):
        await ApiKey.create(tenant=tenant, name=f"bulk {number}", kind="sk_live_", hint="sk_live_0000",
                            key_hash=hash_key(f"{account['Id']}-{number}"), scopes=["email:send"], mode="live")
    capped = await dashboard.post(base, json={"name": "one too many", "scopes": ["email:send"]}, headers=owner.auth)
    assert capped.status_code == 409 and capped.json()["Error"]["Code"] == "LimitExceeded", capped.text
    assert capped.json()["Error"]["Details"]["Limit"] == 100
