"""Schemathesis against the running mail system (tests/http/test_fuzz.py fuzzes it without any
credential): with a key holding mail:admin and email:send on /v1, and with the service credential on
/internal. No 5xx but the documented 503s, every answer as described, every error {error, message}."""

from __future__ import annotations

import pytest

from tests.http.test_fuzz import fuzz
from tests.mail.conftest import MANAGE

pytestmark = pytest.mark.slow  # fuzzing: Schemathesis as a subprocess against the running mail system


async def test_mail_with_a_key(mail_stack, make_account):
    account = await make_account(scopes=MANAGE)
    fuzz(mail_stack.mail.url, f"Authorization: Bearer {account.key}", seconds=25, exclude=("^/internal/",))


def test_mail_internal_routes(mail_stack, services):
    fuzz(mail_stack.mail.url, f"Authorization: Bearer {services.env['SERVICE_TOKEN']}", seconds=10,
         include="^/internal/")
