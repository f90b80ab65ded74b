"""Accounts and their tree over HTTP (contract C2): the platform and the identity server really
running, people signed in on the dashboard."""

from __future__ import annotations

import asyncio

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, new_child, signed_in_member


async def test_create_a_root_account_ignoring_what_is_not_the_clients(dashboard, identity):
    owner = await signed_in_member(identity, dashboard, "root")
    answer = await dashboard.post("/api/tenants", headers=owner.auth, json={
        "Name": "Acme Root", "parent_id": "acc_x", "monthly_quota": 5, "status": "suspended", "plan": "gold",
        "owner_user_id": "usr_00", "id": "acc_mine"})
    assert answer.status_code == 201, answer.text
    tenant = answer.json()
    assert "Tenant" not in tenant and tenant["Id"].startswith("acc_") and tenant["Id"] != "acc_mine"
    assert tenant["ParentId"] is None and tenant["MonthlyQuota"] is None and tenant["Status"] == "active"
    assert tenant["RequestId"].startswith("req_")

    listed = await dashboard.get("/api/tenants", headers=owner.auth)
    assert listed.status_code == 200
    assert [(t["Id"], t["Role"]) for t in listed.json()["Tenants"]] == [(tenant["Id"], "owner")]

    empty = await dashboard.post("/api/tenants", headers=owner.auth, json={"Name": "  "})
    assert empty.status_code == 422, empty.text
    stray = await dashboard.post("/api/tenants", headers=owner.auth, json={"Name": "x", "Colour": "red"})
    assert stray.status_code == 400 and "Colour" in stray.json()["Error"]["Message"]
    slug = tenant["Slug"]
    taken = await dashboard.post("/api/tenants", headers=owner.auth, json={"Name": "Other", "Slug": slug})
    assert taken.status_code == 409, taken.text


async def test_identity_grants_follow_a_new_account(dashboard, identity):
    from tests.fixtures.identity import service_headers

    owner = await signed_in_member(identity, dashboard, "grants")
    tenant = await new_account(dashboard, owner, "Granted")
    decision = await identity.post("/v1/authz/decide", headers=service_headers(),
                                   json={"sub": owner.id, "tenant": tenant["Id"], "produto": "crm", "papel": "admin"})
    assert decision.status_code == 200 and decision.json()["permitido"] is True, decision.text


async def test_children_tree_and_quota_inheritance(dashboard, identity):
    owner = await signed_in_member(identity, dashboard, "tree")
    root = await new_account(dashboard, owner, "Tree Root")
    child = await new_child(dashboard, owner, root["Id"], "Child", MonthlyQuota=None)
    grandchild = await new_child(dashboard, owner, child["Id"], "Grandchild")
    assert child["ParentId"] == root["Id"] and grandchild["ParentId"] == child["Id"]

    tree = await dashboard.get("/api/tenants/tree", params={"depth": "5"},
                               headers={**owner.auth, "X-Service-Tenant": root["Id"]})
    assert tree.status_code == 200, tree.text
    assert tree.json()["TenantId"] == root["Id"]
    [node] = tree.json()["Tree"]
    assert node["Id"] == root["Id"] and node["Children"][0]["Id"] == child["Id"]
    assert node["Children"][0]["Children"][0]["Id"] == grandchild["Id"]
    shallow = await dashboard.get("/api/tenants/tree", params={"depth": "1"},
                                  headers={**owner.auth, "X-Service-Tenant": root["Id"]})
    assert shallow.json()["Tree"][0]["Children"][0]["Children"] == []  # depth: levels below the account
    for bad in ("x", "-1", "0"):
        refused = await dashboard.get("/api/tenants/tree", params={"depth": bad}, headers=owner.auth)
        assert refused.status_code == 422, (bad, refused.text)
    stray = await dashboard.get("/api/tenants/tree", params={"deep": "1"}, headers=owner.auth)
    assert stray.status_code == 422 and "deep" in stray.json()["Error"]["Message"]

    quota = await dashboard.patch(f"/api/tenants/{root['Id']}/quota", json={"MonthlyQuota": 1000}, headers=owner.auth)
    assert quota.status_code == 200 and quota.json()["Tenant"]["EffectiveQuota"] == 1000, quota.text
    listed = {t["Id"]: t for t in (await dashboard.get("/api/tenants", headers=owner.auth)).json()["Tenants"]}
    assert listed[child["Id"]]["EffectiveQuota"] == 1000 and listed[grandchild["Id"]]["EffectiveQuota"] == 1000
    own = await dashboard.patch(f"/api/tenants/{child['Id']}/quota", json={"MonthlyQuota": 10}, headers=owner.auth)
    assert own.json()["Tenant"]["EffectiveQuota"] == 10
    listed = {t["Id"]: t for t in (await dashboard.get("/api/tenants", headers=owner.auth)).json()["Tenants"]}
    assert listed[grandchild["Id"]]["EffectiveQuota"] == 10 and listed[root["Id"]]["EffectiveQuota"] == 1000
    back = await dashboard.patch(f"/api/tenants/{child['Id']}/quota", json={"MonthlyQuota": None}, headers=owner.auth)
    assert back.json()["Tenant"]["EffectiveQuota"] == 1000 and back.json()["Tenant"]["MonthlyQuota"] is None
    absent = await dashboard.patch(f"/api/tenants/{child['Id']}/quota", json={}, headers=owner.auth)
    assert absent.status_code == 422, absent.text
    negative = await dashboard.patch(f"/api/tenants/{child['Id']}/quota", json={"MonthlyQuota": -1},
                                     headers=owner.auth)
    assert negative.status_code == 400, negative.text

    duplicate = await dashboard.post(f"/api/tenants/{root['Id']}/children", json={"Name": "D", "Slug": root["Slug"]},
                                     headers=owner.auth)
    assert duplicate.status_code == 409, duplicate.text


