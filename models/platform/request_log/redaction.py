"""What a request log may keep of a request: the redaction rules, versioned.

Rules (spec "Request log record"), applied to request and response bodies and query values:

* secrets become ``[REDACTED]``: by field name (Authorization, passwords, secrets, API and
  access tokens, verification codes ``code``/``otp``, PIN, CVV, card numbers, national tax
  ids) and by value wherever they appear in a string, field names included (API keys, JWTs,
  ``Bearer`` values, card numbers passing a Luhn check, CPF/CNPJ/SSN-shaped tax ids);
* message content (``html``, ``text``, ``subject``, ``body``, ``title``, template
  ``variables``, e-mail ``attachments`` whole: names, types and content) becomes
  ``[redacted len=<bytes> sha256=<16 hex>]`` for each string or number in it: enough to tell two
  bodies apart, never the text;
* recipients (``to``, ``cc``, ``bcc``, ``phone``, their ``*Addresses`` forms, device tokens)
  are masked, numbers included: ``a***@example.com``, ``+5**********21``, ``abcd***``;
* only the route's known query parameters are kept; free-text search (``q``) as its marker;
* a body that is not JSON cannot be inspected, so it is kept only as its content marker;
* a body is read only as far as it is kept (16 KiB of redacted JSON); the rest is kept as its
  length and hash (:mod:`.body`, which walks a body and applies these rules value by value).

Field names are compared case-insensitively with ``_`` and ``-`` ignored (``ToAddresses``,
``to_addresses`` and ``to-addresses`` are one name). Changing any rule means bumping
:data:`REDACTION_VERSION`; each stored record carries the version that redacted it.

Every pattern here runs in time linear in its input: an unbounded repetition can only start
after a fixed word (``bearer``, ``sk_live_``) or where a run of its characters starts, so no long
run is rescanned from each of its positions. The request log must never hand an attacker a way
to stall the process that answers the API.
"""

from __future__ import annotations

import enum
import hashlib
import json
import re
from json.encoder import encode_basestring
from typing import Any, Iterable, Mapping

# 2: bodies are read only as far as they are kept, the rest stored as ``[cut len= sha256=]``;
# field names are scrubbed; numbers under recipient fields are masked. 3: attachments are content.
REDACTION_VERSION = 3
REDACTED = "[REDACTED]"
JSON_REDACTED = json.dumps(REDACTED)
MAX_BODY_BYTES = 16 * 1024
# A body is read for at most this many tokens; the rest is kept as its length and hash.
MAX_TOKENS = 4096
# How far past the limit a string is still scrubbed: more than the longest secret the scrubber
# finds with spaces in it (a 19-digit card number with separators).
MARGIN = 64
# No field name we know is this long: the value of a longer one is treated as a secret (and the
# name is not searched, whatever its length).
MAX_NAME_CHARS = 256

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
_SECRET_PART = re.compile("|".join(SECRET_PARTS))
CONTENT_NAMES = frozenset({"html", "text", "subject", "body", "title", "variables", "templatevariables",
                           "attachments"})
RECIPIENT_NAMES = frozenset({
    "to", "cc", "bcc", "phone", "phonenumber", "toaddresses", "ccaddresses", "bccaddresses", "recipient",
    "recipients", "devicetoken", "devicetokens",
})
# Free-text search parameters look into message content and recipients: kept as markers.
SEARCH_PARAMS = frozenset({"q", "query", "search"})
# Inside an error object, ``code`` is the error's code, not a verification code.
ERROR_NAMES = frozenset({"error"})
# Inside message content these describe the content and are kept.
KEPT_IN_CONTENT = frozenset({"charset"})
# Device tokens are recipients, not credentials: ``Token`` of POST /v1/push/devices is masked.
DEVICE_TOKEN_ROUTES = frozenset({"/v1/push/devices"})

