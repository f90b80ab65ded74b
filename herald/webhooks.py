"""Verifying Herald's webhooks on the receiving side: the documented import (docs/webhooks.md).

The code is :mod:`kit.webhooks`, the base module the senders sign with; this name stays for users.
"""

from kit.webhooks import (EVENT_HEADER, EVENT_ID_HEADER, SIGNATURE_HEADER, STANDARD_ID_HEADER,
                          STANDARD_SIGNATURE_HEADER, STANDARD_TIMESTAMP_HEADER, TOLERANCE_SECONDS,
                          WebhookVerificationError, parse_header, sign, signature, standard_key, standard_secret,
                          standard_signature, verify)

__all__ = ["EVENT_HEADER", "EVENT_ID_HEADER", "SIGNATURE_HEADER", "STANDARD_ID_HEADER", "STANDARD_SIGNATURE_HEADER",
           "STANDARD_TIMESTAMP_HEADER", "TOLERANCE_SECONDS", "WebhookVerificationError", "parse_header", "sign",
           "signature", "standard_key", "standard_secret", "standard_signature", "verify"]
