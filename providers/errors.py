"""What a provider may raise. Delivery catches by layer:

    ProviderError
    ├── TransientProviderError(retry_after)   try again later (honour retry_after seconds when given)
    ├── PermanentProviderError                 this message can never go: fail it with the reason
    │   ├── InvalidDeviceToken                 the push token is no longer valid: also forget the device
    │   └── RecipientBounced                   the recipient's server refused it for good (SMTP 5xx at
    │                                          RCPT): a hard bounce, the address suppressed
    └── ProviderConfigError                    the provider is misconfigured: fail, and tell the operator
"""

from __future__ import annotations


class ProviderError(Exception):
    pass


class TransientProviderError(ProviderError):
    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


class PermanentProviderError(ProviderError):
    pass


class InvalidDeviceToken(PermanentProviderError):
    """The push service says this device token is gone (unregistered, expired): delete the device."""


class RecipientBounced(PermanentProviderError):
    """A hard bounce at hand-off: the message ends ``bounced`` and the address is suppressed (docs/bounces.md)."""


class ProviderConfigError(ProviderError):
    pass


class ProviderLoadError(Exception):
    """A plug-in failed to load or two share a key: stops the worker at start."""
