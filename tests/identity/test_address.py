"""Recovery e-mail addresses on the identity server: added neutrally (10 a day), verified by link,
made primary (swapped, ids kept), removed; every write needs a recent re-authentication."""

from __future__ import annotations

from tests.fixtures.identity import PASSWORD, make_person, outbox_for, unique_email
from tests.identity.test_session_reauth import age_session


async def listing(client, person) -> list[dict]:
    answer = await client.get("/v1/auth/emails", headers=person.auth)
    assert answer.status_code == 200, answer.text
    return answer.json()["emails"]


async def add_verified(client, person, tag: str = "backup") -> str:
    address = unique_email(tag)
    added = await client.post("/v1/auth/emails", json={"email": address}, headers=person.auth)
    assert added.status_code == 202 and added.json()["accepted"] is True, added.text
    link = (await outbox_for(address, "verify"))["data"]["token"]
    assert (await client.post("/v1/auth/verify", json={"token": link})).status_code == 200
    return address


async def test_add_verify_make_primary_and_remove(client):
    person = await make_person(client, "addr")
    [primary] = await listing(client, person)
    assert primary["primary"] is True and primary["email"] == person.email and primary["id"].startswith("eml_")

    backup = unique_email("backup")
    added = await client.post("/v1/auth/emails", json={"email": backup}, headers=person.auth)
    assert added.status_code == 202, added.text
    again = await client.post("/v1/auth/emails", json={"email": backup.upper()}, headers=person.auth)
    assert again.status_code == 202  # neutral: the same answer, no second row
    rows = await listing(client, person)
    assert len(rows) == 2 and rows[1]["email"] == backup and rows[1]["verified"] is False
    backup_id = rows[1]["id"]

    early = await client.post(f"/v1/auth/emails/{backup_id}/primary", headers=person.auth)
    assert early.status_code == 409, early.text  # unverified: cannot become primary
    resent = await client.post(f"/v1/auth/emails/{backup_id}/verify/resend", headers=person.auth)
    assert resent.status_code == 202, resent.text
    link = (await outbox_for(backup, "verify"))["data"]["token"]
    verified = await client.post("/v1/auth/verify", json={"token": link})
    assert verified.status_code == 200 and verified.json()["user"]["email"] == person.email, verified.text
    assert (await listing(client, person))[1]["verified"] is True
    done = await client.post(f"/v1/auth/emails/{backup_id}/verify/resend", headers=person.auth)
    assert done.status_code == 409

    swapped = await client.post(f"/v1/auth/emails/{backup_id}/primary", headers=person.auth)
    assert swapped.status_code == 200, swapped.text
    rows = swapped.json()["emails"]
    assert rows[0] == {**rows[0], "id": backup_id, "email": backup, "primary": True, "verified": True}
    assert rows[1]["id"] == primary["id"] and rows[1]["email"] == person.email and rows[1]["primary"] is False
    notice = await outbox_for(person.email, "email_changed")
    assert backup not in notice["text"] and "token" not in notice["data"]
    # Sign-in now goes by the new primary.
    assert (await client.post("/v1/auth/login", json={"email": backup, "password": PASSWORD})).status_code == 200

    refused = await client.delete(f"/v1/auth/emails/{backup_id}", headers=person.auth)
    assert refused.status_code == 409  # the primary stays
    gone = await client.delete(f"/v1/auth/emails/{primary['id']}", headers=person.auth)
    assert gone.status_code == 204, gone.text
    assert [row["id"] for row in await listing(client, person)] == [backup_id]
    assert (await client.delete(f"/v1/auth/emails/{primary['id']}", headers=person.auth)).status_code == 404


async def test_another_persons_address_is_404_and_writes_need_a_recent_proof(client):
    owner = await make_person(client, "owner")
    other = await make_person(client, "other")
    await client.post("/v1/auth/emails", json={"email": unique_email("own")}, headers=owner.auth)
    owned = (await listing(client, owner))[1]["id"]
    for answer in (await client.delete(f"/v1/auth/emails/{owned}", headers=other.auth),
                   await client.post(f"/v1/auth/emails/{owned}/primary", headers=other.auth),
                   await client.post(f"/v1/auth/emails/{owned}/verify/resend", headers=other.auth)):
        assert answer.status_code == 404, answer.text

    await age_session(owner)
    for answer in (await client.post("/v1/auth/emails", json={"email": unique_email("late")}, headers=owner.auth),
                   await client.delete(f"/v1/auth/emails/{owned}", headers=owner.auth),
                   await client.post(f"/v1/auth/emails/{owned}/primary", headers=owner.auth)):
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "ReauthRequired", answer.text
    assert (await client.get("/v1/auth/emails", headers=owner.auth)).status_code == 200  # reading is not guarded


async def test_ten_additions_a_day(client):
    person = await make_person(client, "many")
    statuses = [(await client.post("/v1/auth/emails", json={"email": unique_email(f"n{i}")},
                                   headers=person.auth)).status_code for i in range(11)]
    assert statuses == [202] * 10 + [429], statuses


async def test_a_verified_recovery_address_can_reset_the_password_until_removed(client):
    person = await make_person(client, "resetvia")
    backup = await add_verified(client, person, "resetvia")
    assert (await client.post("/v1/auth/password/reset", json={"email": backup})).status_code == 202
    mail = await outbox_for(backup, "reset")
    token = mail["data"]["token"]
    assert mail["data"]["user_id"] == person.id
    backup_id = (await listing(client, person))[1]["id"]
    assert (await client.delete(f"/v1/auth/emails/{backup_id}", headers=person.auth)).status_code == 204
    late = await client.post("/v1/auth/password/reset/confirm",
                             json={"token": token, "password": "a brand new long passphrase"})
    assert late.status_code == 400, late.text  # the link died with the address

    again = await add_verified(client, person, "resetvia2")
    assert (await client.post("/v1/auth/password/reset", json={"email": again})).status_code == 202
    token = (await outbox_for(again, "reset"))["data"]["token"]
    done = await client.post("/v1/auth/password/reset/confirm",
                             json={"token": token, "password": "a brand new long passphrase"})
    assert done.status_code == 200, done.text
    relogin = await client.post("/v1/auth/login", json={"email": person.email,
                                                        "password": "a brand new long passphrase"})
    assert relogin.status_code == 200
