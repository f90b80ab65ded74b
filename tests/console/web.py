"""The console in a real browser: Playwright for Python driving Debian's Chromium (never a
downloaded browser: ``executable_path=/usr/bin/chromium``; ``make browser`` installs it).

The identity server, the platform and the console run as ``herald serve`` under host names of
their own, as a person meets them: ``console.herald.test``, ``api.herald.test`` and
``auth.herald.test`` (their public ``<SYSTEM>_URL``), which Chromium resolves to 127.0.0.1 with
``--host-resolver-rules``; between themselves they call 127.0.0.1 (``<SYSTEM>_INTERNAL_URL``). So
the e-mailed links open ``http://console.herald.test:<port>/...``, and a cookie, an origin check or
a SameSite rule scoped to the wrong host fails here. Passkeys: the relying party is ``herald.test``
(``WEBAUTHN_RP_ID``, a registrable suffix of all three hosts), and Chromium treats the plain-http
console as a secure context (``--unsafely-treat-insecure-origin-as-secure``, as an https console
is), since WebAuthn exists only there; :func:`virtual_authenticator` is Chromium's, over CDP.

:func:`launch_chromium` is the one launcher of every browser test (the console's, the published
page's in tests/runtime/test_browser.py, web push's in tests/platform/test_push_browser.py).

Chromium missing: the browser tests skip, saying why; with ``HERALD_REQUIRE_BROWSER=1`` (CI) they
fail instead. Every page a journey visits goes through :func:`Visit.check`: axe-core (vendored in
``tests/vendor/axe-core``, injected into the page) must find no serious or critical violation;
given a name, the page is also photographed at 1280 and 390 px wide into ``var/screens/``.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
from dataclasses import dataclass
from typing import AsyncIterator, Iterator

import pytest

from tests.fixtures.harness import ROOT, Process, Server, free_port

CHROMIUM = "/usr/bin/chromium"
HOSTS = {"console": "console.herald.test", "platform": "api.herald.test", "identity": "auth.herald.test",
         "crm": "crm.herald.test", "pages": "pages.herald.test", "runtime": "sites.herald.test"}
SYSTEMS = tuple(HOSTS)  # every system, as the run's one stack (tests/console/conftest.py) runs them
AXE = ROOT / "tests" / "vendor" / "axe-core" / "axe.min.js"
SCREENS = ROOT / "var" / "screens"
WIDTHS = (1280, 390)
# Photographs are for people looking at the screens: HERALD_SCREENS=light takes light ones only, and
# HERALD_SCREENS=none (CI, where nobody looks) none at all; the axe checks at both widths run either way.
SCHEMES = {"none": (), "light": ("light",)}.get(os.environ.get("HERALD_SCREENS", ""), ("light", "dark"))
# Chromium's flags for a headless run in a container, with nothing fetched from the network.
FLAGS = ("--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--no-default-browser-check")


def chromium_or_skip() -> str:
    """The Chromium binary; a skip saying why when it is missing, a failure under HERALD_REQUIRE_BROWSER=1."""
    binary = CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")
    problem = None
    if binary is None:
        problem = f"no Chromium: {CHROMIUM} is missing (run `make browser` as root to install Debian's chromium)"
    else:
        try:
            import playwright  # noqa: F401
        except ImportError:
            problem = "Playwright for Python is not installed (`make install-test` installs the test extra)"
    if problem is None:
        return binary
    if os.environ.get("HERALD_REQUIRE_BROWSER") == "1":
        pytest.fail(f"HERALD_REQUIRE_BROWSER=1 but the browser tests cannot run: {problem}", pytrace=False)
    pytest.skip(problem)


@dataclass
class Hosts:
    """The three systems under their own host names: each one's public URL (``url("console")``)."""

    ports: dict[str, int]

    def url(self, system: str) -> str:
        return f"http://{HOSTS[system]}:{self.ports[system]}"


class _Unwaited(Server):
    """A server started without waiting, so the fixture stops it even when it never answers."""

    def wait(self, seconds: float = 30) -> None:
        return None


@contextlib.contextmanager
def hosts_running(services, tmp_path_factory, systems: tuple[str, ...] = SYSTEMS, **extra_env: str) -> Iterator[Hosts]:
    """Identity, platform and console under console/api/auth.herald.test (the run's databases), and
    the others of ``systems`` (the CRM at crm.herald.test), with ``extra_env`` (``DNS_NAMESERVERS``...)
    added to all; stopped on leaving."""
    hosts = Hosts({system: free_port() for system in HOSTS if system in systems})
    env = {**services.env, "WEBAUTHN_RP_ID": "herald.test", **extra_env}
    for system, port in hosts.ports.items():
        env[f"{system.upper()}_PORT"] = str(port)
        env[f"{system.upper()}_URL"] = hosts.url(system)
        env[f"{system.upper()}_INTERNAL_URL"] = f"http://127.0.0.1:{port}"
    log_dir = tmp_path_factory.mktemp("herald-hosts")
    started: list[Server] = []
    try:
        # All started at once, then waited for: no system needs another at start-up (they call each
        # other per request), so the stack is up in the time of its slowest system, not their sum.
        for system in systems:
            started.append(_Unwaited(system, env, log_dir, hosts.ports[system]))
        for server in started:
            Server.wait(server, 90)  # a busy machine starts slowly; a failed start is still stopped
        yield hosts
    finally:
        for server in started:
            server.stop()


