"""The site configuration of web push, as the contract writes it: ``{PublicKey, ApiBase,
Manifest, ServiceWorker, Snippet}``.

- ``ServiceWorker``: the JavaScript of the service worker, to serve from the site's own origin
  (a service worker only controls its own origin), at ``/herald-sw.js`` by default. On a push it
  shows a notification from the payload the Web Push provider encrypts (providers/webpush.py:
  ``{title, body, data, messageId}``); a click opens ``data.url`` when there is one.
- ``Snippet``: a ``<script>`` for the site's pages. It registers the service worker and defines
  ``Herald.register(subscription)`` (sends a PushSubscription to Herald with the site key, no
  other secret) and ``Herald.subscribe()`` (asks the browser for a subscription with the
  account's VAPID public key, then registers it; call it from a user gesture). The request is a
  CORS "simple request" (``text/plain`` body): no preflight.
- ``Manifest``: a minimal web app manifest for the site (name, start URL, display).

Without a key pair (only inside a read-only support session, which may not make one)
``PublicKey`` is null and ``Snippet`` only says that web push is not set up.
"""

from __future__ import annotations

import json
from typing import Any

from app.http.openapi import STRING, described, reply_of

WORKER_PATH = "/herald-sw.js"
REGISTER_PATH = "/push/web/subscriptions"

SERVICE_WORKER = """// Herald web push service worker: serve it from your site's origin (e.g. /herald-sw.js).
self.addEventListener('push', function (event) {
  var payload = {};
  if (event.data) {
    try { payload = event.data.json(); } catch (error) { payload = {body: event.data.text()}; }
  }
  var title = payload.title || payload.Title || 'Notification';
  var options = {
    body: payload.body || payload.Body || '',
    data: Object.assign({}, payload.data || payload.Data || {}, {messageId: payload.messageId || null}),
    tag: payload.messageId || undefined
  };
  event.waitUntil(self.registration.showNotification(title, options));
});
self.addEventListener('notificationclick', function (event) {
  event.notification.close();
  var url = event.notification.data && event.notification.data.url;
  if (url) { event.waitUntil(self.clients.openWindow(url)); }
});
"""

_SNIPPET = """<script>
(function () {
  var config = {apiBase: %(api_base)s, siteKey: %(site_key)s, publicKey: %(public_key)s, worker: %(worker)s};
  function applicationServerKey(text) {
    var padded = (text + '==='.slice((text.length + 3) %% 4)).replace(/-/g, '+').replace(/_/g, '/');
    var raw = atob(padded), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
    return bytes;
  }
  var herald = window.Herald = window.Herald || {};
  herald.register = function (subscription) {
    var body = subscription && subscription.toJSON ? subscription.toJSON() : subscription;
    return fetch(config.apiBase + %(register_path)s, {
      method: 'POST', mode: 'cors', credentials: 'omit',
      headers: {'Content-Type': 'text/plain;charset=UTF-8'},
      body: JSON.stringify({SiteKey: config.siteKey, Subscription: body})
    }).then(function (answer) {
      if (!answer.ok) { throw new Error('Herald: the subscription was not registered (' + answer.status + ')'); }
      return answer.json();
    });
  };
  herald.subscribe = function () {
    return herald.ready.then(function () { return navigator.serviceWorker.ready; }).then(function (registration) {
      return registration.pushManager.getSubscription().then(function (existing) {
        return existing || registration.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: applicationServerKey(config.publicKey)});
      });
    }).then(herald.register);
  };
  herald.ready = 'serviceWorker' in navigator
    ? navigator.serviceWorker.register(config.worker)
    : Promise.reject(new Error('Herald: this browser has no service workers'));
})();
</script>"""


def _js(value: str) -> str:
    """A JavaScript string literal that cannot close the <script> element it sits in."""
    return json.dumps(value).replace("</", "<\\/").replace("<!--", "<\\!--")


# What the snippet is while the account has no key pair and the caller may not make one (a
# read-only support session): a script that says so, rather than one that would fail in a browser.
NOT_SET_UP_SNIPPET = """<script>
/* Herald: web push is not set up for this account yet: there is no VAPID key pair.
   An account member opens the web push set-up (GET /api/push/site-config) to create it. */
console.warn('Herald: web push is not set up for this account yet.');
</script>"""


def site_config(public_key: str | None, api_base: str, site_key: str | None, site_name: str) -> dict[str, Any]:
    """The contract's shape; ``public_key`` None (no pair, none made) gives ``PublicKey: null``
    and :data:`NOT_SET_UP_SNIPPET`."""
    manifest = {"name": site_name, "short_name": site_name[:12], "start_url": "/", "display": "standalone"}
    if public_key is None or site_key is None:
        return {"PublicKey": None, "ApiBase": api_base.rstrip("/"), "Manifest": manifest,
                "ServiceWorker": SERVICE_WORKER, "Snippet": NOT_SET_UP_SNIPPET}
    snippet = _SNIPPET % {"api_base": _js(api_base.rstrip("/")), "site_key": _js(site_key),
                          "public_key": _js(public_key), "worker": _js(WORKER_PATH),
                          "register_path": _js(REGISTER_PATH)}
    return {"PublicKey": public_key, "ApiBase": api_base.rstrip("/"), "Manifest": manifest,
            "ServiceWorker": SERVICE_WORKER, "Snippet": snippet}


SITE_CONFIG = reply_of(
    PublicKey=described({"type": ["string", "null"]},
                        "The account's VAPID public key; null when it has no key pair yet."),
    ApiBase=described(STRING, "The base URL the snippet sends subscriptions to."),
    Manifest=described({"type": "object"}, "A minimal web app manifest for the site (name, start URL, display)."),
    ServiceWorker=described(STRING, "The service worker's JavaScript, to serve from the site's own origin."),
    Snippet=described(STRING, "A <script> for the site's pages: registers the worker and defines Herald.subscribe()."))