async def test_moves_refuse_cycles_even_in_parallel(dashboard, identity):
    owner = await signed_in_member(identity, dashboard, "move")
    a = await new_account(dashboard, owner, "Move A")
    b = await new_account(dashboard, owner, "Move B")
    a_child = await new_child(dashboard, owner, a["Id"], "A child")

    cycle = await dashboard.patch(f"/api/tenants/{a['Id']}/parent", json={"ParentId": a_child["Id"]},
                                  headers=owner.auth)
    assert cycle.status_code == 422, cycle.text
    itself = await dashboard.patch(f"/api/tenants/{a['Id']}/parent", json={"ParentId": a["Id"]}, headers=owner.auth)
    assert itself.status_code == 422
    absent = await dashboard.patch(f"/api/tenants/{a['Id']}/parent", json={}, headers=owner.auth)
    assert absent.status_code == 422

    for _ in range(5):  # A under B and B under A at once: exactly one may win
        first, second = await asyncio.gather(
            dashboard.patch(f"/api/tenants/{a['Id']}/parent", json={"ParentId": b["Id"]}, headers=owner.auth),
            dashboard.patch(f"/api/tenants/{b['Id']}/parent", json={"ParentId": a["Id"]}, headers=owner.auth))
        assert sorted([first.status_code, second.status_code]) == [200, 422], (first.text, second.text)
        for moved in (a, b):
            root = await dashboard.patch(f"/api/tenants/{moved['Id']}/parent", json={"ParentId": None},
                                         headers=owner.auth)
            assert root.status_code == 200 and root.json()["Tenant"]["ParentId"] is None, root.text

    moved = await dashboard.patch(f"/api/tenants/{a_child['Id']}/parent", json={"ParentId": b["Id"]},
                                  headers=owner.auth)
    assert moved.status_code == 200 and moved.json()["Tenant"]["ParentId"] == b["Id"]


