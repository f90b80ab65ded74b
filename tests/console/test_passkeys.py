"""Passkeys in the console over HTTP, with a software authenticator at the console's origin: added
on the profile (named; listed "never used"), used to sign in (then "last used"), removed; the
options need the page's CSRF token; another person's passkey is the same 404 as a missing one;
a browser answer that is not a credential is refused with words, not a 500."""

from __future__ import annotations

import json
import re

from tests.fixtures.authenticator import MiniAuthenticator
from tests.fixtures.identity import PASSWORD, make_person

PASSKEY_ID = re.compile(r'action="/me/passkeys/(pky_[0-9a-f]+)/remove"')


async def options(browser, path: str, csrf: str | None = None):
    return await browser.http.post(path, headers={"Origin": str(browser.http.base_url).rstrip("/"),
                                                  "X-CSRF-Token": browser.csrf if csrf is None else csrf})


async def add_passkey(browser, origin: str, name: str) -> MiniAuthenticator:
    await browser.get("/me")
    started = await options(browser, "/me/passkeys/options")
    assert started.status_code == 200, started.text
    device = MiniAuthenticator()
    credential = device.create(started.json()["options"], origin)
    added = await browser.post("/me/passkeys", {"challenge": started.json()["challenge"],
                                                "credential": json.dumps(credential), "passkey_name": name})
    assert added.status_code == 200 and f"Passkey “{name}” added" in added.text, added.text
    return device


async def test_add_a_passkey_sign_in_with_it_and_remove_it(browser, another_browser, identity, console):
    person = await make_person(identity, "console-passkey")
    await browser.sign_in(person.email, PASSWORD)
    page = await browser.get("/me")
    assert "<h2 id=\"passkeys\">Passkeys</h2>" in page.text and "No passkey is set up." in page.text
    assert 'data-passkey="register"' in page.text and "js/passkey.js" in page.text
    refused = await options(browser, "/me/passkeys/options", csrf="forged")
    assert refused.status_code == 403

    device = await add_passkey(browser, console, "Work laptop")
    listed = await browser.get("/me")
    assert "<strong>Work laptop</strong>" in listed.text and "never used" in listed.text
    assert "Add a second passkey on another device as a backup" in listed.text
    passkey_id = PASSKEY_ID.search(listed.text).group(1)

    signin = await another_browser.get("/sign-in")
    assert 'data-passkey="sign-in"' in signin.text and "Sign in with a passkey" in signin.text
    started = await options(another_browser, "/sign-in/passkey/options")
    assert started.status_code == 200, started.text
    assertion = device.get(started.json()["options"], console)
    signed = await another_browser.post("/sign-in/passkey", {"challenge": started.json()["challenge"],
                                                             "credential": json.dumps(assertion), "next": "/me"})
    assert signed.status_code == 303 and signed.headers["location"] == "/me", signed.text
    profile = await another_browser.get("/me")
    assert person.email in profile.text and "last used" in profile.text and "never used" not in profile.text
    replayed = await another_browser.post("/sign-in/passkey", {"challenge": started.json()["challenge"],
                                                               "credential": json.dumps(assertion)})
    assert replayed.status_code == 401 and "That took too long" in replayed.text

    removed = await browser.post(f"/me/passkeys/{passkey_id}/remove")
    assert removed.status_code == 303 and removed.headers["location"] == "/me"
    assert "No passkey is set up." in (await browser.get("/me")).text


async def test_another_persons_passkey_and_a_broken_answer(browser, another_browser, identity, console):
    owner = await make_person(identity, "console-passkey-owner")
    other = await make_person(identity, "console-passkey-other")
    await browser.sign_in(owner.email, PASSWORD)
    await add_passkey(browser, console, "Phone")
    passkey_id = PASSKEY_ID.search((await browser.get("/me")).text).group(1)

    await another_browser.sign_in(other.email, PASSWORD)
    await another_browser.get("/me")
    foreign = await another_browser.post(f"/me/passkeys/{passkey_id}/remove")
    missing = await another_browser.post("/me/passkeys/pky_000000000000000000000000/remove")
    assert foreign.status_code == missing.status_code == 404
    assert "<strong>Phone</strong>" in (await browser.get("/me")).text

    broken = await another_browser.post("/me/passkeys", {"challenge": "pkc_x", "credential": "{not json",
                                                         "passkey_name": "Tablet"})
    assert broken.status_code == 400 and "Your browser did not make a passkey" in broken.text
    assert 'value="Tablet"' in broken.text  # what the person typed is kept
    await another_browser.get("/sign-in")
    stranger = await another_browser.post("/sign-in/passkey", {"challenge": "pkc_x", "credential": "[]"})
    assert stranger.status_code == 400 and "did not answer with a passkey" in stranger.text


