"""The operator surface (/api/admin, contract D) over HTTP: the platform and the identity server
really running, staff allowlisted as `herald staff add` does, people signed in on the dashboard."""

from __future__ import annotations

import uuid

from tortoise import connections

from models.platform.audit import AdminAudit
from models.platform.scopes import DEMO_SCOPES
from models.platform.api_key import KeyKind
from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, signed_in_member, signed_in_staff
from tests.fixtures.identity import service_headers
from tests.fixtures.platform import email

WRITES = [  # one write of every /api/admin route family (method, path, body)
    ("PATCH", "/api/admin/tenants/{tenant}", {"Status": "suspended", "Reason": "spam run"}),
    ("POST", "/api/admin/tenants/{tenant}/enter", {"Reason": "again"}),
    ("POST", "/api/admin/blacklist", {"Kind": "domain", "Value": "x-{tag}.example", "Reason": "r"}),
    ("DELETE", "/api/admin/blacklist/blk_000000000000000000000000", None),
    ("POST", "/api/admin/blacklist/suggestions", {"Kind": "address", "Value": "s@{tag}.example", "Reason": "r"}),
    ("POST", "/api/admin/blacklist/suggestions/bls_000000000000000000000000/apply", None),
    ("POST", "/api/admin/blacklist/suggestions/bls_000000000000000000000000/dismiss", None),
    ("POST", "/api/admin/datacenter-asn", {"Asn": 64512}),
    ("DELETE", "/api/admin/datacenter-asn/64512", None),
]


def tag() -> str:
    return uuid.uuid4().hex[:10]


async def test_everyone_but_staff_gets_404_on_the_whole_surface(dashboard, identity, make_account):
    outsider = await signed_in_member(identity, dashboard, "outsider")
    account = await make_account()
    for headers in ({}, outsider.auth, {"Authorization": "Bearer not-a-session"}, account.headers):
        for method, path in (("GET", "/api/admin/me"), ("GET", "/api/admin/tenants"), ("GET", "/api/admin/nothing"),
                             ("POST", "/api/admin/blacklist"), ("GET", "/api/admin"),
                             ("DELETE", "/api/admin/datacenter-asn/13335")):
            answer = await dashboard.request(method, path, headers=headers, json={} if method == "POST" else None)
            assert answer.status_code == 404, (method, path, answer.text)
            assert answer.json()["Error"]["Code"] == "NotFound"

    staff = await signed_in_staff(identity, dashboard, "staff")
    me = await dashboard.get("/api/admin/me", headers=staff.auth)
    assert me.status_code == 200, me.text
    assert me.json()["Staff"] is True and me.json()["UserId"] == staff.id and me.json()["SupportSession"] is None
    unknown = await dashboard.get("/api/admin/nothing", headers=staff.auth)
    assert unknown.status_code == 404
    # Tenant membership grants nothing here.
    await new_account(dashboard, outsider, f"Owned {tag()}")
    assert (await dashboard.get("/api/admin/me", headers=outsider.auth)).status_code == 404


