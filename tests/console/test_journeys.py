"""A person's journeys through the console in Chromium, under the console's, the platform's and the
identity server's own host names (tests/console/web.py): sign-up, the e-mailed verification link,
sign-in, an API key shown once, sign-out; sign-in with an authenticator app; a password reset from
the e-mailed link; an invitation accepted from the e-mailed link. Every page visited passes axe-core
(no serious or critical violation) and the named ones are photographed into var/screens/."""

from __future__ import annotations

import re
from typing import AsyncIterator

import httpx
import pytest

from tests.console.web import Visit
from tests.fixtures.dashboard import invitation_text, outbox_for
from tests.fixtures.identity import PASSWORD, enable_totp, make_person, unique_email

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
async def auth(herald_hosts) -> AsyncIterator[httpx.AsyncClient]:
    """The identity server of the browser's hosts, called directly (people made for a journey)."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{herald_hosts.ports['identity']}", timeout=20) as http:
        yield http


async def verified_person(auth: httpx.AsyncClient, tag: str):
    person = await make_person(auth, tag)
    token = (await outbox_for(person.email, "verify"))["data"]["token"]
    assert (await auth.post("/v1/auth/verify", json={"token": token})).status_code == 200
    return person


async def sign_in(web: Visit, email: str, password: str = PASSWORD, name: str | None = None) -> None:
    await web.goto("/sign-in", name)
    await web.page.get_by_label("E-mail address").fill(email)
    await web.page.get_by_label("Password").fill(password)
    await web.page.get_by_role("button", name="Sign in", exact=True).click()
    await web.page.wait_for_load_state("load")


def path(web: Visit) -> str:
    return re.sub(r"^https?://[^/]+", "", web.page.url)


async def test_sign_up_verify_sign_in_create_a_key_and_sign_out(web: Visit):
    page = web.page
    email = unique_email("journey")
    await web.goto("/sign-up", "sign-up")
    await page.get_by_role("button", name="Create account").click()
    await page.wait_for_load_state("load")
    assert await page.title() == "Error: Create your Herald account – Herald"
    await web.check("sign-up-errors")
    await page.get_by_label("Your name").fill("Journey Person")
    await page.get_by_label("E-mail address").fill(email)
    await page.get_by_label("Password").fill(PASSWORD)
    await page.get_by_label("Account name").fill(f"Journey {email[8:18]}")
    await page.get_by_role("button", name="Create account").click()
    await web.heading("Check your e-mail")
    await web.check("sign-up-done")

    link = (await outbox_for(email, "verify"))["data"]["link"]
    assert link.startswith(web.hosts.url("console") + "/verify-email?token=")
    await web.goto(link, "verify-email")
    assert path(web) == "/verify-email"  # the token is out of the address bar
    await page.get_by_role("button", name="Verify my address").click()
    await web.heading("Address verified")
    await web.check("verified")

    await sign_in(web, email, name="sign-in")
    assert re.fullmatch(r"/a/acc_\w+", path(web)), page.url
    await web.heading(f"Journey {email[8:18]}")
    await page.get_by_role("heading", name="First steps").wait_for()
    await web.check("first-steps")

    await page.get_by_role("link", name="API keys").click()
    await page.wait_for_load_state("load")
    await web.check("keys-empty")
    await page.get_by_label("Name", exact=True).fill("Journey server")
    await page.get_by_role("button", name="Create key").click()
    secret = page.locator("#copy-key")
    await secret.wait_for()
    plaintext = (await secret.inner_text()).strip()
    assert len(plaintext) > 20 and "This is the only time Herald shows it" in await page.content()
    await web.check("key-created")
    await page.goto(path(web))
    await page.get_by_role("cell", name="Journey server", exact=True).wait_for()
    assert plaintext not in await page.content()  # shown once
    assert "never used" in await page.content()
    await web.check("keys")
    account = path(web).rsplit("/keys", 1)[0]
    await web.goto(account + "/sub-accounts", "sub-accounts")
    await web.goto("/accounts", "accounts")
    missing = await web.goto("/a/acc_000000000000000000000000", "not-found")
    assert missing.status == 404

    await page.get_by_role("button", name="Sign out").click()
    await page.wait_for_load_state("load")
    await web.check("signed-out")
    await page.goto("/accounts")
    assert path(web) == "/sign-in?next=/accounts"


async def test_sign_in_with_an_authenticator_app(web: Visit, auth):
    person = await verified_person(auth, "journey-totp")
    await enable_totp(auth, person)
    page = web.page
    await sign_in(web, person.email)
    assert path(web).startswith("/sign-in/code"), page.url
    await web.check("sign-in-code")
    await page.get_by_label("Code", exact=True).fill("000000")
    await page.get_by_role("button", name="Continue").click()
    await page.get_by_text("There is a problem").wait_for()
    await web.check("sign-in-code-error")
    await page.get_by_label("Code", exact=True).fill(person.code())
    await page.get_by_role("button", name="Continue").click()
    await page.wait_for_load_state("load")
    assert path(web) == "/accounts", page.url
    await web.check("accounts-none")
    await page.goto("/me")
    await web.heading("Your profile and security")
    await web.check("profile")
    await web.goto("/me/confirm?next=/me", "confirm")
    await web.heading("Confirm it is you")


async def test_reset_the_password_from_the_emailed_link(web: Visit, auth):
    person = await verified_person(auth, "journey-reset")
    page = web.page
    await web.goto("/reset-password", "reset-request")
    await page.get_by_label("E-mail address").fill(person.email)
    await page.get_by_role("button", name="Send the link").click()
    await web.heading("Check your e-mail")
    await web.check("reset-sent")

    link = (await outbox_for(person.email, "reset"))["data"]["link"]
    assert link.startswith(web.hosts.url("console") + "/reset-password?token=")
    await web.goto(link, "reset-new")
    assert path(web) == "/reset-password/new"
    new_password = "a brand new passphrase 7"
    await page.get_by_label("New password").fill(new_password)
    await page.get_by_role("button", name="Change password").click()
    await web.heading("Password changed")
    await web.check("reset-done")

    await sign_in(web, person.email, PASSWORD)
    await page.get_by_text("There is a problem").wait_for()
    await web.check("sign-in-error")
    await page.get_by_label("Password").fill(new_password)
    await page.get_by_role("button", name="Sign in", exact=True).click()
    await page.wait_for_load_state("load")
    assert path(web) == "/accounts"


async def test_accept_an_invitation_from_the_emailed_link(web: Visit, chromium_browser, herald_hosts, auth):
    owner = await verified_person(auth, "journey-owner")
    guest = await verified_person(auth, "journey-guest")
    page = web.page
    await sign_in(web, owner.email)
    await page.get_by_label("Account name").fill("Invite Journey")
    await page.get_by_role("button", name="Create account").click()
    await page.wait_for_load_state("load")
    assert re.fullmatch(r"/a/acc_\w+", path(web)), page.url
    account_path = path(web)
    await page.get_by_role("link", name="Team").click()
    await page.wait_for_load_state("load")
    await web.check("team")
    await page.get_by_label("E-mail address").fill(guest.email)
    await page.locator("input[name=role][value=member]").check()
    await page.get_by_role("button", name="Send invitation").click()
    await page.wait_for_load_state("load")
    await page.get_by_role("button", name=f"Cancel the invitation to {guest.email}").wait_for()
    await web.check("team-invited")

    text = await invitation_text(guest.email)  # from the sink once the shared pipeline delivered (and purged) it
    link = re.search(r"(http://\S+/invitations/accept\?token=inv_[A-Za-z0-9_-]+)", text).group(1)
    assert link.startswith(herald_hosts.url("console"))

    context = await chromium_browser.new_context(base_url=herald_hosts.url("console"),
                                                 viewport={"width": 1280, "height": 800})
    try:
        guest_web = Visit(await context.new_page(), herald_hosts)
        guest_page = guest_web.page
        await guest_web.goto(link, "invitation")
        assert path(guest_web) == "/invitations/accept"
        await guest_web.heading("Join Invite Journey on Herald")
        await guest_page.get_by_role("link", name="Sign in to accept").first.click()
        await guest_page.wait_for_load_state("load")
        await guest_page.get_by_label("E-mail address").fill(guest.email)
        await guest_page.get_by_label("Password").fill(PASSWORD)
        await guest_page.get_by_role("button", name="Sign in", exact=True).click()
        await guest_page.get_by_role("button", name="Accept and join Invite Journey").wait_for()
        await guest_web.check("invitation-signed-in")
        await guest_page.get_by_role("button", name="Accept and join Invite Journey").click()
        await guest_page.wait_for_load_state("load")
        assert path(guest_web) == account_path
        await guest_web.check()
    finally:
        await context.close()

    await page.goto(account_path + "/team")
    members = page.get_by_role("table").filter(has_text=guest.email)
    await members.wait_for()
    assert "member" in (await members.inner_text()).lower()
