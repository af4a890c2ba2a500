"""Every catalogue speaks the rulebooks' words: the term tables of docs/translating.md, checked entry by entry.

For each term, an entry of that game whose English names the term must use the language's word for it, and no
entry of that game may use a word the table rules out. Deliberate exceptions are listed below with the reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.text.catalogue import MESSAGES
from bot.text.i18n import Entry, translations

GLOSSARY = Path(__file__).resolve().parents[2] / "docs" / "translating.md"
LANGUAGES = ("zh-CN", "zh-TW", "ru")

# Which catalogue keys belong to which game (the rest is shared text that names no game term).
SCOPES = {
    "Carcassonne": re.compile(
        r"^(carcassonne\.|alt\.carcassonne\.|story\.carcassonne\.|alt\.story\.carcassonne\.|narrate\.(?!catan)|"
        r"rules\.carcassonne|option\.(river|tower|farm_scoring|small_city|deck)$|"
        r"rule\.(place_first|already_placed|edges_mismatch|not_adjacent|cell_occupied|feature_occupied|no_followers|"
        r"tile_fits|bad_rotation|river|no_tower|tower_closed|not_a_tower|out_of_reach|ransom|no_prisoner)|"
        r"slash\.carcassonne|slash\.place|slash\.game\.board|cmd\.board|image\.(followers|towers|prisoners|"
        r"tiles_left|drawn|choose_cell|choose_spot|no_spot|cat_road|cat_city|cat_cloister|cat_farm|cat_ransom|spot_|"
        r"title_carcassonne|story_(lead|features)))"
    ),
    "Catan": re.compile(
        r"^(catan\.|alt\.catan\.|story\.catan\.|alt\.story\.catan\.|narrate\.catan|rules\.catan|option\.(board|setup|points_to_win|strict_phases|hexes|harbors)$|"
        r"rule\.(roll_first|already_rolled|resolve_seven|discards_pending|distance_rule|not_connected|occupied|"
        r"no_pieces_left|cannot_afford|deck_empty|bank_empty|card_bought|one_card|no_such_card|robber|victim|trade|"
        r"unknown_offer|not_offer|not_your_offer|not_accepted|discard|no_discard|setup_|not_own|like_for|year_of|"
        r"road_building|unknown_inter|unknown_path)|slash\.catan|slash\.hand|slash\.build|"
        r"slash\.choice\.(road|settlement|city|random|random_numbers|beginner|snake)$|"
        r"image\.(cards|dev_cards|knights|discard_owed|longest|largest|public_points|build_preview|dice|setup|"
        r"cat_settlement|cat_longest|cat_largest|cat_victory|harbor|title_catan|"
        r"story_(dice|rolled|expected|resources|gained|robbed|traded|awards)))"
    ),
}
# How each term appears in the English source (case-sensitive where a capital tells two things apart).
ENGLISH = {
    "Carcassonne": {
        "tile": r"\btiles?\b",
        "follower": r"\bfollowers?\b",
        "city": r"\bcit(y|ies)\b",
        "road": r"\broads?\b",
        "cloister": r"\bcloisters?\b",
        "field": r"\bfields?\b",
        "farm": r"\bfarms?\b",
        "farmer": r"\bfarmers?\b",
        "thief": r"\bthief\b",
        "knight": r"\bknight\b",
        "monk": r"\bmonk\b",
        "pennant": r"\bpennants?\b",
        "tower": r"\btower(?!s? pieces?)(?! foundation)\b",  # a built tower; The Tower is the expansion
        "tower foundation": r"\btower foundation",
        "tower piece": r"\btower pieces?\b",
        "reach": r"\breach\b",
        "prisoner": r"\bprisoners?\b",
        "ransom": r"\bransom\b",
        "board": r"\bboard\b",
    },
    "Catan": {
        "lumber": r"\blumber\b",
        "brick": r"\bbrick\b",
        "wool": r"\bwool\b",
        "grain": r"\bgrain\b",
        "ore": r"\bore\b",
        "forest": r"\bforest\b",
        "hills": r"\bhills\b",
        "pasture": r"\bpasture\b",
        "fields": r"\bfields\b",
        "mountains": r"\bmountains\b",
        "desert": r"\bdesert\b",
        "hex": r"\bhex(es)?\b",
        "intersection": r"\bintersections?\b",
        "path": r"\bpaths?\b",
        "settlement": r"\b[Ss]ettlements?\b",
        "city": r"\b[Cc]it(y|ies)\b",
        "road": r"(?<![Ll]ongest )\b[Rr]oads?\b(?! [Bb]uilding)",
        "robber": r"\brobber\b",
        "development card": r"\b[Dd]evelopment cards?\b",
        "knight card": r"\b[Kk]nights?\b",
        "road building": r"\bRoad Building\b",
        "year of plenty": r"\bYear of Plenty\b",
        "monopoly": r"\bMonopoly\b",
        "victory point card": r"\b(victory point|VP) cards\b|^Victory Point$",
        "longest road": r"\b[Ll]ongest [Rr]oad\b",
        "largest army": r"\b[Ll]argest [Aa]rmy\b",
        "harbour": r"\bharbours?\b",
        "maritime trade": r"\bBank trade\b",
        "bank": r"\bbank\b",
        "set-up": r"\b[Ss]et-up\b",
    },
}
# (language, key, term): entries that name a term in English but rightly do without the word, and why.
ALLOWED_WITHOUT = {
    # A Chinese button is a verb phrase: "建造道路" already names the road of "Build road"; the glossary word for
    # the card, 道路卡, would read as buying a card.
    ("zh-CN", "slash.choice.road", "road"),
    # The slash option `tower` switches on The Tower, the expansion (高塔), not a tower built on the table.
    *((language, "slash.carcassonne.new.tower.name", "tower") for language in LANGUAGES),
}
PLACEHOLDER = re.compile(r"\{[^}]*\}")


@dataclass(frozen=True)
class Term:
    game: str
    english: str
    words: dict[str, re.Pattern[str]]  # language -> how the term is written (Russian: any case form)
    banned: dict[str, list[str]]  # language -> words never to use for it


def _pattern(cell_word: str) -> re.Pattern[str]:
    """``подданн(ый)`` -> any word with that stem; ``карт(а) развития`` -> any case of both words."""
    parts = re.split(r"\([^)]*\)", cell_word)
    return re.compile(r"\w*".join(re.escape(p) for p in parts), re.IGNORECASE)


def read_glossary() -> list[Term]:
    terms: list[Term] = []
    game = ""
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            game = line[3:].strip()
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if game not in SCOPES or len(cells) != 4 or cells[0] in ("term", "") or set(cells[0]) <= {"-"}:
            continue
        words: dict[str, re.Pattern[str]] = {}
        banned: dict[str, list[str]] = {}
        for language, cell in zip(LANGUAGES, cells[1:], strict=True):
            word, *nots = [part.strip() for part in cell.split(", not ")]
            if word != "—":
                words[language] = _pattern(word)
            banned[language] = nots
        terms.append(Term(game, cells[0], words, banned))
    return terms


TERMS = read_glossary()


def texts(entry: Entry | None) -> list[str]:
    if entry is None:
        return []
    return list(entry) if isinstance(entry, tuple) else [entry]


def test_the_glossary_lists_every_term_we_check() -> None:
    listed = {(term.game, term.english) for term in TERMS}
    expected = {(game, english) for game, terms in ENGLISH.items() for english in terms}
    assert listed == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_entries_that_name_a_term_use_the_rulebook_word(language: str) -> None:
    catalogue = translations(language)
    wrong = []
    for term in TERMS:
        word = term.words.get(language)
        if word is None:
            continue
        english = re.compile(ENGLISH[term.game][term.english])
        for key, source in MESSAGES.items():
            if not SCOPES[term.game].search(key) or (language, key, term.english) in ALLOWED_WITHOUT:
                continue
            if any(english.search(PLACEHOLDER.sub("", s)) for s in texts(source)) and not all(
                word.search(s) for s in texts(catalogue.get(key))
            ):
                wrong.append(f"{key}: {term.english} -> {word.pattern} missing in {catalogue.get(key)!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_entry_uses_a_word_the_rulebooks_rule_out(language: str) -> None:
    catalogue = translations(language)
    wrong = []
    for term in TERMS:
        # A banned word that is another term's word (Russian поле is the field, not the board) is banned only
        # where the English names this term; any other banned word is banned everywhere in the game.
        own_words = [t.words[language] for t in TERMS if t.game == term.game and language in t.words]
        english = re.compile(ENGLISH[term.game][term.english])
        for banned in term.banned[language]:
            everywhere = not any(w.fullmatch(banned) for w in own_words)
            for key, source in MESSAGES.items():
                if not SCOPES[term.game].search(key):
                    continue
                if not everywhere and not any(english.search(PLACEHOLDER.sub("", s)) for s in texts(source)):
                    continue
                if any(banned.lower() in s.lower() for s in texts(catalogue.get(key))):
                    wrong.append(f"{key}: {banned!r} (for {term.english}) in {catalogue.get(key)!r}")
    assert not wrong, "\n".join(wrong)


def test_a_banned_word_is_found_when_a_catalogue_uses_it() -> None:
    # The check above can fail: a catalogue entry with a banned word is caught.
    tile = next(t for t in TERMS if t.game == "Carcassonne" and t.english == "tile")
    assert "板块" in tile.banned["zh-CN"] and tile.words["zh-CN"].search("一块版图")
    assert not tile.words["zh-CN"].search("一块板块")
    follower = next(t for t in TERMS if t.english == "follower")
    assert follower.words["ru"].search("поставьте подданного") and not follower.words["ru"].search("фишку")
