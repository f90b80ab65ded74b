"""Dashboard session tokens: the RS256 JWT form of a live session, for the platform's /api surface."""
