"""Random ids and tokens: base64url, never starting with "-"."""

from __future__ import annotations

import base64
import hashlib
import secrets


def new_id(nbytes: int) -> str:
    """``nbytes`` random bytes as ``secrets.token_urlsafe`` writes them, never with a leading "-".

    Command-line tools read an argument that starts with "-" as an option, so such a draw
    is thrown away and another made: every string that can come out stays equally likely.
    """
    while True:
        drawn = secrets.token_urlsafe(nbytes)
        if not drawn.startswith("-"):
            return drawn


def derived_token(secret: str, *parts: str) -> str:
    """A token as secret as ``secret`` (itself a token) and fixed by it and ``parts``:
    whoever holds ``secret`` can be handed the same token again, and nobody else can
    compute it. Written like ``new_id(32)``, never with a leading "-"."""
    for attempt in range(256):
        material = "\0".join(("solitaire-token", secret, *parts, str(attempt))).encode()
        encoded = base64.urlsafe_b64encode(hashlib.sha256(material).digest()).rstrip(b"=")
        if not encoded.startswith(b"-"):
            return encoded.decode()
    raise AssertionError("256 digests in a row started with '-'")  # chance 2^-1536
