"""An account's usage and tree on the operator surface (docs/operator.md, "Usage and tree"): staff
read them without a support session, anyone else gets 404, and the numbers are the account's own."""

from __future__ import annotations

from tortoise import connections

from app.platform.tenant.service import create_tenant
from models.platform.tenant import Tenant
from models.platform.usage import increment, period_of
from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import signed_in_member, signed_in_staff

UNKNOWN = "acc_000000000000000000000000"


async def test_usage_counts_what_the_account_reads_against_the_quota_in_effect(dashboard, identity, make_account):
    staff = await signed_in_staff(identity, dashboard, "usage")
    account = await make_account(scopes=("account:read",), plan="growth", quota=100)
    tenant = await Tenant.get(public_id=account.tenant_id)
    await increment(connections.get("platform"), tenant.id, period_of(), emails_sent=30, sms_sent=5, push_sent=2,
                    whatsapp_sent=1)

    answer = await dashboard.get(f"/api/admin/tenants/{account.tenant_id}/usage", headers=staff.auth)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["TenantId"] == account.tenant_id
    usage = body["Usage"]
    assert (usage["Period"], usage["EmailsSent"], usage["SmsSent"], usage["PushSent"], usage["WhatsAppSent"]) == (
        period_of(), 30, 5, 2, 1)
    assert body["Quota"] == {"Plan": "growth", "MonthlyQuota": 100, "Inherited": False, "Sent": 38, "Remaining": 62}

    own = await dashboard.get("/v1/account/usage", headers=account.headers)  # the account's own view agrees
    assert own.status_code == 200, own.text
    for name in ("Period", "EmailsSent", "SmsSent", "PushSent"):
        assert own.json()["Usage"][name] == usage[name], name

    # A sub-account without a quota of its own spends under its parent's; over it, none remains.
    child = await create_tenant("Usage child", parent_id=account.tenant_id)
    await increment(connections.get("platform"), child.id, period_of(), emails_sent=150)
    below = (await dashboard.get(f"/api/admin/tenants/{child.public_id}/usage", headers=staff.auth)).json()
    assert below["Quota"] == {"Plan": "", "MonthlyQuota": 100, "Inherited": True, "Sent": 150, "Remaining": 0}
    alone = await create_tenant("Usage alone")
    free = (await dashboard.get(f"/api/admin/tenants/{alone.public_id}/usage", headers=staff.auth)).json()
    assert free["Quota"] == {"Plan": "", "MonthlyQuota": None, "Inherited": False, "Sent": 0, "Remaining": None}
    assert free["Usage"]["UpdatedAt"] is None and free["Usage"]["EmailsSent"] == 0


async def test_tree_names_the_accounts_above_and_nests_the_ones_below(dashboard, identity):
    staff = await signed_in_staff(identity, dashboard, "tree")
    root = await create_tenant("Tree root")
    middle = await create_tenant("Tree middle", parent_id=root.public_id, monthly_quota=500)
    leaf = await create_tenant("Tree leaf", parent_id=middle.public_id)
    sibling = await create_tenant("Tree sibling", parent_id=middle.public_id)

    answer = await dashboard.get(f"/api/admin/tenants/{middle.public_id}/tree", headers=staff.auth)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["TenantId"] == middle.public_id and body["ParentId"] == root.public_id
    assert body["Ancestors"] == [{"Id": root.public_id, "Name": "Tree root", "Slug": root.slug, "Status": "active"}]
    [node] = body["Tree"]
    assert node["Id"] == middle.public_id and node["EffectiveQuota"] == 500
    assert sorted(child["Id"] for child in node["Children"]) == sorted([leaf.public_id, sibling.public_id])
    assert all(child["ParentId"] == middle.public_id and child["Children"] == [] for child in node["Children"])

    deep = (await dashboard.get(f"/api/admin/tenants/{leaf.public_id}/tree", headers=staff.auth)).json()
    assert [row["Id"] for row in deep["Ancestors"]] == [root.public_id, middle.public_id]
    assert deep["ParentId"] == middle.public_id
    top = (await dashboard.get(f"/api/admin/tenants/{root.public_id}/tree", params={"depth": "1"},
                               headers=staff.auth)).json()
    assert top["Ancestors"] == [] and top["ParentId"] is None
    [head] = top["Tree"]  # one level below the account: its children, not theirs
    assert head["Id"] == root.public_id and [n["Id"] for n in head["Children"]] == [middle.public_id]
    assert head["Children"][0]["Children"] == []
    for depth in ("0", "65", "x"):
        refused = await dashboard.get(f"/api/admin/tenants/{root.public_id}/tree", params={"depth": depth},
                                      headers=staff.auth)
        assert refused.status_code == 422, (depth, refused.text)


async def test_unknown_accounts_and_everyone_but_staff_get_404(dashboard, identity, make_account):
    staff = await signed_in_staff(identity, dashboard, "usage404")
    outsider = await signed_in_member(identity, dashboard, "usage-outsider")
    account = await make_account(scopes=("account:read",))
    for route in ("usage", "tree"):
        unknown = await dashboard.get(f"/api/admin/tenants/{UNKNOWN}/{route}", headers=staff.auth)
        assert unknown.status_code == 404, unknown.text
        assert unknown.json()["Error"]["Code"] == "NotFound"
        for headers in ({}, outsider.auth, account.headers):
            hidden = await dashboard.get(f"/api/admin/tenants/{account.tenant_id}/{route}", headers=headers)
            assert hidden.status_code == 404, (route, hidden.text)
