"""The steps of browser journeys that verify a sending domain: read a record as the domain's page shows
it and publish it in the tests' loopback DNS server (``dns_server``), which the run's browser stack
resolves through (``herald_hosts`` in tests/console/conftest.py)."""

from __future__ import annotations

from tests.console.web import Visit


async def record_from_page(web: Visit, purpose: str) -> tuple[str, str]:
    """The name and value of one record (``spf``, ``dkim``...) as the domain's page lists them."""
    name = (await web.page.locator(f"#copy-{purpose}-name").inner_text()).strip()
    value = (await web.page.locator(f"#copy-{purpose}-value").inner_text()).strip()
    return name, value


async def publish_from_page(web: Visit, dns_server, purpose: str) -> None:
    name, value = await record_from_page(web, purpose)
    dns_server.publish(name, "TXT", value)
