"""The Python SDK committed in docs/sdk/python/ (generated from the platform's document by
``make sdk``): it sends a message to a running platform, and it is what the generator makes of
the document as the code describes it today."""

from __future__ import annotations

import filecmp
import importlib
import importlib.util
import sys
from pathlib import Path

import pytest
from sanic import Sanic

from models.platform.api_key import KeyKind
from tests.fixtures.platform import email

SDK = Path(__file__).resolve().parents[2] / "docs" / "sdk" / "python"
PACKAGE = "herald_platform_client"


@pytest.fixture(scope="module")
def sdk():
    sys.path.insert(0, str(SDK))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(SDK))


async def test_the_sdk_sends_an_email_and_reads_it_back(servers, make_account, sdk):
    from herald_platform_client.api.account import v1_account_account
    from herald_platform_client.api.emails import v1_message_get_email, v1_message_send_email
    from herald_platform_client.models import EmailSend

    account = await make_account(scopes=("email:send", "email:read", "account:read"), kind=KeyKind.TEST)
    async with sdk.AuthenticatedClient(base_url=servers("platform").url, token=account.key, timeout=20) as client:
        me = await v1_account_account.asyncio(client=client)
        assert me.tenant_id == account.tenant_id
        sent = await v1_message_send_email.asyncio_detailed(
            client=client, body=EmailSend.from_dict(email(subject="From the SDK")), idempotency_key="sdk-1")
        assert sent.status_code == 202, sent.content
        assert sent.parsed.status == "queued" and sent.parsed.message_id.startswith("msg_")
        read = await v1_message_get_email.asyncio_detailed(sent.parsed.message_id, client=client)
        assert read.status_code == 200, read.content
        assert read.parsed.message.message_id == sent.parsed.message_id
        missing = await v1_message_get_email.asyncio_detailed("msg_" + "0" * 24, client=client)
        assert missing.status_code == 404 and missing.parsed.error.code  # the error envelope, parsed


def test_the_committed_sdk_is_the_generators_output_for_todays_document(tmp_path):
    generate = _load_generator()
    from app.http.openapi import describe

    app = importlib.import_module("app.platform.server").build()
    Sanic._app_registry.pop(app.name, None)
    generate.generate(describe(app), tmp_path / PACKAGE)
    fresh, committed = tmp_path / PACKAGE, SDK / PACKAGE
    files = sorted(path.relative_to(fresh) for path in fresh.rglob("*.py"))
    assert files == sorted(path.relative_to(committed) for path in committed.rglob("*.py")), "run `make sdk`"
    _, differ, missing = filecmp.cmpfiles(fresh, committed, [str(path) for path in files], shallow=False)
    assert not differ and not missing, f"run `make sdk`: {differ[:5]}"


def _load_generator():
    spec = importlib.util.spec_from_file_location("sdk_generate", SDK / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
