"""Suppressions: the account's (bounces, complaints: /v1 and /api) and the CRM's opt-outs (internal)."""