async def test_accounts_search_edit_and_a_suspension_answers_403_at_once(dashboard, identity, make_account):
    staff = await signed_in_staff(identity, dashboard, "ops")
    account = await make_account(scopes=("email:send", "account:read"))
    assert (await dashboard.get("/v1/account", headers=account.headers)).status_code == 200  # cached by the gate

    found = await dashboard.get("/api/admin/tenants", params={"q": account.tenant_id}, headers=staff.auth)
    assert found.status_code == 200, found.text
    assert [t["Id"] for t in found.json()["Tenants"]] == [account.tenant_id]
    one = await dashboard.get(f"/api/admin/tenants/{account.tenant_id}", headers=staff.auth)
    assert one.status_code == 200 and one.json()["Tenant"]["Status"] == "active"
    assert (await dashboard.get("/api/admin/tenants/acc_000000000000000000000000", headers=staff.auth)).status_code == 404
    assert (await dashboard.get("/api/admin/tenants", params={"colour": "x"}, headers=staff.auth)).status_code == 422

    for body in ({"Status": "suspended"}, {"Status": "suspended", "Reason": "  "}, {"Status": "active", "Reason": ""},
                 {"Reason": "why"}):
        unsaid = await dashboard.patch(f"/api/admin/tenants/{account.tenant_id}", headers=staff.auth, json=body)
        assert unsaid.status_code == 422, (body, unsaid.text)
        error = unsaid.json()["Error"]
        assert error["Code"] == "ValidationError", error
        assert "Reason" in error["Details"] if "Status" in body else "body" in error["Details"], error
    too_long = await dashboard.patch(f"/api/admin/tenants/{account.tenant_id}", headers=staff.auth,
                                     json={"Status": "suspended", "Reason": "x" * 501})
    assert too_long.status_code == 400 and "Reason" in too_long.text, too_long.text
    assert (await dashboard.get("/v1/account", headers=account.headers)).status_code == 200  # nothing suspended

    suspend = await dashboard.patch(f"/api/admin/tenants/{account.tenant_id}", headers=staff.auth,
                                    json={"Status": "suspended", "Reason": " Ticket 4182: spam run ", "Plan": "pro",
                                          "MonthlyQuota": 1000})
    assert suspend.status_code == 200, suspend.text
    tenant = suspend.json()["Tenant"]
    assert (tenant["Status"], tenant["Plan"], tenant["MonthlyQuota"], tenant["EffectiveQuota"]) == \
        ("suspended", "pro", 1000, 1000)
    refused = await dashboard.get("/v1/account", headers=account.headers)
    assert refused.status_code == 403 and refused.json()["Error"]["Code"] == "TenantSuspended"

    back = await dashboard.patch(f"/api/admin/tenants/{account.tenant_id}", headers=staff.auth,
                                 json={"Status": "active", "Reason": "Ticket 4182: cleaned up"})
    assert back.status_code == 200 and back.json()["Tenant"]["Status"] == "active"
    # A plan or quota edit needs no reason.
    quota = await dashboard.patch(f"/api/admin/tenants/{account.tenant_id}", headers=staff.auth,
                                  json={"MonthlyQuota": 2000})
    assert quota.status_code == 200, quota.text
    assert (await dashboard.get("/v1/account", headers=account.headers)).status_code == 200

    for body, status in (({}, 422), ({"Status": "gone"}, 400), ({"Status": None}, 400), ({"Colour": 1}, 400),
                         ({"MonthlyQuota": -1}, 400)):
        bad = await dashboard.patch(f"/api/admin/tenants/{account.tenant_id}", headers=staff.auth, json=body)
        assert bad.status_code == status, (body, bad.text)

    audit = await dashboard.get("/api/admin/audit", params={"target": account.tenant_id}, headers=staff.auth)
    assert audit.status_code == 200, audit.text
    lines = audit.json()["Audit"]
    assert [line["Action"] for line in lines] == ["tenant.update"] * 3
    assert lines[0]["Change"] == {"MonthlyQuota": {"From": 1000, "To": 2000}}
    assert lines[1]["ActorId"] == staff.id and lines[1]["Change"] == {
        "Status": {"From": "suspended", "To": "active"}, "Reason": "Ticket 4182: cleaned up"}
    assert lines[2]["Change"]["Status"] == {"From": "active", "To": "suspended"}
    assert lines[2]["Change"]["Reason"] == "Ticket 4182: spam run"
    assert lines[2]["Change"]["MonthlyQuota"] == {"From": None, "To": 1000}


