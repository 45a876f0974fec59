"""Ids and tokens the service makes: base64url, and never a leading "-", which a
command-line tool would read as an option."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from service.support.ids import new_id
from tests.races.race_support import create_race, join_race
from tests.support import CheckedClient, auth, new_game

BASE64URL = re.compile(r"^[A-Za-z0-9_-]+$")


@pytest.mark.parametrize("nbytes", [6, 12, 16, 32])
def test_new_id_is_base64url_of_the_length_token_urlsafe_gives(nbytes: int) -> None:
    drawn = [new_id(nbytes) for _ in range(3000)]
    assert all(BASE64URL.match(value) for value in drawn)
    assert {len(value) for value in drawn} == {len(secrets.token_urlsafe(nbytes))}
    assert not [value for value in drawn if value.startswith("-")]
    # "-" still appears elsewhere: only the first character is drawn again.
    assert any("-" in value for value in drawn)
    assert len(set(drawn)) == len(drawn)


def test_new_id_draws_again_while_the_draw_starts_with_a_dash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    draws = iter(["-abcdefg", "--bcdefg", "Ab-cdefg"])
    asked: list[int] = []

    def token_urlsafe(nbytes: int) -> str:
        asked.append(nbytes)
        return next(draws)

    monkeypatch.setattr(secrets, "token_urlsafe", token_urlsafe)
    assert new_id(6) == "Ab-cdefg"
    assert asked == [6, 6, 6]


@pytest.fixture
def dash_first(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every other draw of ``secrets.token_urlsafe`` (the first, third...) starts with "-":
    an id taken from it without the retry of ``new_id`` would start with one."""
    real = secrets.token_urlsafe
    drawn: list[str] = []

    def token_urlsafe(nbytes: int | None = None) -> str:
        value = real(nbytes)
        if len(drawn) % 2 == 0:
            value = "-" + value[1:]
        drawn.append(value)
        return value

    monkeypatch.setattr(secrets, "token_urlsafe", token_urlsafe)
    return drawn


def ids_and_tokens(answer: Any) -> Iterator[tuple[str, str]]:
    """Every ``*_id`` and ``*_token`` string in an answer, nested ones included."""
    if isinstance(answer, dict):
        for key, value in answer.items():
            if isinstance(value, str) and (key.endswith("_id") or key.endswith("_token")):
                yield key, value
            else:
                yield from ids_and_tokens(value)
    elif isinstance(answer, list):
        for item in answer:
            yield from ids_and_tokens(item)


def test_created_ids_and_tokens_never_start_with_a_dash(
    client: CheckedClient, dash_first: list[str]
) -> None:
    answers: list[Any] = [new_game(client, game="TF")]
    race = create_race(client, "Ada")
    answers += [race, join_race(client, race["join_code"], "Bo")]
    player = client.post("/players", json={"name": "Cy"})
    assert player.status_code == 201, player.text
    token = player.json()["player_token"]
    answers += [player.json(), new_game(client, game="DS")]
    link = client.post("/players/me/link-codes", headers=auth(token))
    assert link.status_code == 201, link.text
    linked = client.post("/players/link", json={"link_code": link.json()["link_code"]})
    assert linked.status_code == 201, linked.text
    answers.append(linked.json())

    found = dict.fromkeys(key for answer in answers for key, _ in ids_and_tokens(answer))
    assert {"game_id", "player_token", "race_id", "player_id"} <= set(found)
    made = [value for answer in answers for _, value in ids_and_tokens(answer)]
    assert [value for value in made if value.startswith("-")] == []
    assert all(BASE64URL.match(value) for value in made)
    # The service did draw values with a leading dash, and threw every one away.
    thrown = dash_first[::2]
    assert len(thrown) >= len(set(made))
    assert all(value.startswith("-") for value in thrown)
