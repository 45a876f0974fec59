"""Rule ids of both games and the bilingual text for refusing a move under each.

The rules document (``docs/rules.md``) gives every rule a stable id. The engine refuses
an action by naming the rule that blocks it, and clients show the reason in English or
Finnish. Keeping all the ids and both translations in this one module means the engine,
the API layer and the tests never spell a rule text on their own, and a rule that has no
message yet is caught by ``set(REJECTION_MESSAGES) == set(RULE_IDS)`` instead of at play
time.

The module is deliberately plain data with no dependencies, so that anything (including
a schema generator or a client build step) can import it cheaply.
"""

from __future__ import annotations

# Kept in the order of docs/rules.md so that listings and reports built from this tuple
# read in the same order as the document a player or reviewer would check them against.
RULE_IDS: tuple[str, ...] = (
    # Double Solitaire
    "DS-DEAL-1",
    "DS-DEAL-2",
    "DS-DEAL-3",
    "DS-TAB-1",
    "DS-TAB-2",
    "DS-TAB-3",
    "DS-WASTE-1",
    "DS-FLIP-1",
    "DS-EMPTY-1",
    "DS-FND-1",
    "DS-FND-2",
    "DS-FND-3",
    "DS-FND-4",
    "DS-STOCK-1",
    "DS-STOCK-2",
    "DS-STOCK-3",
    "DS-STOCK-4",
    "DS-STOCK-5",
    "DS-END-1",
    "DS-END-2",
    "DS-APP-1",
    "DS-APP-2",
    "DS-APP-3",
    "DS-APP-4",
    "DS-APP-5",
    "DS-SCORE-N",
    "DS-SCORE-V",
    # Solitaire Réfléchi
    "TF-DEAL-1",
    "TF-DEAL-2",
    "TF-DEAL-3",
    "TF-TAB-1",
    "TF-WASTE-1",
    "TF-FND-MOVE-1",
    "TF-GROUP-1",
    "TF-GROUP-2",
    "TF-EMPTY-1",
    "TF-FND-1",
    "TF-FND-2",
    "TF-FND-3",
    "TF-STOCK-1",
    "TF-STOCK-2",
    "TF-STOCK-3",
    "TF-STOCK-4",
    "TF-END-1",
    "TF-END-2",
    "TF-APP-1",
    "TF-APP-2",
    "TF-APP-3",
    "TF-APP-4",
    "TF-APP-5",
    "TF-APP-6",
    "TF-SCORE-1",
    "TF-SCORE-2",
    "TF-SCORE-3",
    # Game codes
    "CODE-1",
)

