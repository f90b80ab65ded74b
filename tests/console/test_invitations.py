"""Invitations for the person, over HTTP: sign-up from an invitation's link (the form names the
account joined and the button says so: the person's yes), the navigation's badge of waiting
invitations, and the "Your invitations" page (accept, decline; another person's invitation is the
same 404 as a missing one)."""

from __future__ import annotations

import re

from tests.console.conftest import owner_with_account
from tests.console.test_links import open_link
from tests.fixtures.dashboard import invitation_token, outbox_for
from tests.fixtures.identity import PASSWORD, make_person, unique_email

BADGE = re.compile(r'<span class="badge count">(\d+)<span class="visually-hidden"> waiting</span>')


async def invite(dashboard, owner, account: dict, email: str, role: str = "member") -> dict:
    made = await dashboard.post(f"/api/tenants/{account['Id']}/invitations", json={"Email": email, "Role": role},
                                headers=owner.auth)
    assert made.status_code == 201, made.text
    return made.json()["Invitation"]


async def test_sign_up_from_an_invitation_joins_only_with_the_buttons_yes(browser, identity, dashboard, console):
    owner, account = await owner_with_account(identity, dashboard, "console-signup-host", "Signup Co")
    guest = unique_email("console-invited-signup")
    await invite(dashboard, owner, account, guest, "admin")
    token = await invitation_token(guest)
    await open_link(browser, f"{console}/invitations/accept?token={token}", console, "/invitations/accept")
    landing = await browser.get("/invitations/accept")
    assert 'href="/sign-up?invitation=1"' in landing.text

    plain = await browser.get("/sign-up")  # without asking for it, the sign-up is an ordinary one
    assert "<h1>Create your Herald account</h1>" in plain.text and 'name="account"' in plain.text
    form = await browser.get("/sign-up?invitation=1")
    assert "<h1>Join Signup Co on Herald</h1>" in form.text and guest in form.text
    assert "Create my account and join Signup Co" in form.text and 'name="account"' not in form.text
    assert token not in form.text  # the token stays in the sealed cookie
    short = await browser.post("/sign-up", {"name": "Guest", "password": "short", "invitation": "1"})
    assert short.status_code == 400 and "12 characters or more" in short.text and "Join Signup Co" in short.text
    assert (await dashboard.get(f"/api/invitations/{token}/preview")).json()["Status"] == "pending"

    done = await browser.post("/sign-up", {"name": "Guest", "password": PASSWORD, "invitation": "1"})
    assert done.status_code == 200 and "you joined the account that invited you" in done.text, done.text
    assert (await dashboard.get(f"/api/invitations/{token}/preview")).json()["Status"] == "accepted"
    signed = await browser.sign_in(guest, PASSWORD)
    assert signed.status_code == 303
    accounts = await browser.get("/accounts")
    assert "Signup Co" in accounts.text


async def test_the_badge_and_the_invitations_page(browser, another_browser, identity, dashboard):
    person = await make_person(identity, "console-badge")
    verify = (await outbox_for(person.email, "verify"))["data"]["token"]
    assert (await identity.post("/v1/auth/verify", json={"token": verify})).status_code == 200
    await browser.sign_in(person.email, PASSWORD)
    empty = await browser.get("/invitations")
    assert empty.status_code == 200 and "No invitation is waiting for you" in empty.text
    assert not BADGE.search(empty.text)

    first_owner, first = await owner_with_account(identity, dashboard, "console-badge-a", "Badge One")
    second_owner, second = await owner_with_account(identity, dashboard, "console-badge-b", "Badge Two")
    declined = await invite(dashboard, first_owner, first, person.email)
    accepted = await invite(dashboard, second_owner, second, person.email, "admin")
    page = await browser.get("/invitations")
    assert BADGE.search(page.text).group(1) == "2"
    assert "Accept and join Badge One" in page.text and "Accept and join Badge Two" in page.text

    stranger = await make_person(identity, "console-badge-stranger")
    await another_browser.sign_in(stranger.email, PASSWORD)
    await another_browser.get("/invitations")
    assert (await another_browser.post(f"/invitations/{accepted['Id']}/accept")).status_code == 404
    assert (await another_browser.post("/invitations/cvt_000000000000000000000000/decline")).status_code == 404

    said_no = await browser.post(f"/invitations/{declined['Id']}/decline")
    assert said_no.status_code == 303 and said_no.headers["location"] == "/invitations?declined=1"
    after = await browser.get(said_no.headers["location"])
    assert "You declined the invitation" in after.text and BADGE.search(after.text).group(1) == "1"
    said_yes = await browser.post(f"/invitations/{accepted['Id']}/accept")
    assert said_yes.status_code == 303 and said_yes.headers["location"] == f"/a/{second['Id']}"
    joined = await browser.get(said_yes.headers["location"])
    assert joined.status_code == 200 and not BADGE.search(joined.text)
    listed = await browser.get("/invitations")  # answered invitations leave the list
    assert "Accept and join" not in listed.text and "No invitation is waiting for you" in listed.text
