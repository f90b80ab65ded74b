"""Sign-up over HTTP (``POST /api/auth/register``): the saga across the identity server and the
platform, its compensation when the platform's write fails, and every ``Reason``."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from datetime import datetime, timedelta, timezone

import pytest
from tortoise import connections

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, outbox_for, signed_in_member
from tests.fixtures.identity import PASSWORD, unique_email
from tests.fixtures.dashboard import invitation_token


def herald(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "herald.cli", *argv], capture_output=True, text=True, timeout=60,
                          env=os.environ.copy())


async def has_user(email: str) -> bool:
    from models.identity.users import User

    return await User.filter(email_key=email.casefold()).exists()


async def register(dashboard, **body):
    return await dashboard.post("/api/auth/register", json={"Password": PASSWORD, **body})


async def test_a_failed_platform_write_leaves_no_user(dashboard, identity):
    """The tenant INSERT is made to fail in the platform's database (a trigger, for this one name):
    the user the identity server made is withdrawn again and nothing is left."""
    marker = f"Saga Fail {secrets.token_hex(4)}"
    platform = connections.get("platform")
    await platform.execute_script(f"""
        CREATE OR REPLACE FUNCTION refuse_saga_tenant() RETURNS trigger AS $$
        BEGIN
            IF NEW.name = '{marker}' THEN RAISE EXCEPTION 'tenant write refused for the saga test'; END IF;
            RETURN NEW;
        END $$ LANGUAGE plpgsql;
        CREATE TRIGGER refuse_saga_tenant BEFORE INSERT ON tenants FOR EACH ROW EXECUTE FUNCTION refuse_saga_tenant();
    """)
    try:
        email = unique_email("saga")
        answer = await register(dashboard, Email=email, TenantName=marker)
        assert answer.status_code == 503, answer.text
        assert not await has_user(email)
        from models.platform import Membership, Tenant
        assert not await Tenant.filter(name=marker).exists()
        again = await register(dashboard, Email=email, TenantName=f"{marker} ok")  # the address is free again
        assert again.status_code == 201, again.text
        assert await Membership.filter(user_id=again.json()["UserId"], role="owner").count() == 1
    finally:
        await platform.execute_script("DROP TRIGGER IF EXISTS refuse_saga_tenant ON tenants; "
                                      "DROP FUNCTION IF EXISTS refuse_saga_tenant();")


async def test_refusals_make_no_user(dashboard, identity):
    email = unique_email("refused")
    short = await register(dashboard, Email=email, Password="short", TenantName="x")
    assert short.status_code == 400
    invalid = await register(dashboard, Email=email, ConviteToken="inv_forged")
    assert invalid.status_code == 400 and invalid.json()["Error"]["Code"] == "InviteInvalid"
    no_name = await register(dashboard, Email=email)
    assert no_name.status_code == 400
    assert not await has_user(email)

    owner = await signed_in_member(identity, dashboard, "regowner")
    account = await new_account(dashboard, owner, f"Reg {secrets.token_hex(3)}")
    invited = unique_email("invited")
    made = await dashboard.post(f"/api/tenants/{account['Id']}/invitations", json={"Email": invited}, headers=owner.auth)
    assert made.status_code == 201
    token = await invitation_token(invited)
    mismatch = await register(dashboard, Email=email, ConviteToken=token)
    assert mismatch.status_code == 400 and mismatch.json()["Error"]["Code"] == "InviteEmailMismatch"
    assert not await has_user(email)

    joined = await register(dashboard, Email=invited, ConviteToken=token, Name="Invited")
    assert joined.status_code == 202 and joined.json()["Reason"] == "Invited", joined.text
    assert joined.json()["Tenant"]["Id"] == account["Id"]
    used = await register(dashboard, Email=unique_email("late"), ConviteToken=token)
    assert used.status_code == 400 and used.json()["Error"]["Code"] == "InviteInvalid"

    taken = await register(dashboard, Email=invited, TenantName="anything")
    assert taken.status_code == 409, taken.text


@pytest.mark.slow  # the `herald` command as a process
async def test_the_claim_domain_command_wants_a_verified_domain_no_other_account_claimed():
    from app.platform.tenant.service import create_tenant
    from models.platform import DomainClaim, SenderDomain

    tenant = await create_tenant(f"Claimer {secrets.token_hex(3)}")
    rival = await create_tenant(f"Rival {secrets.token_hex(3)}")
    domain = f"claimed-{secrets.token_hex(4)}.example"
    refused = herald("tenant", "claim-domain", tenant.public_id, domain)
    assert refused.returncode == 1 and "not a verified sender domain" in refused.stderr  # proof of the DNS first
    await SenderDomain.create(tenant=tenant, name=domain, verified_at=datetime.now(timezone.utc))
    claimed = herald("tenant", "claim-domain", tenant.public_id, domain.upper())
    assert claimed.returncode == 0, claimed.stderr
    assert (await DomainClaim.get(domain=domain)).tenant_id == tenant.id
    await SenderDomain.create(tenant=rival, name=domain, verified_at=datetime.now(timezone.utc))
    taken = herald("tenant", "claim-domain", rival.public_id, domain)
    assert taken.returncode == 1 and "claimed by another account" in taken.stderr


async def test_domain_claims_and_taken_names(dashboard, identity):
    """The claim itself in this process (the command as a process: the test above)."""
    from app.platform.errors import AccountError, ConflictError
    from app.platform.registration.service import claim_domain
    from models.platform import AccessRequest, DomainClaim, SenderDomain, Tenant

    owner = await signed_in_member(identity, dashboard, "claimer")
    account = await new_account(dashboard, owner, f"Claimer {secrets.token_hex(3)}")
    domain = f"claimed-{secrets.token_hex(4)}.example"
    with pytest.raises(AccountError, match="not a verified sender domain"):  # proof of the DNS first
        await claim_domain(account["Id"], domain)
    tenant = await Tenant.get(public_id=account["Id"])
    await SenderDomain.create(tenant=tenant, name=domain, verified_at=datetime.now(timezone.utc))
    await claim_domain(account["Id"], domain.upper())
    assert (await DomainClaim.get(domain=domain)).tenant_id == tenant.id
    rival = await new_account(dashboard, owner, f"Rival {secrets.token_hex(3)}")
    await SenderDomain.create(tenant=await Tenant.get(public_id=rival["Id"]), name=domain,
                              verified_at=datetime.now(timezone.utc))
    with pytest.raises(ConflictError, match="claimed by another account"):
        await claim_domain(rival["Id"], domain)

    asked_name = f"Mine {secrets.token_hex(3)}"  # other tests of the process name accounts "Mine"
    claimed = await register(dashboard, Email=f"someone@{domain.upper()}", TenantName=asked_name)
    assert claimed.status_code == 202 and claimed.json()["Reason"] == "DomainClaimed", claimed.text
    assert claimed.json()["Tenant"] is None and claimed.json()["AccessRequestId"].startswith("acr_")
    request = await AccessRequest.get(public_id=claimed.json()["AccessRequestId"])
    assert request.user_id == claimed.json()["UserId"]
    assert not await Tenant.filter(name=asked_name).exists()

    base = f"/api/tenants/{account['Id']}/access-requests"
    # Not seen, not decided until the address is verified (anyone can sign up with any address).
    unseen = await dashboard.get(base, headers=owner.auth)
    assert unseen.status_code == 200 and unseen.json()["AccessRequests"] == [], unseen.text
    early = await dashboard.post(f"{base}/{request.public_id}/approve", json={"Role": "member"}, headers=owner.auth)
    assert early.status_code == 404 and early.json()["Error"]["Code"] == "NotFound", early.text
    assert (await dashboard.post(f"{base}/{request.public_id}/deny", headers=owner.auth)).status_code == 404
    assert (await AccessRequest.get(id=request.id)).status == "pending"
    await verify_address(identity, f"someone@{domain.upper()}")  # kept as written, matched casefolded
    pending = await dashboard.get(base, headers=owner.auth)
    assert [row["Id"] for row in pending.json()["AccessRequests"]] == [request.public_id], pending.text
    approved = await dashboard.post(f"{base}/{request.public_id}/approve", json={"Role": "member"}, headers=owner.auth)
    assert approved.status_code == 200 and approved.json()["AccessRequest"]["Status"] == "approved", approved.text
    denied = await dashboard.post(f"{base}/{request.public_id}/deny", headers=owner.auth)
    assert denied.status_code == 409
    from tests.fixtures.dashboard import sign_in
    from tests.fixtures.identity import Person

    joiner = Person(claimed.json()["UserId"], f"someone@{domain.upper()}")
    token = (await sign_in(dashboard, joiner))["Token"]
    reached = await dashboard.get("/api/tenants", headers={"Authorization": f"Bearer {token}"})
    assert [(t["Id"], t["Role"]) for t in reached.json()["Tenants"]] == [(account["Id"], "member")]
    assert (await dashboard.get(base, headers=owner.auth)).json()["AccessRequests"] == []

    taken = await register(dashboard, Email=unique_email("taken"), TenantName=account["Name"].upper())
    assert taken.status_code == 202 and taken.json()["Reason"] == "TenantNameTaken", taken.text
    assert taken.json()["Tenant"] is None


async def verify_address(identity, address: str) -> None:
    """Follow the verification link the identity server sent to ``address``."""
    token = (await outbox_for(address, "verify"))["data"]["token"]
    assert (await identity.post("/v1/auth/verify", json={"token": token})).status_code == 200


async def claimed_domain(dashboard, identity, tag: str) -> tuple[object, dict, str]:
    from models.platform import SenderDomain, Tenant

    owner = await signed_in_member(identity, dashboard, tag)
    account = await new_account(dashboard, owner, f"Claimer {secrets.token_hex(3)}")
    domain = f"{tag}-{secrets.token_hex(4)}.example"
    await SenderDomain.create(tenant=await Tenant.get(public_id=account["Id"]), name=domain,
                              verified_at=datetime.now(timezone.utc))
    from app.platform.registration.service import claim_domain

    await claim_domain(account["Id"], domain)
    return owner, account, domain


async def test_an_unverified_access_request_expires_after_seven_days(dashboard, identity):
    """A request whose address is verified only after its 7 days is never shown nor decided; one
    verified in time is, even when it is decided later."""
    from models.platform import AccessRequest, Membership, Tenant

    owner, account, domain = await claimed_domain(dashboard, identity, "expiry")
    base = f"/api/tenants/{account['Id']}/access-requests"
    late = await register(dashboard, Email=f"late@{domain}", TenantName="x")
    timely = await register(dashboard, Email=f"timely@{domain}", TenantName="x")
    assert late.json()["AccessRequestId"].startswith("acr_") and timely.json()["AccessRequestId"].startswith("acr_")
    eight_days_ago = datetime.now(timezone.utc) - timedelta(days=8)
    await AccessRequest.filter(public_id=late.json()["AccessRequestId"]).update(created_at=eight_days_ago)

    await verify_address(identity, f"timely@{domain}")
    listed = await dashboard.get(base, headers=owner.auth)
    assert [row["Id"] for row in listed.json()["AccessRequests"]] == [timely.json()["AccessRequestId"]]
    await AccessRequest.filter(public_id=timely.json()["AccessRequestId"]).update(created_at=eight_days_ago)

    await verify_address(identity, f"late@{domain}")
    listed = await dashboard.get(base, headers=owner.auth)
    assert [row["Id"] for row in listed.json()["AccessRequests"]] == [timely.json()["AccessRequestId"]]
    expired = await dashboard.post(f"{base}/{late.json()['AccessRequestId']}/approve", headers=owner.auth)
    assert expired.status_code == 404, expired.text
    approved = await dashboard.post(f"{base}/{timely.json()['AccessRequestId']}/approve", headers=owner.auth)
    assert approved.status_code == 200, approved.text
    tenant = await Tenant.get(public_id=account["Id"])
    assert await Membership.filter(tenant_id=tenant.id, user_id=late.json()["UserId"]).count() == 0
    assert await Membership.filter(tenant_id=tenant.id, user_id=timely.json()["UserId"]).count() == 1
    stored = await AccessRequest.get(public_id=late.json()["AccessRequestId"])
    assert stored.status == "pending" and stored.verified_at is None


async def test_refused_grants_remove_the_new_account(start_server, services, identity):
    """A platform whose service credential the identity server refuses: the user is made (a public
    route), the account's grants are refused, so the account is removed again: 202
    ProvisioningFailed, the person kept and able to sign in."""
    import httpx

    from models.platform import Tenant

    broken = start_server("platform", SERVICE_TOKEN="not-the-identity-servers-token-" + secrets.token_hex(8))
    name = f"Ungranted {secrets.token_hex(4)}"
    email = unique_email("ungranted")
    async with httpx.AsyncClient(base_url=broken.url, timeout=20) as http:
        answer = await http.post("/api/auth/register", json={"Email": email, "Password": PASSWORD, "TenantName": name})
    assert answer.status_code == 202, answer.text
    assert answer.json()["Reason"] == "ProvisioningFailed" and answer.json()["Tenant"] is None
    assert await has_user(email)
    assert not await Tenant.filter(name=name).exists()
