"""The console's A/B experiments of an account's landing pages (``/a/{id}/experiments``)."""
