"""Members and API keys of an account over HTTP: nobody linked without their consent (an
invitation instead), roles, inheritance down the tree, the last owner, the key rules of the CLI,
the per-account cap."""

from __future__ import annotations

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import invitation_token, new_account, new_child, signed_in_member
from tests.fixtures.identity import service_headers


async def test_members_roles_and_inheritance(dashboard, identity):
    owner = await signed_in_member(identity, dashboard, "mowner")
    colleague = await signed_in_member(identity, dashboard, "mcol")
    root = await new_account(dashboard, owner, "Members Root")
    child = await new_child(dashboard, owner, root["Id"], "Members Child")

    invited = await dashboard.post(f"/api/tenants/{root['Id']}/members",
                                   json={"UserId": colleague.id, "Role": "member"}, headers=owner.auth)
    assert invited.status_code == 202 and invited.json()["Invitation"]["Role"] == "member", invited.text
    again = await dashboard.post(f"/api/tenants/{root['Id']}/members", json={"UserId": colleague.id, "Role": "member"},
                                 headers=owner.auth)
    assert again.status_code == 409  # one pending invitation per address
    accepted = await dashboard.post("/api/invitations/accept", json={"Token": await invitation_token(
        colleague.person.email)}, headers=colleague.auth)
    assert accepted.status_code == 200, accepted.text
    same = await dashboard.post(f"/api/tenants/{root['Id']}/members", json={"UserId": colleague.id, "Role": "member"},
                                headers=owner.auth)
    assert same.status_code == 200 and same.json()["Member"]["Role"] == "member"  # a member already: the role
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


async def test_linking_a_person_invites_them_and_never_moves_their_default_account(dashboard, identity):
    """Issue 38: an account whose id sorts below the victim's linked the victim, which made it the
    victim's header-less default (the contract's smallest-id rule). Now the link is an invitation:
    nothing about the victim changes until they accept it."""
    from models.platform import Invitation, Membership
    from models.platform.tenant import Tenant

    # Ids are random hex. A victim whose account sorts in the upper half (one person in two) leaves each
    # lure a chance of one half or more to sort below it: 24 people and 24 lures miss with 2 * 2**-24.
    for attempt in range(24):
        victim = await signed_in_member(identity, dashboard, f"victim{attempt}")
        own = await new_account(dashboard, victim, "Victim's")
        if own["Id"].removeprefix("acc_")[0] >= "8":
            break
    attacker = await signed_in_member(identity, dashboard, "attacker")
    lower = None
    for attempt in range(24):
        made = await new_account(dashboard, attacker, f"Lure {attempt}")
        if made["Id"] < own["Id"]:
            lower = made
            break
    assert lower is not None

    linked = await dashboard.post(f"/api/tenants/{lower['Id']}/members", json={"UserId": victim.id, "Role": "admin"},
                                  headers=attacker.auth)
    assert linked.status_code == 202, linked.text
    invitation = linked.json()["Invitation"]
    assert invitation["Id"].startswith("cvt_") and invitation["Status"] == "pending"
    assert invitation["Email"] == victim.person.email.casefold() and invitation["TenantId"] == lower["Id"]
    assert "Member" not in linked.json()

    tenant = await Tenant.get(public_id=lower["Id"])
    assert await Membership.filter(tenant_id=tenant.id, user_id=victim.id).count() == 0
    assert await Invitation.filter(tenant_id=tenant.id, status="pending").count() == 1
    seen = [t["Id"] for t in (await dashboard.get("/api/tenants", headers=victim.auth)).json()["Tenants"]]
    assert seen == [own["Id"]]
    default = await dashboard.get("/api/tenants/tree", headers=victim.auth)  # no X-Service-Tenant
    assert default.status_code == 200 and default.json()["TenantId"] == own["Id"]
    assert (await dashboard.get(f"/api/tenants/{lower['Id']}/members", headers=victim.auth)).status_code == 404
    decision = await identity.post("/v1/authz/decide", headers=service_headers(),
                                   json={"sub": victim.id, "tenant": lower["Id"], "produto": "crm"})
    assert decision.json()["permitido"] is False

    # Saying yes is what links: the invitation's token, with the victim's own session.
    accepted = await dashboard.post("/api/invitations/accept",
                                    json={"Token": await invitation_token(victim.person.email)}, headers=victim.auth)
    assert accepted.status_code == 200 and accepted.json()["TenantId"] == lower["Id"], accepted.text
    assert await Membership.filter(tenant_id=tenant.id, user_id=victim.id, role="admin").count() == 1


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
