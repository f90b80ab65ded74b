"""In Chromium, against identity, platform, CRM, pages and console under their own host names: the
pages area's supporting screens. The brand set (a refused colour said beside its field); a PNG made
with Pillow uploaded and shown in the library from the pages system's public route; an image
imported from a local HTTP server, imported again (the duplicate said), and an address inside a
private network refused with the reason shown; a form with a consent checkbox and a CRM list as its
destination; a redirect and its clicks; the AI screen saying no provider is configured and offering
no form. axe-core on every page; each screen photographed at 1280 and 390 px (light and dark)."""

from __future__ import annotations

import contextlib
import http.server
import io
import secrets
import threading
from collections.abc import Iterator

import httpx
import pytest
from PIL import Image

from tests.console.test_journey_invitations import sign_in, verified_person
from tests.console.web import Visit
from tests.fixtures.identity import PASSWORD

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]


def png(color: tuple[int, int, int], size: tuple[int, int] = (96, 64)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="PNG")
    return buffer.getvalue()


@contextlib.contextmanager
def image_server(files: dict[str, bytes]) -> Iterator[str]:
    """A local HTTP server answering ``files`` by path (the pages system may reach loopback in tests:
    WEBHOOKS_ALLOW_LOOPBACK, on with HERALD_ENV=test)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # the standard library names the handler so
            body = files.get(self.path)
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(body or b"")))
            self.end_headers()
            self.wfile.write(body or b"")

        def log_message(self, *args):
            return None

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


async def owner_account(hosts, tag: str) -> tuple[object, str, dict]:
    """A verified person with an account; the session headers that act in it."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['identity']}", timeout=20) as auth:
        owner = await verified_person(auth, tag)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['platform']}", timeout=20) as api:
        signed = await api.post("/api/auth/login", json={"email": owner.email, "password": PASSWORD})
        bearer = {"Authorization": f"Bearer {signed.json()['Token']}"}
        account = (await api.post("/api/tenants", json={"Name": f"Site {secrets.token_hex(2)}"},
                                  headers=bearer)).json()["Id"]
    return owner, account, {**bearer, "X-Service-Tenant": account}


async def loaded(page, selector: str) -> bool:
    """Whether the image has really been drawn (its bytes came from the pages system)."""
    return await page.locator(selector).first.evaluate("image => image.complete && image.naturalWidth > 0")


