"""QR codes drawn on the server as inline SVG (segno: pure Python, no image library), so the
authenticator app's ``otpauth:`` link is scanned from the screen without a script or a request to
anyone else. Dark modules on a white square whatever the colour scheme: phones read it either way."""

from __future__ import annotations

import io

import segno
from markupsafe import Markup

MAX_DATA = 1024  # an otpauth link is a few hundred characters


def svg(data: str, label: str) -> Markup:
    """The QR code of ``data`` as an ``<svg role="img">`` named ``label``; empty for no data."""
    if not data or len(data) > MAX_DATA:
        return Markup("")
    out = io.BytesIO()
    segno.make(data, error="m").save(out, kind="svg", scale=5, border=4, xmldecl=False, svgns=True,
                                     dark="#000000", light="#ffffff", svgclass="qr", lineclass=None, omitsize=True)
    drawn = out.getvalue().decode().strip()
    # The picture's name for screen readers (segno's <title> would be escaped for us, this is plainer).
    return Markup(drawn.replace("<svg ", f'<svg role="img" aria-label="{Markup.escape(label)}" ', 1))
