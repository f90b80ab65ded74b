"""A software WebAuthn authenticator for tests (cryptography + cbor2, both pulled in by webauthn 3).

Speaks WebAuthn L3 JSON in and out (the server's options in, the browser's credential out), ES256,
the user-verified flag, several credentials; copied from the research notes.
"""
import hashlib, json, os, struct
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import bytes_to_base64url, base64url_to_bytes, encode_cbor

class MiniAuthenticator:
    def __init__(self, user_verified=True):
        self.creds = {}  # cred_id -> (rp_id, private_key, user_handle, counter)
        self.uv = user_verified

    def _flags(self, attested):
        return (0x01 | (0x04 if self.uv else 0) | (0x40 if attested else 0)).to_bytes(1, "big")

    def create(self, options: dict, origin: str) -> dict:
        """options = json.loads(options_to_json(reg_opts))"""
        if not any(p["alg"] == -7 for p in options["pubKeyCredParams"]):
            raise ValueError("ES256 not offered")
        rp_id = options["rp"]["id"]
        cred_id = os.urandom(32)
        key = ec.generate_private_key(ec.SECP256R1())
        self.creds[cred_id] = [rp_id, key, options["user"]["id"], 0]
        nums = key.public_key().public_numbers()
        cose = encode_cbor({1: 2, 3: -7, -1: 1, -2: nums.x.to_bytes(32, "big"), -3: nums.y.to_bytes(32, "big")})
        auth_data = (hashlib.sha256(rp_id.encode()).digest() + self._flags(True) + struct.pack(">I", 0)
                     + b"\0" * 16 + struct.pack(">H", len(cred_id)) + cred_id + cose)
        cdj = json.dumps({"type": "webauthn.create", "challenge": options["challenge"], "origin": origin}).encode()
        att = encode_cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})
        b = bytes_to_base64url
        return {"id": b(cred_id), "rawId": b(cred_id), "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": b(cdj), "attestationObject": b(att), "transports": ["internal"]}}

    def get(self, options: dict, origin: str) -> dict:
        """options = json.loads(options_to_json(auth_opts))"""
        allowed = [base64url_to_bytes(c["id"]) for c in options.get("allowCredentials", [])]
        cred_id = next(c for c in self.creds if (not allowed or c in allowed) and self.creds[c][0] == options["rpId"])
        entry = self.creds[cred_id]
        entry[3] += 1
        rp_id, key, user_handle, counter = entry
        auth_data = hashlib.sha256(rp_id.encode()).digest() + self._flags(False) + struct.pack(">I", counter)
        cdj = json.dumps({"type": "webauthn.get", "challenge": options["challenge"], "origin": origin}).encode()
        sig = key.sign(auth_data + hashlib.sha256(cdj).digest(), ec.ECDSA(hashes.SHA256()))
        b = bytes_to_base64url
        return {"id": b(cred_id), "rawId": b(cred_id), "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": b(cdj), "authenticatorData": b(auth_data),
                             "signature": b(sig), "userHandle": user_handle}}
