"""An account's own providers, per channel (the console's providers screen; docs/providers.md)."""
