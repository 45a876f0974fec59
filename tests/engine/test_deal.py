"""The portable deal (docs/deal.md) and game codes (CODE-1), pinned by test vectors.

The vectors below are the ones printed in docs/deal.md. Front ends in other languages
reproduce deals from them, so a change here is a breaking change of every game code.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.engine import (
    DEAL_COUNT,
    DoubleSolitaire,
    GameCode,
    GameKind,
    InvalidCodeError,
    Scoring,
    SolitaireError,
    SolitaireReflechi,
    new_game,
    secret_shuffled_deck,
    shuffled_deck,
)
from service.engine.cards import CARD_TEXT, cards_text, parse_cards
from service.engine.deal import (
    SECRET_LETTERS,
    deal_letters,
    deal_number,
    secret_stream,
    splitmix64,
)

# --------------------------------------------------------------------------- vectors

SPLITMIX64_OUTPUTS = {
    0: ["e220a8397b1dcdaf", "6e789e6aa1b965f4", "06c45d188009454f", "f88bb8a8724c81ec"],
    1: ["910a2dec89025cc1", "beeb8da1658eec67", "f893a2eefb32555e", "71c18690ee42c90b"],
    5206182872: ["4e898a07e986a86f", "b86a46708425f0c1", "eae706682398372f"],
}

SHUFFLED = {
    # code -> the whole shuffled deck, position 0 first
    "DS1-D1N-AAAAAAA": (
        "3H8CJS6S4H2DTS7HAD8HTH6SADKCJDKH5H9H5C9S3DQD5DJCQSTH8S3DJD2SAS9SKCKD4C7D5S9D6H2H2S6C"
        "3SKSASQCJH8D4S9D5D3H6DQD5S6H8SAH7S7H8H6DTC4C8CQS2H7D2C2D9HQC5HKH3C4D7S4HJC3C7C3STSJH"
        "AC2CJSKDQH9C4D6C4SAH7CTDAC8DTC9CKS5CQHTD"
    ),
    "DS1-D1N-AAAAAAB": (
        "6D7DJS8SKC7H6C8S6S9S5STDKHJDADQCTC4H3S4SJS9CJCKS5C3C7CAS8C9S8H9HQH3H6S7HACAHAC6H6DKD"
        "3DKSJCTH5C5H2H3C2S8D7S4C8D2DJD2C9D2S5S9C5D7S3S6C2CADTD4C9DQD4S4HQCQD2D9H4DQSKCTS7D6H"
        "5H5DAHTC2HKDQH3D8CQS3H8HTHKHJHTSJHAS4D7C"
    ),
    "TF1-D1N-AAAAAAB": (
        "7H9S4H8D8H5CJH6H9CJS5HKH3S2HJD5D7D4D2SAH6CKSKDTDTCJCTH8CQS4C6S7SAC5SADKC6DQCQDQH9H3H"
        "3CAS4S2D8STS3D2C9D7C"
    ),
    "TF1-D3N-QWERTYU": (
        "2CJD4CKD6DAHQS5C5H7D3HKH8HAC6STC7CAS8S3S6HQD5DQC4DJC2D9CQH7H2S2HTDAD9S9HJS3C8C6CJH9D"
        "KS4H8D5STH7S3DTS4SKC"
    ),
}

OPENING = {
    "DS1-D1N-AAAAAAB": (
        "DS 1N |6D/7D|JS/8SKC|7H/6C8S6S|9S/5STDKHJD|AD/QCTC4H3S4S|JS/9CJCKS5C3C7C|AS/"
        "8C9S8H9HQH3H6S|7H/ACAHAC6H6DKD3DKS|JC 7C4DASJHTSJHKHTH8H3HQS8C3DQHKD2HTCAH5D5H6H"
        "7DTSKCQS4D9H2DQDQC4H4SQD9D4CTDAD2C6C3S7S5D9C5S2S9D2CJD2D8D4C7S8D2S3C2H5H5CTH - "
        "-------- 0 0"
    ),
    "TF1-D3N-QWERTYU": (
        "TF 3N |2C/|JD4C/|KD6DAH/|QS5C5H7D/|3HKH8HAC6S/|TC7CAS8S3S6H/|QD5DQC4DJC2D9C "
        "KC4STS3D7STH5S8D4HKS9DJH6C8C3CJS9H9SADTD2H2S7HQH - ---- 0 0"
    ),
}


@pytest.mark.parametrize("seed", sorted(SPLITMIX64_OUTPUTS))
def test_splitmix64_outputs(seed: int) -> None:
    state = seed
    outputs = []
    for _ in SPLITMIX64_OUTPUTS[seed]:
        state, value = splitmix64(state)
        assert 0 <= value < 2**64 and 0 <= state < 2**64
        outputs.append(f"{value:016x}")
    assert outputs == SPLITMIX64_OUTPUTS[seed]


def test_splitmix64_wraps_at_64_bits() -> None:
    state, value = splitmix64(2**64 - 1)
    assert state == (2**64 - 1 + 0x9E3779B97F4A7C15) % 2**64
    assert 0 <= value < 2**64


@pytest.mark.parametrize("code", sorted(SHUFFLED))
def test_shuffled_deck_vectors(code: str) -> None:
    parsed = GameCode.parse(code)
    assert cards_text(shuffled_deck(parsed.game, parsed.deal)) == SHUFFLED[code]


def test_qwertyu_is_deal_5206182872() -> None:
    assert GameCode.parse("TF1-D3N-QWERTYU").deal == 5206182872


def _reference_shuffle(copies: int, deal: int) -> list[int]:
    """docs/deal.md step by step, written independently of the engine's loop."""
    mask = 2**64 - 1
    deck = [card for _ in range(copies) for card in range(52)]
    state = deal
    for i in range(len(deck) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        j = z % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@settings(max_examples=40, deadline=None)
@given(deal=st.integers(0, DEAL_COUNT - 1), game=st.sampled_from(list(GameKind)))
def test_shuffle_follows_the_spec(deal: int, game: GameKind) -> None:
    assert shuffled_deck(game, deal) == _reference_shuffle(game.deck_copies, deal)


@pytest.mark.parametrize("code", sorted(OPENING))
def test_opening_position_vectors(code: str) -> None:
    assert new_game(code).position_text() == OPENING[code]


# --------------------------------------------------------------------------- dealing


def _draw_everything(code: str) -> list[int]:
    game = new_game(code.replace("-D3", "-D1"))
    drawn: list[int] = []
    while game.stock:
        drawn.extend(game.play_text("d").cards)
    return drawn


@settings(max_examples=25, deadline=None)
@given(deal=st.integers(0, DEAL_COUNT - 1), draw=st.sampled_from([1, 3]))
def test_DS_DEAL_1_to_3_layout(deal: int, draw: int) -> None:
    code = GameCode(GameKind.DOUBLE, draw, Scoring.NORMAL, deal)
    game = new_game(code)
    deck = shuffled_deck(GameKind.DOUBLE, deal)
    # DS-DEAL-1: 104 cards, each twice.
    assert len(deck) == 104 and set(Counter(deck).values()) == {2}
    # DS-DEAL-2: nine columns of 1..9 cards, only the last face up, 36 hidden.
    assert [len(c) for c in game.columns] == list(range(1, 10))
    assert game.down == list(range(9))
    assert sum(game.down) == 36
    taken = 0
    for size, col in enumerate(game.columns, start=1):
        assert col == deck[taken : taken + size]  # the first card taken is the bottom one
        taken += size
    # DS-DEAL-3: 59 in the stock, the waste and 8 foundations empty.
    assert len(game.stock) == 59 and game.waste == [] and game.foundations == [0] * 8
    assert game.score == 0 and game.moves == 0 and not game.won
    assert len(game.hidden_cards()) == 36 + 59
    # The first card left after dealing is drawn first.
    assert _draw_everything(str(code)) == deck[45:]


@settings(max_examples=25, deadline=None)
@given(deal=st.integers(0, DEAL_COUNT - 1), draw=st.sampled_from([1, 3]))
def test_TF_DEAL_1_to_3_layout(deal: int, draw: int) -> None:
    code = GameCode(GameKind.REFLECHI, draw, Scoring.NORMAL, deal)
    game = new_game(code)
    deck = shuffled_deck(GameKind.REFLECHI, deal)
    # TF-DEAL-1: one deck of 52.
    assert sorted(deck) == list(range(52))
    # TF-DEAL-2: seven columns of 1..7 cards, all face up.
    assert [len(c) for c in game.columns] == list(range(1, 8))
    assert game.down == [0] * 7
    assert [c for col in game.columns for c in col] == deck[:28]
    # TF-DEAL-3: 24 in the stock, the waste and 4 foundations empty.
    assert len(game.stock) == 24 and game.waste == [] and game.foundations == [0] * 4
    assert game.hidden_cards() == game.stock
    assert _draw_everything(str(code)) == deck[28:]


def test_DS_vegas_deal_starts_at_minus_104() -> None:
    game = new_game("DS1-D3V-AAAAAAB")
    assert game.score == -104 and game.score_display == "-$104"


def test_deal_classes_refuse_a_code_of_the_other_game() -> None:
    with pytest.raises(SolitaireError):
        DoubleSolitaire.deal(GameCode.parse("TF1-D1N-AAAAAAB"))
    with pytest.raises(SolitaireError):
        SolitaireReflechi.deal(GameCode.parse("DS1-D1N-AAAAAAB"))


# --------------------------------------------------------------------------- codes


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("DS1-D1N-AAAAAAB", "DS1-D1N-AAAAAAB"),
        ("ds1-d1n-aaaaaab", "DS1-D1N-AAAAAAB"),
        ("Ds1-D3v-qWeRtYu", "DS1-D3V-QWERTYU"),
        ("tf1-d3n-qwertyu", "TF1-D3N-QWERTYU"),
        ("  TF1-D1N-ZZZZZZZ \n", "TF1-D1N-ZZZZZZZ"),
    ],
)
def test_CODE_1_parses_any_case_and_shows_upper_case(text: str, shown: str) -> None:
    code = GameCode.parse(text)
    assert str(code) == shown
    assert GameCode.parse(str(code)) == code
    assert str(new_game(text).code) == shown


