"""Sign-up and the pages reached from e-mailed links, over HTTP: verification, password reset and
the invitation (preview, accept, decline; cancelled by the account with its ``cvt_`` id). Each link
opens CONSOLE_URL, the token leaves the address bar at once (a redirect; the token kept in a sealed
cookie), the page sends no referrer, and only a POST the person makes acts (a mail scanner's GET
uses nothing up)."""

from __future__ import annotations

from urllib.parse import urlsplit

from tests.console.conftest import owner_with_account
from tests.fixtures.dashboard import invitation_token, outbox_for, signed_in_member
from tests.fixtures.identity import PASSWORD, make_person, unique_email


def local(link: str, console: str) -> str:
    """The path and query of an e-mailed link, checked to open the console."""
    assert link.startswith(console + "/"), (link, console)
    parts = urlsplit(link)
    return f"{parts.path}?{parts.query}"


async def open_link(browser, link: str, console: str, landing: str) -> None:
    moved = await browser.get(local(link, console))
    assert moved.status_code == 303 and moved.headers["location"] == landing  # the token is out of the address bar
    assert moved.headers["referrer-policy"] == "no-referrer"


async def test_sign_up_then_verify_from_the_emailed_link(browser, another_browser, console):
    email = unique_email("console-signup")
    await browser.get("/sign-up")
    short = await browser.post("/sign-up", {"name": "Ana", "email": email, "password": "short", "account": ""})
    assert short.status_code == 400 and "Password must be 12 characters or more" in short.text
    assert "Enter a name for your account" in short.text and f'value="{email}"' in short.text
    made = await browser.post("/sign-up", {"name": "Ana", "email": email, "password": PASSWORD,
                                           "account": f"Ana {email[15:25]}"})
    assert made.status_code == 200 and "Check your e-mail" in made.text and email in made.text
    again = await browser.post("/sign-up", {"name": "Ana", "email": email, "password": PASSWORD, "account": "Other"})
    assert again.status_code == 409 and "already exists" in again.text

    link = (await outbox_for(email, "verify"))["data"]["link"]
    # A mail scanner fetches the link (and its landing) first: nothing is used up.
    await open_link(another_browser, link, console, "/verify-email")
    scanned = await another_browser.get("/verify-email")
    assert scanned.status_code == 200 and "Verify my address" in scanned.text
    assert scanned.headers["referrer-policy"] == "no-referrer" and "token" not in scanned.text.lower().replace(
        "csrf_token", "")

    await open_link(browser, link, console, "/verify-email")
    verified = await browser.post("/verify-email")
    assert verified.status_code == 200 and "Address verified" in verified.text
    used = await another_browser.post("/verify-email")
    assert used.status_code == 400 and "This link does not work" in used.text
    nothing = await browser.post("/verify-email")  # the carried token was dropped with the answer
    assert nothing.status_code == 400


async def test_reset_the_password_from_the_emailed_link(browser, identity, console):
    person = await make_person(identity, "console-reset", login=False)
    await browser.get("/reset-password")
    bad = await browser.post("/reset-password", {"email": "nobody"})
    assert bad.status_code == 400 and "correct format" in bad.text
    sent = await browser.post("/reset-password", {"email": person.email})
    assert sent.status_code == 200 and "Check your e-mail" in sent.text
    unknown = await browser.post("/reset-password", {"email": unique_email("nobody")})
    assert unknown.status_code == 200 and "Check your e-mail" in unknown.text  # said the same way

    link = (await outbox_for(person.email, "reset"))["data"]["link"]
    await open_link(browser, link, console, "/reset-password/new")
    form = await browser.get("/reset-password/new")
    assert "12 characters or more" in form.text and form.headers["referrer-policy"] == "no-referrer"
    short = await browser.post("/reset-password/new", {"password": "short"})
    assert short.status_code == 400 and "Password must be 12 characters or more" in short.text
    new_password = "another long passphrase 9"
    done = await browser.post("/reset-password/new", {"password": new_password})
    assert done.status_code == 200 and "Password changed" in done.text

    assert (await browser.sign_in(person.email, PASSWORD)).status_code == 401
    assert (await browser.sign_in(person.email, new_password)).status_code == 303