async def test_confirm_it_is_you_with_a_passkey(browser, identity, console):
    from tortoise import connections

    person = await make_person(identity, "console-passkey-confirm")
    await browser.sign_in(person.email, PASSWORD)
    device = await add_passkey(browser, console, "Desk key")
    passkey_id = PASSKEY_ID.search((await browser.get("/me")).text).group(1)
    # Signed in 11 minutes ago: removing a passkey now needs a fresh proof.
    await connections.get("identity").execute_query(
        "UPDATE sessions SET created_at = created_at - interval '11 minutes', "
        "reauthenticated_at = reauthenticated_at - interval '11 minutes' "
        "WHERE user_id = (SELECT id FROM users WHERE email_key = $1)", [person.email.casefold()])
    asked = await browser.post(f"/me/passkeys/{passkey_id}/remove")
    assert asked.status_code == 403 and "<h1>Confirm it is you</h1>" in asked.text
    assert 'data-passkey="confirm"' in asked.text and "Confirm with a passkey" in asked.text

    started = await options(browser, "/me/confirm/passkey/options")
    assert started.status_code == 200, started.text
    broken = await browser.post("/me/confirm", {"method": "passkey", "challenge": started.json()["challenge"],
                                                "credential": "nothing", "next": "/me"})
    assert broken.status_code == 400 and "did not answer with a passkey" in broken.text
    answer = device.get(started.json()["options"], console)
    done = await browser.post("/me/confirm", {"method": "passkey", "challenge": started.json()["challenge"],
                                              "credential": json.dumps(answer), "next": "/me"})
    assert done.status_code == 303 and done.headers["location"] == "/me?confirmed=1", done.text
    await browser.get("/me")
    removed = await browser.post(f"/me/passkeys/{passkey_id}/remove")
    assert removed.status_code == 303, removed.text
    assert "No passkey is set up." in (await browser.get("/me")).text


async def test_a_passkey_is_renamed_from_its_row(browser, another_browser, identity, console):
    owner = await make_person(identity, "console-passkey-rename")
    other = await make_person(identity, "console-passkey-rename-other")
    await browser.sign_in(owner.email, PASSWORD)
    await add_passkey(browser, console, "Phone")
    page = await browser.get("/me")
    passkey_id = PASSKEY_ID.search(page.text).group(1)
    assert f'action="/me/passkeys/{passkey_id}/rename"' in page.text and 'value="Phone"' in page.text
    assert "<summary>Rename<span class=\"visually-hidden\"> Phone</span></summary>" in page.text

    renamed = await browser.post(f"/me/passkeys/{passkey_id}/rename", {"name": "  Pixel 9 "})
    assert renamed.status_code == 200 and "Passkey renamed “Pixel 9”." in renamed.text, renamed.text
    assert "<strong>Pixel 9</strong>" in renamed.text and "<strong>Phone</strong>" not in renamed.text
    blank = await browser.post(f"/me/passkeys/{passkey_id}/rename", {"name": "   "})
    assert blank.status_code == 400 and "Enter a name for the passkey" in blank.text
    forged = await browser.post(f"/me/passkeys/{passkey_id}/rename", {"name": "Forged"}, csrf="forged")
    assert forged.status_code == 403

    await another_browser.sign_in(other.email, PASSWORD)
    await another_browser.get("/me")
    foreign = await another_browser.post(f"/me/passkeys/{passkey_id}/rename", {"name": "Mine now"})
    assert foreign.status_code == 404
    assert "<strong>Pixel 9</strong>" in (await browser.get("/me")).text
