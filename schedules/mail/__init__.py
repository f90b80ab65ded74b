"""The mail system's periodic jobs."""
