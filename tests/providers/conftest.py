"""Provider tests: local servers speaking each provider's protocol, and the platform fixtures."""

from __future__ import annotations

import pytest

from tests.platform.conftest import make_account, sender  # noqa: F401  (fixtures)
from tests.providers.servers import DnsServer, H2Recorder, HttpRecorder


@pytest.fixture
def http_server():
    server = HttpRecorder()
    yield server
    server.close()


@pytest.fixture
def h2_server():
    server = H2Recorder()
    yield server
    server.close()


@pytest.fixture(scope="session")
def dns_server():
    server = DnsServer()
    yield server
    server.close()


@pytest.fixture
async def tenant_pk(make_account):
    from models.platform.tenant import Tenant

    account = await make_account(scopes=("email:send",))
    return (await Tenant.get(public_id=account.tenant_id)).id


def outgoing(channel: str, recipient: str, content: dict, **extra):
    from models.platform.ids import public_id
    from providers.base import Outgoing

    return Outgoing(message_id=public_id("msg"), tenant_id="acc_test", channel=channel, recipient=recipient,
                    sender=extra.pop("sender", None), subject=extra.pop("subject", None), content=content, **extra)