async def test_an_invitation_declined_from_its_link_without_an_account(browser, identity, dashboard, console):
    owner, account = await owner_with_account(identity, dashboard, "console-inviter", "Declined Co")
    guest = unique_email("console-decliner")
    made = await dashboard.post(f"/api/tenants/{account['Id']}/invitations", json={"Email": guest, "Role": "member"},
                                headers=owner.auth)
    assert made.status_code == 201, made.text
    token = await invitation_token(guest)
    link = f"{console}/invitations/accept?token={token}"
    await open_link(browser, link, console, "/invitations/accept")
    landing = await browser.get("/invitations/accept")
    assert landing.status_code == 200 and "Join Declined Co on Herald" in landing.text
    assert "Create your account and join" in landing.text and "Decline the invitation" in landing.text
    assert token not in landing.text and landing.headers["referrer-policy"] == "no-referrer"

    declined = await browser.post("/invitations/decline")
    assert declined.status_code == 200 and "Invitation declined" in declined.text
    preview = await dashboard.get(f"/api/invitations/{token}/preview")
    assert preview.json()["Status"] == "declined"
    await open_link(browser, link, console, "/invitations/accept")
    after = await browser.get("/invitations/accept")
    assert "This invitation is declined" in after.text and "Decline the invitation" not in after.text


async def test_an_invitation_accepted_after_signing_in(browser, identity, dashboard, console):
    owner, account = await owner_with_account(identity, dashboard, "console-host", "Joined Co")
    guest = await signed_in_member(identity, dashboard, "console-joiner")
    made = await dashboard.post(f"/api/tenants/{account['Id']}/invitations",
                                json={"Email": guest.person.email, "Role": "admin"}, headers=owner.auth)
    assert made.status_code == 201
    link = f"{console}/invitations/accept?token={await invitation_token(guest.person.email)}"
    await open_link(browser, link, console, "/invitations/accept")
    landing = await browser.get("/invitations/accept")
    assert "Sign in to accept" in landing.text and "as <strong>admin</strong>" in landing.text
    signed = await browser.sign_in(guest.person.email, PASSWORD)
    assert signed.status_code == 303
    ready = await browser.get("/invitations/accept")
    assert "Accept and join Joined Co" in ready.text
    accepted = await browser.post("/invitations/accept")
    assert accepted.status_code == 303 and accepted.headers["location"] == f"/a/{account['Id']}"
    team = await browser.get(f"/a/{account['Id']}/team")
    assert team.status_code == 200 and guest.person.email in team.text


async def test_the_account_cancels_an_invitation_by_its_id(browser, identity, dashboard, console):
    owner, account = await owner_with_account(identity, dashboard, "console-canceller", "Cancel Co")
    guest = unique_email("console-cancelled")
    made = await dashboard.post(f"/api/tenants/{account['Id']}/invitations", json={"Email": guest},
                                headers=owner.auth)
    invitation_id = made.json()["Invitation"]["Id"]
    assert invitation_id.startswith("cvt_")
    await browser.sign_in(owner.person.email, PASSWORD)
    team = await browser.get(f"/a/{account['Id']}/team")
    action = f"/a/{account['Id']}/team/invitations/{invitation_id}/cancel"
    assert f'action="{action}"' in team.text
    cancelled = await browser.post(action)
    assert cancelled.status_code == 303
    assert guest not in (await browser.get(f"/a/{account['Id']}/team")).text
    preview = await dashboard.get(f"/api/invitations/{await invitation_token(guest)}/preview")
    assert preview.json()["Status"] == "revoked"
    # Another account's invitation id is a 404 from this account's page, like a missing one.
    other, other_account = await owner_with_account(identity, dashboard, "console-other", "Other Co")
    theirs = await dashboard.post(f"/api/tenants/{other_account['Id']}/invitations",
                                  json={"Email": unique_email("console-theirs")}, headers=other.auth)
    foreign = await browser.post(f"/a/{account['Id']}/team/invitations/{theirs.json()['Invitation']['Id']}/cancel")
    assert foreign.status_code == 404
