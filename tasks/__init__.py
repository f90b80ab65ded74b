"""Dramatiq actors, one module per concern; ``dramatiq tasks`` runs them.

The broker is configured on import (:mod:`tasks.broker`) before any actor module loads.
"""

from tasks.broker import broker  # noqa: F401  (must come first)
from tasks import delivery  # noqa: E402,F401
from tasks import dns  # noqa: E402,F401
from tasks import webhooks  # noqa: E402,F401
from tasks import identity_mail  # noqa: E402,F401
from tasks import platform_alerts  # noqa: E402,F401
from tasks import crm_retention  # noqa: E402,F401
from tasks import crm_journeys  # noqa: E402,F401
from tasks import crm_alerts, crm_deliveries  # noqa: E402,F401
from tasks import pages_domains, pages_experiments  # noqa: E402,F401
from tasks import runtime_leads  # noqa: E402,F401
from tasks import whatsapp_templates  # noqa: E402,F401
