"""DKIM signing off the worker's event loop, with the RSA step in OpenSSL.

dkimpy builds the DKIM-Signature (canonicalisation, header hashing, tags) but does the RSA
private-key operation in pure Python: about 10-20 ms of a core per message, on the event loop
that also serves every other delivery of the worker. Here:

- the parsed key is cached (per PEM, so per sender domain and selector): dkimpy would parse the
  ASN.1 again for every message;
- the RSA step goes to ``cryptography`` (OpenSSL, which releases the GIL), through the one name
  dkimpy calls for it (``dkim.RSASSA_PKCS1_v1_5_sign``). PKCS#1 v1.5 signatures are
  deterministic, so the bytes are exactly those dkimpy computes (tests/providers/test_smtp.py
  verifies every signature with dkimpy). Anything unexpected falls back to dkimpy's own code;
- :func:`sign_off_loop` runs the whole signature in a small thread pool, so the event loop keeps
  moving other deliveries meanwhile.
"""

from __future__ import annotations

import asyncio
import functools
from concurrent.futures import ThreadPoolExecutor

import dkim
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa, utils

_pure_python_sign = dkim.RSASSA_PKCS1_v1_5_sign
_pure_python_parse = dkim.parse_pem_private_key
_HASHES = {"sha256": hashes.SHA256, "sha1": hashes.SHA1}
# Signing threads per worker process: OpenSSL runs outside the GIL, a few are plenty.
_executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="dkim-sign")


@functools.lru_cache(maxsize=1024)
def _parsed(pem: bytes) -> dict:
    return _pure_python_parse(pem)


def _cached_parse(pem):
    return _parsed(bytes(pem))


@functools.lru_cache(maxsize=1024)
def _openssl_key(modulus: int, public_exponent: int, private_exponent: int, p: int, q: int, dmp1: int,
                 dmq1: int, iqmp: int) -> rsa.RSAPrivateKey:
    numbers = rsa.RSAPrivateNumbers(p, q, private_exponent, dmp1, dmq1, iqmp,
                                    rsa.RSAPublicNumbers(public_exponent, modulus))
    return numbers.private_key(unsafe_skip_rsa_key_validation=True)


def _openssl_sign(hash, private_key):  # noqa: A002 - dkimpy's parameter names
    algorithm = _HASHES.get(getattr(hash, "name", "").lower())
    if algorithm is None or not isinstance(private_key, dict):
        return _pure_python_sign(hash, private_key)
    key = _openssl_key(private_key["modulus"], private_key["publicExponent"], private_key["privateExponent"],
                       private_key["prime1"], private_key["prime2"], private_key["exponent1"],
                       private_key["exponent2"], private_key["coefficient"])
    return key.sign(hash.digest(), padding.PKCS1v15(), utils.Prehashed(algorithm()))


# dkimpy looks both names up in its own module at call time.
dkim.RSASSA_PKCS1_v1_5_sign = _openssl_sign
dkim.parse_pem_private_key = _cached_parse


async def sign_off_loop(function, *args):
    """``function(*args)`` (a signing function) in the signing pool."""
    return await asyncio.get_running_loop().run_in_executor(_executor, function, *args)
