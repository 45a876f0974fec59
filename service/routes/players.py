"""HTTP routes of players, statistics, the daily challenge and leaderboards."""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..errors import ServiceError
from ..guards.quotas import AddressQuota
from ..http import bearer_token, json_response, read_body
from ..players import Players, clean_name
from ..players.boards import Boards, check_paging
from ..players.careers import Careers
from ..players.daily import Daily
from ..players.ratings import Ratings
from ..players.stats import Results, public_stats
from ..protocol import ErrorCode
from ..protocol.players import CreatePlayerRequest, DailyPlayRequest, LinkRequest, RenameRequest


def _players(request: Request) -> Players:
    players: Players = request.app.state.players
    return players


_DIGITS = re.compile(r"[0-9]{1,10}")


def _int_query(request: Request, name: str, default: int) -> int:
    """A whole number written in plain digits (no sign, space, point or other digits)."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not _DIGITS.fullmatch(raw):
        raise ServiceError(ErrorCode.BAD_MESSAGE, 422, f"{name} must be a whole number (digits)")
    return int(raw)


def _paging(request: Request) -> tuple[int, int, int]:
    """``top``, ``around`` and ``offset`` of a board's page, checked."""
    paging = (
        _int_query(request, "top", 10),
        _int_query(request, "around", 5),
        _int_query(request, "offset", 0),
    )
    check_paging(*paging)
    return paging


async def create_player(request: Request) -> Response:
    body = await read_body(request, CreatePlayerRequest)
    client = request.client.host if request.client else ""
    limit = request.app.state.settings.players_per_hour
    games = request.app.state.games
    quota = AddressQuota(games.store, "new players", client, limit, 3600, now=games.clock())
    name = clean_name(body.name)  # a name refused is no player made: it does not count
    await quota.take()
    try:
        created = await _players(request).create(name)
    except ServiceError:
        await quota.give_back()
        raise
    return json_response(created, 201, {"location": "/players/me"})


def _ratings(request: Request) -> Ratings:
    ratings: Ratings = request.app.state.ratings
    return ratings


async def get_me(request: Request) -> Response:
    me = await _players(request).me(bearer_token(request))
    return json_response({**me, "ratings": await _ratings(request).of(me["player_id"])})


async def rename_me(request: Request) -> Response:
    body = await read_body(request, RenameRequest)
    return json_response(await _players(request).rename(bearer_token(request), body.name))


async def new_link_code(request: Request) -> Response:
    return json_response(await _players(request).link_code(bearer_token(request)), 201)


async def link_device(request: Request) -> Response:
    body = await read_body(request, LinkRequest)
    settings = request.app.state.settings
    client = request.client.host if request.client else ""
    limit = settings.code_failures_per_minute
    games = request.app.state.games
    wrong = AddressQuota(games.store, "wrong link codes", client, limit, now=games.clock())
    return json_response(await _players(request).link(body.link_code, wrong), 201)


async def revoke_other_tokens(request: Request) -> Response:
    return json_response(await _players(request).revoke(bearer_token(request)))


async def my_stats(request: Request) -> Response:
    """The player's own statistics: with their unverified games, and whether they stand
    on public boards."""
    player = await _players(request).authenticate(bearer_token(request))
    careers: Careers = request.app.state.careers
    await careers.repair_latest(player)
    doc = await careers.results.document(player.player_id)
    refusal = await careers.board_refusal(player.player_id, doc)
    return json_response(
        {
            "player_id": player.player_id,
            "name": player.name,
            **public_stats(doc, own=True),
            "boards": {"eligible": refusal is None, "reason": refusal},
            "ratings": await _ratings(request).of(player.player_id),
        }
    )


async def player_stats(request: Request) -> Response:
    player = await _players(request).load(request.path_params["player_id"])
    results: Results = request.app.state.results
    stats = await results.stats(player.player_id)
    ratings = await _ratings(request).of(player.player_id)
    return json_response(
        {"player_id": player.player_id, "name": player.name, **stats, "ratings": ratings}
    )


async def daily_overview(request: Request) -> Response:
    daily: Daily = request.app.state.daily
    return json_response(await daily.overview(bearer_token(request)))


async def daily_play(request: Request) -> Response:
    daily: Daily = request.app.state.daily
    date, mode = request.path_params["date"], request.path_params["mode"]
    # Read to refuse what is not an empty body or {"ranked": true}: every attempt is ranked.
    await read_body(request, DailyPlayRequest)
    created = await daily.play(date, mode, bearer_token(request))
    location = f"/games/{created['game_id']}"
    return json_response(created, 201, {"location": location})


async def daily_board(request: Request) -> Response:
    daily: Daily = request.app.state.daily
    date, mode = request.path_params["date"], request.path_params["mode"]
    paging = _paging(request)
    board = await daily.board(date, mode, bearer_token(request), *paging)
    return json_response(board)


async def all_time_board(request: Request) -> Response:
    boards: Boards = request.app.state.boards
    paging = _paging(request)
    token = bearer_token(request)
    you = await _players(request).player_id_of(token) if token else None
    board = await boards.all_time(request.path_params["board"], you, *paging)
    return json_response(board)


PLAYER_ROUTES = [
    Route("/players", create_player, methods=["POST"]),
    Route("/players/me", get_me, methods=["GET"]),
    Route("/players/me", rename_me, methods=["PATCH"]),
    Route("/players/me/link-codes", new_link_code, methods=["POST"]),
    Route("/players/me/revoke-others", revoke_other_tokens, methods=["POST"]),
    Route("/players/me/stats", my_stats, methods=["GET"]),
    Route("/players/link", link_device, methods=["POST"]),
    Route("/players/{player_id}/stats", player_stats, methods=["GET"]),
    Route("/daily", daily_overview, methods=["GET"]),
    Route("/daily/{date}/{mode}/games", daily_play, methods=["POST"]),
    Route("/daily/{date}/{mode}", daily_board, methods=["GET"]),
    Route("/leaderboards/{board}", all_time_board, methods=["GET"]),
]
