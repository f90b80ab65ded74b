// Herald console: passkey ceremonies (WebAuthn). A form marked data-passkey="register" or
// "sign-in" asks its data-options URL for the options (JSON, with the page's CSRF token), lets
// the browser make or use a passkey, puts the answer in its hidden fields and is submitted as an
// ordinary form. Browsers without WebAuthn's JSON helpers keep the forms hidden and see the
// data-passkey-missing note instead. No inline script, no eval (the CSP refuses both).
(function () {
  "use strict";
  var supported = !!(window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON &&
    PublicKeyCredential.parseRequestOptionsFromJSON);

  function say(form, message) {
    var status = form.querySelector("[data-passkey-status]");
    if (status) { status.textContent = message; }
  }

  function refusal(error) {
    if (error && error.name === "NotAllowedError") {
      return "No passkey was used. Try again when you are ready.";
    }
    if (error && error.name === "InvalidStateError") {
      return "This device already has a passkey for your account.";
    }
    return "Your browser could not use a passkey" + (error && error.message ? ": " + error.message : ".");
  }

  async function ceremony(form) {
    var button = form.querySelector("button[type=submit]");
    button.disabled = true;
    say(form, "Waiting for your passkey…");
    try {
      var reply = await fetch(form.getAttribute("data-options"), {
        method: "POST", credentials: "same-origin",
        headers: {"X-CSRF-Token": document.body.getAttribute("data-csrf") || "", "Accept": "application/json"}
      });
      var body = {};
      try { body = await reply.json(); } catch (ignored) { body = {}; }
      if (body.confirm) { window.location.assign(body.confirm); return; }
      if (!reply.ok || !body.options) { say(form, body.error || "Passkeys are unavailable just now."); return; }
      var credential;
      try {
        if (form.getAttribute("data-passkey") === "register") {
          credential = await navigator.credentials.create(
            {publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(body.options)});
        } else {
          credential = await navigator.credentials.get(
            {publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(body.options)});
        }
      } catch (error) { say(form, refusal(error)); return; }
      form.elements.challenge.value = body.challenge;
      form.elements.credential.value = JSON.stringify(credential.toJSON());
      say(form, "Checking your passkey…");
      form.submit();
    } catch (error) {
      say(form, "Passkeys are unavailable just now. Check your connection and try again.");
    } finally {
      button.disabled = false;
    }
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-passkey]") || form.elements.credential.value) { return; }
    event.preventDefault();
    if (supported) { ceremony(form); }
  });

  document.addEventListener("DOMContentLoaded", function () {
    if (!supported) { return; }
    document.querySelectorAll("form[data-passkey]").forEach(function (form) { form.hidden = false; });
    document.querySelectorAll("[data-passkey-missing]").forEach(function (note) { note.hidden = true; });
  });
})();
