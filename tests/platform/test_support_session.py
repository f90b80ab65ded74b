"""Inside a support session the operator reads what the account's owner reads, writes nothing, and
every read lands in the account's trail (GET /api/tenants/{id}/impersonations/{supportId}/reads)."""

from __future__ import annotations

import uuid

from models.platform.api_key import ApiKey
from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, signed_in_member, signed_in_staff


def tag() -> str:
    return uuid.uuid4().hex[:8]


async def test_support_reads_what_the_owner_reads_writes_nothing_and_every_read_is_in_the_trail(dashboard, identity):
    staff = await signed_in_staff(identity, dashboard, "helper")
    owner = await signed_in_member(identity, dashboard, "helped")
    stranger = await signed_in_member(identity, dashboard, "stranger")
    tenant = (await new_account(dashboard, owner, f"Helped {tag()}"))["Id"]
    elsewhere = (await new_account(dashboard, stranger, f"Stranger {tag()}"))["Id"]
    made = await dashboard.post(f"/api/tenants/{tenant}/api-keys", headers=owner.auth,
                                json={"name": "server", "scopes": ["email:send"]})
    assert made.status_code == 201, made.text
    keys_before = await ApiKey.filter(tenant__public_id=tenant).count()

    entered = await dashboard.post(f"/api/admin/tenants/{tenant}/enter", headers=staff.auth,
                                   json={"Reason": "ticket 7"})
    assert entered.status_code == 201, entered.text
    support_id = entered.json()["SupportSession"]["Id"]

    # The owner's reads (admin-only routes included) answer inside the support session.
    reads = [f"/api/tenants/{tenant}/api-keys", f"/api/tenants/{tenant}/logs", f"/api/tenants/{tenant}/members",
             f"/api/tenants/{tenant}/impersonations"]
    for path in reads:
        answer = await dashboard.get(path, headers=staff.auth)
        assert answer.status_code == 200, (path, answer.text)
    listed = (await dashboard.get(f"/api/tenants/{tenant}/api-keys", headers=staff.auth)).json()
    assert "server" in str(listed)
    # Writes are still refused, and nothing was written.
    refused = await dashboard.post(f"/api/tenants/{tenant}/api-keys", headers=staff.auth,
                                   json={"name": "sneaky", "scopes": ["email:send"]})
    assert refused.status_code == 403 and refused.json()["Error"]["Code"] == "ImpersonationReadOnly"
    assert await ApiKey.filter(tenant__public_id=tenant).count() == keys_before
    # Another account stays out of reach.
    assert (await dashboard.get(f"/api/tenants/{elsewhere}/api-keys", headers=staff.auth)).status_code == 404
    assert (await dashboard.post("/api/admin/impersonation/end", headers=staff.auth)).status_code == 200

    trail = await dashboard.get(f"/api/tenants/{tenant}/impersonations/{support_id}/reads", headers=owner.auth)
    assert trail.status_code == 200, trail.text
    seen = [(row["Method"], row["Path"], row["Status"]) for row in trail.json()["Reads"]]
    for path in reads:
        assert ("GET", path, 200) in seen, (path, seen)
    assert ("GET", f"/api/tenants/{elsewhere}/api-keys", 404) in seen
    assert all(method == "GET" for method, _, _ in seen)  # the refused write is no read
    assert len(seen) == len(reads) + 2
    # The trail of one account's support session is no one else's: 404 like a missing one.
    for who, path in ((stranger, f"/api/tenants/{elsewhere}/impersonations/{support_id}/reads"),
                      (owner, f"/api/tenants/{tenant}/impersonations/sup_000000000000000000000000/reads")):
        assert (await dashboard.get(path, headers=who.auth)).status_code == 404