async def test_a_blocked_domain_refuses_sends_at_once_and_suggestions_are_decided(dashboard, identity, make_account):
    staff = await signed_in_staff(identity, dashboard, "blocker")
    sender = await make_account(scopes=DEMO_SCOPES, kind=KeyKind.TEST)
    domain = f"blocked-{tag()}.example"

    added = await dashboard.post("/api/admin/blacklist", headers=staff.auth,
                                 json={"Kind": "domain", "Value": domain.upper(), "Reason": "spam trap"})
    assert added.status_code == 201, added.text
    entry = added.json()["Entry"]
    assert (entry["Kind"], entry["Value"], entry["Reason"]) == ("domain", domain, "spam trap")
    again = await dashboard.post("/api/admin/blacklist", headers=staff.auth,
                                 json={"Kind": "domain", "Value": domain, "Reason": "twice"})
    assert again.status_code == 409
    bad = await dashboard.post("/api/admin/blacklist", headers=staff.auth,
                               json={"Kind": "phone", "Value": "call me", "Reason": "x"})
    assert bad.status_code == 400

    refused = await dashboard.post("/v1/emails/send", headers=sender.headers,
                                   json=email(to=[f"someone@mail.{domain}"]))
    assert refused.status_code == 422, refused.text
    assert refused.json()["Error"]["Code"] == "SuppressedAddress"
    batch = await dashboard.post("/v1/emails/batch", headers=sender.headers,
                                 json={"Messages": [email(to=["fine@example.com"]), email(to=[f"x@{domain}"])]})
    assert batch.status_code == 202, batch.text
    results = batch.json()["Results"]
    assert results[0]["MessageId"] and results[1]["Error"]["Code"] == "SuppressedAddress"

    listed = await dashboard.get("/api/admin/blacklist", params={"q": domain}, headers=staff.auth)
    assert [e["Id"] for e in listed.json()["Entries"]] == [entry["Id"]]
    removed = await dashboard.delete(f"/api/admin/blacklist/{entry['Id']}", headers=staff.auth)
    assert removed.status_code == 204
    assert (await dashboard.delete(f"/api/admin/blacklist/{entry['Id']}", headers=staff.auth)).status_code == 404
    sent = await dashboard.post("/v1/emails/send", headers=sender.headers, json=email(to=[f"someone@{domain}"]))
    assert sent.status_code == 202, sent.text

    address = f"bounce@{tag()}.example"
    suggested = await dashboard.post("/api/admin/blacklist/suggestions", headers=staff.auth,
                                     json={"Kind": "address", "Value": address, "Reason": "bounces everywhere"})
    assert suggested.status_code == 201, suggested.text
    other = await dashboard.post("/api/admin/blacklist/suggestions", headers=staff.auth,
                                 json={"Kind": "phone", "Value": "+1 555 010 9999", "Reason": "complaints"})
    assert other.status_code == 201 and other.json()["Suggestion"]["Value"] == "+15550109999"
    undecided = await dashboard.get("/api/admin/blacklist/suggestions", params={"limit": 200}, headers=staff.auth)
    ids = [s["Id"] for s in undecided.json()["Suggestions"]]
    assert suggested.json()["Suggestion"]["Id"] in ids and other.json()["Suggestion"]["Id"] in ids

    applied = await dashboard.post(f"/api/admin/blacklist/suggestions/{suggested.json()['Suggestion']['Id']}/apply",
                                   headers=staff.auth)
    assert applied.status_code == 200, applied.text
    assert applied.json()["Entry"]["Value"] == address
    dismissed = await dashboard.post(f"/api/admin/blacklist/suggestions/{other.json()['Suggestion']['Id']}/dismiss",
                                     headers=staff.auth)
    assert dismissed.status_code == 200 and dismissed.json()["Suggestion"]["State"] == "dismissed"
    twice = await dashboard.post(f"/api/admin/blacklist/suggestions/{other.json()['Suggestion']['Id']}/apply",
                                 headers=staff.auth)
    assert twice.status_code == 409
    undecided = await dashboard.get("/api/admin/blacklist/suggestions", params={"limit": 200}, headers=staff.auth)
    assert not {suggested.json()["Suggestion"]["Id"], other.json()["Suggestion"]["Id"]} & \
        {s["Id"] for s in undecided.json()["Suggestions"]}
    refused = await dashboard.post("/v1/emails/send", headers=sender.headers, json=email(to=[address.upper()]))
    assert refused.status_code == 422 and refused.json()["Error"]["Code"] == "SuppressedAddress"
    actions = {line.action for line in await AdminAudit.filter(actor_id=staff.id)}
    assert actions == {"blocklist.add", "blocklist.remove", "blocklist.suggest", "blocklist.apply",
                       "blocklist.dismiss"}


