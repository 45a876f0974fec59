"""Hints followed alone, over HTTP or over the WebSocket, end in a `no_hint` that says
`no_useful_move`, instead of a draw and a recycle for ever; up to then a draw or a recycle
is suggested whenever drawing can still show something."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from service.solver import REASONS
from tests.service.helpers import act, greet, recv_until, subscribe
from tests.support import CheckedClient, auth

# Hints followed alone used to go round this deal's talon for ever, after 21 actions.
CODE = "TF1-D3N-AAAAAAA"
LIMIT = 60  # actions; the hints say no_useful_move after 26


def no_useful_move() -> dict[str, str]:
    english, finnish = REASONS["no_useful_move"]
    return {"reason": "no_useful_move", "message_en": english, "message_fi": finnish}


# Asking for a hint (its answer), and playing an action, over HTTP or the WebSocket.
Ask = Callable[[], dict[str, Any]]
Play = Callable[[str], None]


def follow(ask: Ask, play: Play) -> tuple[list[str], dict[str, Any]]:
    """Plays every hint until one comes without an action; the actions and that answer."""
    taken: list[str] = []
    for _ in range(LIMIT):
        answer = ask()
        if answer["hint"] is None:
            return taken, answer
        assert answer.get("no_hint") is None  # set only without a hint
        taken.append(answer["hint"]["action"])
        play(taken[-1])
    raise AssertionError(f"hints still going after {LIMIT} actions: {' '.join(taken[-30:])}")


def check_the_end(taken: list[str], answer: dict[str, Any]) -> None:
    assert answer["no_hint"] == no_useful_move()
    assert answer["hints_used"] == len(taken) + 1 and answer["version"] == len(taken)
    # The stock had been drawn through when the table last changed, and the cards drawn
    # since had all been seen before that change: yet the hints recycled and drew again,
    # round the talon to where the pass began, since a card might fit the new table.
    last_move = max(i for i, action in enumerate(taken) if action not in ("d", "r"))
    since = taken[last_move + 1 :]
    assert since[0] == "r" and set(since[1:]) == {"d"}, since


def test_hints_followed_over_http_end_in_no_useful_move(service: CheckedClient) -> None:
    game = service.post("/games", json={"code": CODE}).json()
    url, headers = f"/games/{game['game_id']}", auth(game["player_token"])

    def ask() -> dict[str, Any]:
        response = service.post(f"{url}/hint", headers=headers)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def play(action: str) -> None:
        played = service.post(f"{url}/actions", json={"action": action}, headers=headers)
        assert played.status_code == 200, played.text

    taken, answer = follow(ask, play)
    check_the_end(taken, answer)
    assert ask()["no_hint"] == no_useful_move()  # asked again: the same, and counted
    # Once the game is over there is no hint either, and the answer says why.
    assert service.post(f"{url}/resign", headers=headers).status_code == 200
    over = ask()
    assert over["hint"] is None and over["no_hint"]["reason"] == "game_over"
    assert over["hints_used"] == len(taken) + 2


def test_hints_followed_over_the_websocket_end_in_no_useful_move(service: CheckedClient) -> None:
    game = service.post("/games", json={"code": CODE}).json()
    game_id = game["game_id"]
    asked = itertools.count()
    with service.checked_websocket() as ws:
        greet(ws)
        subscribe(ws, game_id, game["player_token"])

        def ask() -> dict[str, Any]:
            rid = f"h-{next(asked)}"
            ws.send_json({"type": "hint", "id": rid, "game_id": game_id})
            answer, _ = recv_until(ws, "hint")
            assert answer["id"] == rid
            return answer

        def play(action: str) -> None:
            result, _ = act(ws, game_id, action, f"a-{next(asked)}")
            assert result["type"] == "result" and result["status"] == "accepted", result

        taken, answer = follow(ask, play)
    check_the_end(taken, answer)
