"""Analytics reads (``/v1/analytics/*``) from the consumer's rollups, and the live stream (SSE)."""
