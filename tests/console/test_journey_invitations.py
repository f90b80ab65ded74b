"""Journeys in Chromium for what the console added around invitations and two-factor: sign-up
from an invitation's e-mailed link (the form names the account joined); the navigation's badge
of waiting invitations leading to "Your invitations", accepted there; the authenticator set-up
with its QR code, turned on with the app's code (pyotp). axe-core on every page; the named ones
photographed into var/screens/."""

from __future__ import annotations

import re
import secrets
from typing import AsyncIterator

import httpx
import pyotp
import pytest

from tests.console.web import Visit
from tests.fixtures.dashboard import outbox_for
from tests.fixtures.identity import PASSWORD, make_person, unique_email

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]


@pytest.fixture
async def auth(herald_hosts) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{herald_hosts.ports['identity']}", timeout=20) as http:
        yield http


@pytest.fixture
async def api(herald_hosts) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{herald_hosts.ports['platform']}", timeout=20) as http:
        yield http


async def verified_person(auth: httpx.AsyncClient, tag: str):
    person = await make_person(auth, tag)
    token = (await outbox_for(person.email, "verify"))["data"]["token"]
    assert (await auth.post("/v1/auth/verify", json={"token": token})).status_code == 200
    return person


async def account_inviting(api: httpx.AsyncClient, owner, name: str, guest: str) -> str:
    """An account of ``owner`` (made through the platform's API) that invites ``guest``: its id."""
    signed = await api.post("/api/auth/login", json={"email": owner.email, "password": PASSWORD})
    headers = {"Authorization": f"Bearer {signed.json()['Token']}"}
    made = await api.post("/api/tenants", json={"Name": name}, headers=headers)
    assert made.status_code == 201, made.text
    invited = await api.post(f"/api/tenants/{made.json()['Id']}/invitations", json={"Email": guest, "Role": "member"},
                             headers=headers)
    assert invited.status_code == 201, invited.text
    return made.json()["Id"]


async def invitation_link(address: str) -> str:
    from models.platform import Message

    message = await Message.filter(recipient=address.casefold(), channel="email").order_by("-id").first()
    return re.search(r"(http://\S+/invitations/accept\?token=inv_[A-Za-z0-9_-]+)", message.content["Text"]).group(1)


async def sign_in(web: Visit, email: str) -> None:
    await web.goto("/sign-in")
    await web.page.get_by_label("E-mail address").fill(email)
    await web.page.get_by_label("Password").fill(PASSWORD)
    await web.page.get_by_role("button", name="Sign in", exact=True).click()
    await web.page.wait_for_load_state("load")


async def test_sign_up_from_an_invitation_and_accept_one_from_the_badge(web: Visit, auth, api):
    page = web.page
    owner = await verified_person(auth, "journey-inviter")
    name = f"Invited Signup {secrets.token_hex(2)}"
    guest = unique_email("journey-invited")
    await account_inviting(api, owner, name, guest)
    await web.goto(await invitation_link(guest))
    await web.heading(f"Join {name} on Herald")
    await page.get_by_role("link", name="Create your account and join").click()
    await web.heading(f"Join {name} on Herald")
    await web.check("sign-up-invited")
    await page.get_by_label("Your name").fill("Invited Person")
    await page.get_by_label("Password").fill(PASSWORD)
    await page.get_by_role("button", name=f"Create my account and join {name}").click()
    await web.heading("Check your e-mail")
    assert "you joined the account that invited you" in await page.content()

    member = await verified_person(auth, "journey-badge")
    other = f"Badge Journey {secrets.token_hex(2)}"
    account_id = await account_inviting(api, owner, other, member.email)
    await sign_in(web, member.email)
    badge = page.locator("a.invitations .badge.count")
    await badge.wait_for()
    assert (await badge.inner_text()).startswith("1")
    await page.get_by_role("link", name=re.compile(r"^Invitations")).click()
    await web.heading("Your invitations")
    await web.check("invitations")
    await page.get_by_role("button", name=f"Accept and join {other}").click()
    await page.wait_for_load_state("load")
    assert page.url.endswith(f"/a/{account_id}"), page.url
    assert await page.locator("a.invitations .badge.count").count() == 0
    await web.check()


async def test_turn_on_the_authenticator_app_from_its_qr_code(web: Visit, auth):
    page = web.page
    person = await verified_person(auth, "journey-qr")
    await sign_in(web, person.email)
    await web.goto("/me")
    await page.get_by_label("Your password").fill(PASSWORD)
    await page.get_by_role("button", name="Set up an authenticator app").click()
    qr = page.get_by_role("img", name="QR code of your authenticator key")
    await qr.wait_for()
    assert (await qr.bounding_box())["width"] >= 150  # big enough to scan from a screen
    await web.check("two-factor-setup")
    secret = (await page.locator("#copy-secret-key").inner_text()).strip()
    await page.get_by_label("Code from the app").fill(pyotp.TOTP(secret).now())
    await page.get_by_role("button", name="Turn on two-factor sign-in").click()
    await page.get_by_text("Two-factor sign-in is on.").wait_for()
    assert await page.locator("#recovery-codes li").count() == 10
    await web.check("recovery-codes")


async def test_sub_accounts_created_and_one_moved_under_another(web: Visit, auth, api):
    page = web.page
    owner = await verified_person(auth, "journey-tree")
    name = f"Tree Journey {secrets.token_hex(2)}"
    signed = await api.post("/api/auth/login", json={"email": owner.email, "password": PASSWORD})
    made = await api.post("/api/tenants", json={"Name": name},
                          headers={"Authorization": f"Bearer {signed.json()['Token']}"})
    assert made.status_code == 201, made.text
    await sign_in(web, owner.email)
    await web.goto(f"/a/{made.json()['Id']}/sub-accounts")
    for child, quota in (("Europe", "10,000"), ("Portugal", "")):
        await page.get_by_label("Name", exact=True).fill(child)
        await page.get_by_label("Monthly quota (optional)").fill(quota)
        await page.get_by_role("button", name="Create sub-account").click()
        await page.get_by_role("link", name=child, exact=True).wait_for()
    await web.check("sub-accounts-two")
    await page.get_by_label("Move Portugal under").select_option(label="Europe")
    await page.get_by_role("button", name="Move Portugal", exact=True).click()
    await page.get_by_text("(1 below)").wait_for()
    await web.check("sub-accounts-moved")
    assert await page.get_by_role("link", name="Portugal", exact=True).count() == 0
    await page.get_by_role("link", name="Europe", exact=True).click()
    await page.wait_for_load_state("load")
    await web.goto(page.url.rstrip("/") + "/sub-accounts")
    await page.get_by_role("link", name="Portugal", exact=True).wait_for()
