"""The header-value check (app/http/header_values.py) sends exactly what Sanic's translation sends."""

from __future__ import annotations

import pytest
from sanic.response import HTTPResponse
from sanic.response.types import HEADER_TRANSLATION_TABLE

from app.http import header_values


@pytest.mark.parametrize("value", ["", "Origin", "https://lp.example.com", "req_0123abcd", "a\r\nSet-Cookie: x=1",
                                   "\n", "nul\x00here", "ção ☃", "tab\tand\x7fdel", "\r\r\x00\n"])
def test_a_value_comes_out_as_sanics_translation_would_make_it(value):
    assert header_values.sanitized(value) == value.translate(HEADER_TRANSLATION_TABLE)


def test_a_response_with_the_check_installed_never_carries_a_line_break():
    header_values.install()
    response = HTTPResponse(status=204, headers={"X-Bad\r\nName": "one\r\nInjected: yes\x00", "Vary": "Origin"})
    assert list(response.processed_headers) == [(b"X-BadName", b"oneInjected: yes"), (b"Vary", b"Origin")]
