/* Herald pixel (docs/runtime.md). Page views, clicks (positions as percentages of the page), scroll
   depth and custom events (window.herald.track(name, props)) go to POST /collect; when the pixel's
   credential allows replay, rrweb (served by this runtime) records the session with every input
   masked and batches go to POST /replay. No cookie: a random session id lives in sessionStorage
   (30 minutes idle). The credential comes from this script's ?k= or its data-credential attribute. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !window.fetch || !window.URL) return;
  var src = new URL(script.src, location.href);
  var credential = script.getAttribute("data-credential") || src.searchParams.get("k");
  if (!credential) return;
  var base = src.origin;
  var page = script.getAttribute("data-page") || location.pathname;
  var variant = script.getAttribute("data-variant") || "";
  var IDLE = 30 * 60 * 1000, KEY = "herald_px";
  function newId() {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  var session = null, fresh = false;
  try {
    var saved = JSON.parse(sessionStorage.getItem(KEY) || "null");
    if (saved && Date.now() - saved.at < IDLE) session = saved.id;
  } catch (e) { /* storage refused: a session per page view */ }
  if (!session) { session = newId(); fresh = true; }
  function touch() {
    try { sessionStorage.setItem(KEY, JSON.stringify({ id: session, at: Date.now() })); } catch (e) { /* ignored */ }
  }
  touch();
  function send(path, body) {
    var data = JSON.stringify(body);
    try {
      fetch(base + path + "?k=" + encodeURIComponent(credential), {
        method: "POST", body: data, mode: "cors", credentials: "omit", keepalive: data.length < 60000,
        headers: { "Content-Type": "text/plain" }
      })["catch"](function () { /* analytics never breaks the page */ });
    } catch (e) { /* ignored */ }
  }
  var queue = [], timer = null;
  function flush() {
    timer = null;
    while (queue.length) send("/collect", { Session: session, Events: queue.splice(0, 50) });
  }
  function push(event) {
    event.Page = page;
    event.Variant = variant;
    event.Url = location.href;
    event.Time = Date.now();
    event.Width = window.innerWidth;
    queue.push(event);
    touch();
    if (!timer) timer = setTimeout(flush, 1000);
  }
  push({ Type: "pageview", Referrer: document.referrer || "", New: fresh });
  document.addEventListener("click", function (e) {
    var doc = document.documentElement;
    var width = Math.max(doc.scrollWidth, doc.clientWidth, 1);
    var height = Math.max(doc.scrollHeight, doc.clientHeight, 1);
    push({ Type: "click", X: Math.min(100, Math.max(0, e.pageX / width * 100)),
           Y: Math.min(100, Math.max(0, e.pageY / height * 100)) });
  }, true);
  var deepest = 0;
  window.addEventListener("scroll", function () {
    var doc = document.documentElement;
    var depth = Math.min(100, Math.round((window.scrollY + window.innerHeight) / Math.max(doc.scrollHeight, 1) * 100));
    if (depth >= deepest + 10 || (depth === 100 && deepest < 100)) {
      deepest = depth;
      push({ Type: "scroll", Depth: depth });
    }
  }, { passive: true });
  window.addEventListener("pagehide", flush);
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "hidden") flush(); });
  window.herald = window.herald || {};
  window.herald.track = function (name, props) {
    push({ Type: "custom", Name: String(name).slice(0, 100), Props: props || {} });
  };

  var claims = null;
  try {
    var body = credential.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    claims = JSON.parse(atob(body + "===".slice((body.length + 3) % 4)));
  } catch (e) { return; }
  if (!claims || !claims.r || script.getAttribute("data-replay") === "off") return;
  var recorder = document.createElement("script");
  recorder.async = true;
  recorder.src = base + "/pixel/rrweb.min.js";
  recorder.onload = function () {
    var buffer = [], LIMIT = 250000; /* bytes of a batch's events: the edge takes 256 KiB (413 beyond) */
    function bytes(text) {
      return window.TextEncoder ? new TextEncoder().encode(text).length : unescape(encodeURIComponent(text)).length;
    }
    function ship() {
      var batch = [], size = 0;
      while (buffer.length) {
        var event = buffer.shift(), length = bytes(JSON.stringify(event)) + 1;
        if (length > LIMIT) continue; /* one event past a batch (a huge snapshot) is never taken: skip it */
        if (size + length > LIMIT) { send("/replay", { Session: session, Page: page, Events: batch }); batch = []; size = 0; }
        batch.push(event);
        size += length;
      }
      if (batch.length) send("/replay", { Session: session, Page: page, Events: batch });
    }
    window.rrweb.record({
      emit: function (event) { buffer.push(event); if (buffer.length >= 100) ship(); },
      maskAllInputs: true, blockClass: "herald-block"
    });
    setInterval(ship, 5000);
    window.addEventListener("pagehide", ship);
  };
  (document.head || document.documentElement).appendChild(recorder);
})();
