"""Message templates of an account (the dashboard's /api/templates) and rendering them for a send."""
