"""`herald smtpd` as the open internet meets it (HERALD_ENV=production, a certificate configured, low
per-address limits): AUTH only inside TLS (STARTTLS on submission, or the implicit-TLS port), too
many connections from one address answered 421, too many failed AUTH answered 454 even for a good key."""

from __future__ import annotations

import asyncio
import base64
import datetime
import smtplib
import ssl

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.fixtures.harness import Services, flush_redis, free_port
from tests.mail.conftest import sign_up
from tests.fixtures.mail import start_smtpd, wait_listening

# An SMTP server of the module's own, with other settings (tests/conftest.py, OWN_PROCESS_FIXTURES).
pytestmark = pytest.mark.slow


def self_signed(folder) -> tuple[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
                   .not_valid_after(now + datetime.timedelta(days=2)).sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "smtp.crt", folder / "smtp.key"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return str(cert_path), str(key_path)


def trusting() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the test's own self-signed certificate
    return context


@pytest.fixture(scope="module")
def guarded(services, mail_stack, tmp_path_factory):
    folder = tmp_path_factory.mktemp("smtpd-guarded")
    cert, key = self_signed(folder)
    tls_port = free_port()
    # A Redis database of its own: failed AUTH are counted there for every smtpd (app/smtp/limits.py),
    # and the run's other smtpd tests fail logins from 127.0.0.1 too.
    redis_url = Services._redis_database(services.redis_url)
    server = start_smtpd({**services.env, "PLATFORM_INTERNAL_URL": mail_stack.platform.url,
                          "MAIL_INTERNAL_URL": mail_stack.mail.url, "REDIS_URL": redis_url},
                         folder, HERALD_ENV="production", PASSWORD_HASH_COST="", SMTP_TLS_CERT=cert, SMTP_TLS_KEY=key,
                         SMTP_TLS_PORT=str(tls_port), SMTP_CONNECTIONS_PER_ADDRESS="3",
                         SMTP_AUTH_FAILURES_PER_ADDRESS="2")
    server.tls_port = tls_port
    wait_listening(server.process, tls_port)
    yield server
    server.process.stop()
    flush_redis(redis_url)


async def test_auth_only_inside_tls_then_per_address_limits(guarded, core):
    person = await sign_up(core)
    plain = base64.b64encode(b"\0apikey\0" + person.key.encode()).decode()

    def conversation() -> dict:
        seen = {}
        with guarded.client() as client:
            client.ehlo()
            seen["offered_before_tls"] = client.has_extn("auth")
            seen["auth_before_tls"] = client.docmd("AUTH", f"PLAIN {plain}")
            client.starttls(context=trusting())
            client.ehlo()
            seen["offered_after_tls"] = client.has_extn("auth")
            seen["auth_after_tls"] = client.docmd("AUTH", f"PLAIN {plain}")
        with smtplib.SMTP_SSL("127.0.0.1", guarded.tls_port, context=trusting(), timeout=30) as client:
            seen["implicit_tls"] = client.login("apikey", person.key)
        return seen

    seen = await asyncio.to_thread(conversation)
    assert not seen["offered_before_tls"] and seen["auth_before_tls"][0] in (530, 538)  # STARTTLS first
    assert seen["offered_after_tls"] and seen["auth_after_tls"][0] == 235
    assert seen["implicit_tls"][0] == 235

    def connections() -> tuple[list[int], int]:
        held = [smtplib.SMTP("127.0.0.1", guarded.submission_port, timeout=30) for _ in range(3)]
        try:
            with pytest.raises(smtplib.SMTPConnectError) as refused:
                smtplib.SMTP("127.0.0.1", guarded.submission_port, timeout=30)
            return [client.noop()[0] for client in held], refused.value.smtp_code
        finally:
            for client in held:
                client.close()

    alive, refused = await asyncio.to_thread(connections)
    assert alive == [250, 250, 250] and refused == 421

    def failures() -> list[int]:
        codes = []
        with guarded.client() as client:
            client.starttls(context=trusting())
            client.ehlo()
            for password in ("sk_live_" + "0" * 48, "not-a-key", person.key):
                blob = base64.b64encode(b"\0apikey\0" + password.encode()).decode()
                codes.append(client.docmd("AUTH", f"PLAIN {blob}")[0])
        return codes

    # The closed connections above are counted off, so a new one is let in; two failures block the
    # address, and then even the good key is refused for the window.
    assert await asyncio.to_thread(failures) == [535, 535, 454]
