"""A passkey in Chromium, end to end, under the console's own host name: a person adds one on
their profile with Chromium's virtual authenticator (over CDP), signs out, fails a ceremony
(the check of the person refused), signs in with the passkey, sees it "last used" and, once the
sign-in is 11 minutes old, removes it after confirming it is them with that same passkey.
Every page passes axe-core; the named ones are photographed into var/screens/."""

from __future__ import annotations

import re
from typing import AsyncIterator

import httpx
import pytest
from tortoise import connections

from tests.console.web import Visit, virtual_authenticator
from tests.fixtures.identity import PASSWORD, make_person

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]


@pytest.fixture
async def auth(herald_hosts) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{herald_hosts.ports['identity']}", timeout=20) as http:
        yield http


def path(web: Visit) -> str:
    return re.sub(r"^https?://[^/]+", "", web.page.url)


async def test_add_a_passkey_sign_out_sign_in_with_it_and_remove_it(web: Visit, auth):
    person = await make_person(auth, "journey-passkey")
    page = web.page
    page.on("dialog", lambda dialog: dialog.accept())  # "Stop using ...?" (data-confirm)
    cdp, authenticator = await virtual_authenticator(page)

    await web.goto("/sign-in")
    await page.get_by_label("E-mail address").fill(person.email)
    await page.get_by_label("Password").fill(PASSWORD)
    await page.get_by_role("button", name="Sign in", exact=True).click()
    await page.wait_for_load_state("load")
    await web.goto("/me")
    assert "No passkey is set up." in await page.content()
    await page.get_by_label("Name of the new passkey").fill("This laptop")
    await page.get_by_role("button", name="Add a passkey").click()
    await page.get_by_text("Passkey “This laptop” added").wait_for()
    await page.get_by_text("never used").wait_for()
    await web.check("profile-passkeys")
    stored = await cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert len(stored["credentials"]) == 1 and stored["credentials"][0]["rpId"] == "herald.test"

    await page.get_by_role("button", name="Sign out", exact=True).click()
    await page.wait_for_load_state("load")
    await web.goto("/sign-in?next=/me")
    await cdp.send("WebAuthn.setUserVerified", {"authenticatorId": authenticator, "isUserVerified": False})
    await page.get_by_role("button", name="Sign in with a passkey").click()
    await page.get_by_text("No passkey was used. Try again when you are ready.").wait_for()
    assert path(web).startswith("/sign-in")
    await web.check("sign-in-passkey-refused")

    await cdp.send("WebAuthn.setUserVerified", {"authenticatorId": authenticator, "isUserVerified": True})
    await page.get_by_role("button", name="Sign in with a passkey").click()
    await web.heading("Your profile and security")
    assert path(web) == "/me"
    await page.get_by_text("last used").wait_for()
    await web.check()

    # Signed in 11 minutes ago: removing the passkey asks to confirm, and the passkey itself confirms.
    await connections.get("identity").execute_query(
        "UPDATE sessions SET created_at = created_at - interval '11 minutes', "
        "reauthenticated_at = reauthenticated_at - interval '11 minutes' "
        "WHERE user_id = (SELECT id FROM users WHERE email_key = $1)", [person.email.casefold()])
    await page.get_by_role("button", name="Remove This laptop").click()
    await web.heading("Confirm it is you")
    await web.check("confirm-passkey")
    await page.get_by_role("button", name="Confirm with a passkey").click()
    await page.get_by_text("You confirmed it is you").wait_for()
    assert path(web) == "/me?confirmed=1"
    await page.get_by_role("button", name="Remove This laptop").click()
    await page.get_by_text("No passkey is set up.").wait_for()
    await web.check()
