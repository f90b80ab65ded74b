"""Dramatiq actors, one package per system, one module per noun; ``dramatiq tasks`` runs them.

The broker is configured on import (:mod:`tasks.broker`) before any actor module loads.
"""

from tasks.broker import broker  # noqa: F401  (must come first)
from tasks.platform import alerts, delivery, domains, sns_subscriptions, webhooks, whatsapp_templates  # noqa: E402,F401
from tasks.identity import mail  # noqa: E402,F401
from tasks.crm import alerts as crm_alerts, contact_imports, deliveries, erasure, journeys, retention  # noqa: E402,F401
from tasks.pages import domains as pages_domains, experiments  # noqa: E402,F401
from tasks.runtime import leads, notices  # noqa: E402,F401
from tasks.mail import received  # noqa: E402,F401
