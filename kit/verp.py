"""VERP return paths: the envelope sender of an outgoing e-mail names its message, signed.

    bounce-<message public id>-<tag>@<return-path domain>

``tag`` is the first 16 hex characters of an HMAC-SHA256 of the message id under a key derived
from SECRET_KEY for this purpose alone (kit.sealing: one key per purpose). Only Herald can make a
valid address, so a bounce or a complaint sent to a made-up one acts on nothing. A tag made under an
older key of SECRET_KEY (a bounce of a message sent before a rotation) stays valid while that key is
listed. Everything is lower case and read back case-insensitively: mail systems may change the case
of a local part.
"""

from __future__ import annotations

import re

from kit.sealing import PLATFORM

PURPOSE = "verp-return-path"
PREFIX = "bounce-"
TAG_LENGTH = 16
# msg_ and 24 hex characters (kit.ids.public_id), then the tag.
_VERP = re.compile(r"^bounce-(msg_[0-9a-f]{1,40})-([0-9a-f]{" + str(TAG_LENGTH) + r"})@", re.IGNORECASE)


def tag(message_id: str) -> str:
    return PLATFORM.keyed_digest(PURPOSE, message_id.lower())[:TAG_LENGTH]


def return_path(message_id: str, domain: str) -> str:
    """The envelope sender of message ``message_id`` on ``domain``."""
    return f"{PREFIX}{message_id.lower()}-{tag(message_id)}@{domain.lower()}"


def named(address: str) -> tuple[str | None, bool]:
    """The message id a return-path address names (None when it is not one) and whether its tag
    is valid."""
    found = _VERP.match((address or "").strip().strip("<>"))
    if found is None:
        return None, False
    message_id, given = found.group(1).lower(), found.group(2).lower()
    return message_id, PLATFORM.digest_matches(PURPOSE, message_id, given, TAG_LENGTH)
