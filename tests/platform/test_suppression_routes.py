"""The account's suppressions (docs/bounces.md): /v1/suppressions under scopes no existing key holds,
/api/suppressions for the console; list with paging and filters, read, remove a bounce or a
complaint (a CRM opt-out is 409); a foreign id is 404 like a missing one; a suppressed address is
refused at accept (SuppressedAddress, per item of a batch) and sendable again once removed."""

from __future__ import annotations

import secrets

from app.http.tenant_access import TENANT_HEADER
from models.platform.api_key import KeyKind
from models.platform.suppression import Reason, Suppression
from models.platform.tenant import Tenant
from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, signed_in_member
from tests.fixtures.platform import email

SCOPES = ("email:send", "email:read", "suppressions:read", "suppressions:write")


async def suppress(tenant_id: str, address: str, reason: Reason) -> Suppression:
    tenant = await Tenant.get(public_id=tenant_id)
    return await Suppression.create(tenant=tenant, channel="email", address=address.lower(), reason=reason.value)


async def test_suppressions_are_listed_read_and_lifted_with_the_new_scopes(platform, make_account):
    account = await make_account(scopes=SCOPES, kind=KeyKind.TEST)
    tag = secrets.token_hex(3)
    bounced = await suppress(account.tenant_id, f"bounced-{tag}@example.com", Reason.BOUNCE)
    complained = await suppress(account.tenant_id, f"complained-{tag}@example.com", Reason.COMPLAINT)
    opted_out = await suppress(account.tenant_id, f"optout-{tag}@example.com", Reason.CRM_OPT_OUT)

    first = await platform.get("/v1/suppressions", params={"limit": 2}, headers=account.headers)
    assert first.status_code == 200, first.text
    page = first.json()
    assert [row["Id"] for row in page["Suppressions"]] == [opted_out.public_id, complained.public_id]
    assert page["HasMore"] is True and page["NextCursor"]
    rest = await platform.get("/v1/suppressions", params={"limit": 2, "cursor": page["NextCursor"]},
                              headers=account.headers)
    assert [row["Id"] for row in rest.json()["Suppressions"]] == [bounced.public_id]
    assert rest.json()["HasMore"] is False and rest.json()["NextCursor"] is None

    only = await platform.get("/v1/suppressions", params={"reason": "bounce"}, headers=account.headers)
    assert [row["Address"] for row in only.json()["Suppressions"]] == [f"bounced-{tag}@example.com"]
    by_address = await platform.get("/v1/suppressions", params={"address": f"Complained-{tag}@Example.com"},
                                    headers=account.headers)
    assert [row["Reason"] for row in by_address.json()["Suppressions"]] == ["complaint"]
    bad = await platform.get("/v1/suppressions", params={"reason": "whim"}, headers=account.headers)
    assert bad.status_code == 422 and bad.json()["Error"]["Code"] == "ValidationError", bad.text

    one = await platform.get(f"/v1/suppressions/{bounced.public_id}", headers=account.headers)
    assert one.status_code == 200, one.text
    assert one.json()["Suppression"] | {"CreatedAt": None} == {
        "Id": bounced.public_id, "Channel": "email", "Address": f"bounced-{tag}@example.com", "Reason": "bounce",
        "MessageId": None, "Removable": True, "CreatedAt": None}

    # Suppressed: refused at accept, per item of a batch; the other item goes.
    refused = await platform.post("/v1/emails/send", headers=account.headers,
                                  json=email(to=[f"Bounced-{tag}@example.com"]))
    assert refused.status_code == 422 and refused.json()["Error"]["Code"] == "SuppressedAddress", refused.text
    batch = await platform.post("/v1/emails/batch", headers=account.headers, json={"Messages": [
        email(to=[f"bounced-{tag}@example.com"]), email(to=[f"fine-{tag}@example.com"])]})
    assert batch.status_code in (200, 202), batch.text
    results = batch.json()["Results"]
    assert results[0]["Error"]["Code"] == "SuppressedAddress" and "MessageId" in results[1], results

    # The CRM's opt-out is the CRM's to lift.
    crm = await platform.delete(f"/v1/suppressions/{opted_out.public_id}", headers=account.headers)
    assert crm.status_code == 409 and "CRM" in crm.json()["Error"]["Message"], crm.text
    assert await Suppression.filter(id=opted_out.id).exists()
    lifted = await platform.delete(f"/v1/suppressions/{bounced.public_id}", headers=account.headers)
    assert lifted.status_code == 204, lifted.text
    assert (await platform.get(f"/v1/suppressions/{bounced.public_id}", headers=account.headers)).status_code == 404
    again = await platform.post("/v1/emails/send", headers=account.headers,
                                json=email(to=[f"bounced-{tag}@example.com"]))
    assert again.status_code == 202, again.text

    # Another account's suppression is 404 exactly like a missing one.
    other = await make_account(scopes=SCOPES, kind=KeyKind.TEST)
    for method in ("get", "delete"):
        foreign = await getattr(platform, method)(f"/v1/suppressions/{complained.public_id}", headers=other.headers)
        missing = await getattr(platform, method)("/v1/suppressions/sup_000000000000000000000000", headers=other.headers)
        assert foreign.status_code == missing.status_code == 404
        assert foreign.json()["Error"]["Message"] == missing.json()["Error"]["Message"]
    assert (await platform.get("/v1/suppressions", headers=other.headers)).json()["Suppressions"] == []


