"""What the tests of players, statistics, the daily page and replays share: named
players, games that end (won or resigned) through the REST API, the page's storage."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

# The winning line lives with the client tests, whose helpers import the Python SDK.
import tests.clients.conftest  # noqa: F401  (puts clients/python on the import path)
from tests.clients.helpers import WINNING_CODE as WINNING_CODE
from tests.clients.helpers import WINNING_LINE as WINNING_LINE

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext

    from tests.web.conftest import Api


def new_player(api: Api, name: str) -> dict[str, Any]:
    created: dict[str, Any]
    status, created = api.post("/players", {"name": name})
    assert status == 201, created
    return created


def as_player(context: BrowserContext, player: dict[str, Any]) -> None:
    """Pages of ``context`` start as ``player`` (what the profile page keeps)."""
    saved = {"player_id": player["player_id"], "name": player["name"]}
    saved["token"] = player["player_token"]
    stored = json.dumps(json.dumps(saved))
    context.add_init_script(f"localStorage.setItem('solitaire.player', {stored})")


def play(
    api: Api,
    game_id: str,
    token: str,
    notations: list[str],
    before_each: Callable[[], None] | None = None,
) -> None:
    """Plays ``notations``; ``before_each`` is called before each (a test's clock moving
    on at a person's pace, say)."""
    for notation in notations:
        if before_each is not None:
            before_each()
        status, body = api.post(f"/games/{game_id}/actions", {"action": notation}, token)
        assert status == 200, (notation, body)


def won_game(api: Api, player_token: str | None = None) -> str:
    """A won Solitaire Réfléchi game (draw 1), played through the API."""
    status, created = api.post("/games", {"code": WINNING_CODE}, player_token)
    assert status == 201, created
    play(api, created["game_id"], created["player_token"], WINNING_LINE.split())
    return str(created["game_id"])


def random_play(
    api: Api,
    game_id: str,
    token: str,
    actions: int,
    seed: int,
    before_each: Callable[[], None] | None = None,
) -> None:
    """Legal moves, draws, recycles and undos chosen by a seeded random generator."""
    chooser = random.Random(seed)
    for _ in range(actions):
        legal = api.legal(game_id, token)
        undoable = api.state(game_id, token)[1]["undo_available"] > 0
        if undoable and (not legal or chooser.random() < 0.15):
            legal = ["u"]
        if not legal:
            return
        play(api, game_id, token, [chooser.choice(legal)], before_each)


def resigned_game(api: Api, request: dict[str, Any], actions: int, seed: int) -> str:
    """A game of ``request`` (a secret deal, say) played at random, then resigned."""
    status, created = api.post("/games", request)
    assert status == 201, created
    random_play(api, created["game_id"], created["player_token"], actions, seed)
    status, body = api.post(f"/games/{created['game_id']}/resign", {}, created["player_token"])
    assert status == 200, body
    return str(created["game_id"])
