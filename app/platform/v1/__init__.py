"""The public API-key surface, /v1."""
