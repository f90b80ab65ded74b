"""A support session is read-only in every system (issue 43; docs/operator.md): a staff member who
entered an account reads its CRM, pages, runtime analytics and mail with their own dashboard
session, every read lands in the account's trail, a forged write is refused with 403
``ImpersonationReadOnly`` and changes nothing, and ending the session ends the access at once.
All the systems really run; the owner's grants are the ones the platform gave when the account
was made."""

from __future__ import annotations

import uuid

import httpx
import pytest

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, signed_in_member, signed_in_staff


def tag() -> str:
    return uuid.uuid4().hex[:8]


# system: (a read of the account, what the owner writes first and the read then shows, a forged write)
SYSTEMS = {
    "crm": ("/v1/contatos", ("POST", "/v1/contatos", {"email": "seen-{tag}@example.com"}),
            ("POST", "/v1/contatos", {"email": "forged-{tag}@example.com"})),
    "pages": ("/v1/paginas", ("POST", "/v1/paginas", {"Title": "Owner's", "Slug": "owner-{tag}"}),
              ("POST", "/v1/paginas", {"Title": "Forged", "Slug": "forged-{tag}"})),
    "runtime": ("/v1/pixels", ("POST", "/v1/pixels", {"Name": "Owner {tag}", "Site": "owner-{tag}.example.com"}),
                ("POST", "/v1/pixels", {"Name": "Forged", "Site": "forged-{tag}.example.com"})),
    "mail": ("/v1/mailboxes", None, ("POST", "/v1/mailboxes", {"address": "forged-{tag}@example.com"})),
}
# Further reads the issue names (journeys, analytics), answered inside the support session too.
MORE_READS = {"crm": ("/v1/jornadas",), "runtime": ("/v1/analytics/overview",), "pages": (), "mail": ()}


def content(answer: httpx.Response) -> dict:
    """An answer's body without its request id."""
    return {name: value for name, value in answer.json().items() if name != "RequestId"}


def code(answer: httpx.Response) -> str:
    """The error code, in the system's own envelope (mail's is flat: ``{error, message}``)."""
    body = answer.json()
    return body["Error"]["Code"] if "Error" in body else body["error"]


def filled(body: dict, t: str) -> dict:
    return {name: value.format(tag=t) if isinstance(value, str) else value for name, value in body.items()}


@pytest.mark.parametrize("system", sorted(SYSTEMS))
async def test_support_reads_the_account_in_each_system_and_a_forged_write_is_refused(
        system, dashboard, identity, servers):
    read, seed, forged = SYSTEMS[system]
    t = tag()
    staff = await signed_in_staff(identity, dashboard, f"support-{system}")
    owner = await signed_in_member(identity, dashboard, f"owner-{system}")
    tenant = (await new_account(dashboard, owner, f"Helped {t}"))["Id"]
    elsewhere = (await new_account(dashboard, owner, f"Other {t}"))["Id"]
    async with httpx.AsyncClient(base_url=servers(system).url, timeout=20) as other:
        as_owner = {**owner.auth, "X-Service-Tenant": tenant}
        as_staff = {**staff.auth, "X-Service-Tenant": tenant}
        if seed is not None:
            method, path, body = seed
            made = await other.request(method, path, headers=as_owner, json=filled(body, t))
            assert made.status_code == 201, made.text
        before = await other.get(read, headers=as_owner)
        assert before.status_code == 200, before.text
        # A stranger to the account, the staff member reads nothing before entering it.
        assert (await other.get(read, headers=as_staff)).status_code == 404

        entered = await dashboard.post(f"/api/admin/tenants/{tenant}/enter", headers=staff.auth,
                                       json={"Reason": f"ticket {t}"})
        assert entered.status_code == 201, entered.text
        support_id = entered.json()["SupportSession"]["Id"]

        seen = await other.get(read, headers=as_staff)
        assert seen.status_code == 200, seen.text
        assert content(seen) == content(before)  # what the owner reads
        for path in MORE_READS[system]:
            answer = await other.get(path, headers=as_staff)
            assert answer.status_code == 200, (path, answer.text)

        if system == "crm":  # the one bulk export of personal data is no support session's read
            export = await other.get("/v1/contatos/exportar.csv", headers=as_staff)
            assert export.status_code == 403 and code(export) == "ImpersonationReadOnly", export.text
        method, path, body = forged
        refused = await other.request(method, path, headers=as_staff, json=filled(body, t))
        assert refused.status_code == 403, refused.text
        assert code(refused) == "ImpersonationReadOnly", refused.text
        assert content(await other.get(read, headers=as_owner)) == content(before)  # nothing written
        # Another account stays out of reach; writes there are refused the same way.
        assert (await other.get(read, headers={**staff.auth, "X-Service-Tenant": elsewhere})).status_code == 404
        elsewhere_write = await other.request(method, path, headers={**staff.auth, "X-Service-Tenant": elsewhere},
                                              json=filled(body, t))
        assert elsewhere_write.status_code == 403 and code(elsewhere_write) == "ImpersonationReadOnly"

        ended = await dashboard.post("/api/admin/impersonation/end", headers=staff.auth)
        assert ended.status_code == 200, ended.text
        # At once: the support decision was never cached.
        assert (await other.get(read, headers=as_staff)).status_code == 404
        assert (await other.get(read, headers=as_owner)).status_code == 200

    trail = await dashboard.get(f"/api/tenants/{tenant}/impersonations/{support_id}/reads", headers=owner.auth)
    assert trail.status_code == 200, trail.text
    rows = [(row["System"], row["Method"], row["Path"], row["Status"]) for row in trail.json()["Reads"]]
    assert (system, "GET", read, 200) in rows, rows
    for path in MORE_READS[system]:
        assert (system, "GET", path, 200) in rows, rows
    assert (system, "GET", read, 404) in rows  # the attempt on another account is on the record too
    assert all(method == "GET" for _, method, _, _ in rows)  # the refused writes are no reads
    assert len(rows) == 2 + len(MORE_READS[system]) + (system == "crm")
    if system == "crm":
        assert (system, "GET", "/v1/contatos/exportar.csv", 403) in rows, rows


