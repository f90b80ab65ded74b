"""Sending domains on the console over HTTP: added (the form keeps what was typed when refused),
the records to publish with a copy button per cell, checked against the tests' DNS server (the
exact record missing named, each record's own status, then verified), removed; a member reads
but does not change; another account's domain and account answer 404.

The console here calls a platform of its own that resolves DNS through the loopback server
(``DNS_NAMESERVERS``), like tests/mail/conftest.py's; both share the run's identity server and
databases."""

from __future__ import annotations

import html
import re
import secrets
from typing import AsyncIterator

import httpx
import pytest

from tests.console.conftest import Browser, owner_with_account
from tests.fixtures.dashboard import join, signed_in_member
from tests.fixtures.harness import Server, free_port
from tests.fixtures.identity import PASSWORD
from tests.fixtures.polling import until


@pytest.fixture(scope="module")
def dns_console(services, servers, dns_server, tmp_path_factory) -> AsyncIterator[str]:  # noqa: F811
    """A platform resolving through the loopback DNS server, and a console calling it."""
    servers("identity")
    log_dir = tmp_path_factory.mktemp("domain-servers")
    platform = Server("platform", {**services.env, "DNS_NAMESERVERS": dns_server.address}, log_dir)
    try:
        port = free_port()  # the console's own origin, which its writes must come from
        console = Server("console", {**services.env, "PLATFORM_INTERNAL_URL": platform.url,
                                     "CONSOLE_URL": f"http://127.0.0.1:{port}"}, log_dir, port=port)
    except Exception:
        platform.stop()
        raise
    yield console.url
    console.stop()
    platform.stop()


@pytest.fixture
async def person_browser(dns_console) -> AsyncIterator[Browser]:
    async with httpx.AsyncClient(base_url=dns_console, timeout=30) as http:
        yield Browser(http)


def publish(dns_server, page: str, purposes=("spf", "dkim")) -> None:  # noqa: F811
    """Publishes the records the page lists (read from its copy cells) for the given purposes."""
    for purpose in purposes:
        name = html.unescape(re.search(rf'id="copy-{purpose}-name">([^<]+)<', page).group(1))
        value = html.unescape(re.search(rf'id="copy-{purpose}-value">([^<]+)<', page).group(1))
        dns_server.publish(name, "TXT", value)


async def test_add_check_verify_and_remove(person_browser, dns_console, identity, dashboard, dns_server):  # noqa: F811
    owner, account = await owner_with_account(identity, dashboard, "console-domains", "Domains Co")
    await person_browser.sign_in(owner.person.email, PASSWORD)
    listing = f"/a/{account['Id']}/domains"
    empty = await person_browser.get(listing)
    assert empty.status_code == 200 and "No sending domains yet" in empty.text and "Add domain" in empty.text

    refused = await person_browser.post(listing, {"name": "https://bad domain", "dmarc": "1"})
    assert refused.status_code == 400 and "Enter a domain like updates.example.com" in refused.text
    assert 'value="https://bad domain"' in refused.text  # what was typed is kept

    name = f"updates{secrets.token_hex(4)}.example"
    added = await person_browser.post(listing, {"name": name.upper(), "dmarc": "1"})
    assert added.status_code == 303 and added.headers["location"] == f"{listing}/{name}"
    page = await person_browser.get(f"{listing}/{name}")
    assert page.status_code == 200 and "Not checked yet" in page.text and "Check my records" in page.text
    for purpose in ("spf", "dkim", "return-path", "dmarc"):
        assert f'data-copy="copy-{purpose}-name"' in page.text and f'data-copy="copy-{purpose}-value"' in page.text
    assert "recommended" in page.text

    # Only SPF is published: the check names the DKIM record DNS lacks, each record with its status.
    publish(dns_server, page.text, ("spf",))
    failed = await person_browser.post(f"{listing}/{name}/verify")
    assert failed.status_code == 422, failed.text
    assert "Some required records were not found" in failed.text
    missing = failed.text.split("What is missing", 1)[1].split("</div>", 1)[0]
    assert "DKIM" in missing and f"._domainkey.{name}" in missing and "not published" in missing
    assert "SPF" not in missing
    assert "Last checked" in failed.text and "just now" in failed.text
    assert re.search(r"DKIM.*?record-not-found", failed.text, re.S) and "record-found" in failed.text

    publish(dns_server, page.text, ("dkim",))
    verified = await person_browser.post(f"{listing}/{name}/verify")
    assert verified.status_code == 200, verified.text
    assert f"{name} is verified" in verified.text and "state-verified" in verified.text
    assert "What is missing" not in verified.text
    listed = await person_browser.get(listing)
    assert name in listed.text and "Verified" in listed.text and "never checked" not in listed.text
    fragment = await person_browser.get(listing, headers={"HX-Request": "true"})
    assert fragment.headers["vary"] == "HX-Request" and "<html" not in fragment.text and name in fragment.text

    removed = await person_browser.post(f"{listing}/{name}/remove")
    assert removed.status_code == 303 and removed.headers["location"] == listing
    assert name not in (await person_browser.get(listing)).text
    assert (await person_browser.get(f"{listing}/{name}")).status_code == 404
    for odd in ("a..b", "%2e%2e", "UPPER.example", "-x.example"):
        assert (await person_browser.get(f"{listing}/{odd}")).status_code == 404, odd
        assert (await person_browser.post(f"{listing}/{odd}/verify")).status_code == 404, odd