def test_CODE_1_fields() -> None:
    code = GameCode.parse("DS1-D3V-AAAAABA")
    assert (code.game, code.draw, code.scoring, code.deal) == (
        GameKind.DOUBLE,
        3,
        Scoring.VEGAS,
        26,
    )


@pytest.mark.parametrize(
    "text",
    [
        "TF1-D1V-AAAAAAB",  # Vegas does not exist for Solitaire Réfléchi (TF-SCORE-3)
        "tf1-d3v-aaaaaab",
        "DS2-D1N-AAAAAAB",
        "TF2-D1N-AAAAAAB",
        "XX1-D1N-AAAAAAB",
        "DS1-D2N-AAAAAAB",
        "DS1-D0N-AAAAAAB",
        "DS1-D1X-AAAAAAB",
        "DS1-D1N-AAAAAA",
        "DS1-D1N-AAAAAAAA",
        "DS1-D1N-AAAAAA1",
        "DS1-D1N-1234567",
        "DS1D1NAAAAAAB",
        "DS1-D1N-AAA-AAAB",
        "",
        "DS1-D1N-AAAAAAB extra",
    ],
)
def test_CODE_1_rejects_invalid_codes(text: str) -> None:
    with pytest.raises(InvalidCodeError):
        GameCode.parse(text)
    with pytest.raises(InvalidCodeError):
        new_game(text)


