"""My profile and security over HTTP: a write the platform answers with ``ReauthRequired`` shows
the confirmation page, confirmed with an e-mailed code, then the write works (new recovery codes,
shown once); e-mail addresses added, their link sent again and removed; the authenticator app
turned off with the password; security events and devices in words."""

from __future__ import annotations

import re

from tests.fixtures.dashboard import outbox_for
from tests.fixtures.identity import PASSWORD, enable_totp, make_person

EMAIL_ID = re.compile(r'name="email_id" value="([^"]+)"')


async def verified(identity, tag: str):
    person = await make_person(identity, tag)
    token = (await outbox_for(person.email, "verify"))["data"]["token"]
    assert (await identity.post("/v1/auth/verify", json={"token": token})).status_code == 200
    return person


async def test_new_recovery_codes_ask_to_confirm_it_is_you_first(browser, identity, console):
    person = await verified(identity, "console-reauth")
    await enable_totp(identity, person)
    await browser.get("/sign-in")
    await browser.post("/sign-in", {"email": person.email, "password": PASSWORD})
    signed = await browser.post("/sign-in/code", {"use": "recovery", "code": person.recovery_codes[0]})
    assert signed.status_code == 303, signed.text
    await browser.get("/me")
    # Signed in with a recovery code: new recovery codes need an app code's or an e-mailed code's proof.
    asked = await browser.post("/me/recovery-codes")
    assert asked.status_code == 403 and "<h1>Confirm it is you</h1>" in asked.text
    assert "Confirm with the app" in asked.text and "E-mail a code to" in asked.text
    assert "Confirm with my password" not in asked.text  # a password does not prove a second factor
    wrong_app = await browser.post("/me/confirm", {"method": "totp", "code-totp": "000000", "next": "/me"})
    assert wrong_app.status_code == 401 and "That is not right" in wrong_app.text
    email_id = EMAIL_ID.search(asked.text).group(1)

    sent = await browser.post("/me/confirm", {"method": "email_otp", "email_id": email_id, "next": "/me"})
    assert sent.status_code == 200 and "Code we e-mailed to" in sent.text
    code = (await outbox_for(person.email, "2fa_code"))["data"]["code"]
    wrong = await browser.post("/me/confirm", {"method": "email_otp", "code-email_otp": "000000" if code != "000000"
                                               else "111111", "next": "/me"})
    assert wrong.status_code == 401 and "That is not right" in wrong.text
    done = await browser.post("/me/confirm", {"method": "email_otp", "code-email_otp": code, "next": "//evil.example"})
    assert done.status_code == 303 and done.headers["location"] == "/me?confirmed=1"  # next stays on the console
    assert "You confirmed it is you" in (await browser.get(done.headers["location"])).text

    codes = await browser.post("/me/recovery-codes")
    assert codes.status_code == 200 and "The earlier ones no longer work" in codes.text
    shown = re.findall(r"<li>([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})</li>", codes.text)
    assert len(shown) == 10
    again = await browser.get("/me")
    assert not any(code in again.text for code in shown)  # shown once


async def test_email_addresses_added_resent_and_removed(browser, identity):
    person = await verified(identity, "console-addresses")
    await browser.sign_in(person.email, PASSWORD)
    await browser.get("/me")
    bad = await browser.post("/me/emails", {"new_email": "not an address"})
    assert bad.status_code == 400 and "correct format" in bad.text and 'value="not an address"' in bad.text
    backup = f"backup-{person.email}"
    added = await browser.post("/me/emails", {"new_email": backup})
    assert added.status_code == 200 and f"We sent a link to {backup}" in added.text, added.text
    page = await browser.get("/me")
    assert backup in page.text and "not verified" in page.text
    backup_id = re.search(r'action="/me/emails/([^/"]+)/resend"', page.text).group(1)
    resent = await browser.post(f"/me/emails/{backup_id}/resend")
    assert resent.status_code == 200 and "We sent the verification link again" in resent.text
    removed = await browser.post(f"/me/emails/{backup_id}/remove")
    assert removed.status_code == 303
    assert backup not in (await browser.get("/me")).text
    assert (await browser.post("/me/emails/eml_nothing/remove")).status_code == 404


async def test_turn_off_the_authenticator_app_and_read_the_trail(browser, identity, app_code_person):
    person = app_code_person  # the app on, its step made older: its next code needs no wait
    await browser.get("/sign-in")
    await browser.post("/sign-in", {"email": person.email, "password": PASSWORD})
    signed = await browser.post("/sign-in/code", {"use": "totp", "code": person.code()})
    assert signed.status_code == 303
    page = await browser.get("/me")
    assert "On: an authenticator app" in page.text and "Turn off the authenticator app" in page.text
    assert "Authenticator app turned on" in page.text and "totp_enabled" not in page.text
    wrong = await browser.post("/me/two-factor/disable", {"disable_password": "not the password"})
    assert wrong.status_code >= 400 and "The password is not right" in wrong.text
    off = await browser.post("/me/two-factor/disable", {"disable_password": PASSWORD})
    assert off.status_code == 200 and "Two-factor sign-in is off" in off.text, off.text
    assert "Set up an authenticator app" in off.text


async def test_authenticator_set_up_shows_a_qr_code_and_the_key_as_text(browser, identity):
    import html

    import pyotp

    from app.console import qr

    person = await make_person(identity, "console-totp-qr")
    await browser.sign_in(person.email, PASSWORD)
    await browser.get("/me")
    setup = await browser.post("/me/two-factor/setup", {"password": PASSWORD})
    assert setup.status_code == 200, setup.text
    secret = re.search(r'id="copy-secret-key">([A-Z2-7]+)</code>', setup.text).group(1)
    link = html.unescape(re.search(r'<a href="(otpauth://[^"]+)"', setup.text).group(1))
    assert f"secret={secret}" in link
    drawn = re.search(r'<svg role="img" aria-label="QR code of your authenticator key".*?</svg>', setup.text, re.S)
    assert drawn and drawn.group(0) == str(qr.svg(link, "QR code of your authenticator key"))  # the link's code
    assert "<script" not in drawn.group(0) and 'viewBox="0 0' in drawn.group(0)
    on = await browser.post("/me/two-factor/verify", {"code": pyotp.TOTP(secret).now()})
    assert on.status_code == 200 and "Two-factor sign-in is on." in on.text, on.text
    assert len(re.findall(r"<li>([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})</li>", on.text)) == 10
