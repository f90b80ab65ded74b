"""The body of POST /push/web/subscriptions (strict: an unknown field is a 400 naming it)."""

from __future__ import annotations

from app.http.bodies import Body, example


class SubscriptionRegistration(Body):
    # The snippet's site key and the browser's PushSubscription.toJSON(); a site key nobody issued is 403.
    model_config = example({
        "SiteKey": "wpk_acc_0123456789abcdef01234567.0123456789abcdef0123456789abcdef01234567",
        "Subscription": {
            "endpoint": "https://fcm.googleapis.com/fcm/send/dGVzdC1kZXZpY2U",
            "keys": {"p256dh": "BAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0-P0A",
                     "auth": "AAECAwQFBgcICQoLDA0ODw"},
        },
    })

    site_key: str
    """The site key of the account's snippet (wpk_...)."""
    subscription: dict
    """The browser's PushSubscription.toJSON(): endpoint and keys."""