async def test_a_cached_allow_of_the_staff_members_own_account_gives_no_write_inside_a_support_session(
        dashboard, identity, servers):
    """The 60 s decision cache cannot carry a write into a support session, nor a support read out of
    one: the session hop says, on every request, whether the session is inside one."""
    t = tag()
    staff = await signed_in_staff(identity, dashboard, "support-own")
    owner = await signed_in_member(identity, dashboard, "owner-own")
    own = (await new_account(dashboard, staff, f"Staff's own {t}"))["Id"]
    helped = (await new_account(dashboard, owner, f"Helped {t}"))["Id"]
    async with httpx.AsyncClient(base_url=servers("crm").url, timeout=20) as crm:
        in_own = {**staff.auth, "X-Service-Tenant": own}
        made = await crm.post("/v1/contatos", headers=in_own, json={"email": f"before-{t}@example.com"})
        assert made.status_code == 201, made.text  # the allow is now in the CRM's decision cache

        entered = await dashboard.post(f"/api/admin/tenants/{helped}/enter", headers=staff.auth,
                                       json={"Reason": f"ticket {t}"})
        assert entered.status_code == 201, entered.text
        refused = await crm.post("/v1/contatos", headers=in_own, json={"email": f"inside-{t}@example.com"})
        assert refused.status_code == 403 and code(refused) == "ImpersonationReadOnly", refused.text
        # Only the entered account is read inside it, not even the staff member's own.
        assert (await crm.get("/v1/contatos", headers=in_own)).status_code == 404
        assert (await crm.get("/v1/contatos", headers={**staff.auth, "X-Service-Tenant": helped})).status_code == 200

        assert (await dashboard.post("/api/admin/impersonation/end", headers=staff.auth)).status_code == 200
        after = await crm.post("/v1/contatos", headers=in_own, json={"email": f"after-{t}@example.com"})
        assert after.status_code == 201, after.text
        assert (await crm.get("/v1/contatos", headers={**staff.auth, "X-Service-Tenant": helped})).status_code == 404


async def test_a_read_that_cannot_be_recorded_is_refused_with_503(dashboard, identity, start_server):
    """The platform out of the CRM's reach: a support session's read is not served off the record."""
    from tests.fixtures.harness import free_port

    t = tag()
    staff = await signed_in_staff(identity, dashboard, "support-unrecorded")
    owner = await signed_in_member(identity, dashboard, "owner-unrecorded")
    tenant = (await new_account(dashboard, owner, f"Helped {t}"))["Id"]
    cut_off = start_server("crm", PLATFORM_INTERNAL_URL=f"http://127.0.0.1:{free_port()}")
    entered = await dashboard.post(f"/api/admin/tenants/{tenant}/enter", headers=staff.auth, json={"Reason": t})
    assert entered.status_code == 201, entered.text
    async with httpx.AsyncClient(base_url=cut_off.url, timeout=20) as crm:
        as_staff = {**staff.auth, "X-Service-Tenant": tenant}
        refused = await crm.get("/v1/contatos", headers=as_staff)
        assert refused.status_code == 503 and refused.headers["Retry-After"], refused.text
        # The owner's own reads need no trail: they go on.
        assert (await crm.get("/v1/contatos", headers={**owner.auth, "X-Service-Tenant": tenant})).status_code == 200
    support_id = entered.json()["SupportSession"]["Id"]
    trail = await dashboard.get(f"/api/tenants/{tenant}/impersonations/{support_id}/reads", headers=owner.auth)
    assert trail.json()["Reads"] == []