_API_KEY = re.compile(r"(?:sk|pk|rk)_(?:master|live|test)_[A-Za-z0-9]+")
# A run of JWT characters holding ``eyJ``: it can only start where a run starts (the look-behind),
# so each character is looked at a bounded number of times, however many ``eyJ`` the run repeats.
_JWT_RUN = re.compile(r"(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]*?eyJ[A-Za-z0-9_.-]*")
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+")
_CARD = re.compile(r"(?<![\w+.])\d(?:[ -]?\d){12,18}(?![\w])")
_CPF = re.compile(r"(?<![\w.])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\w])")
_CNPJ = re.compile(r"(?<![\w.])\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}(?![\w])")
_SSN = re.compile(r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])")
_BARE_TAX_ID = re.compile(r"(?<![\w+.])(\d{11}|\d{14})(?![\w])")
_BEARER_HINT = re.compile(r"(?i)bearer|basic")
_DIGIT = re.compile(r"\d")
_NON_DIGITS = re.compile(r"\D+")
_EMAIL = re.compile(r"^([^@\s]+)@([^@\s]+)$")


def normal(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "")


def secret_name(name: str) -> bool:
    """Whether a (normalised) field name holds a secret."""
    return name in SECRET_NAMES or _SECRET_PART.search(name) is not None


def marker(value: str | bytes) -> str:
    raw = value.encode("utf-8", "surrogatepass") if isinstance(value, str) else value
    return f"[redacted len={len(raw)} sha256={hashlib.sha256(raw).hexdigest()[:16]}]"


# --- value scanners ------------------------------------------------------------------------------

# Each digit doubled, its digits summed (Luhn): 5 -> 10 -> 1.
_LUHN_DOUBLED = str.maketrans("0123456789", "0246813579")


def luhn(digits: str) -> bool:
    # Every second digit from the right is doubled; the sum of all must end in 0.
    return sum(map(int, digits[::-1][::2] + digits[::-1][1::2].translate(_LUHN_DOUBLED))) % 10 == 0


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
    digits = _NON_DIGITS.sub("", match.group(0))
    return REDACTED if 13 <= len(digits) <= 19 and luhn(digits) else match.group(0)


def _bare_tax_id(match: re.Match) -> str:
    digits = match.group(0)
    return REDACTED if cpf_valid(digits) or cnpj_valid(digits) else digits


def _jwts(match: re.Match) -> str:
    """Each ``eyJ…<dot>…<dot>…`` of a run of JWT characters: from its ``eyJ`` to the end of the
    third dot-separated part (what ``eyJ[\\w-]*\\.[\\w-]+\\.[\\w-]*`` matches), found segment by
    segment instead of by a pattern that would rescan the run from every ``eyJ``."""
    parts = match.group(0).split(".")
    out: list[str] = []
    index = 0
    while index < len(parts):
        start = parts[index].find("eyJ")
        if start >= 0 and index + 2 < len(parts) and parts[index + 1]:
            out.append(parts[index][:start] + REDACTED)
            index += 3
        else:
            out.append(parts[index])
            index += 1
    return ".".join(out)


def scrub(text: str) -> str:
    """Secrets found by their shape anywhere in a string become ``[REDACTED]``.

    Each pattern runs only when the string holds what it cannot match without (a C-speed test):
    most strings pass one or two tests and no pattern."""
    if not text:
        return text
    if _BEARER_HINT.search(text):
        text = _BEARER.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    if "k_" in text:
        text = _API_KEY.sub(REDACTED, text)
    if "eyJ" in text:
        text = _JWT_RUN.sub(_jwts, text)
    if _DIGIT.search(text):
        if "-" in text:
            if "/" in text:
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


# --- what each value becomes, by where it sits ---------------------------------------------------

class Mode(enum.Enum):
    """How a value is redacted, decided by the field names above it."""
    PLAIN = "plain"            # scrubbed; an object's fields are judged by name
    SECRET = "secret"          # [REDACTED] (null stays null), containers included
    ERROR_CODE = "error_code"  # ``code`` of an error object: a string is scrubbed, anything else secret
    CONTENT = "content"        # every string and number becomes its marker
    CONTENT_KEPT = "kept"      # ``Charset`` inside content: a string is scrubbed, anything else content
    MASKED = "masked"          # every string and number is masked
    SKIPPED = "skipped"        # inside a container already written as [REDACTED]: nothing is written


