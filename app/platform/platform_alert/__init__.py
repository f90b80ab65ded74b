"""Platform alert rules and their firings, on the operator surface (docs/operator.md)."""