async def test_the_scheduler_suggests_from_bounces_across_accounts(make_account):
    from schedules.platform.blocklist import suggest_blocks
    from models.platform.blocklist import BlockSuggestion
    from models.platform.tenant import Tenant

    address = f"hard-{tag()}@bouncy.example"
    conn = connections.get("platform")
    for _ in range(2):
        account = await make_account()
        tenant = await Tenant.get(public_id=account.tenant_id)
        await conn.execute_query(
            "INSERT INTO messages (public_id, tenant_id, channel, status, mode, recipient, recipient_role, content, "
            "attempts, created_at, updated_at) VALUES ($1, $2, 'email', 'bounced', 'live', $3, 'to', '{}'::jsonb, 1, "
            "now(), now())", [f"msg_{uuid.uuid4().hex[:24]}", tenant.id, address])
    made = await suggest_blocks()
    # A scheduler of this run may have made this suggestion first (or make it meanwhile): this call then
    # refreshes it, still undecided, and the upsert's RETURNING lists a refreshed row too, so it is here.
    assert ("address", address) in made
    found = await BlockSuggestion.get(kind="address", value=address)
    assert found.source == "scheduler" and found.state == "undecided" and found.evidence == 2
    found.state = "dismissed"
    await found.save()
    assert ("address", address) not in await suggest_blocks()  # a decided suggestion stays decided


async def test_datacenter_asns_and_the_runtime_route(dashboard, identity):
    staff = await signed_in_staff(identity, dashboard, "asn")
    asn = 4_200_000_000 + int(uuid.uuid4().int % 90_000_000)
    made = await dashboard.post("/api/admin/datacenter-asn", headers=staff.auth, json={"Asn": asn, "Name": "Cloud"})
    assert made.status_code == 201, made.text
    assert made.json()["DatacenterAsn"]["Asn"] == asn
    assert (await dashboard.post("/api/admin/datacenter-asn", headers=staff.auth, json={"Asn": asn})).status_code == 409
    assert (await dashboard.post("/api/admin/datacenter-asn", headers=staff.auth, json={"Asn": 0})).status_code == 400
    listed = await dashboard.get("/api/admin/datacenter-asn", headers=staff.auth)
    assert asn in [row["Asn"] for row in listed.json()["DatacenterAsns"]]
    internal = await dashboard.get("/internal/v1/datacenter-asns", headers=service_headers())
    assert internal.status_code == 200 and asn in internal.json()["Asns"]
    assert (await dashboard.get("/internal/v1/datacenter-asns", headers=staff.auth)).status_code == 401
    assert (await dashboard.delete(f"/api/admin/datacenter-asn/{asn}", headers=staff.auth)).status_code == 204
    assert (await dashboard.delete(f"/api/admin/datacenter-asn/{asn}", headers=staff.auth)).status_code == 404
    assert (await dashboard.delete("/api/admin/datacenter-asn/99999999999999999999",
                                   headers=staff.auth)).status_code == 404
    internal = await dashboard.get("/internal/v1/datacenter-asns", headers=service_headers())
    assert asn not in internal.json()["Asns"]