async def test_brand_media_forms_redirects_and_ai(web: Visit, herald_hosts, services):
    page = web.page
    owner, account, acting = await owner_account(herald_hosts, "site-screens")
    crm = httpx.AsyncClient(base_url=f"http://127.0.0.1:{herald_hosts.ports['crm']}", timeout=20, headers=acting)
    pages = httpx.AsyncClient(base_url=f"http://127.0.0.1:{herald_hosts.ports['pages']}", timeout=20, headers=acting)
    made = await crm.post("/v1/listas", json={"nome": "Newsletter"})
    assert made.status_code == 201, made.text
    await sign_in(web, owner.email)

    # Brand: a colour that is not one refused beside its field, every value kept; then saved.
    await web.goto(f"/a/{account}/pages/brand")
    await web.heading("Brand")
    assert await page.get_by_role("link", name="Pages", exact=True).first.get_attribute("aria-current") == "page"
    await page.get_by_label("Logo URL").fill("https://example.com/logo.png")
    await page.get_by_label("Primary colour").fill("blue")
    await page.get_by_label("Secondary colour").fill("202124")
    await page.get_by_label("Font").fill("Inter")
    await page.get_by_role("button", name="Save brand").click()
    await page.locator("#primary-error").get_by_text("Enter the primary colour as # and six hexadecimal digits").wait_for()
    assert await page.get_by_label("Font").input_value() == "Inter"
    await web.check("site-brand-error")
    await page.get_by_label("Primary colour").fill("#1A73E8")
    await page.get_by_role("button", name="Save brand").click()
    await page.get_by_text("Brand saved.").wait_for()
    assert (await pages.get("/v1/configuracoes/marca")).json()["Marca"] == {
        "LogoUrl": "https://example.com/logo.png", "PrimaryColor": "#1a73e8", "SecondaryColor": "#202124", "Font": "Inter"}
    await web.check("site-brand")
    # An empty field deletes that element.
    await page.get_by_label("Font").fill("")
    await page.get_by_role("button", name="Save brand").click()
    await page.get_by_text("Brand saved.").wait_for()
    assert (await pages.get("/v1/configuracoes/marca")).json()["Marca"]["Font"] is None

    # Media: an upload, shown from the pages system's public route.
    await page.get_by_role("link", name="Media", exact=True).click()
    await web.heading("Media")
    await web.check("site-media-empty")
    await page.get_by_label("Image file").set_input_files(files=[{
        "name": "hero.png", "mimeType": "image/png", "buffer": png((26, 115, 232))}])
    await page.get_by_role("button", name="Upload", exact=True).click()
    await page.get_by_text("Image added to the library.").wait_for()
    hero = page.get_by_role("img", name="hero.png")
    assert await hero.get_attribute("src") == (
        herald_hosts.url("pages") + (await pages.get("/v1/midias")).json()["Midias"][0]["Url"])
    await page.wait_for_function("() => [...document.images].every(image => image.complete)")
    assert await loaded(page, "img[alt='hero.png']")

    # Import from an address, again (a duplicate: nothing added), and an address inside a private network.
    with image_server({"/photo.png": png((240, 160, 20), (120, 80))}) as origin:
        await page.get_by_label("Image address").fill(f"{origin}/photo.png")
        await page.get_by_role("button", name="Import", exact=True).click()
        await page.get_by_text("Image imported into the library.").wait_for()
        await page.wait_for_function("() => [...document.images].every(image => image.complete)")
        assert await loaded(page, f"img[alt='{origin}/photo.png']")
        await web.check("site-media")
        await page.get_by_label("Image address").fill(f"{origin}/photo.png")
        await page.get_by_role("button", name="Import", exact=True).click()
        await page.get_by_text("The library already has this image: nothing was added.").wait_for()
        await page.get_by_text("Already in the library").wait_for()
    assert len((await pages.get("/v1/midias")).json()["Midias"]) == 2
    await page.get_by_label("Image address").fill("https://169.254.169.254/latest/meta-data")
    await page.get_by_role("button", name="Import", exact=True).click()
    await page.locator("#url-error").get_by_text(
        "Herald cannot fetch this address: points at a forbidden address: link-local addresses").wait_for()
    await page.locator(".error-summary").wait_for()
    assert await page.get_by_label("Image address").input_value() == "https://169.254.169.254/latest/meta-data"
    await web.check("site-media-refused")

    # A form with a consent checkbox whose submissions join the CRM list.
    await page.get_by_role("link", name="Forms", exact=True).click()
    await web.heading("Forms")
    await web.check("site-forms-empty")
    await page.get_by_role("link", name="New form").click()
    await web.heading("New form")
    await page.get_by_label("Form name").fill("Spring newsletter")
    assert await page.locator("#field-0-name").input_value() == "email"
    await page.locator("#field-1-name").fill("name")
    await page.locator("#field-1-label").fill("Your name")
    await page.get_by_label("Consent checkbox text").fill("I agree to receive e-mails from Site.")
    await page.get_by_label("Also add the contact to the list").select_option("newsletter")
    await page.get_by_label("Thank-you message").fill("Thanks, we will be in touch.")
    await web.check("site-form-new")
    await page.get_by_role("button", name="Create form").click()
    await page.get_by_text("Form created.").wait_for()
    await web.heading("Spring newsletter")
    form = (await pages.get("/v1/formularios")).json()["Formularios"][0]
    assert form["Consent"] == {"Text": "I agree to receive e-mails from Site.", "Required": True}
    assert form["Destination"] == {"CrmList": "newsletter"}
    assert [(item["Name"], item["Type"], item["Required"]) for item in form["Fields"]] == [
        ("email", "email", True), ("name", "text", False)]
    await web.check("site-form")
    await page.get_by_role("link", name="Back to forms").click()
    await page.get_by_role("link", name="Spring newsletter").wait_for()
    await web.check("site-forms")

    # A redirect, then the runtime's flush of its clicks (the internal route it calls), seen on its page.
    await page.get_by_role("link", name="Redirects", exact=True).click()
    await web.heading("Redirects")
    await page.get_by_role("link", name="New redirect").click()
    await page.get_by_label("Domain").fill("go.example.com")
    await page.get_by_label("Slug").fill("spring")
    await page.get_by_label("Target address").fill("https://shop.example.com/spring")
    await web.check("site-redirect-new")
    await page.get_by_role("button", name="Create redirect").click()
    await page.get_by_text("Redirect created.").wait_for()
    await web.heading("go.example.com/r/spring")
    redirect_id = page.url.rsplit("/", 1)[-1].split("?")[0]
    assert await page.locator(".big-number").inner_text() == "0"
    flushed = await pages.post("/internal/v1/redirects/cliques",
                               headers={"Authorization": f"Bearer {services.env['SERVICE_TOKEN']}"},
                               json={"Deltas": [{"RedirectId": redirect_id, "Count": 7}]})
    assert flushed.status_code == 200, flushed.text
    await page.reload()
    assert await page.locator(".big-number").inner_text() == "7"
    await web.check("site-redirect")
    await page.get_by_role("link", name="Back to redirects").click()
    await page.get_by_role("link", name="go.example.com/r/spring").wait_for()
    await web.check("site-redirects")

    # AI generation without a provider: said plainly, no form to fill.
    await web.goto(f"/a/{account}/pages/generate")
    await web.heading("Generate a page")
    await page.get_by_role("heading", name="AI page generation is not set up on this Herald").wait_for()
    assert await page.locator("main textarea").count() == 0
    assert await page.locator("main form").count() == 0
    await web.check("site-ai-off")
    await crm.aclose()
    await pages.aclose()