def internal_env(services, hosts: Hosts, **extra: str) -> dict[str, str]:
    """The run's settings with every system of ``hosts`` reached at its internal URL, for the roles a
    module runs beside its hosts (a worker, a scheduler, a stream consumer), and ``extra``."""
    return {**services.env, **{f"{system.upper()}_INTERNAL_URL": f"http://127.0.0.1:{port}"
                               for system, port in hosts.ports.items()}, **extra}


@contextlib.contextmanager
def roles_running(env: dict[str, str], log_dir, **roles: list[str]) -> Iterator[list[Process]]:
    """``herald <argv>`` for each role named (``worker=["worker", "--processes", "1"]``), with ``env``;
    stopped on leaving."""
    started: list[Process] = []
    try:
        for name, argv in roles.items():
            started.append(Process(name, argv, env, log_dir))
        yield started
    finally:
        for role in started:
            role.stop()


def resolver_rules(*extra_hosts: str) -> str:
    """Chromium's flag resolving the systems' host names (and ``extra_hosts``: a page's own domain) locally."""
    return "--host-resolver-rules=" + ", ".join(f"MAP {host} 127.0.0.1" for host in (*HOSTS.values(), *extra_hosts))


@contextlib.asynccontextmanager
async def visiting(browser, hosts: Hosts, *, timeout_ms: int = 20_000) -> AsyncIterator["Visit"]:
    """A fresh browser profile (its own cookies) on the console of ``hosts``, 1280 px wide."""
    context = await browser.new_context(base_url=hosts.url("console"), viewport={"width": 1280, "height": 800})
    context.set_default_timeout(timeout_ms)
    page = await context.new_page()
    try:
        yield Visit(page, hosts)
    finally:
        await context.close()


@contextlib.asynccontextmanager
async def launch_chromium(*flags: str):
    """The one way the tests start a browser: Playwright driving Debian's Chromium, headless, with
    the container's :data:`FLAGS` and ``flags`` (``--host-resolver-rules=...``); the Playwright
    ``Browser``, closed on exit. Skips saying why (fails under HERALD_REQUIRE_BROWSER=1) when Chromium
    or Playwright is missing. What Playwright has no API for goes over its own CDP session
    (``context.new_cdp_session(page)``)."""
    binary = chromium_or_skip()
    from playwright.async_api import async_playwright

    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=binary, headless=True, args=[*FLAGS, *flags])
        try:
            yield browser
        finally:
            await browser.close()


class Visit:
    """A person's tab on the console: every page checked with axe-core, named pages photographed."""

    def __init__(self, page, hosts: Hosts):
        self.page = page
        self.hosts = hosts
        self.checked: list[str] = []

    async def goto(self, path_or_url: str, name: str | None = None):
        answer = await self.page.goto(path_or_url)
        await self.check(name)
        return answer

    async def heading(self, expected: str) -> None:
        """Waits for the page's ``h1`` to read ``expected``; fails showing what the page says instead."""
        try:
            await self.page.get_by_role("heading", name=expected, level=1).wait_for(timeout=10_000)
        except Exception:
            main = await self.page.locator("main").inner_text() if await self.page.locator("main").count() else ""
            raise AssertionError(f"{self.page.url}: expected the heading {expected!r}; the page says: {main[:600]}")

    async def check(self, name: str | None = None) -> None:
        """axe-core on the page as it is now (no serious or critical violation); photographed when named."""
        await self.page.wait_for_load_state("load")
        violations = await axe(self.page)
        assert not violations, f"{self.page.url}: {violations}"
        self.checked.append(self.page.url)
        if name:
            await photograph(self.page, name)


async def virtual_authenticator(page, *, verified: bool = True):
    """Chromium's virtual platform authenticator (CTAP2, resident keys, user verification), which
    answers WebAuthn ceremonies on ``page``'s tab as a laptop's fingerprint reader would:
    ``(cdp, authenticator_id)``. ``verified=False``: the person fails the check (NotAllowedError)."""
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("WebAuthn.enable")
    added = await cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": verified, "automaticPresenceSimulation": True}})
    return cdp, added["authenticatorId"]


@functools.cache
def AXE_SOURCE() -> str:
    return AXE.read_text() + "\n;undefined"


async def axe(page) -> list[dict]:
    """The serious and critical WCAG 2 A/AA violations axe-core finds on the page."""
    if not await page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated over the DevTools protocol, not added as a <script>: the console's CSP (rightly)
        # refuses inline scripts, and a test must not loosen it (no bypass_csp).
        await page.evaluate(AXE_SOURCE())
    found = await page.evaluate(
        "async () => (await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa']}}))"
        ".violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}))")
    return [v for v in found if v["impact"] in ("serious", "critical")]


async def photograph(page, name: str) -> None:
    """``var/screens/<name>-1280.png`` and ``-390.png`` (full page), and each in dark (``-dark``), as
    HERALD_SCREENS allows (:data:`SCHEMES`); axe-core runs again at 390 px."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    original = page.viewport_size
    try:
        for width in WIDTHS:
            await page.set_viewport_size({"width": width, "height": 800})
            if width != original["width"]:  # what scrolls or hides on a phone is checked there too
                violations = await axe(page)
                assert not violations, f"{page.url} at {width} px: {violations}"
            for scheme in SCHEMES:
                await page.emulate_media(color_scheme=scheme)
                suffix = "" if scheme == "light" else "-dark"
                await page.screenshot(path=str(SCREENS / f"{name}-{width}{suffix}.png"), full_page=True,
                                      animations="disabled")
    finally:
        await page.emulate_media(color_scheme="light")
        await page.set_viewport_size(original)