async def test_existing_keys_do_not_hold_the_suppression_scopes(platform, make_account):
    account = await make_account(kind=KeyKind.TEST)  # email:send, email:read, account:read
    for method, path in (("get", "/v1/suppressions"), ("delete", "/v1/suppressions/sup_000000000000000000000000")):
        answer = await getattr(platform, method)(path, headers=account.headers)
        assert answer.status_code == 403 and answer.json()["Error"]["Code"] == "InsufficientScope", answer.text
    reader = await make_account(scopes=("suppressions:read",), kind=KeyKind.TEST)
    row = await suppress(reader.tenant_id, f"r-{secrets.token_hex(3)}@example.com", Reason.BOUNCE)
    assert (await platform.get(f"/v1/suppressions/{row.public_id}", headers=reader.headers)).status_code == 200
    denied = await platform.delete(f"/v1/suppressions/{row.public_id}", headers=reader.headers)
    assert denied.status_code == 403 and denied.json()["Error"]["Code"] == "InsufficientScope"


async def test_the_console_lists_and_lifts_suppressions_with_a_session(identity, dashboard):
    owner = await signed_in_member(identity, dashboard, "supowner")
    stranger = await signed_in_member(identity, dashboard, "supstranger")
    account = await new_account(dashboard, owner, "Suppressions")
    theirs = await new_account(dashboard, stranger, "Not yours")
    tag = secrets.token_hex(3)
    row = await suppress(account["Id"], f"gone-{tag}@example.com", Reason.COMPLAINT)
    foreign = await suppress(theirs["Id"], f"theirs-{tag}@example.com", Reason.BOUNCE)
    headers = {**owner.auth, TENANT_HEADER: account["Id"]}

    listed = await dashboard.get("/api/suppressions", headers=headers)
    assert listed.status_code == 200, listed.text
    assert [item["Id"] for item in listed.json()["Suppressions"]] == [row.public_id]
    assert (await dashboard.get(f"/api/suppressions/{foreign.public_id}", headers=headers)).status_code == 404
    assert (await dashboard.delete(f"/api/suppressions/{foreign.public_id}", headers=headers)).status_code == 404
    assert await Suppression.filter(id=foreign.id).exists()
    removed = await dashboard.delete(f"/api/suppressions/{row.public_id}", headers=headers)
    assert removed.status_code == 204, removed.text
    assert (await dashboard.get("/api/suppressions", headers=headers)).json()["Suppressions"] == []
