"""Heatmaps and session replays in Chromium, against identity, platform, pages, runtime and console
under their own host names and a real stream consumer (``herald consume``): a page published through
the pages API with a REMOTE image (https://remote.example.test, a local server counting requests),
visited in a real browser whose pixel records the visit (rrweb) and its clicks; then, in the console,
the heatmap drawn over the recorded page and the replay played, both in frames of the runtime's
origin; the remote server gets no request while they are shown, and neither frame is the console's
origin nor runs the recorded page's scripts. axe-core on every page; each screen photographed."""

from __future__ import annotations

import datetime
import ipaddress
import secrets
import ssl
import threading
from collections.abc import AsyncIterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import httpx
import pytest

from tests.console.test_journey_invitations import sign_in, verified_person
from tests.console.web import HOSTS, Visit, internal_env, visiting
from tests.fixtures.harness import Process
from tests.fixtures.identity import PASSWORD
from tests.runtime.conftest import BROWSER, eventually

pytestmark = [pytest.mark.timeout(420), pytest.mark.slow]
REMOTE = "remote.example.test"
# A 1x1 PNG.
PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                    "0000000d49444154789c6360f8cfc0f01f0005000201a0f3a2d00000000049454e44ae426082")


class RemoteImages:
    """An https server for ``remote.example.test`` (a self-signed certificate Chromium is told to
    accept) that counts every request it gets."""

    def __init__(self, directory) -> None:
        self.requests: list[str] = []
        seen = self.requests

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # the http.server API names it
                seen.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(PNG)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(PNG)

            def log_message(self, *args) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*_certificate(directory))
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _certificate(directory):
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, REMOTE)])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName(REMOTE),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


@pytest.fixture(scope="module")
def replay_hosts(herald_hosts, services, tmp_path_factory):
    """The run's browser stack (pages verifying domains on the test's DNS server), a stream consumer of
    the module's own writing /collect and /replay batches, and the remote image server (the browser maps
    ``*.example.test`` here and accepts its certificate)."""
    env = internal_env(services, herald_hosts)
    consumer = Process("consumer", ["consume", "--batch", "50", "--claim-idle-ms", "1000"], env,
                       tmp_path_factory.mktemp("replay-consumer"))
    remote = RemoteImages(tmp_path_factory.mktemp("remote-tls"))
    try:
        yield herald_hosts, remote
    finally:
        remote.close()
        consumer.stop()


@pytest.fixture
async def web(chromium_browser, replay_hosts) -> AsyncIterator[Visit]:
    hosts, _ = replay_hosts
    async with visiting(chromium_browser, hosts) as visit:
        yield visit


async def until(frame, expression: str, seconds: float = 20) -> None:
    """Polls ``expression`` in ``frame`` until it is true. Not Playwright's wait_for_function: while
    it polls, that evaluates its predicate as a string, which the viewer's CSP (no eval) refuses."""
    async def holds() -> bool:
        return bool(await frame.evaluate(expression))
    await eventually(holds, seconds=seconds, what=f"{expression} in {frame.url[:60]}")


