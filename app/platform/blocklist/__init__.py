"""The platform blocklist and its suggestions, on the operator surface (docs/operator.md)."""
