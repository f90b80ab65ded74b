"""AWS Signature Version 4 for one HTTP request, with the standard library (hmac, hashlib).

https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html: a canonical request
(method, URI, query, the signed headers, the payload's SHA-256), a string to sign naming the date,
region and service, and a key derived from the secret by four HMACs. Only what Amazon SES needs
(providers/ses.py sends with it; app/platform/provider/credentials.py checks a key with it):
the headers given are all signed, names lowercased, values trimmed.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import datetime, timezone
from urllib.parse import quote, urlsplit

ALGORITHM = "AWS4-HMAC-SHA256"


def _hmac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def _canonical_query(query: str) -> str:
    pairs = []
    for part in filter(None, query.split("&")):
        name, _, value = part.partition("=")
        pairs.append((quote(name, safe="-_.~"), quote(value, safe="-_.~")))
    return "&".join(f"{name}={value}" for name, value in sorted(pairs))


def signing_key(secret_key: str, day: str, region: str, service: str) -> bytes:
    key = _hmac(("AWS4" + secret_key).encode(), day)
    for part in (region, service, "aws4_request"):
        key = _hmac(key, part)
    return key


def sign(method: str, url: str, headers: dict[str, str], body: bytes, *, access_key: str, secret_key: str,
         region: str, service: str, session_token: str | None = None, now: datetime | None = None) -> dict[str, str]:
    """The headers to send: ``headers`` plus ``Host``, ``X-Amz-Date`` (and ``X-Amz-Security-Token``
    for temporary credentials) and ``Authorization``."""
    moment = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    stamp, day = moment.strftime("%Y%m%dT%H%M%SZ"), moment.strftime("%Y%m%d")
    parts = urlsplit(url)
    signed = {name.lower(): " ".join(str(value).split()) for name, value in headers.items()}
    signed["host"] = parts.netloc
    signed["x-amz-date"] = stamp
    if session_token:
        signed["x-amz-security-token"] = session_token
    names = sorted(signed)
    canonical = "\n".join([
        method.upper(), quote(parts.path or "/", safe="/-_.~"), _canonical_query(parts.query),
        "".join(f"{name}:{signed[name]}\n" for name in names), ";".join(names), hashlib.sha256(body).hexdigest()])
    scope = f"{day}/{region}/{service}/aws4_request"
    to_sign = "\n".join([ALGORITHM, stamp, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    signature = hmac.new(signing_key(secret_key, day, region, service), to_sign.encode(), hashlib.sha256).hexdigest()
    out = {name: value for name, value in headers.items()}
    out.update({"Host": parts.netloc, "X-Amz-Date": stamp})
    if session_token:
        out["X-Amz-Security-Token"] = session_token
    out["Authorization"] = (f"{ALGORITHM} Credential={access_key}/{scope}, SignedHeaders={';'.join(names)}, "
                            f"Signature={signature}")
    return out
