"""In Chromium: an e-mail composed in the console reaches ``Sent`` in the list without a reload
(htmx polling every 2 s), and its HTML, with a remote image, is shown in the sandboxed frame
without the image ever being fetched (a local HTTPS server counts the requests) until the person
switches images on; then the overview's chart drawn by uPlot under the strict CSP. axe-core on every
page; the compose, list, message and overview pages photographed. A template written, previewed
(htmx, the HTML in a sandboxed srcdoc frame) and saved."""

from __future__ import annotations

import secrets
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

import pytest

from tests.console.test_journey_invitations import sign_in, verified_person
from tests.console.web import Visit
from tests.fixtures.polling import until
from tests.fixtures.platform import verify_domain
from tests.fixtures.provider_servers import self_signed
from tests.console.test_journey_invitations import api, auth  # noqa: F401 (fixtures)
from tests.fixtures.identity import PASSWORD

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000" "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


class Pixels:
    """An HTTPS server answering a 1x1 PNG: how many times a browser asked for it."""

    def __init__(self, directory):
        self.requests: list[str] = []
        cert, key = self_signed(directory)
        seen = self.requests

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                seen.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(PNG)))
                self.end_headers()
                self.wfile.write(PNG)

            def log_message(self, *args):
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.url = f"https://127.0.0.1:{self.server.server_address[1]}/pixel.png"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def pixels(tmp_path) -> Iterator[Pixels]:
    found = Pixels(tmp_path)
    yield found
    found.server.shutdown()
    found.server.server_close()


@pytest.fixture
async def visit(chromium_browser, herald_hosts):
    # The pixel server's certificate is its own: this profile takes it (else no image could load at all).
    context = await chromium_browser.new_context(base_url=herald_hosts.url("console"), ignore_https_errors=True,
                                                 viewport={"width": 1280, "height": 800})
    context.set_default_timeout(15_000)
    try:
        yield Visit(await context.new_page(), herald_hosts)
    finally:
        await context.close()


async def test_compose_an_email_see_it_sent_and_its_remote_image_stay_unfetched(visit: Visit, auth, api, pixels,
                                                                                 pipeline):
    page = visit.page
    owner = await verified_person(auth, "journey-messages")
    signed = await api.post("/api/auth/login", json={"email": owner.email, "password": PASSWORD})
    made = await api.post("/api/tenants", json={"Name": f"Mail Journey {secrets.token_hex(2)}"},
                          headers={"Authorization": f"Bearer {signed.json()['Token']}"})
    account = made.json()["Id"]
    await verify_domain(account, "journey-mail.example")
    await sign_in(visit, owner.email)

    await visit.goto(f"/a/{account}/compose", "compose")
    await page.get_by_label("To", exact=True).fill("reader@example.com")
    await page.get_by_label("From", exact=True).fill("News <news@journey-mail.example>")
    await page.get_by_label("Subject").fill("Our news")
    await page.get_by_label("Text", exact=True).fill("Our news, in text")
    await page.get_by_label("HTML", exact=True).fill(
        f'<h1>Our news</h1><p><a href="https://example.com/read">Read more</a></p><img src="{pixels.url}" alt="pixel">')
    await page.get_by_role("button", name="Send").click()
    await page.get_by_text("Sent to Herald").wait_for()
    await visit.check("compose-sent")

    await page.get_by_role("link", name="All messages").click()
    await visit.heading("Messages")
    await visit.check("messages")
    await page.evaluate("() => { window.notReloaded = true; }")
    row = page.locator("#message-list tbody tr").filter(has_text="reader@example.com")
    await row.locator(".badge.status-sent").wait_for(timeout=90_000)  # htmx polling, no reload
    assert await page.evaluate("() => window.notReloaded === true")

    await row.get_by_role("link", name="reader@example.com").click()
    await visit.heading("Our news")
    await visit.check("message")
    await page.get_by_role("link", name="HTML", exact=True).click()
    frame = page.frame_locator("iframe.message-html")
    await frame.get_by_role("heading", name="Our news").wait_for()
    await visit.check("message-html")
    await page.wait_for_timeout(1500)  # time the image would have taken to be asked for
    assert pixels.requests == [], "a remote image was fetched with images off"

    await page.get_by_role("link", name="Show images").click()
    await page.frame_locator("iframe.message-html").get_by_role("heading", name="Our news").wait_for()
    await until(lambda: _fetched(pixels), seconds=30, what="the image fetched once images are on", every=0.2)

    # The overview: the numbers, and the chart uPlot draws under the strict CSP (no violation reported).
    refused: list[str] = []
    page.on("console", lambda entry: refused.append(entry.text) if "Content Security Policy" in entry.text else None)
    await page.get_by_role("link", name="Overview", exact=True).click()
    await visit.heading("Overview")
    await page.locator("#traffic-chart canvas").wait_for()
    await visit.check("overview")
    assert refused == []


async def _fetched(pixels: Pixels) -> bool:
    return "/pixel.png" in pixels.requests


async def test_a_template_written_previewed_and_saved(visit: Visit, auth, api):
    page = visit.page
    owner = await verified_person(auth, "journey-templates")
    signed = await api.post("/api/auth/login", json={"email": owner.email, "password": PASSWORD})
    made = await api.post("/api/tenants", json={"Name": f"Template Journey {secrets.token_hex(2)}"},
                          headers={"Authorization": f"Bearer {signed.json()['Token']}"})
    account = made.json()["Id"]
    await sign_in(visit, owner.email)
    await visit.goto(f"/a/{account}/templates", "templates-empty")
    await page.get_by_role("link", name="New template").click()
    await visit.heading("New template")
    await page.get_by_label("Slug").fill("welcome")
    await page.get_by_label("Subject").fill("Welcome, {{ name }}")
    await page.get_by_label("HTML", exact=True).fill("<h1>Hello {{ name }}</h1>")
    await page.get_by_label("Variables to preview with").fill("name: Ana")
    await page.get_by_role("button", name="Preview").click()  # htmx: the preview alone, the form kept
    await page.frame_locator("#preview iframe").get_by_role("heading", name="Hello Ana").wait_for()
    assert await page.get_by_label("Slug").input_value() == "welcome"
    await visit.check("template-preview")
    await page.get_by_role("button", name="Save template").click()
    await page.get_by_text("Template saved.").wait_for()
    await page.get_by_role("link", name="Back to templates").click()
    await page.get_by_role("link", name="welcome").first.wait_for()
    await visit.check("templates")