# Each value is (English, Finnish). The Finnish wording follows the vocabulary of the
# original Finnish application texts (sarake, peruspino, nostopakka, poistopakka, ...) so
# that Finnish players meet the same terms they know from the game. Ids that the engine
# does not raise today still get a message, so that starting to raise them later needs no
# change here.
REJECTION_MESSAGES: dict[str, tuple[str, str]] = {
    # --- Double Solitaire -----------------------------------------------------------------
    "DS-DEAL-1": (
        "A Double Solitaire deal must use two full decks: 104 cards, each card twice.",
        "Double Solitaire jaetaan kahdesta täydestä pakasta: 104 korttia, jokaista kaksi.",
    ),
    "DS-DEAL-2": (
        "The deal must have nine columns of 1 to 9 cards, with only each last card face up.",
        "Jaossa on oltava yhdeksän saraketta, joissa on 1–9 korttia ja vain viimeinen "
        "kortti näkyvissä.",
    ),
    "DS-DEAL-3": (
        "The stock must start with the 59 remaining cards, and the waste and foundations empty.",
        "Nostopakassa on oltava aluksi loput 59 korttia, ja poistopakan ja peruspinojen on "
        "oltava tyhjiä.",
    ),
    "DS-TAB-1": (
        "A card must go on a card of the opposite colour and one rank higher.",
        "Kortin voi asettaa vain vastakkaisen värisen ja arvoltaan yhtä suuremman kortin päälle.",
    ),
    "DS-TAB-2": (
        "A face-down card cannot be moved; only face-up cards move, with the cards on them.",
        "Piilossa olevaa korttia ei voi siirtää; vain näkyvä kortti siirtyy yhdessä päällään "
        "olevien korttien kanssa.",
    ),
    "DS-TAB-3": (
        "This card fits only on a copy of a card of the opposite colour and one rank higher.",
        "Kortti sopii vain vastakkaisen värisen ja yhtä suuremman kortin jommankumman "
        "kappaleen päälle.",
    ),
    "DS-WASTE-1": (
        "Only the top card of the waste can be played.",
        "Poistopakasta voi pelata vain päällimmäisen kortin.",
    ),
    "DS-FLIP-1": (
        "A hidden card turns face up by itself when it becomes the last card of its column.",
        "Piilokortti kääntyy näkyviin itsestään, kun siitä tulee sarakkeen viimeinen kortti.",
    ),
    "DS-EMPTY-1": (
        "Only a King can be placed on an empty column.",
        "Tyhjään sarakkeeseen voi asettaa vain kuninkaan.",
    ),
    "DS-FND-1": (
        "This card does not continue a foundation: they are built up by suit from the Ace, "
        "one card at a time.",
        "Kortti ei jatka mitään peruspinoa: peruspinot rakennetaan maittain ässästä alkaen "
        "kortti kerrallaan.",
    ),
    "DS-FND-2": (
        "A card can only go to a foundation of its own suit.",
        "Kortin voi siirtää vain oman maansa peruspinoon.",
    ),
    "DS-FND-3": (
        "This card fits no foundation in its suit's row.",
        "Kortti ei sovi mihinkään oman maansa rivin peruspinoon.",
    ),
    "DS-FND-4": (
        "Only the top card of a foundation can be taken back, and only to a column.",
        "Peruspinosta voi ottaa takaisin vain päällimmäisen kortin ja vain sarakkeeseen.",
    ),
    "DS-STOCK-1": (
        "The stock and the waste are both empty: there is nothing to draw.",
        "Nostopakka ja poistopakka ovat molemmat tyhjiä: nostettavaa ei ole.",
    ),
    "DS-STOCK-2": (
        "With draw 1, cards are turned from the stock one at a time.",
        "Nostotavalla 1 nostopakasta käännetään yksi kortti kerrallaan.",
    ),
    "DS-STOCK-3": (
        "Only the last drawn card of the waste can be played.",
        "Poistopakasta voi pelata vain viimeisenä nostetun kortin.",
    ),
    "DS-STOCK-4": (
        "The waste can be turned back into the stock only when the stock is empty.",
        "Poistopakan voi kääntää takaisin nostopakaksi vain, kun nostopakka on tyhjä.",
    ),
    "DS-STOCK-5": (
        "With Vegas scoring the waste is never turned back into the stock.",
        "Vegas-pisteytyksessä poistopakkaa ei koskaan käännetä takaisin nostopakaksi.",
    ),
    "DS-END-1": (
        "The game is won only when all 104 cards are on the foundations.",
        "Peli on voitettu vasta, kun kaikki 104 korttia ovat peruspinoissa.",
    ),
    "DS-END-2": (
        "The game is over (won or resigned), so no more moves or undos are possible.",
        "Peli on päättynyt (voitettu tai luovutettu), joten siirtoja ei voi enää tehdä eikä perua.",
    ),
    "DS-APP-1": (
        "Cards never move by themselves; every move is made by the player.",
        "Kortit eivät siirry itsestään, vaan pelaaja tekee jokaisen siirron.",
    ),
    "DS-APP-2": (
        "This card does not fit on any foundation.",
        "Kortti ei sovi mihinkään peruspinoon.",
    ),
    "DS-APP-3": (
        "There is no place for this card on a foundation or a column (an empty column takes "
        "only a King).",
        "Kortille ei ole paikkaa peruspinoissa eikä sarakkeissa (tyhjään sarakkeeseen käy "
        "vain kuningas).",
    ),
    "DS-APP-4": (
        "There is nothing more to undo (only the last 200 actions are kept).",
        "Peruttavaa ei ole enää (vain viimeiset 200 toimintoa voi perua).",
    ),
    "DS-APP-5": (
        "This is not a valid Double Solitaire game code.",
        "Pelikoodi ei ole kelvollinen Double Solitaire -pelikoodi.",
    ),
    "DS-SCORE-N": (
        "Under Normal scoring the score never goes below 0.",
        "Normaali-pisteytyksessä pistemäärä ei koskaan laske alle nollan.",
    ),
    "DS-SCORE-V": (
        "Under Vegas scoring only a card placed on a foundation earns money, $5 each.",
        "Vegas-pisteytyksessä rahaa saa vain peruspinoon asetetuista korteista, 5 $ kustakin.",
    ),
    # --- Solitaire Réfléchi ---------------------------------------------------------------
    "TF-DEAL-1": (
        "A Solitaire Réfléchi deal must use one full deck of 52 cards.",
        "Solitaire Réfléchi jaetaan yhdestä täydestä 52 kortin pakasta.",
    ),
    "TF-DEAL-2": (
        "The deal must have seven columns of 1 to 7 cards, all face up.",
        "Jaossa on oltava seitsemän saraketta, joissa on 1–7 korttia, kaikki kuvapuoli ylöspäin.",
    ),
    "TF-DEAL-3": (
        "The stock must start with the 24 remaining cards, and the waste and foundations empty.",
        "Nostopakassa on oltava aluksi loput 24 korttia, ja poistopakan ja peruspinojen on "
        "oltava tyhjiä.",
    ),
    "TF-TAB-1": (
        "A card must go on a card of the opposite colour and one rank higher.",
        "Kortin voi asettaa vain vastakkaisen värisen ja arvoltaan yhtä suuremman kortin päälle.",
    ),
    "TF-WASTE-1": (
        "Only the top card of the waste can be played.",
        "Poistopakasta voi pelata vain päällimmäisen kortin.",
    ),
    "TF-FND-MOVE-1": (
        "Only one card at a time can go to a foundation.",
        "Peruspinoon voi siirtää vain yhden kortin kerrallaan.",
    ),
    "TF-GROUP-1": (
        "A group can be moved only if each card is one rank lower than the one beneath it "
        "and of the other colour.",
        "Ryhmän voi siirtää vain, jos jokainen kortti on edellistä yhtä arvoa pienempi ja "
        "väriltään vastakkainen.",
    ),
    "TF-GROUP-2": (
        "This group is not in sequence, so it cannot be moved even though every card is visible.",
        "Ryhmä ei ole järjestyksessä, joten sitä ei voi siirtää, vaikka kaikki kortit näkyvät.",
    ),
    "TF-EMPTY-1": (
        "Only a King can be placed on an empty column.",
        "Tyhjään sarakkeeseen voi asettaa vain kuninkaan.",
    ),
    "TF-FND-1": (
        "This card does not continue a foundation: they are built up by suit from the Ace, "
        "one card at a time.",
        "Kortti ei jatka mitään peruspinoa: peruspinot rakennetaan maittain ässästä alkaen "
        "kortti kerrallaan.",
    ),
    "TF-FND-2": (
        "A card can only go to a foundation of its own suit.",
        "Kortin voi siirtää vain oman maansa peruspinoon.",
    ),
    "TF-FND-3": (
        "Only the top card of a foundation can be taken back, and only to a column.",
        "Peruspinosta voi ottaa takaisin vain päällimmäisen kortin ja vain sarakkeeseen.",
    ),
    "TF-STOCK-1": (
        "The stock and the waste are both empty: there is nothing to draw.",
        "Nostopakka ja poistopakka ovat molemmat tyhjiä: nostettavaa ei ole.",
    ),
    "TF-STOCK-2": (
        "With draw 1, cards are turned from the stock one at a time.",
        "Nostotavalla 1 nostopakasta käännetään yksi kortti kerrallaan.",
    ),
    "TF-STOCK-3": (
        "Only the last drawn card of the waste can be played.",
        "Poistopakasta voi pelata vain viimeisenä nostetun kortin.",
    ),
    "TF-STOCK-4": (
        "The waste can be turned back into the stock only when the stock is empty.",
        "Poistopakan voi kääntää takaisin nostopakaksi vain, kun nostopakka on tyhjä.",
    ),
    "TF-END-1": (
        "The game is won only when all 52 cards are on the foundations.",
        "Peli on voitettu vasta, kun kaikki 52 korttia ovat peruspinoissa.",
    ),
    "TF-END-2": (
        "The game is over (won or resigned), so no more moves or undos are possible.",
        "Peli on päättynyt (voitettu tai luovutettu), joten siirtoja ei voi enää tehdä eikä perua.",
    ),
    "TF-APP-1": (
        "Cards never move by themselves; every move is made by the player.",
        "Kortit eivät siirry itsestään, vaan pelaaja tekee jokaisen siirron.",
    ),
    # Shared by the single tap and the double tap, hence the bracketed second half.
    "TF-APP-2": (
        "This card fits no foundation (and, on a double tap, no column either).",
        "Kortti ei sovi mihinkään peruspinoon (eikä kaksoisnapautuksella myöskään mihinkään "
        "sarakkeeseen).",
    ),
    "TF-APP-3": (
        "Only the top card of a foundation can be taken back, and only to a column.",
        "Peruspinosta voi ottaa takaisin vain päällimmäisen kortin ja vain sarakkeeseen.",
    ),
    "TF-APP-4": (
        "There is nothing more to undo (only the last 100 actions are kept).",
        "Peruttavaa ei ole enää (vain viimeiset 100 toimintoa voi perua).",
    ),
    "TF-APP-5": (
        "This move is against the rules of the game.",
        "Siirto on pelin sääntöjen vastainen.",
    ),
    "TF-APP-6": (
        "This is not a valid Solitaire Réfléchi game code.",
        "Pelikoodi ei ole kelvollinen Solitaire Réfléchi -pelikoodi.",
    ),
    "TF-SCORE-1": (
        "The score never goes below 0.",
        "Pistemäärä ei koskaan laske alle nollan.",
    ),
    "TF-SCORE-2": (
        "Solitaire Réfléchi is scored with the Normal table only.",
        "Solitaire Réfléchi -pelin pisteet lasketaan vain Normaali-pisteytyksen mukaan.",
    ),
    # Carries the Decision attached to TF-SCORE-3 (Vegas codes are invalid), because that
    # is the only situation in which this id is ever given as a reason.
    "TF-SCORE-3": (
        "Solitaire Réfléchi has Normal scoring only; Vegas cannot be chosen.",
        "Solitaire Réfléchi -pelissä on vain Normaali-pisteytys; Vegasta ei voi valita.",
    ),
    # --- Game codes -----------------------------------------------------------------------
    "CODE-1": (
        "A game code must look like DS1-D1N-AAAAAAB: game, draw 1 or 3, scoring N or V, "
        "then seven letters.",
        "Pelikoodin on oltava muotoa DS1-D1N-AAAAAAB: peli, nostotapa 1 tai 3, pisteytys N "
        "tai V ja seitsemän kirjainta.",
    ),
}


def rejection_message(rule_id: str) -> tuple[str, str]:
    """Return the ``(English, Finnish)`` reason for refusing a move under ``rule_id``.

    An unknown id raises ``KeyError`` rather than falling back to a generic text: a typo
    in a rule id is a bug in the engine, and a vague message would hide it from players
    and tests alike.
    """
    return REJECTION_MESSAGES[rule_id]
