"""Where a webhook may point: refused at registration when plainly unsafe, and again at connect time."""

import ipaddress
import socket

import pytest

from kit.egress import WEBHOOKS, UnsafeTarget, resolve, url_problem
from models.platform.webhook import AttemptOutcome
from tasks.platform.webhooks import post
from tests.fixtures.webhooks import register

UNSAFE = [
    "ftp://example.com/hook",
    "file:///etc/passwd",
    "gopher://example.com/",
    "javascript:alert(1)",
    "http://user:pass@example.com/hook",
    "http:///nohost",
    "http://127.0.0.1/hook",
    "http://127.1/hook",
    "http://0/hook",
    "http://0.0.0.0/hook",
    "http://2130706433/hook",            # 127.0.0.1 in decimal
    "http://0177.0.0.1/hook",            # octal
    "http://0x7f.0.0.1/hook",            # hexadecimal
    "http://0x7f000001/hook",
    "http://017700000001/hook",
    "http://localhost/hook",
    "http://LOCALHOST./hook",
    "http://app.localhost/hook",
    "http://printer.local/hook",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://10.0.0.1/hook",
    "http://172.16.5.4/hook",
    "http://192.168.1.1/hook",
    "http://100.64.0.1/hook",            # shared address space (carrier-grade NAT)
    "http://169.254.169.254/latest/meta-data/",
    "http://2852039166/latest/meta-data/",   # 169.254.169.254 in decimal
    "http://0251.0376.0251.0376/",           # 169.254.169.254 in octal
    "http://224.0.0.1/",
    "http://255.255.255.255/",
    "http://[::1]/hook",
    "http://[::]/hook",
    "http://[fe80::1]/hook",
    "http://[fd00:ec2::254]/hook",           # IPv6 unique-local (AWS metadata over IPv6)
    "http://[fc00::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",        # IPv4-mapped
    "http://[::ffff:7f00:1]/hook",
    "http://[::ffff:169.254.169.254]/hook",
    "http://[64:ff9b::a9fe:a9fe]/hook",      # NAT64 of 169.254.169.254
    "http://[2002:7f00:1::]/hook",           # 6to4 of 127.0.0.1
    "http://example.com:0/hook",
    "http://exa_mple.com/hook",
    "https://" + "a" * 2050 + ".com/",
]


@pytest.mark.parametrize("url", UNSAFE)
def test_unsafe_urls_are_refused(url):
    assert url_problem(url, allow_loopback=False) is not None


@pytest.mark.parametrize("url", ["https://hooks.example.com/herald", "http://8.8.8.8:8080/x?y=1",
                                 "https://[2606:4700::1111]/hook", "https://xn--bcher-kva.example/hook"])
def test_public_urls_are_accepted(url):
    assert url_problem(url, allow_loopback=False) is None


def test_the_development_flag_opens_loopback_and_nothing_else():
    assert url_problem("http://127.0.0.1:9000/hook", allow_loopback=True) is None
    assert url_problem("http://[::1]:9000/hook", allow_loopback=True) is None
    assert url_problem("http://localhost:9000/hook", allow_loopback=True) is None
    for url in ("http://10.0.0.1/", "http://169.254.169.254/", "http://[fd00::1]/", "http://2130706433/",
                "http://[::ffff:127.0.0.1]/"):
        assert url_problem(url, allow_loopback=True) is not None, url


def _local_name() -> str:
    """A DNS name (not an IP literal, not 'localhost') that resolves to a non-public address here."""
    name = socket.gethostname()
    addresses = {ipaddress.ip_address(info[4][0]) for info in socket.getaddrinfo(name, 80, type=socket.SOCK_STREAM)}
    assert addresses and not any(address.is_global for address in addresses), \
        f"this machine's name {name} resolves to a public address; the test needs a local one"
    return name


async def test_a_name_resolving_to_a_local_address_is_refused_at_connect_time(receiver):
    name = _local_name()
    url = f"http://{name}:{receiver.port}{receiver.path}"
    assert url_problem(url, allow_loopback=False) is None  # nothing plainly wrong with the name itself
    with pytest.raises(UnsafeTarget, match="resolves to"):
        await resolve(name, receiver.port, WEBHOOKS)
    result = await post(url, b"{}", {}, allow_loopback=False)
    assert result.outcome is AttemptOutcome.UNSAFE_TARGET
    assert receiver.requests == []  # refused before connecting


async def test_the_vetted_address_is_connected_with_the_original_host_header(receiver):
    result = await post(f"http://localhost:{receiver.port}{receiver.path}?x=1", b"{}", {}, allow_loopback=True)
    assert result.outcome is AttemptOutcome.SUCCEEDED
    assert receiver.requests[0].headers["Host"] == f"localhost:{receiver.port}"
    assert receiver.requests[0].path == f"{receiver.path}?x=1"
    addresses = await resolve("localhost", 8443, WEBHOOKS.with_loopback(True))
    assert addresses and all(address.is_loopback for address in addresses)


async def test_redirects_are_not_followed(receiver, another_receiver):
    receiver.respond(302, Location=another_receiver.url)
    result = await post(receiver.url, b"{}", {}, allow_loopback=True)
    assert result.outcome is AttemptOutcome.HTTP_ERROR and result.status_code == 302
    assert "redirects are not followed" in result.error
    assert another_receiver.requests == []


async def test_the_answer_is_read_up_to_a_cap(receiver):
    receiver.respond(200, body=b"x" * (8 * 1024 * 1024))
    result = await post(receiver.url, b"{}", {}, allow_loopback=True)
    assert result.outcome is AttemptOutcome.SUCCEEDED
    assert result.excerpt == "x" * 1000


async def test_a_slow_receiver_times_out(receiver, monkeypatch):
    import tasks.platform.webhooks

    monkeypatch.setattr(tasks.platform.webhooks, "DEADLINE_SECONDS", 0.5)
    receiver.respond(200, delay=2)
    result = await post(receiver.url, b"{}", {}, allow_loopback=True)
    assert result.outcome is AttemptOutcome.TIMEOUT and result.duration_ms < 1500


async def test_registration_refuses_unsafe_urls(platform, sender):
    # The test servers allow loopback receivers (development flag); everything else stays refused.
    for url in ("http://169.254.169.254/latest/meta-data/", "http://10.1.2.3/", "http://2852039166/",
                "http://[fd00:ec2::254]/", "http://[::ffff:127.0.0.1]/", "ftp://example.com/",
                "http://metadata.google.internal/"):
        response = await platform.post("/v1/webhooks", json={"Url": url}, headers=sender.headers)
        assert response.status_code == 422, (url, response.text)
        assert response.json()["Error"]["Code"] == "ValidationError"
        assert "Url" in response.json()["Error"]["Details"]
    assert (await register(platform, sender, "http://127.0.0.1:9/hook"))["Url"] == "http://127.0.0.1:9/hook"
