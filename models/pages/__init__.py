"""The pages system's models (its own database): pages and versions, routing, experiments, and the
site around them (brand, forms, redirects, media, custom domains)."""

from models.pages.outbox import OutboxEntry
from models.pages.page import Destination, Experiment, Page, PageVersion, Variant
from models.pages.site import Brand, CustomDomain, DomainCheck, Form, Media, Redirect

__all__ = ["Page", "PageVersion", "Destination", "Experiment", "Variant", "Brand", "Form", "Redirect", "Media",
           "CustomDomain", "DomainCheck", "OutboxEntry"]
