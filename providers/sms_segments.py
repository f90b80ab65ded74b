"""How many SMS segments a body takes: GSM-7 when every character is in the GSM 03.38 alphabet
(extension characters count twice), UCS-2 otherwise (characters outside the BMP count twice).

    GSM-7: 160 septets in one segment, 153 per segment when concatenated
    UCS-2: 70 code units in one segment, 67 per segment when concatenated
"""

from __future__ import annotations

import math

GSM7_BASIC = set(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?"
    "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
)
GSM7_EXTENSION = set("^{}\\[~]|€\f")


def encoding_of(body: str) -> str:
    return "GSM-7" if all(ch in GSM7_BASIC or ch in GSM7_EXTENSION for ch in body) else "UCS-2"


def segments(body: str) -> tuple[str, int]:
    """(encoding, number of segments) of an SMS body; an empty body is one segment."""
    encoding = encoding_of(body)
    if encoding == "GSM-7":
        units = sum(2 if ch in GSM7_EXTENSION else 1 for ch in body)
        single, multi = 160, 153
    else:
        units = sum(2 if ord(ch) > 0xFFFF else 1 for ch in body)
        single, multi = 70, 67
    if units <= single:
        return encoding, 1
    return encoding, math.ceil(units / multi)