# Looking a member up on an Enum class costs a metaclass call (Python 3.11): hot code uses these.
PLAIN, SECRET, ERROR_CODE, CONTENT = Mode.PLAIN, Mode.SECRET, Mode.ERROR_CODE, Mode.CONTENT
CONTENT_KEPT, MASKED, SKIPPED = Mode.CONTENT_KEPT, Mode.MASKED, Mode.SKIPPED
# A tuple, not a set: membership by identity, without hashing an enum member.
SCRUBBED_MODES = (PLAIN, ERROR_CODE, CONTENT_KEPT)


def field_mode(mode: Mode, parent: str, key: str, device_tokens: bool) -> tuple[Mode, str]:
    """The mode of the value of field ``key`` in an object read in ``mode``, and the name its own
    fields see as their parent. ``parent`` is the (normalised) name of the object itself."""
    if mode is PLAIN:
        if len(key) > MAX_NAME_CHARS:
            return SECRET, ""
        name = normal(key)
        if name == "token" and device_tokens:
            return MASKED, name
        if name == "code" and parent in ERROR_NAMES:
            return ERROR_CODE, name
        if secret_name(name):
            return SECRET, name
        if name in CONTENT_NAMES:
            return CONTENT, name
        if name in RECIPIENT_NAMES:
            return MASKED, name
        return PLAIN, name
    if mode in (CONTENT, CONTENT_KEPT):
        return (CONTENT_KEPT if normal(key) in KEPT_IN_CONTENT else CONTENT), parent
    return mode, parent


def container_mode(mode: Mode) -> Mode:
    """The mode of the items of an object or array that sits where ``mode`` applies."""
    if mode in (SECRET, ERROR_CODE, SKIPPED):
        return SKIPPED
    return CONTENT if mode is CONTENT_KEPT else mode


def json_text(value: str) -> str:
    """A string as JSON text that is valid UTF-8 (a lone surrogate from a ``\\ud800`` escape is
    written escaped: PostgreSQL refuses it raw)."""
    text = encode_basestring(value)  # json.dumps(value, ensure_ascii=False), without its overhead
    if not text.isascii():
        try:
            text.encode()
        except UnicodeEncodeError:
            return json.dumps(value)
    return text


def string_value(mode: Mode, value: str) -> str:
    """The JSON text a string becomes (a string in a scrubbed mode arrives already cut to size)."""
    if mode in SCRUBBED_MODES:
        return json_text(scrub(value))
    if mode is CONTENT:
        return f'"{marker(value)}"'
    if mode is MASKED:
        return json_text(mask(value))
    return JSON_REDACTED


def number_value(mode: Mode, raw: str) -> str:
    """The JSON text a number (its text as sent) becomes."""
    if mode is PLAIN:
        # A card number sent as a JSON number (an integer of 13 digits or more).
        return JSON_REDACTED if len(raw) >= 13 and raw.isdigit() and scrub(raw) != raw else raw
    if mode in (CONTENT, CONTENT_KEPT):
        return f'"{marker(raw)}"'
    if mode is MASKED:
        return json_text(mask(raw))
    return JSON_REDACTED


def literal_value(mode: Mode, raw: str) -> str:
    """The JSON text ``true``, ``false`` or ``null`` becomes."""
    if mode in (SECRET, ERROR_CODE) and raw != "null":
        return JSON_REDACTED
    return raw


# --- query strings -------------------------------------------------------------------------------

def redact_query(args: Mapping[str, list[str]], known: Iterable[str]) -> dict[str, Any] | None:
    """The known query parameters only, their values scrubbed; None when none is left."""
    kept: dict[str, Any] = {}
    for name in known:
        values = args.get(name)
        if not values:
            continue
        normalised = normal(name)
        if secret_name(normalised):
            cleaned = [REDACTED for _ in values]
        elif normalised in RECIPIENT_NAMES:
            cleaned = [mask(value) for value in values]
        elif normalised in SEARCH_PARAMS or normalised in CONTENT_NAMES:
            cleaned = [marker(value) for value in values]
        else:
            cleaned = [scrub(value) for value in values]
        kept[name] = cleaned[0] if len(cleaned) == 1 else cleaned
    return kept or None