def test_invalid_code_error_is_a_value_error() -> None:
    assert issubclass(InvalidCodeError, ValueError)
    assert issubclass(InvalidCodeError, SolitaireError)


@pytest.mark.parametrize("text", ["DS1-D1N-AAAAAß", "DS1-D1N-AAAAAAı", "DS1-D1N-AAAAAAſ"])
def test_CODE_1_rejects_non_ascii_letters(text: str) -> None:
    with pytest.raises(InvalidCodeError):
        GameCode.parse(text)


def test_CODE_1_deal_number_boundaries() -> None:
    assert deal_number("AAAAAAA") == 0
    assert deal_number("AAAAAAB") == 1
    assert deal_number("AAAAABA") == 26
    assert deal_number("BAAAAAA") == 26**6
    assert deal_number("ZZZZZZZ") == 26**7 - 1 == DEAL_COUNT - 1
    assert GameCode.parse("DS1-D1N-AAAAAAA").deal == 0
    assert GameCode.parse("DS1-D1N-ZZZZZZZ").deal == DEAL_COUNT - 1
    assert deal_letters(0) == "AAAAAAA"
    assert deal_letters(DEAL_COUNT - 1) == "ZZZZZZZ"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, DEAL_COUNT - 1))
def test_CODE_1_deal_letters_round_trip(deal: int) -> None:
    letters = deal_letters(deal)
    assert len(letters) == 7 and letters.isalpha() and letters.isupper()
    assert deal_number(letters) == deal
    assert deal_number(letters.lower()) == deal


