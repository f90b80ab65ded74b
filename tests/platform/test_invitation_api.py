"""Invitations over HTTP: invite (the e-mail queued through Herald's own accept path), preview,
accept by token and by id, decline, cancel, the states' errors, the count; and the issue's "done
when" walk from sign-up to a key in a sub-account."""

from __future__ import annotations

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import (Member, invitation_token, new_account, new_child, outbox_for, sign_in,
                                     signed_in_member)
from tests.fixtures.identity import PASSWORD, unique_email


async def verified_member(identity, dashboard, tag: str) -> Member:
    member = await signed_in_member(identity, dashboard, tag)
    token = (await outbox_for(member.person.email, "verify"))["data"]["token"]
    assert (await identity.post("/v1/auth/verify", json={"token": token})).status_code == 200
    return member


async def test_invite_preview_accept_by_id_and_decline(dashboard, identity):
    owner = await signed_in_member(identity, dashboard, "inviter")
    guest = await verified_member(identity, dashboard, "guest")
    account = await new_account(dashboard, owner, "Inviting")
    base = f"/api/tenants/{account['Id']}/invitations"

    made = await dashboard.post(base, json={"Email": guest.person.email.upper(), "Role": "admin"}, headers=owner.auth)
    assert made.status_code == 201, made.text
    invitation = made.json()["Invitation"]
    assert invitation["Id"].startswith("cvt_") and invitation["Status"] == "pending"
    assert "Token" not in invitation
    twice = await dashboard.post(base, json={"Email": guest.person.email}, headers=owner.auth)
    assert twice.status_code == 409
    listed = await dashboard.get(base, headers=owner.auth)
    assert [row["Id"] for row in listed.json()["Invitations"]] == [invitation["Id"]]

    token = await invitation_token(guest.person.email)
    preview = await dashboard.get(f"/api/invitations/{token}/preview")
    assert preview.status_code == 200, preview.text
    assert {k: v for k, v in preview.json().items() if k != "RequestId"} == {
        "Email": guest.person.email.casefold(), "TenantName": "Inviting", "Role": "admin", "Status": "pending",
        "HasAccount": True}
    assert token not in preview.text and account["Id"] not in preview.text and owner.id not in preview.text
    assert (await dashboard.get("/api/invitations/inv_nothing/preview")).status_code == 404

    count = await dashboard.get("/api/me/convites/contagem", headers=guest.auth)
    assert count.json()["pendentes"] == 1
    mine = await dashboard.get("/api/me/convites", headers=guest.auth)
    assert [row["Id"] for row in mine.json()["Convites"]] == [invitation["Id"]]
    assert mine.json()["Convites"][0]["TenantName"] == "Inviting"

    stranger = await verified_member(identity, dashboard, "stranger")
    for path in (f"/api/me/convites/{invitation['Id']}/aceitar", "/api/me/convites/not-cvt/aceitar",
                 f"/api/me/convites/cvt_{'0' * 24}/aceitar", f"/api/me/convites/{invitation['Id']}/recusar"):
        assert (await dashboard.post(path, headers=stranger.auth)).status_code == 404, path
    unverified = await signed_in_member(identity, dashboard, "unverified")
    assert (await dashboard.post(f"/api/me/convites/{invitation['Id']}/aceitar",
                                 headers=unverified.auth)).status_code == 404

    accepted = await dashboard.post(f"/api/me/convites/{invitation['Id']}/aceitar", headers=guest.auth)
    assert accepted.status_code == 200 and accepted.json()["Convite"]["Status"] == "accepted", accepted.text
    again = await dashboard.post(f"/api/me/convites/{invitation['Id']}/aceitar", headers=guest.auth)
    assert again.status_code == 200  # idempotent
    refuse = await dashboard.post(f"/api/me/convites/{invitation['Id']}/recusar", headers=guest.auth)
    assert refuse.status_code == 409 and refuse.json()["Error"]["Code"] == "AlreadyAccepted"
    roles = {t["Id"]: t["Role"] for t in (await dashboard.get("/api/tenants", headers=guest.auth)).json()["Tenants"]}
    assert roles == {account["Id"]: "admin"}
    assert (await dashboard.get("/api/me/convites/contagem", headers=guest.auth)).json()["pendentes"] == 0
    gone = await dashboard.get(f"/api/invitations/{token}/preview")
    assert gone.json()["Status"] == "accepted" and gone.json()["HasAccount"] is None

    second = await dashboard.post(base, json={"Email": stranger.person.email}, headers=owner.auth)
    second_id = second.json()["Invitation"]["Id"]
    declined = await dashboard.post(f"/api/me/convites/{second_id}/recusar", headers=stranger.auth)
    assert declined.status_code == 204
    assert (await dashboard.post(f"/api/me/convites/{second_id}/recusar", headers=stranger.auth)).status_code == 204
    late = await dashboard.post(f"/api/me/convites/{second_id}/aceitar", headers=stranger.auth)
    assert late.status_code == 409 and late.json()["Error"]["Code"] == "Declined"


