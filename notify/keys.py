"""VAPID key pairs (RFC 8292) for web push, in the forms the settings take."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def new_pair() -> dict[str, str]:
    """A fresh P-256 pair: the public key as the browsers' applicationServerKey
    wants it (the raw uncompressed point), the private as the raw 32-byte
    number, both base64url without padding."""
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(serialization.Encoding.X962,
                                               serialization.PublicFormat.UncompressedPoint)
    return {"WEBPUSH_VAPID_PUBLIC_KEY": _b64url(public),
            "WEBPUSH_VAPID_PRIVATE_KEY": _b64url(private.private_numbers().private_value.to_bytes(32, "big"))}