@pytest.mark.parametrize("deal", [-1, DEAL_COUNT])
def test_CODE_1_deal_number_out_of_range(deal: int) -> None:
    with pytest.raises(InvalidCodeError):
        GameCode(GameKind.DOUBLE, 1, Scoring.NORMAL, deal)


@pytest.mark.parametrize("draw", [0, 2, 6, 8])
def test_CODE_1_draw_must_be_1_or_3(draw: int) -> None:
    with pytest.raises(InvalidCodeError):
        GameCode(GameKind.DOUBLE, draw, Scoring.NORMAL, 1)


def test_random_codes_are_valid() -> None:
    for kind in GameKind:
        code = GameCode.random(kind, 3)
        assert GameCode.parse(str(code)) == code
        assert code.draw == 3 and code.scoring is Scoring.NORMAL


@pytest.mark.parametrize("letters", ["AAAAAAA", "AAAAAAB", "QWERTYU", "ZZZZZZZ"])
def test_deal_depends_only_on_game_and_number(letters: str) -> None:
    """CODE-1: draw mode and scoring never change which cards a deal holds."""
    ds = [new_game(f"DS1-D{d}{s}-{letters}") for d in "13" for s in "NV"]
    layouts = {(str(g.columns), str(g.down), str(g.stock)) for g in ds}
    assert len(layouts) == 1
    tf = [new_game(f"TF1-D{d}N-{letters}") for d in "13"]
    assert tf[0].columns == tf[1].columns and tf[0].stock == tf[1].stock
    # The same letters in the other game give the other game's deck, not a copy.
    assert cards_text(shuffled_deck(GameKind.REFLECHI, deal_number(letters))) != cards_text(
        shuffled_deck(GameKind.DOUBLE, deal_number(letters))[:52]
    )


def test_DS1_D1N_and_DS1_D3V_give_the_same_cards() -> None:
    a = new_game("DS1-D1N-QWERTYU")
    b = new_game("ds1-d3v-qwertyu")
    assert a.position_text().split()[2:4] == b.position_text().split()[2:4]
    assert (a.draw, a.scoring, b.draw, b.scoring) == (1, Scoring.NORMAL, 3, Scoring.VEGAS)


def test_card_numbering() -> None:
    """card = suit * 13 + rank - 1, suits S H D C, ranks A..K."""
    assert [CARD_TEXT[c] for c in (0, 12, 13, 25, 26, 38, 39, 51)] == [
        "AS",
        "KS",
        "AH",
        "KH",
        "AD",
        "KD",
        "AC",
        "KC",
    ]
    assert parse_cards("TH") == [22]
    assert cards_text(list(range(52)))[:26] == "AS2S3S4S5S6S7S8S9STSJSQSKS"


def test_first_draws_of_the_documented_openings() -> None:
    """docs/deal.md: the stock is drawn in deck order, the first remaining card first."""
    assert new_game("DS1-D1N-AAAAAAB").play_text("d").events() == [
        {"type": "drew", "cards": ["TH"]}
    ]
    game = new_game("TF1-D3N-QWERTYU")
    assert game.play_text("d").events() == [{"type": "drew", "cards": ["QH", "7H", "2S"]}]
    assert game.position_text().split()[4] == "QH7H2S"  # 2S, turned last, is on top


def test_first_swaps_of_ds_deal_1() -> None:
    state, swaps = 1, []
    for i in (103, 102, 101, 100):
        state, value = splitmix64(state)
        swaps.append((i, value, value % (i + 1)))
    assert swaps == [
        (103, 10451216379200822465, 97),
        (102, 13757245211066428519, 29),
        (101, 17911839290282890590, 0),
        (100, 8196980753821780235, 75),
    ]


# --------------------------------------------------------------------------- secret deals

SECRET_STREAM_OUTPUTS = {
    0: ["de47c9b27eb8d300", "e9ff0e6e6de95da5", "318b8f30815253bc"],
    1: ["31736a8b5d336a7a", "9a1694468ccd7404", "941041afcec675aa"],
    2**128 - 1: ["0f7f869d12d439f6", "0f9ee81ec30d7d25", "b778a0937ccef5a3"],
}