async def test_cancelled_and_expired_invitations(dashboard, identity):
    from datetime import datetime, timedelta, timezone

    from models.platform import Invitation

    owner = await signed_in_member(identity, dashboard, "canceller")
    guest = await verified_member(identity, dashboard, "cguest")
    account = await new_account(dashboard, owner, "Cancelling")
    base = f"/api/tenants/{account['Id']}/invitations"
    made = (await dashboard.post(base, json={"Email": guest.person.email}, headers=owner.auth)).json()["Invitation"]
    cancelled = await dashboard.delete(f"{base}/{made['Id']}", headers=owner.auth)
    assert cancelled.status_code == 204
    revoked = await dashboard.post(f"/api/me/convites/{made['Id']}/aceitar", headers=guest.auth)
    assert revoked.status_code == 410 and revoked.json()["Error"]["Code"] == "Revoked"

    token_made = (await dashboard.post(base, json={"Email": guest.person.email}, headers=owner.auth)).json()
    await Invitation.filter(public_id=token_made["Invitation"]["Id"]).update(
        expires_at=datetime.now(timezone.utc) - timedelta(minutes=1))
    expired = await dashboard.post(f"/api/me/convites/{token_made['Invitation']['Id']}/aceitar", headers=guest.auth)
    assert expired.status_code == 410 and expired.json()["Error"]["Code"] == "Expired"
    listed = (await dashboard.get("/api/me/convites", headers=guest.auth)).json()["Convites"]
    assert [row["Status"] for row in listed] == ["expired"]


async def test_decisions_are_capped_per_person(dashboard, identity):
    guest = await verified_member(identity, dashboard, "capped")
    answers = [await dashboard.post(f"/api/me/convites/cvt_{'0' * 24}/recusar", headers=guest.auth) for _ in range(31)]
    assert [a.status_code for a in answers[:30]] == [404] * 30
    assert answers[30].status_code == 429 and answers[30].json()["Error"]["Code"] == "Throttling"
    assert "retry-after" in answers[30].headers