async def _published_site(hosts, dns, owner) -> tuple[str, str, dict]:
    """An account of ``owner`` with a verified host, a replay-recording pixel for it and a page
    published there with a remote image: (account id, host, the owner's headers in the account)."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['platform']}", timeout=20) as api:
        signed = await api.post("/api/auth/login", json={"email": owner.email, "password": PASSWORD})
        bearer = {"Authorization": f"Bearer {signed.json()['Token']}"}
        made = await api.post("/api/tenants", json={"Name": f"Replay {secrets.token_hex(2)}"}, headers=bearer)
        assert made.status_code == 201, made.text
    account = made.json()["Id"]
    headers = {**bearer, "X-Service-Tenant": account}
    host = f"site-{secrets.token_hex(4)}.example.com"
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['pages']}", timeout=20) as pages:
        domain = (await pages.post("/v1/dominios", headers=headers, json={"Name": host})).json()["Dominio"]
        dns.publish(domain["Record"]["Name"], "TXT", domain["Record"]["Value"])
        assert (await pages.post(f"/v1/dominios/{domain['Id']}/verificar", headers=headers)).status_code == 200
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['runtime']}", timeout=20) as runtime:
            pixel = await runtime.post("/v1/pixels", headers=headers,
                                       json={"Name": "Site", "Site": host, "Replay": True})
            assert pixel.status_code == 201, pixel.text
        return account, host, headers


async def _publish(hosts, headers, host: str, image: str) -> None:
    blocks = [{"Type": "heading", "Text": "Spring offer", "Level": 1},
              {"Type": "image", "Url": image, "Alt": "A remote picture"},
              *({"Type": "text", "Text": f"Paragraph {n}: " + "the offer in words " * 25} for n in range(6)),
              {"Type": "button", "Label": "Buy now", "Url": "#buy"}]
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['pages']}", timeout=20) as pages:
        made = await pages.post("/v1/paginas", headers=headers,
                                json={"Title": "Spring offer", "Slug": "offer", "Domain": host, "Blocks": blocks})
        assert made.status_code == 201, made.text
        done = await pages.post(f"/v1/paginas/{made.json()['Pagina']['Id']}/publicar", headers=headers)
        assert done.status_code == 200, done.text


async def test_heatmap_and_replay_play_from_the_runtime_origin_and_load_nothing_remote(
        web: Visit, replay_hosts, chromium_browser, dns_server):  # noqa: F811
    hosts, remote = replay_hosts
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['identity']}", timeout=20) as auth:
        owner = await verified_person(auth, "replay-owner")
    account, host, headers = await _published_site(hosts, dns_server, owner)
    await _publish(hosts, headers, host, f"https://{REMOTE}:{remote.port}/x.png")

    # A visitor, in a browser of their own: the page, its remote image, clicks and a scroll.
    visitor = await chromium_browser.new_context(user_agent=BROWSER, viewport={"width": 1280, "height": 800})
    tab = await visitor.new_page()
    await tab.goto(f"http://{host}:{hosts.ports['runtime']}/offer")
    await until(tab, "window.rrweb && document.querySelector('img').complete", 20)
    assert remote.requests, "the visitor's browser loads the remote image"
    await tab.get_by_role("heading", name="Spring offer").click()
    await tab.get_by_role("link", name="Buy now").click()
    await tab.mouse.wheel(0, 900)
    await tab.wait_for_timeout(6_000)  # the recorder ships its batch every 5 s
    await tab.close()  # pagehide: what is left goes out
    await visitor.close()

    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{hosts.ports['runtime']}", timeout=20) as runtime:
        async def recorded() -> bool:
            sessions = (await runtime.get("/v1/replay/sessions", headers=headers)).json().get("Sessions", [])
            heat = (await runtime.get("/v1/analytics/heatmap", headers=headers, params={"pagina": "/offer"})).json()
            return bool(sessions) and sessions[0]["Events"] >= 2 and heat["Heatmap"]["TotalClicks"] >= 2
        await eventually(recorded, seconds=60, what="the recorded visit and its clicks")

    before = len(remote.requests)
    await sign_in(web, owner.email)
    page = web.page
    console_origin = hosts.url("console")

    # The heatmap: the page as the visitor saw it, from the runtime's origin, the clicks over it.
    shown = await web.goto(f"/a/{account}/analytics/heatmaps")
    await web.heading("Heatmaps")
    assert shown.headers["referrer-policy"] == "no-referrer"
    assert shown.headers["content-security-policy"].endswith(f"; frame-src {hosts.url('runtime')}")
    assert await page.locator("select#pagina").input_value() == "/offer"
    frame_element = page.locator("iframe.heatmap-frame")
    assert await frame_element.get_attribute("sandbox") == "allow-scripts allow-same-origin"
    assert await frame_element.get_attribute("referrerpolicy") == "no-referrer"
    heat = await (await frame_element.element_handle()).content_frame()
    assert urlsplit(heat.url).netloc == f"{HOSTS['runtime']}:{hosts.ports['runtime']}"
    await until(heat, "document.body.dataset.state === 'drawn'", 20)
    assert int(await heat.evaluate("document.body.dataset.cells")) >= 2
    drawn = heat.child_frames[0]  # rrweb's own frame: the recorded page, without scripts
    assert await drawn.evaluate("document.querySelector('h1').textContent") == "Spring offer"
    assert REMOTE in await drawn.evaluate("document.querySelector('img').getAttribute('src')")
    assert "allow-scripts" not in await heat.evaluate("document.querySelector('iframe').getAttribute('sandbox')")
    assert await page.evaluate("() => { try { return document.querySelector('iframe').contentDocument === null }"
                               " catch (e) { return true } }"), "the console cannot reach into the frame"
    await web.check("analytics-heatmap")

    # The replays: the list, then one played to its end.
    await web.goto(f"/a/{account}/analytics/replays", "analytics-replays")
    await web.heading("Session replays")
    row = page.locator("table.replays tbody tr").first
    assert "/offer" in await row.inner_text() and "Desktop" in await row.inner_text()
    await row.get_by_role("link", name="Play").click()
    await web.heading("Replay of a visit")
    player_element = page.locator("iframe.replay-frame")
    assert await player_element.get_attribute("sandbox") == "allow-scripts allow-same-origin"
    player = await (await player_element.element_handle()).content_frame()
    assert urlsplit(player.url).netloc != urlsplit(console_origin).netloc
    assert urlsplit(player.url).netloc == f"{HOSTS['runtime']}:{hosts.ports['runtime']}"
    await until(player, "document.body.dataset.state === 'ready'", 20)
    await player.get_by_role("button", name="Play").click()
    await until(player, "['playing', 'finished'].includes(document.body.dataset.state)")
    await player.select_option("#speed", "8")
    await until(player, "document.body.dataset.state === 'finished'", 60)
    played, length = (await player.evaluate("document.getElementById('clock').textContent")).split(" / ")
    assert played == length, "at the end the position is the recording's length"
    recorded_page = player.child_frames[0]
    assert await recorded_page.evaluate("document.querySelector('h1').textContent") == "Spring offer"
    assert REMOTE in await recorded_page.evaluate("document.querySelector('img').getAttribute('src')")
    assert "allow-scripts" not in await player.evaluate("document.querySelector('iframe').getAttribute('sandbox')")
    await web.check("analytics-replay")
    missing = await page.goto(f"/a/{account}/analytics/replays/nosuchsession0")
    assert missing.status == 404

    assert len(remote.requests) == before, f"the remote host was asked {remote.requests[before:]} while shown"