async def test_idempotency_key_replays_the_first_answer(dashboard, identity):
    owner = await signed_in_member(identity, dashboard, "idem")
    headers = {**owner.auth, "Idempotency-Key": "create-acct-1"}
    first = await dashboard.post("/api/tenants", json={"Name": "Once"}, headers=headers)
    again = await dashboard.post("/api/tenants", json={"Name": "Once"}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json()["Id"] == first.json()["Id"] and again.headers["idempotent-replayed"] == "true"
    assert len((await dashboard.get("/api/tenants", headers=owner.auth)).json()["Tenants"]) == 1
    other = await dashboard.post("/api/tenants", json={"Name": "Twice"}, headers=headers)
    assert other.status_code == 409 and other.json()["Error"]["Code"] == "IdempotencyConflict"
    bad = await dashboard.post("/api/tenants", json={"Name": "x"}, headers={**owner.auth, "Idempotency-Key": "a b"})
    assert bad.status_code == 400

    parent = first.json()["Id"]
    child_headers = {**owner.auth, "Idempotency-Key": "child-1"}
    child = await dashboard.post(f"/api/tenants/{parent}/children", json={"Name": "Kid"}, headers=child_headers)
    child_again = await dashboard.post(f"/api/tenants/{parent}/children", json={"Name": "Kid"}, headers=child_headers)
    assert child.status_code == child_again.status_code == 201
    assert child.json()["Tenant"]["Id"] == child_again.json()["Tenant"]["Id"]
    assert len((await dashboard.get("/api/tenants", headers=owner.auth)).json()["Tenants"]) == 2

    slug_headers = {**owner.auth, "Idempotency-Key": "dup-slug"}
    refused = await dashboard.post(f"/api/tenants/{parent}/children", json={"Name": "K", "Slug": first.json()["Slug"]},
                                   headers=slug_headers)
    replayed = await dashboard.post(f"/api/tenants/{parent}/children", json={"Name": "K", "Slug": first.json()["Slug"]},
                                    headers=slug_headers)
    assert refused.status_code == replayed.status_code == 409 and replayed.headers["idempotent-replayed"] == "true"
    assert replayed.json()["RequestId"] == refused.json()["RequestId"]  # the first answer, as it was

    # An API key's plaintext is shown once and never stored: its creation ignores the header.
    key_headers = {**owner.auth, "Idempotency-Key": "key-1"}
    body = {"name": "k", "scopes": ["email:send"]}
    one = await dashboard.post(f"/api/tenants/{parent}/api-keys", json=body, headers=key_headers)
    two = await dashboard.post(f"/api/tenants/{parent}/api-keys", json=body, headers=key_headers)
    assert one.status_code == two.status_code == 201 and one.json()["ApiKey"]["Id"] != two.json()["ApiKey"]["Id"]
    from models.platform import ApiIdempotencyRecord
    assert not await ApiIdempotencyRecord.filter(key="key-1").exists()
    stored = await ApiIdempotencyRecord.get(key="child-1", caller=owner.id)
    assert stored.status == 201 and "Kid" in stored.body


async def test_idempotency_key_is_scoped_to_the_account_acted_on(dashboard, identity):
    """The same key and body sent to a second account is that account's own write, not a replay
    of the first account's answer; within one account it still replays."""
    from models.platform import ApiIdempotencyRecord, Template
    from models.platform.tenant import Tenant

    owner = await signed_in_member(identity, dashboard, "idemscope")
    first = await new_account(dashboard, owner, "Scope One")
    second = await new_account(dashboard, owner, "Scope Two")
    body = {"Slug": "welcome", "Channel": "sms", "Text": "Hello"}
    key = {"Idempotency-Key": "same-key-1"}

    made = await dashboard.post("/api/templates", json=body,
                                headers={**owner.auth, **key, "X-Service-Tenant": first["Id"]})
    assert made.status_code == 200, made.text
    elsewhere = await dashboard.post("/api/templates", json=body,
                                     headers={**owner.auth, **key, "X-Service-Tenant": second["Id"]})
    assert elsewhere.status_code == 200, elsewhere.text
    assert "idempotent-replayed" not in elsewhere.headers
    assert elsewhere.json()["Template"]["TemplateId"] != made.json()["Template"]["TemplateId"]
    for account in (first, second):
        tenant = await Tenant.get(public_id=account["Id"])
        assert await Template.filter(tenant_id=tenant.id, slug="welcome").count() == 1, account

    replayed = await dashboard.post("/api/templates", json=body,
                                    headers={**owner.auth, **key, "X-Service-Tenant": second["Id"]})
    assert replayed.headers["idempotent-replayed"] == "true"
    assert replayed.json()["Template"]["TemplateId"] == elsewhere.json()["Template"]["TemplateId"]
    records = await ApiIdempotencyRecord.filter(caller=owner.id, key="same-key-1").order_by("id")
    assert [row.tenant for row in records] == [first["Id"], second["Id"]]


async def test_tenant_resolution_by_header(dashboard, identity):
    nobody = await signed_in_member(identity, dashboard, "none")
    refused = await dashboard.get("/api/tenants/tree", headers=nobody.auth)
    assert refused.status_code == 403 and refused.json()["Error"]["Code"] == "NoTenant", refused.text

    owner = await signed_in_member(identity, dashboard, "hdr")
    first = await new_account(dashboard, owner, "Hdr One")
    second = await new_account(dashboard, owner, "Hdr Two")
    smallest = min(first["Id"], second["Id"])
    default = await dashboard.get("/api/tenants/tree", headers=owner.auth)
    assert default.json()["TenantId"] == smallest
    foreign = await new_account(dashboard, nobody, "Not yours")
    outside = await dashboard.get("/api/tenants/tree", headers={**owner.auth, "X-Service-Tenant": foreign["Id"]})
    assert outside.status_code == 404 and outside.json()["Error"]["Code"] == "NotFound"
