"""The SMTP server when the systems it hands mail to do not answer (nothing listens at their
addresses): every refusal is a 4xx, so the sender keeps the message and tries again; nothing is lost."""

from __future__ import annotations

import asyncio
import base64

import pytest

from tests.fixtures.harness import free_port
from tests.fixtures.mail import start_smtpd

# An SMTP server of the module's own, with other settings (tests/conftest.py, OWN_PROCESS_FIXTURES).
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def orphan(services, tmp_path_factory):
    nowhere = f"http://127.0.0.1:{free_port()}"
    server = start_smtpd({**services.env, "PLATFORM_INTERNAL_URL": nowhere, "MAIL_INTERNAL_URL": nowhere},
                         tmp_path_factory.mktemp("smtpd-orphan"))
    yield server
    server.process.stop()


async def test_with_the_platform_and_the_mail_system_down_every_answer_is_try_again(orphan):
    key = "sk_live_" + "ab" * 24

    def conversation() -> dict:
        seen = {}
        with orphan.receiver() as client:
            client.ehlo("mx.elsewhere.example")
            client.mail("bob@elsewhere.example")
            seen["mailbox"] = client.rcpt("ana@inbound.brand.example")
            seen["return"] = client.rcpt("bounce-msg_1-abc@bounces.herald.test")
            seen["data"] = client.data(b"Subject: Delivery Status Notification\r\n\r\nfailed\r\n")
        with orphan.client() as client:
            client.ehlo()
            blob = base64.b64encode(b"\0apikey\0" + key.encode()).decode()
            seen["auth"] = client.docmd("AUTH", f"PLAIN {blob}")
        return seen

    seen = await asyncio.to_thread(conversation)
    assert seen["mailbox"][0] == 451 and seen["mailbox"][1].startswith(b"4.3.0"), seen
    assert seen["return"][0] == 250, seen  # the bounce domain is ours: known without asking anyone
    assert seen["data"][0] == 451 and seen["data"][1].startswith(b"4.3.0"), seen
    assert seen["auth"][0] == 454, seen
