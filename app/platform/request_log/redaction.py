"""What a request log may keep of a request: the redaction rules, versioned.

Rules (spec "Request log record"), applied to request and response bodies and query values:

* secrets become ``[REDACTED]``: by field name (Authorization, passwords, secrets, API and
  access tokens, verification codes ``code``/``otp``, PIN, CVV, card numbers, national tax
  ids) and by value wherever they appear in a string (API keys, JWTs, ``Bearer`` values,
  card numbers passing a Luhn check, CPF/CNPJ/SSN-shaped tax ids);
* message content (``html``, ``text``, ``subject``, ``body``, ``title``, template
  ``variables``) becomes ``[redacted len=<bytes> sha256=<16 hex>]`` for each string in it:
  enough to tell two bodies apart, never the text;
* recipients (``to``, ``cc``, ``bcc``, ``phone``, their ``*Addresses`` forms, device tokens)
  are masked: ``a***@example.com``, ``+5**********21``, ``abcd***``;
* only the route's known query parameters are kept; free-text search (``q``) as its marker;
* a body that is not JSON cannot be inspected, so it is kept only as its content marker;
* a body longer than 16 KiB after redaction is cut (the caller stores the ``*_truncated`` flag).

Field names are compared case-insensitively with ``_`` and ``-`` ignored (``ToAddresses``,
``to_addresses`` and ``to-addresses`` are one name). Changing any rule means bumping
:data:`REDACTION_VERSION`; each stored record carries the version that redacted it.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Iterable, Mapping

REDACTION_VERSION = 1
REDACTED = "[REDACTED]"
MAX_BODY_BYTES = 16 * 1024

SECRET_NAMES = frozenset({
    "authorization", "proxyauthorization", "cookie", "setcookie",
    "password", "passwd", "pwd", "passphrase", "secret", "clientsecret", "apisecret", "webhooksecret",
    "apikey", "xapikey", "accesskey", "privatekey", "signingkey",
    "token", "accesstoken", "refreshtoken", "idtoken", "apitoken", "authtoken", "sessiontoken", "bearer",
    "code", "otp", "otpcode", "totp", "verificationcode", "recoverycode", "recoverycodes",
    "pin", "pincode", "cvv", "cvv2", "cvc", "cvc2", "securitycode",
    "card", "cardnumber", "creditcard", "ccnumber", "pan",
    "ssn", "cpf", "cnpj", "taxid", "nationalid", "tin", "nif",
})
SECRET_PARTS = ("password", "passwd", "secret")
CONTENT_NAMES = frozenset({"html", "text", "subject", "body", "title", "variables", "templatevariables"})
RECIPIENT_NAMES = frozenset({
    "to", "cc", "bcc", "phone", "phonenumber", "toaddresses", "ccaddresses", "bccaddresses", "recipient",
    "recipients", "devicetoken", "devicetokens",
})
# Free-text search parameters look into message content and recipients: kept as markers.
SEARCH_PARAMS = frozenset({"q", "query", "search"})
# Inside an error object, ``code`` is the error's code, not a verification code.
ERROR_NAMES = frozenset({"error"})
# Inside message content these describe the content and are kept.
CONTENT_KEPT = frozenset({"charset"})
# Device tokens are recipients, not credentials: ``Token`` of POST /v1/push/devices is masked.
DEVICE_TOKEN_ROUTES = frozenset({"/v1/push/devices"})

_API_KEY = re.compile(r"(?:sk|pk|rk)_(?:master|live|test)_[A-Za-z0-9]+")
_JWT = re.compile(r"eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*")
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+")
_CARD = re.compile(r"(?<![\w+.])\d(?:[ -]?\d){12,18}(?![\w])")
_CPF = re.compile(r"(?<![\w.])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\w])")
_CNPJ = re.compile(r"(?<![\w.])\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}(?![\w])")
_SSN = re.compile(r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])")
_BARE_TAX_ID = re.compile(r"(?<![\w+.])(\d{11}|\d{14})(?![\w])")
_EMAIL = re.compile(r"^([^@\s]+)@([^@\s]+)$")


def normal(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "")


def marker(value: str | bytes) -> str:
    raw = value.encode() if isinstance(value, str) else value
    return f"[redacted len={len(raw)} sha256={hashlib.sha256(raw).hexdigest()[:16]}]"


# --- value scanners ------------------------------------------------------------------------------

def luhn(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        digit = int(char)
        if index % 2:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return total % 10 == 0


def cpf_valid(digits: str) -> bool:
    if len(digits) != 11 or len(set(digits)) == 1:
        return False
    for size in (9, 10):
        total = sum(int(d) * w for d, w in zip(digits[:size], range(size + 1, 1, -1)))
        check = (total * 10) % 11 % 10
        if check != int(digits[size]):
            return False
    return True


def cnpj_valid(digits: str) -> bool:
    if len(digits) != 14 or len(set(digits)) == 1:
        return False
    for size, weights in ((12, (5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)), (13, (6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2))):
        total = sum(int(d) * w for d, w in zip(digits[:size], weights))
        check = 0 if total % 11 < 2 else 11 - total % 11
        if check != int(digits[size]):
            return False
    return True


def _card(match: re.Match) -> str:
    digits = re.sub(r"\D", "", match.group(0))
    return REDACTED if 13 <= len(digits) <= 19 and luhn(digits) else match.group(0)


def _bare_tax_id(match: re.Match) -> str:
    digits = match.group(0)
    return REDACTED if cpf_valid(digits) or cnpj_valid(digits) else digits


def scrub(text: str) -> str:
    """Secrets found by their shape anywhere in a string become ``[REDACTED]``."""
    if not text:
        return text
    text = _BEARER.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    text = _API_KEY.sub(REDACTED, text)
    text = _JWT.sub(REDACTED, text)
    if any(c.isdigit() for c in text):
        text = _CNPJ.sub(REDACTED, text)
        text = _CPF.sub(REDACTED, text)
        text = _SSN.sub(REDACTED, text)
        text = _CARD.sub(_card, text)
        text = _BARE_TAX_ID.sub(_bare_tax_id, text)
    return text


# --- recipients ----------------------------------------------------------------------------------

def mask(value: str) -> str:
    """A recipient shown without revealing it: ``a***@example.com``, ``+5**********21``, ``abcd***``."""
    value = value.strip()
    if match := _EMAIL.match(value):
        local, domain = match.groups()
        # A display name ("Ann <ann@x>") is dropped with the local part.
        domain = domain.rstrip(">")
        local = local.rsplit("<", 1)[-1]
        return f"{local[:1]}***@{domain}"
    if value.startswith("+") or value.replace(" ", "").replace("-", "").isdigit():
        if len(value) <= 4:
            return "*" * len(value)
        return value[:2] + "*" * (len(value) - 4) + value[-2:]
    if value.startswith("topic:"):
        return value
    return value[:4] + "***" if len(value) > 8 else "***"


def _masked(value: Any) -> Any:
    if isinstance(value, str):
        return mask(value)
    if isinstance(value, list):
        return [_masked(item) for item in value]
    if isinstance(value, dict):
        return {key: _masked(item) for key, item in value.items()}
    return value


def _content(value: Any) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return marker(value)
    if isinstance(value, (int, float)):
        return marker(json.dumps(value))
    if isinstance(value, list):
        return [_content(item) for item in value]
    if isinstance(value, dict):
        return {key: (scrub(item) if isinstance(item, str) and normal(key) in CONTENT_KEPT else _content(item))
                for key, item in value.items()}
    return marker(str(value))


# --- documents -----------------------------------------------------------------------------------

def redact(value: Any, parent: str = "", *, device_tokens: bool = False) -> Any:
    """A JSON document with every rule applied (a new document; the input is not changed)."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            name = normal(str(key))
            if name == "token" and device_tokens:
                out[key] = _masked(item)
            elif name == "code" and parent in ERROR_NAMES and isinstance(item, str):
                out[key] = scrub(item)
            elif name in SECRET_NAMES or any(part in name for part in SECRET_PARTS):
                out[key] = None if item is None else REDACTED
            elif name in CONTENT_NAMES:
                out[key] = _content(item)
            elif name in RECIPIENT_NAMES:
                out[key] = _masked(item)
            else:
                out[key] = redact(item, name, device_tokens=device_tokens)
        return out
    if isinstance(value, list):
        return [redact(item, parent, device_tokens=device_tokens) for item in value]
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, int) and not isinstance(value, bool) and value >= 10 ** 12:
        # A card number sent as a JSON number.
        text = str(value)
        return REDACTED if scrub(text) != text else value
    return value


