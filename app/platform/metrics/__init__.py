"""Aggregate platform metrics for staff (GET /api/admin/metrics; docs/operator.md)."""
