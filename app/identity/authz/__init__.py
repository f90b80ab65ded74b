"""Authorization decisions, grants and subscriptions."""