def cut(text: str, limit: int = MAX_BODY_BYTES) -> tuple[str, bool]:
    """``text`` cut to ``limit`` bytes of UTF-8 (never inside a character), and whether it was cut."""
    raw = text.encode()
    if len(raw) <= limit:
        return text, False
    return raw[:limit].decode(errors="ignore"), True


_UNPARSED = object()


def redact_body(body: bytes | None, *, route: str | None = None, document: Any = _UNPARSED) -> tuple[str | None, bool]:
    """A request or response body as it may be stored: (redacted text or None, truncated).
    ``document`` is the body already parsed (None when it is not JSON), to parse it only once."""
    if not body:
        return None, False
    if document is _UNPARSED:
        try:
            document = json.loads(body)
        except ValueError:
            document = None
    if document is None:
        return marker(body), False
    redacted = redact(document, device_tokens=route in DEVICE_TOKEN_ROUTES)
    return cut(json.dumps(redacted, ensure_ascii=False, separators=(",", ":")))


def redact_query(args: Mapping[str, list[str]], known: Iterable[str]) -> dict[str, Any] | None:
    """The known query parameters only, their values scrubbed; None when none is left."""
    kept: dict[str, Any] = {}
    for name in known:
        values = args.get(name)
        if not values:
            continue
        normalised = normal(name)
        if normalised in SECRET_NAMES or any(part in normalised for part in SECRET_PARTS):
            cleaned = [REDACTED for _ in values]
        elif normalised in RECIPIENT_NAMES:
            cleaned = [mask(value) for value in values]
        elif normalised in SEARCH_PARAMS or normalised in CONTENT_NAMES:
            cleaned = [marker(value) for value in values]
        else:
            cleaned = [scrub(value) for value in values]
        kept[name] = cleaned[0] if len(cleaned) == 1 else cleaned
    return kept or None
