"""The browser fixtures of tests/console/web.py with the platform resolving DNS through the tests'
loopback server (``DNS_NAMESERVERS``), for journeys that verify a sending domain: a module that
star-imports this one gets a ``herald_hosts`` so resolving (one stack for the run, ``dns_hosts``
in tests/console/conftest.py, whose ``dns_server`` is the one to publish in), and the steps that
read a domain's records as its page shows them."""

from __future__ import annotations

from typing import Iterator

import pytest

from tests.console.web import *  # noqa: F401,F403
from tests.console.web import Hosts, Visit


@pytest.fixture(scope="session")
def herald_hosts(dns_hosts) -> Iterator[Hosts]:
    """The run's stack resolving through the loopback DNS server, shared by every module importing this one."""
    yield dns_hosts


async def record_from_page(web: Visit, purpose: str) -> tuple[str, str]:
    """The name and value of one record (``spf``, ``dkim``...) as the domain's page lists them."""
    name = (await web.page.locator(f"#copy-{purpose}-name").inner_text()).strip()
    value = (await web.page.locator(f"#copy-{purpose}-value").inner_text()).strip()
    return name, value


async def publish_from_page(web: Visit, dns_server, purpose: str) -> None:
    name, value = await record_from_page(web, purpose)
    dns_server.publish(name, "TXT", value)
