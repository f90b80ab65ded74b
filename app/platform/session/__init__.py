"""The dashboard session (/api): the gate, sign-in and sign-out, the profile and the session list,
all answered by the identity server over app/http/services.py."""
