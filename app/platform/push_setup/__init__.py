"""Web push on an account's own site: the site configuration (VAPID public key, service worker,
snippet) on the dashboard, and the public route the snippet registers browsers' subscriptions with."""
