"""DMARC's organizational domain and relaxed alignment (RFC 7489 section 3.2) by the Public Suffix
List: a subdomain aligns with its registrable domain, a sibling under a public suffix never does."""

import pytest

from app.smtp.results import aligned, organizational


@pytest.mark.parametrize("domain, registrable", [
    ("mail.shop.example.co.uk", "example.co.uk"),   # two-label public suffix: the old "last two labels" said co.uk
    ("bounces.brand.example.com", "example.com"),
    ("Example.COM.", "example.com"),
    ("alice.github.io", "alice.github.io"),         # a private-section suffix: each site is its own
    ("brand1234.example", "brand1234.example"),     # a TLD the list does not know: the default rule
    ("co.uk", "co.uk"),                             # a public suffix is its own
])
def test_the_organizational_domain_is_the_registrable_domain(domain, registrable):
    assert organizational(domain) == registrable


def test_relaxed_alignment_follows_the_registrable_domain():
    assert aligned("bounces.shop.example.co.uk", "news.shop.example.co.uk")
    assert not aligned("other.co.uk", "shop.co.uk")          # both under co.uk, different owners
    assert not aligned("alice.github.io", "mallory.github.io")
    assert not aligned(None, "example.com")