async def test_member_reads_and_outsider_gets_404(person_browser, dns_console, identity, dashboard):
    owner, account = await owner_with_account(identity, dashboard, "console-domains-own", "Owned Co")
    member = await signed_in_member(identity, dashboard, "console-domains-member")
    await join(dashboard, owner, account["Id"], member, "member")
    outsider, elsewhere = await owner_with_account(identity, dashboard, "console-domains-out", "Other Co")
    listing = f"/a/{account['Id']}/domains"
    name = f"news{secrets.token_hex(4)}.example"

    await person_browser.sign_in(owner.person.email, PASSWORD)
    await person_browser.get(listing)
    assert (await person_browser.post(listing, {"name": name})).status_code == 303

    async with httpx.AsyncClient(base_url=dns_console, timeout=30) as http:
        reader = Browser(http)
        await reader.sign_in(member.person.email, PASSWORD)
        seen = await reader.get(f"{listing}/{name}")
        assert seen.status_code == 200 and "Only owners and admins" in seen.text and "Check my records" not in seen.text
        refused = await reader.post(f"{listing}/{name}/remove")
        assert refused.status_code == 403 and "Only owners and admins remove domains" in refused.text

    async with httpx.AsyncClient(base_url=dns_console, timeout=30) as http:
        stranger = Browser(http)
        await stranger.sign_in(outsider.person.email, PASSWORD)
        for path in (listing, f"{listing}/{name}"):
            answer = await stranger.get(path)
            assert answer.status_code == 404 and "Page not found" in answer.text, path
        # Their own account does not reach the name either: the platform answers 404 for it there.
        await stranger.get(f"/a/{elsewhere['Id']}/domains")
        for path in (f"/a/{elsewhere['Id']}/domains/{name}",):
            assert (await stranger.get(path)).status_code == 404
        assert (await stranger.post(f"/a/{elsewhere['Id']}/domains/{name}/remove")).status_code == 404
        assert (await stranger.post(f"/a/{elsewhere['Id']}/domains/{name}/verify")).status_code == 404
    assert name in (await person_browser.get(listing)).text


async def test_the_list_follows_a_domain_until_verified_asking_dns_once_per_interval(
        person_browser, identity, dashboard, dns_server):  # noqa: F811
    owner, account = await owner_with_account(identity, dashboard, "console-domains-watch", "Watch Co")
    await person_browser.sign_in(owner.person.email, PASSWORD)
    listing = f"/a/{account['Id']}/domains"
    await person_browser.get(listing)
    name = f"watch{secrets.token_hex(4)}.example"
    assert (await person_browser.post(listing, {"name": name})).status_code == 303
    page = await person_browser.get(listing)
    assert f'hx-get="{listing}?poll=1" hx-trigger="every 10s"' in page.text and "never checked" in page.text

    def asked() -> int:
        return sum(1 for queried, _ in list(dns_server.queries) if queried.endswith(name))

    assert asked() == 0  # opening the page reads; it checks nothing

    async def poll(n: int) -> str:
        answer = await person_browser.get(listing, params={"poll": str(n)}, headers={"HX-Request": "true"})
        assert answer.status_code == 200 and "<html" not in answer.text
        return answer.text

    first = await poll(1)
    assert "state-unverified" in first and f"{listing}?poll=2" in first and asked() > 0
    checked = asked()
    for n in (2, 3):  # more refreshes within the interval (other tabs, other people): DNS is not asked again
        await poll(n)
    assert asked() == checked

    publish(dns_server, (await person_browser.get(f"{listing}/{name}")).text)

    async def verified():
        text = await poll(4)
        return text if "state-verified" in text else None

    text = await until(verified, seconds=30, what="the domain verified by the list's own refresh", every=1)
    assert "hx-trigger" not in text  # verified: the list stops following it
    assert asked() <= 2 * checked  # the first check and the one that verified it, not one per refresh
    # After 10 minutes of refreshes (poll 60) a list still waiting on a domain stops, saying so.
    assert (await person_browser.post(listing, {"name": f"later{secrets.token_hex(4)}.example"})).status_code == 303
    stopped = await person_browser.get(listing, params={"poll": "60"})
    assert "hx-trigger" not in stopped.text and "stopped checking after 10 minutes" in stopped.text
