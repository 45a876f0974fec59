"""Random ids and tokens: base64url, never starting with "-"."""

from __future__ import annotations

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
