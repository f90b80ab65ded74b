"""What every console page shows around its content, in one answer: ``GET /api/me/navigation``."""
