"""Fixtures of tests/smtp/ (and tests/mail/test_received*.py): Herald's SMTP server as a real
process (``herald smtpd``) pointing at the mail tests' platform and mail system, on free ports."""

from __future__ import annotations

import smtplib
import socket
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fixtures.harness import Process, free_port
from tests.mail.conftest import core, inbox, mail, mail_stack  # noqa: F401  (fixtures)

MAIL_DOMAIN = "herald.test"


@dataclass
class Smtpd:
    process: Process
    receive_port: int
    submission_port: int
    tls_port: int | None = None

    def client(self, port: int | None = None, timeout: float = 30) -> smtplib.SMTP:
        return smtplib.SMTP("127.0.0.1", port or self.submission_port, timeout=timeout)

    def receiver(self, timeout: float = 30) -> smtplib.SMTP:
        return smtplib.SMTP("127.0.0.1", self.receive_port, timeout=timeout)


def wait_listening(process: Process, port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.process.poll() is not None:
            raise RuntimeError(f"herald smtpd exited: {Path(process.log).read_text()[-3000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"herald smtpd did not listen on {port}: {Path(process.log).read_text()[-3000:]}")


def start_smtpd(base_env: dict[str, str], log_dir: Path, **extra: str) -> Smtpd:
    receive, submission = free_port(), free_port()
    env = {**base_env, "SMTP_RECEIVE_PORT": str(receive), "SMTP_SUBMISSION_PORT": str(submission),
           "SMTP_TLS_PORT": "0", "MAIL_DOMAIN": MAIL_DOMAIN, **extra}
    process = Process("smtpd", ["smtpd"], env, log_dir)
    try:
        for port in (receive, submission):
            wait_listening(process, port)
    except Exception:
        process.kill()
        raise
    return Smtpd(process, receive, submission)


@pytest.fixture(scope="session")
def smtpd(services, mail_stack, dns_server, tmp_path_factory):  # noqa: F811
    """One SMTP server for the run; the per-address limits are high (every test connects from
    127.0.0.1): they are tested on a server of their own."""
    server = start_smtpd({**services.env, "PLATFORM_INTERNAL_URL": mail_stack.platform.url,
                          "MAIL_INTERNAL_URL": mail_stack.mail.url, "DNS_NAMESERVERS": dns_server.address,
                          "SMTP_CONNECTIONS_PER_ADDRESS": "1000", "SMTP_AUTH_FAILURES_PER_ADDRESS": "100000"},
                         tmp_path_factory.mktemp("smtpd"))
    yield server
    server.process.stop()
