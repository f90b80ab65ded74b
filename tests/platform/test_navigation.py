"""GET /api/me/navigation: the person, their accounts and their pending invitations' count in one
answer, each part what its own route answers; the session checked like any dashboard route."""

from __future__ import annotations

from tests.fixtures.dashboard import *  # noqa: F401,F403
from tests.fixtures.dashboard import new_account, new_child, outbox_for, signed_in_member


def _without_request_id(body: dict) -> dict:
    return {key: value for key, value in body.items() if key != "RequestId"}


async def test_navigation_is_me_tenants_and_the_count_together(dashboard, identity):
    owner = await signed_in_member(identity, dashboard, "nav-owner")
    guest = await signed_in_member(identity, dashboard, "nav-guest")
    token = (await outbox_for(guest.person.email, "verify"))["data"]["token"]
    assert (await identity.post("/v1/auth/verify", json={"token": token})).status_code == 200
    own = await new_account(dashboard, guest, "Guest's own")
    await new_child(dashboard, guest, own["Id"], "Guest's child")
    inviting = await new_account(dashboard, owner, "Inviting")
    invited = await dashboard.post(f"/api/tenants/{inviting['Id']}/invitations",
                                   json={"Email": guest.person.email, "Role": "member"}, headers=owner.auth)
    assert invited.status_code == 201, invited.text

    found = await dashboard.get("/api/me/navigation", headers=guest.auth)
    assert found.status_code == 200, found.text
    body = found.json()
    me = _without_request_id((await dashboard.get("/api/auth/me", headers=guest.auth)).json())
    tenants = (await dashboard.get("/api/tenants", headers=guest.auth)).json()["Tenants"]
    count = (await dashboard.get("/api/me/convites/contagem", headers=guest.auth)).json()["pendentes"]
    assert _without_request_id(body) == {**me, "Tenants": tenants, "PendingInvitations": count}
    assert body["UserId"] == guest.id and count == 1
    assert {(row["Name"], row["Role"]) for row in body["Tenants"]} == {("Guest's own", "owner"),
                                                                      ("Guest's child", "owner")}

    # Nobody else's accounts; a person with none has an empty list and, unverified, a count of 0.
    mine = (await dashboard.get("/api/me/navigation", headers=owner.auth)).json()
    assert [row["Name"] for row in mine["Tenants"]] == ["Inviting"] and mine["PendingInvitations"] == 0


async def test_navigation_needs_a_live_session(dashboard, identity):
    member = await signed_in_member(identity, dashboard, "nav-ended")
    assert (await dashboard.get("/api/me/navigation")).status_code == 401
    assert (await dashboard.get("/api/me/navigation", headers=member.auth)).status_code == 200
    assert (await dashboard.post("/api/auth/logout", headers=member.auth)).status_code == 200
    ended = await dashboard.get("/api/me/navigation", headers=member.auth)
    assert ended.status_code == 401 and ended.json()["Error"]["Code"] == "AuthorizationError"
