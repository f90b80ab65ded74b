"""Schemathesis against the runtime with a session of an account's admin (tests/http/test_fuzz.py
fuzzes it without one): every /v1 route of pixels, analytics and replay, acting in the account.
The live stream is left out (an endless answer; tests/runtime/test_live.py covers it)."""

from __future__ import annotations

import pytest

from tests.http.test_fuzz import fuzz
from tests.runtime.conftest import new_account

pytestmark = pytest.mark.slow  # fuzzing: Schemathesis as a subprocess against running systems


async def test_runtime_as_an_account_admin(servers, identity):
    url = servers("runtime").url
    account = await new_account(identity)
    fuzz(url, f"Authorization: Bearer {account.admin.token}", f"X-Service-Tenant: {account.tenant}", seconds=25,
         exclude=("^/v1/analytics/live/stream$",))