async def test_a_support_session_is_read_only_until_ended_and_shows_in_the_trail(dashboard, identity):
    staff = await signed_in_staff(identity, dashboard, "support")
    owner = await signed_in_member(identity, dashboard, "owner")
    tenant = (await new_account(dashboard, owner, f"Supported {tag()}"))["Id"]

    for body in ({}, {"Reason": "   "}, {"Reason": "x", "Extra": 1}):
        refused = await dashboard.post(f"/api/admin/tenants/{tenant}/enter", headers=staff.auth, json=body)
        assert refused.status_code == 400, (body, refused.text)
    missing = await dashboard.post("/api/admin/tenants/acc_000000000000000000000000/enter", headers=staff.auth,
                                   json={"Reason": "ticket 42"})
    assert missing.status_code == 404
    entered = await dashboard.post(f"/api/admin/tenants/{tenant}/enter", headers=staff.auth,
                                   json={"Reason": "ticket 42"})
    assert entered.status_code == 201, entered.text
    support = entered.json()["SupportSession"]
    assert support["TenantId"] == tenant and support["Reason"] == "ticket 42" and support["EndedAt"] is None
    me = await dashboard.get("/api/admin/me", headers=staff.auth)
    assert me.json()["SupportSession"]["Id"] == support["Id"]

    t = tag()
    for method, path, body in WRITES:
        path = path.format(tenant=tenant)
        answer = await dashboard.request(method, path, headers=staff.auth,
                                         json={k: v.format(tag=t) if isinstance(v, str) else v
                                               for k, v in body.items()} if body is not None else None)
        assert answer.status_code == 403, (method, path, answer.text)
        assert answer.json()["Error"]["Code"] == "ImpersonationReadOnly"
    trail_of_self = await dashboard.get("/api/me/eventos", headers=staff.auth)
    assert trail_of_self.status_code == 403 and trail_of_self.json()["Error"]["Code"] == "SessaoNecessaria"
    assert (await dashboard.get(f"/api/admin/tenants/{tenant}", headers=staff.auth)).json()["Tenant"]["Status"] == \
        "active"

    ended = await dashboard.post("/api/admin/impersonation/end", headers=staff.auth)
    assert ended.status_code == 200, ended.text
    assert ended.json()["SupportSession"]["EndedAt"] is not None
    assert (await dashboard.post("/api/admin/impersonation/end", headers=staff.auth)).status_code == 404
    me = await dashboard.get("/api/admin/me", headers=staff.auth)
    assert me.json()["SupportSession"] is None
    assert (await dashboard.get("/api/me/eventos", headers=staff.auth)).status_code == 200
    asn = await dashboard.post("/api/admin/datacenter-asn", headers=staff.auth, json={"Asn": 64512 + int(t, 16) % 1000})
    assert asn.status_code in (201, 409), asn.text  # writable again

    trail = await dashboard.get(f"/api/tenants/{tenant}/impersonations", headers=owner.auth)
    assert trail.status_code == 200, trail.text
    rows = trail.json()["Impersonations"]
    assert [(r["Id"], r["Reason"]) for r in rows] == [(support["Id"], "ticket 42")] and rows[0]["EndedAt"]
    actions = [line.action for line in await AdminAudit.filter(target=tenant).order_by("id")]
    assert actions == ["support.enter", "support.end"]


async def test_metrics_read_the_rollups_across_accounts(dashboard, identity, make_account):
    from tests.fixtures.platform import verify_domain

    staff = await signed_in_staff(identity, dashboard, "metrics")
    before = await dashboard.get("/api/admin/metrics", headers=staff.auth)
    assert before.status_code == 200, before.text
    account = await make_account(scopes=("email:send",))
    domain = f"m-{tag()}.example"
    await verify_domain(account.tenant_id, domain)
    sent = await dashboard.post("/v1/emails/send", headers=account.headers,
                                json=email(to=["m1@example.com", "m2@example.com"], source=f"a@{domain}"))
    assert sent.status_code == 202, sent.text
    after = await dashboard.get("/api/admin/metrics", headers=staff.auth)
    old, new = before.json(), after.json()
    assert new["Traffic"]["ByChannel"]["email"]["Accepted"] == old["Traffic"]["ByChannel"]["email"]["Accepted"] + 2
    assert new["Traffic"]["Totals"]["Accepted"] == old["Traffic"]["Totals"]["Accepted"] + 2
    assert new["Accounts"]["Total"] == old["Accounts"]["Total"] + 1
    # A message in flight (inserted as a worker's claim leaves it) counts in its channel's depth.
    tenant_pk = (await connections.get("platform").execute_query_dict(
        "SELECT id FROM tenants WHERE public_id = $1", [account.tenant_id]))[0]["id"]
    await connections.get("platform").execute_query(
        "INSERT INTO messages (public_id, tenant_id, channel, status, mode, recipient, recipient_role, content, "
        "attempts, lease_until, created_at, updated_at) VALUES ($1, $2, 'whatsapp', 'sending', 'live', '+15550100', "
        "'to', '{}'::jsonb, 1, now() + interval '1 hour', now(), now())", [f"msg_{uuid.uuid4().hex[:24]}", tenant_pk])
    depth = (await dashboard.get("/api/admin/metrics", headers=staff.auth)).json()["Queues"]["Messages"]["whatsapp"]
    assert depth["Sending"] == new["Queues"]["Messages"]["whatsapp"]["Sending"] + 1
    assert set(new["Traffic"]["ByChannel"]) == {"email", "sms", "push", "whatsapp"}
    window = await dashboard.get("/api/admin/metrics", params={"from": "2026-02-02", "to": "2026-02-01"},
                                 headers=staff.auth)
    assert window.status_code == 422
    empty = await dashboard.get("/api/admin/metrics", params={"from": "2001-01-01", "to": "2001-01-02"},
                                headers=staff.auth)
    assert empty.json()["Traffic"]["Totals"]["Accepted"] == 0