async def test_done_when_sign_up_child_invite_accept_key_and_no_reach(dashboard, identity):
    email = unique_email("founder")
    signed_up = await dashboard.post("/api/auth/register", json={
        "Email": email, "Password": PASSWORD, "Name": "Founder", "TenantName": f"Founders {email[:12]}"})
    assert signed_up.status_code == 201, signed_up.text
    account = signed_up.json()["Tenant"]
    assert signed_up.json()["Reason"] is None and signed_up.json()["UserEmail"] == email
    from tests.fixtures.identity import Person

    founder = Member(Person(signed_up.json()["UserId"], email), "")
    founder.token = (await sign_in(dashboard, founder.person))["Token"]
    child = await new_child(dashboard, founder, account["Id"], "Founders Child")

    colleague_email = unique_email("colleague")
    invited = await dashboard.post(f"/api/tenants/{account['Id']}/invitations", json={"Email": colleague_email},
                                   headers=founder.auth)
    assert invited.status_code == 201, invited.text
    token = await invitation_token(colleague_email)
    preview = await dashboard.get(f"/api/invitations/{token}/preview")
    assert preview.json()["HasAccount"] is False and preview.json()["TenantName"] == account["Name"]

    colleague_person = await identity.post("/v1/users", json={"email": colleague_email, "password": PASSWORD})
    assert colleague_person.status_code == 201
    colleague = Member(Person(colleague_person.json()["user"]["id"], colleague_email), "")
    colleague.token = (await sign_in(dashboard, colleague.person))["Token"]
    accepted = await dashboard.post("/api/invitations/accept", json={"Token": token}, headers=colleague.auth)
    assert accepted.status_code == 200 and accepted.json()["TenantId"] == account["Id"], accepted.text
    seen = {t["Id"] for t in (await dashboard.get("/api/tenants", headers=colleague.auth)).json()["Tenants"]}
    assert seen == {account["Id"], child["Id"]}

    keyed = await dashboard.post(f"/api/tenants/{child['Id']}/api-keys", json={"name": "x", "scopes": ["email:send"]},
                                 headers=colleague.auth)
    assert keyed.status_code == 403  # a member; the owner makes them admin
    promoted = await dashboard.post(f"/api/tenants/{account['Id']}/members",
                                    json={"UserId": colleague.id, "Role": "admin"}, headers=founder.auth)
    assert promoted.status_code == 200
    keyed = await dashboard.post(f"/api/tenants/{child['Id']}/api-keys", json={"name": "x", "scopes": ["email:send"]},
                                 headers=colleague.auth)
    assert keyed.status_code == 201, keyed.text

    third = await signed_in_member(identity, dashboard, "third")
    elsewhere = await new_account(dashboard, third, "Third's")
    for member in (founder, colleague):
        for path in (f"/api/tenants/{elsewhere['Id']}/members", f"/api/tenants/{elsewhere['Id']}/api-keys"):
            answer = await dashboard.get(path, headers=member.auth)
            assert answer.status_code == 404, (path, answer.text)


async def test_invitation_emails_are_capped_per_inviter_and_day(dashboard, identity):
    """At most 50 invitation e-mails a day per inviter, through either route that sends one:
    the 51st is 429 Throttling with Retry-After in the platform's envelope, and nothing is written."""
    from models.platform import Invitation, Message
    from models.platform.tenant import Tenant

    owner = await signed_in_member(identity, dashboard, "mailcap")
    account = await new_account(dashboard, owner, "Mail cap")
    base = f"/api/tenants/{account['Id']}/invitations"
    for number in range(50):
        made = await dashboard.post(base, json={"Email": unique_email(f"cap{number}")}, headers=owner.auth)
        assert made.status_code == 201, (number, made.text)

    refused_address = unique_email("cap-over")
    refused = await dashboard.post(base, json={"Email": refused_address}, headers=owner.auth)
    assert refused.status_code == 429, refused.text
    error = refused.json()["Error"]
    assert error["Code"] == "Throttling" and error["Type"] == "Sender" and refused.json()["RequestId"]
    assert 1 <= int(refused.headers["retry-after"]) <= 86400
    assert refused.headers["x-ratelimit-limit"] == "50" and refused.headers["x-ratelimit-remaining"] == "0"
    person = await signed_in_member(identity, dashboard, "cap-linked")
    linked = await dashboard.post(f"/api/tenants/{account['Id']}/members", json={"UserId": person.id},
                                  headers=owner.auth)
    assert linked.status_code == 429 and linked.json()["Error"]["Code"] == "Throttling", linked.text

    tenant = await Tenant.get(public_id=account["Id"])
    assert await Invitation.filter(tenant_id=tenant.id).count() == 50
    assert not await Invitation.filter(email__in=[refused_address, person.person.email.casefold()]).exists()
    assert not await Message.filter(recipient=refused_address).exists()

    other = await signed_in_member(identity, dashboard, "mailcap2")  # the cap is the inviter's, not everyone's
    elsewhere = await new_account(dashboard, other, "Mail cap 2")
    fine = await dashboard.post(f"/api/tenants/{elsewhere['Id']}/invitations", json={"Email": refused_address},
                                headers=other.auth)
    assert fine.status_code == 201, fine.text