SECRET_SHUFFLED = {
    "TF1-D1N-AAGKBWSOEPIRAEYTGERIURNYFFZJ": (
        "9CJH6S7S9H9S8DJS5C7HKS9DTC3C4CKH6HQD5DAS3HQS8HTSAD5SQCJC4D2D6CQH8SKD2H3D2CTHAC4S7D8C"
        "5H4H3STD2S7CAHKC6DJD"
    ),
    "DS1-D1N-AAGKBWSOEPIRAEYTGERIURNYFFZJ": (
        "2SQH7STD8HAD5C4SQD9DKHAD9S5H8D4C4DQCAH3DTHTD8S3S9STS6S8CQSJH3CKC4H9CQH2C2CAS3H7D7H5C"
        "2D6DTSKH3C9CKS7S8S6S3S5DJH9H4C2H8D7C6HKDJC3D2HQSQC7D8C7CTCJD2D7H6CAH5D5SAS6DKDJCKS4H"
        "TCAC9H5S6HJS4SAC9D6C4DKCQD5H3H2SJSTH8HJD"
    ),
}


@pytest.mark.parametrize("seed", sorted(SECRET_STREAM_OUTPUTS))
def test_secret_stream_vectors(seed: int) -> None:
    outputs = secret_stream(seed, 3)
    assert [f"{value:016x}" for value in outputs] == SECRET_STREAM_OUTPUTS[seed]


def _reference_secret_shuffle(copies: int, seed: int) -> list[int]:
    """docs/deal.md section 9, written out again from the text."""
    deck = list(range(52)) * copies
    for k, i in enumerate(range(len(deck) - 1, 0, -1)):
        digest = hashlib.sha256(seed.to_bytes(16, "big") + k.to_bytes(4, "big")).digest()
        j = int.from_bytes(digest[:8], "big") % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("code", sorted(SECRET_SHUFFLED))
def test_secret_shuffled_deck_vectors(code: str) -> None:
    parsed = GameCode.parse(code)
    assert parsed.secret
    assert parsed.deal == 0x0123456789ABCDEF0123456789ABCDEF
    assert cards_text(parsed.shuffled_deck()) == SECRET_SHUFFLED[code]
    assert cards_text(new_game(code).hidden_cards()) != ""


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**128 - 1), game=st.sampled_from(list(GameKind)))
def test_secret_shuffle_follows_the_spec(seed: int, game: GameKind) -> None:
    assert secret_shuffled_deck(game, seed) == _reference_secret_shuffle(game.deck_copies, seed)


def test_secret_codes_have_28_letters_and_round_trip() -> None:
    code = GameCode.random_secret(GameKind.DOUBLE, 3, Scoring.VEGAS)
    text = str(code)
    assert re.fullmatch(r"DS1-D3V-[A-Z]{28}", text)
    assert GameCode.parse(text.lower()) == code
    assert GameCode.parse(text).secret
    assert not GameCode.parse("DS1-D3V-AAAAAAB").secret


def test_secret_codes_draw_their_seed_from_128_bits() -> None:
    seeds = {GameCode.random_secret(GameKind.REFLECHI).deal for _ in range(64)}
    assert len(seeds) == 64
    # 64 draws below 2^120 would happen with probability 2^-512: the top bits are used.
    assert max(seeds) >= 2**120


def test_secret_seed_boundaries() -> None:
    top = GameCode.parse("TF1-D1N-" + deal_letters(2**128 - 1, SECRET_LETTERS))
    assert top.deal == 2**128 - 1
    with pytest.raises(InvalidCodeError):
        GameCode.parse("TF1-D1N-" + "Z" * SECRET_LETTERS)  # 26^28 - 1 is over 2^128 - 1
    for letters in (8, 27, 29):
        with pytest.raises(InvalidCodeError):
            GameCode.parse("TF1-D1N-" + "A" * letters)


def test_a_secret_seed_and_a_deal_number_of_the_same_value_deal_differently() -> None:
    public = GameCode(GameKind.REFLECHI, 1, Scoring.NORMAL, 1)
    secret = GameCode(GameKind.REFLECHI, 1, Scoring.NORMAL, 1, secret=True)
    assert public.shuffled_deck() != secret.shuffled_deck()
    assert str(secret) == "TF1-D1N-" + "A" * 27 + "B"
