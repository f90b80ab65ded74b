"""Retention reaching the runtime: the CRM's erasure of an anonymized contact's form submissions and leads."""
