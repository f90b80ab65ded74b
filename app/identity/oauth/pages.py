"""The server-rendered login pages of /authorize: plain HTML, no script needed for password and
code, labelled fields, errors announced (role="alert") and tied to their field."""

from __future__ import annotations

from html import escape

from sanic import HTTPResponse

HEADERS = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline' 'self'; "
                               "connect-src 'self'; form-action 'self' http: https:; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}

STYLE = ("body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;line-height:1.5}"
         "label{display:block;margin-top:1rem;font-weight:600}input{width:100%;padding:.5rem;font-size:1rem;"
         "box-sizing:border-box}button{margin-top:1.25rem;padding:.6rem 1.2rem;font-size:1rem}"
         ".error{border:2px solid #b00020;padding:.5rem;color:#b00020}:focus{outline:3px solid #1a5fb4}")


def page(title: str, body: str, status: int = 200) -> HTTPResponse:
    html = (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1"><title>{escape(title)} · Herald</title>'
            f"<style>{STYLE}</style></head><body><main><h1>{escape(title)}</h1>{body}</main></body></html>")
    return HTTPResponse(html, status=status, headers=HEADERS, content_type="text/html; charset=utf-8")


def _error(message: str | None) -> str:
    return f'<p class="error" role="alert" id="form-error">{escape(message)}</p>' if message else ""


def _described(message: str | None) -> str:
    return ' aria-describedby="form-error" aria-invalid="true"' if message else ""


def login_form(request_blob: str, client_name: str, *, email: str = "", error: str | None = None,
               status: int = 200) -> HTTPResponse:
    body = (f"<p>Sign in to continue to <strong>{escape(client_name)}</strong>.</p>{_error(error)}"
            f'<form method="post" action="/authorize">'
            f'<input type="hidden" name="request" value="{escape(request_blob)}">'
            f'<input type="hidden" name="step" value="password">'
            f'<label for="email">E-mail</label>'
            f'<input id="email" name="email" type="email" autocomplete="username" required value="{escape(email)}"'
            f'{_described(error)}>'
            f'<label for="password">Password</label>'
            f'<input id="password" name="password" type="password" autocomplete="current-password" required'
            f'{_described(error)}>'
            f'<button type="submit">Sign in</button></form>'
            f'<form method="post" action="/authorize" id="passkey-form" hidden>'
            f'<input type="hidden" name="request" value="{escape(request_blob)}">'
            f'<input type="hidden" name="step" value="passkey">'
            f'<input type="hidden" name="challenge_id"><input type="hidden" name="credential">'
            f'<button type="button" id="passkey-button">Sign in with a passkey</button></form>'
            f"<script>{PASSKEY_SCRIPT}</script>")
    return page("Sign in", body, status)


def code_form(request_blob: str, ticket: str, *, error: str | None = None, status: int = 200,
              by_email: bool = False) -> HTTPResponse:
    where = "we just e-mailed to you" if by_email else "from your authenticator app"
    body = (f"<p>Enter the 6-digit code {where}, or one of your recovery codes.</p>"
            f"{_error(error)}"
            f'<form method="post" action="/authorize">'
            f'<input type="hidden" name="request" value="{escape(request_blob)}">'
            f'<input type="hidden" name="step" value="totp">'
            f'<input type="hidden" name="by_email" value="{1 if by_email else 0}">'
            f'<input type="hidden" name="ticket" value="{escape(ticket)}">'
            f'<label for="code">Authentication code</label>'
            f'<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*"'
            f' maxlength="7" autofocus{_described(error)}>'
            f'<label for="recovery_code">Or a recovery code (XXXX-XXXX-XXXX)</label>'
            f'<input id="recovery_code" name="recovery_code" autocomplete="off">'
            f'<button type="submit">Continue</button></form>')
    return page("Two-step verification", body, status)


def error_page(message: str, status: int = 400) -> HTTPResponse:
    return page("Cannot sign in", f'<p role="alert">{escape(message)}</p>', status)


# Progressive enhancement: shown only when the browser supports WebAuthn JSON helpers.
PASSKEY_SCRIPT = """
(function(){var f=document.getElementById('passkey-form');
if(!window.PublicKeyCredential||!PublicKeyCredential.parseRequestOptionsFromJSON)return;f.hidden=false;
document.getElementById('passkey-button').addEventListener('click',async function(){
var r=await fetch('/v1/passkeys/login/options',{method:'POST',headers:{'content-type':'application/json'},body:'{}'});
var o=await r.json();var c=await navigator.credentials.get({publicKey:PublicKeyCredential.parseRequestOptionsFromJSON(o.options)});
f.challenge_id.value=o.challenge_id;f.credential.value=JSON.stringify(c.toJSON());f.submit();});})();
"""
