"""The pieces written once and called everywhere: ``iso()``, ``backoff()`` and the sealing of
platform secrets (values sealed before kit/sealing.py existed still open)."""

from __future__ import annotations

import base64
import os
from datetime import datetime, timedelta, timezone

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from kit.backoff import backoff
from kit.sealing import PLATFORM, SealError
from kit.timestamps import iso
from models.platform.domain import DKIM_KEY
from models.platform.provider_config import PROVIDER_SECRETS
from models.platform.webhook import WEBHOOK_SECRET

SECRET_KEY = "a-secret-key-of-at-least-thirty-two-characters"


def test_iso_writes_utc_with_a_z_to_the_asked_precision():
    moment = datetime(2026, 10, 7, 9, 30, 1, 123456, tzinfo=timezone(timedelta(hours=-3)))
    assert iso(moment) == "2026-10-07T12:30:01.123456Z"
    assert iso(moment, "milliseconds") == "2026-10-07T12:30:01.123Z"
    assert iso(None) is None


def test_backoff_doubles_from_first_up_to_the_ceiling():
    assert [backoff(attempt, first=5.0, ceiling=3600) for attempt in (1, 2, 3, 4)] == [5.0, 10.0, 20.0, 40.0]
    assert backoff(20, first=5.0, ceiling=3600) == 3600
    assert backoff(1, ceiling=300) == 1.0 and backoff(0, ceiling=300) == 1.0


def test_backoff_honours_retry_after_within_bounds():
    assert backoff(3, 42.0, first=5.0, ceiling=3600) == 42.0
    assert backoff(3, 0.1, ceiling=300) == 1.0
    assert backoff(3, 10_000, ceiling=300) == 300


def test_backoff_jitter_only_lengthens_and_by_at_most_its_share():
    delays = {backoff(3, ceiling=300, jitter=0.1) for _ in range(200)}
    assert all(4.0 <= delay <= 4.4 for delay in delays) and len(delays) > 1


def _sealed_the_old_way(purpose: str, plaintext: bytes) -> str:
    """What models/platform/sealed.py stored: HKDF(salt herald-platform-v1, info purpose), AES-GCM."""
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"herald-platform-v1",
               info=purpose.encode()).derive(SECRET_KEY.encode())
    nonce = os.urandom(12)
    return "v1." + base64.urlsafe_b64encode(nonce + AESGCM(key).encrypt(nonce, plaintext, purpose.encode())).decode()


@pytest.mark.parametrize("purpose", [DKIM_KEY, PROVIDER_SECRETS, f"{WEBHOOK_SECRET}:whk_0123"])
def test_platform_values_sealed_before_still_open(purpose):
    stored = _sealed_the_old_way(purpose, b"kept at rest")
    assert PLATFORM.unseal_text(purpose, stored, secret_key=SECRET_KEY) == b"kept at rest"
    with pytest.raises(SealError):
        PLATFORM.unseal_text(PROVIDER_SECRETS if purpose != PROVIDER_SECRETS else DKIM_KEY, stored,
                             secret_key=SECRET_KEY)


def test_a_signed_token_with_non_ascii_characters_is_refused_not_raised():
    """A token is the client's input: a non-ASCII one is a bad signature, never a TypeError (a 500)."""
    token = PLATFORM.sign("purpose", {"who": "x"}, ttl=60)
    assert PLATFORM.unsign("purpose", token) == {"who": "x", "exp": PLATFORM.unsign("purpose", token)["exp"]}
    assert PLATFORM.unsign("purpose", token[:-2] + "çã") is None
    assert PLATFORM.unsign("purpose", "ção." + token.split(".")[1]) is None
