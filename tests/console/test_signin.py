"""Signing in and out of the console over HTTP: the cookie, CSRF, next, the second factor, the
headers of every page, and the person's address forwarded to the identity server."""

from __future__ import annotations


from tests.console.conftest import owner_with_account
from tests.fixtures.identity import PASSWORD, make_person


async def test_sign_in_sets_the_console_cookie_and_lands_on_the_account(browser, identity, dashboard):
    owner, account = await owner_with_account(identity, dashboard, "console-owner", "Console Co")
    page = await browser.get("/sign-in")
    assert page.status_code == 200 and "<h1>Sign in to Herald</h1>" in page.text
    csp = page.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe" not in csp
    assert page.headers["x-content-type-options"] == "nosniff"

    signed = await browser.post("/sign-in", {"email": owner.person.email, "password": PASSWORD})
    assert signed.status_code == 303 and signed.headers["location"] == "/"
    [line] = [c for c in signed.headers.get_list("set-cookie") if c.startswith("herald_console=")]
    assert "HttpOnly" in line and "SameSite=Lax" in line and "herald_session" not in line

    home = await browser.get("/")
    assert home.status_code == 303 and home.headers["location"] == f"/a/{account['Id']}"
    steps = await browser.get(home.headers["location"])
    assert steps.status_code == 200
    assert "Console Co" in steps.text and "First steps" in steps.text and "sandbox.herald.test" in steps.text
    assert "Create a test key" in steps.text


async def test_a_wrong_password_keeps_the_address_and_says_what_to_do(browser, identity):
    person = await make_person(identity, "console-wrong", login=False)
    await browser.get("/sign-in")
    answer = await browser.post("/sign-in", {"email": person.email, "password": "not the password"})
    assert answer.status_code == 401
    assert "<title>Error: " in answer.text and "There is a problem" in answer.text
    assert f'value="{person.email}"' in answer.text and "not the password" not in answer.text


async def test_empty_fields_are_named(browser):
    await browser.get("/sign-in")
    answer = await browser.post("/sign-in", {"email": "", "password": ""})
    assert answer.status_code == 400
    assert 'href="#email">Enter your e-mail address' in answer.text and 'href="#password">Enter your password' in answer.text


async def test_writes_need_the_csrf_token_and_the_console_origin(browser, identity):
    person = await make_person(identity, "console-csrf", login=False)
    await browser.get("/sign-in")
    forged = await browser.post("/sign-in", {"email": person.email, "password": PASSWORD}, csrf="forged")
    assert forged.status_code == 403 and "herald_console=" not in str(forged.headers.get_list("set-cookie"))
    other = await browser.post("/sign-in", {"email": person.email, "password": PASSWORD},
                               headers={"Origin": "https://evil.example"})
    assert other.status_code == 403
    missing = await browser.http.post("/sign-in", data={"email": person.email, "password": PASSWORD})
    assert missing.status_code == 403
    # Origin: null (a no-referrer page's form in Chromium) counts with Sec-Fetch-Site: same-origin, and
    # over plain http (no Sec-Fetch-* there) on the CSRF token alone.
    for site, expected in (("cross-site", 403), ("same-site", 403), (None, 303), ("same-origin", 303)):
        await browser.get("/sign-in")
        headers = {"Origin": "null", **({"Sec-Fetch-Site": site} if site else {})}
        answer = await browser.post("/sign-in", {"email": person.email, "password": PASSWORD}, headers=headers)
        assert answer.status_code == expected, site


async def test_next_is_only_a_relative_path(browser, identity):
    person = await make_person(identity, "console-next", login=False)
    for target, expected in (("/accounts", "/accounts"), ("//evil.example/x", "/"), ("https://evil.example", "/"),
                             ("/\\evil.example", "/")):
        await browser.get("/sign-in")
        answer = await browser.post("/sign-in", {"email": person.email, "password": PASSWORD, "next": target})
        assert answer.status_code == 303 and answer.headers["location"] == expected, target


async def test_pages_need_a_session_and_say_when_it_ended(browser, identity):
    answer = await browser.get("/accounts")
    assert answer.status_code == 303 and answer.headers["location"] == "/sign-in?next=/accounts"
    browser.http.cookies.set("herald_console", "not-a-session")
    ended = await browser.get("/accounts")
    assert ended.status_code == 303 and ended.headers["location"].startswith("/sign-in?ended=1")
    page = await browser.get(ended.headers["location"])
    assert "Your session has ended" in page.text
    fragment = await browser.get("/accounts", headers={"HX-Request": "true"})
    assert fragment.status_code == 204 and fragment.headers["hx-redirect"].startswith("/sign-in")


async def test_second_factor_then_sign_out(browser, identity, dashboard, app_code_person):
    person = app_code_person  # the app on, its step made older: its next code needs no wait
    await browser.get("/sign-in")
    first = await browser.post("/sign-in", {"email": person.email, "password": PASSWORD})
    assert first.status_code == 303 and first.headers["location"] == "/sign-in/code"
    assert not any(c.startswith("herald_console=") for c in first.headers.get_list("set-cookie"))
    form = await browser.get("/sign-in/code")
    assert "authenticator app" in form.text and "ticket" not in form.text.lower()
    wrong = await browser.post("/sign-in/code", {"use": "totp", "code": "000000"})
    assert wrong.status_code == 401 and "The code is not right" in wrong.text
    right = await browser.post("/sign-in/code", {"use": "totp", "code": person.code()})
    assert right.status_code == 303, right.text
    assert (await browser.get("/me")).status_code == 200
    out = await browser.post("/sign-out")
    assert out.status_code == 303 and out.headers["location"] == "/signed-out"
    assert (await browser.get("/me")).status_code == 303


async def test_the_person_address_reaches_the_session_record(browser, identity, dashboard):
    """The console forwards the person's address next to the service credential; the platform
    believes it from the console and passes it on, so the session records 127.0.0.1 (the test's
    browser), and a forged header from anyone else is ignored."""
    person = await make_person(identity, "console-ip", login=False)
    await browser.sign_in(person.email, PASSWORD)
    page = await browser.get("/me")
    assert page.status_code == 200 and "Current session" in page.text and "<code>127.0.0.1</code>" in page.text
    forged = await dashboard.post("/api/auth/login", json={"email": person.email, "password": PASSWORD},
                                  headers={"X-Service-Client-Ip": "203.0.113.9", "X-Service-Token": "guess"})
    assert forged.status_code == 200
    page = await browser.get("/me")
    assert "203.0.113.9" not in page.text


async def test_errors_are_pages_for_people(browser):
    await browser.get("/sign-in")
    # A query parameter the page does not take: the factory's refusal, as a page.
    odd = await browser.get("/sign-in?surprise=1")
    assert odd.status_code == 422 and odd.headers["content-type"].startswith("text/html"), odd.text
    assert "<h1>Herald cannot take this request</h1>" in odd.text and "surprise" in odd.text
    missing = await browser.get("/no-such-page")
    assert missing.status_code == 404 and "<h1>Page not found</h1>" in missing.text
    meta = await browser.get("/healthz")
    assert meta.headers["content-type"].startswith("application/json")  # the meta routes keep JSON
