"""Amazon SNS messages (how SES reports its events): the signature checked against the signing
certificate, the certificate only from ``https://sns.<region>.amazonaws.com``, fetched through the
egress (kit/aws_sns.py), unless the operator pinned it: a file ``<sha256 hex of the URL>.pem`` in
``SNS_CERTIFICATE_DIR`` (default ``$HERALD_VAR_DIR/sns-certificates``), which is how the tests give theirs.

The string signed is ``Name\\nValue\\n`` for the fields of the message's type, in this order
(https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html);
``SignatureVersion`` 1 is RSA PKCS#1 v1.5 with SHA-1, 2 with SHA-256. A valid signature proves the
message came from SNS, not from which AWS account: the topic must also be the one the account
configured (``sns_topic_arn``). A message older than :data:`MAX_AGE` is refused, and so is one whose
``MessageId`` was already applied (a replay; remembered in Redis).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections import OrderedDict
from datetime import datetime, timezone
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from kit.aws_sns import CERTIFICATE_URL, Unreachable, fetch  # noqa: F401  (Unreachable: the callback's 502)
from kit.settings import Settings

FIELDS = {
    "Notification": ("Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"),
    "SubscriptionConfirmation": ("Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"),
    "UnsubscribeConfirmation": ("Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"),
}
HASHES = {"1": hashes.SHA1, "2": hashes.SHA256}
MAX_AGE = 3600
SEEN_KEY = "relay_event:sns:message:{tenant}:{message_id}"
_CACHE: OrderedDict[str, x509.Certificate] = OrderedDict()
_CACHE_SIZE = 32


class NotVerified(Exception):
    """The message is not SNS's, not the account's topic, or not fresh: 403, nothing changes."""


def string_to_sign(envelope: dict) -> bytes:
    fields = FIELDS.get(envelope.get("Type"))
    if fields is None:
        raise NotVerified("unknown message type")
    parts = []
    for name in fields:
        value = envelope.get(name)
        if value is None and name == "Subject":
            continue
        if not isinstance(value, str):
            raise NotVerified(f"{name} is missing")
        parts.append(f"{name}\n{value}\n")
    return "".join(parts).encode()


def check_signature(envelope: dict, certificate: x509.Certificate, now: datetime | None = None) -> None:
    algorithm = HASHES.get(str(envelope.get("SignatureVersion")))
    if algorithm is None:
        raise NotVerified("unknown SignatureVersion")
    moment = now or datetime.now(timezone.utc)
    if not certificate.not_valid_before_utc <= moment <= certificate.not_valid_after_utc:
        raise NotVerified("the signing certificate is not valid now")
    key = certificate.public_key()
    if not isinstance(key, rsa.RSAPublicKey):
        raise NotVerified("the signing certificate's key is not RSA")
    try:
        signature = base64.b64decode(str(envelope.get("Signature") or ""), validate=True)
        key.verify(signature, string_to_sign(envelope), padding.PKCS1v15(), algorithm())
    except (binascii.Error, InvalidSignature, ValueError):
        raise NotVerified("the signature is not valid") from None


def check_fresh(envelope: dict, now: datetime | None = None) -> None:
    try:
        stamp = datetime.fromisoformat(str(envelope.get("Timestamp")).replace("Z", "+00:00"))
    except ValueError:
        raise NotVerified("the Timestamp is not readable") from None
    if stamp.tzinfo is None or abs(((now or datetime.now(timezone.utc)) - stamp).total_seconds()) > MAX_AGE:
        raise NotVerified("the message is too old")


async def certificate_at(url: str, settings: Settings) -> x509.Certificate:
    """The signing certificate at ``url`` (checked to be SNS's own), pinned, cached or fetched."""
    if not isinstance(url, str) or not CERTIFICATE_URL.match(url):
        raise NotVerified("the SigningCertURL is not an https URL on sns.<region>.amazonaws.com")
    if url in _CACHE:
        _CACHE.move_to_end(url)
        return _CACHE[url]
    pinned = pinned_path(url, settings)
    pem = pinned.read_bytes() if pinned is not None and pinned.is_file() else await fetch(url)
    try:
        certificate = x509.load_pem_x509_certificate(pem)
    except ValueError:
        raise NotVerified("the signing certificate is not a PEM certificate") from None
    _CACHE[url] = certificate
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return certificate


def pinned_path(url: str, settings: Settings) -> Path | None:
    folder = settings.sns_certificate_dir
    return None if folder is None else Path(folder) / f"{hashlib.sha256(url.encode()).hexdigest()}.pem"


async def verify(envelope: dict, config: dict, settings: Settings) -> None:
    """Raise :class:`NotVerified` unless the message is SNS's, fresh, and from the account's topic."""
    topic = config.get("sns_topic_arn")
    if not topic or envelope.get("TopicArn") != topic:
        raise NotVerified("the topic is not the account's")
    check_fresh(envelope)
    check_signature(envelope, await certificate_at(envelope.get("SigningCertURL"), settings))


async def first_use(redis, tenant_id: str, message_id: str) -> bool:
    """Remember the message; False when it was seen before (a replay)."""
    key = SEEN_KEY.format(tenant=tenant_id, message_id=str(message_id)[:100])
    return bool(await redis.set(key, b"1", nx=True, ex=2 * MAX_AGE))


async def forget(redis, tenant_id: str, message_id: str) -> None:
    """The message could not be acted on: SNS's retry of it is not a replay."""
    await redis.delete(SEEN_KEY.format(tenant=tenant_id, message_id=str(message_id)[:100]))

