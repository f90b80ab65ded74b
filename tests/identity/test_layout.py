"""The identity system's shape: services without Sanic, one error hierarchy, sealed values that
stay readable under the one sealing module."""

from __future__ import annotations

import hashlib
import hmac
import inspect
import json
import os
import pkgutil
import subprocess
import sys
import time

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from tests.fixtures.harness import ROOT


def _service_modules() -> list[str]:
    import app.identity

    return sorted(f"app.identity.{info.name}.service" for info in pkgutil.iter_modules(app.identity.__path__)
                  if info.ispkg and (ROOT / "app" / "identity" / info.name / "service.py").exists())


def test_importing_the_services_builds_no_app():
    """A worker or the CLI may call a service: that must not import Sanic, a surface or the server."""
    modules = _service_modules()
    assert "app.identity.user.service" in modules and len(modules) >= 9
    code = ("import sys\n"
            f"for name in {modules!r}: __import__(name)\n"
            "import app.identity.login.steps, models.identity.email\n"
            "loaded = [m for m in sys.modules if m == 'sanic' or m.startswith('sanic.') or m.endswith('.v1')\n"
            "          or m == 'app.identity.server']\n"
            "print(loaded)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"


def test_create_app_is_imported_lazily():
    code = "import sys, app.identity; print('sanic' in sys.modules, callable(app.identity.create_app))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False", "True"]


def test_every_identity_error_is_in_the_one_hierarchy():
    from app.http.errors import HttpError
    from app.identity import errors

    classes = [value for value in vars(errors).values() if inspect.isclass(value) and issubclass(value, BaseException)]
    assert errors.OAuthError in classes and errors.TwoFactorFailed in classes
    assert all(issubclass(cls, HttpError) for cls in classes), [c for c in classes if not issubclass(c, HttpError)]
    reused = errors.RefreshTokenReused("rtf_x")
    assert (reused.status, reused.error, reused.family) == (400, "invalid_grant", "rtf_x")


def _old_key(secret_key: str, purpose: str) -> bytes:
    # What app/identity/crypto.py derived before the one sealing module: stored values depend on it.
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=b"herald-identity-v1",
                info=purpose.encode()).derive(secret_key.encode())


def test_values_sealed_and_signed_before_stay_readable():
    from kit.sealing import IDENTITY, b64url
    from kit.settings import get_settings

    secret_key = get_settings().require_secret_key()
    for purpose in ("totp-secret", "signing-key", "outbox"):
        nonce = os.urandom(12)
        stored = nonce + AESGCM(_old_key(secret_key, purpose)).encrypt(nonce, b"written before", purpose.encode())
        assert IDENTITY.unseal(purpose, stored) == b"written before"
    body = b64url(json.dumps({"u": "usr_x", "exp": int(time.time()) + 60}, separators=(",", ":")).encode())
    mac = b64url(hmac.new(_old_key(secret_key, "2fa-ticket"), body.encode(), hashlib.sha256).digest())
    assert IDENTITY.unsign("2fa-ticket", f"{body}.{mac}")["u"] == "usr_x"
    digest = hmac.new(_old_key(secret_key, "recovery-code"), b"usr_x:ABCD-EFGH-JKLM", hashlib.sha256).hexdigest()
    assert IDENTITY.keyed_digest("recovery-code", "usr_x:ABCD-EFGH-JKLM") == digest