async def test_an_address_entry_admits_only_a_verified_address_and_then_keeps_the_person():
    from tortoise.transactions import in_transaction

    from app.platform.staff.service import CLI, add_staff, staff_entry

    address, user = f"Boss-{tag()}@Example.com", f"usr_{uuid.uuid4().hex[:24]}"
    async with in_transaction("platform") as conn:
        await add_staff(conn, address, CLI)
        assert await staff_entry(conn, user, address, email_verified=False) is None
        entry = await staff_entry(conn, user, address.upper(), email_verified=True)
        assert entry is not None and entry.user_id == user and entry.email == address.lower()
        moved = await staff_entry(conn, user, "elsewhere@example.com", email_verified=False)
        assert moved is not None and moved.id == entry.id
        assert await staff_entry(conn, f"usr_{uuid.uuid4().hex[:24]}", address, email_verified=True) is None


async def test_inside_a_support_session_the_dashboard_reads_the_account_and_writes_nothing(dashboard, identity):
    staff = await signed_in_staff(identity, dashboard, "reader")
    owner = await signed_in_member(identity, dashboard, "readee")
    other = await signed_in_member(identity, dashboard, "bystander")
    tenant = (await new_account(dashboard, owner, f"Read {tag()}"))["Id"]
    elsewhere = (await new_account(dashboard, other, f"Elsewhere {tag()}"))["Id"]
    message_id = f"msg_{uuid.uuid4().hex[:24]}"
    await connections.get("platform").execute_query(
        "INSERT INTO messages (public_id, tenant_id, channel, status, mode, recipient, recipient_role, content, "
        "attempts, created_at, updated_at) SELECT $1, id, 'email', 'sent', 'live', 'reader@example.com', 'to', "
        "'{}'::jsonb, 1, now(), now() FROM tenants WHERE public_id = $2", [message_id, tenant])
    entered = await dashboard.post(f"/api/admin/tenants/{tenant}/enter", headers=staff.auth,
                                   json={"Reason": "customer asked"})
    assert entered.status_code == 201, entered.text

    listed = await dashboard.get("/api/messages", headers=staff.auth)
    assert listed.status_code == 200, listed.text
    assert [m["MessageId"] for m in listed.json()["Messages"]] == [message_id]
    assert (await dashboard.get(f"/api/messages/{message_id}", headers=staff.auth)).status_code == 200
    trail = await dashboard.get(f"/api/tenants/{tenant}/impersonations", headers=staff.auth)
    assert trail.status_code == 200
    assert (await dashboard.get("/api/messages", headers={**staff.auth, "X-Service-Tenant": elsewhere})).status_code \
        == 404
    assert (await dashboard.get(f"/api/tenants/{elsewhere}/impersonations", headers=staff.auth)).status_code == 404

    sessions = (await dashboard.get("/api/auth/sessions", headers=staff.auth)).json()["Sessions"]
    for method, path, body in (("POST", "/api/tenants", {"Name": "New"}),
                               ("PATCH", f"/api/tenants/{tenant}/quota", {"MonthlyQuota": 5}),
                               ("POST", "/api/messages/send", {"Channel": "email", "Recipients": ["a@example.com"],
                                                               "Subject": "x", "Text": "y"}),
                               ("DELETE", f"/api/auth/sessions/{sessions[0]['Id']}", None),
                               ("PATCH", "/api/auth/me", {"Name": "Mallory"})):
        answer = await dashboard.request(method, path, headers=staff.auth, json=body)
        assert answer.status_code == 403, (method, path, answer.text)
        assert answer.json()["Error"]["Code"] == "ImpersonationReadOnly"

    assert (await dashboard.post("/api/admin/impersonation/end", headers=staff.auth)).status_code == 200
    assert (await dashboard.get("/api/messages", headers=staff.auth)).status_code == 403  # NoTenant: no account of its own
