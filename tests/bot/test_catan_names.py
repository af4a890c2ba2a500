"""Catan naming in chat: spot labels, trade amounts typed in words, and every component op wired to a handler."""

from __future__ import annotations

import pytest

from bot.catan.names import bundle_text, corner_name, parse_bundle_text, side_name
from bot.host import HostError as Refusal
from engine.catan import parse_intersection, parse_path


@pytest.mark.parametrize(
    ("typed", "bundle"),
    [
        ("2 brick, 1 ore", {"brick": 2, "ore": 1}),
        ("brick brick ore", {"brick": 2, "ore": 1}),
        ("2xwheat and a sheep", {"grain": 2, "wool": 1}),
        ("  3 Lumber + 1 WOOL ", {"lumber": 3, "wool": 1}),
    ],
)
def test_amounts_typed_in_words(typed: str, bundle: dict[str, int]) -> None:
    assert parse_bundle_text(typed) == bundle


@pytest.mark.parametrize(
    ("typed", "says"),
    [("", "Name at least one card"), ("2 dragons", "“dragons” is not a resource"), ("25 ore", "At most 19")],
)
def test_bad_amounts_are_explained(typed: str, says: str) -> None:
    with pytest.raises(Refusal) as refused:
        parse_bundle_text(typed)
    assert says in refused.value.params["reason"]


def test_names_round_trip_with_the_engine() -> None:
    for number in range(1, 55):
        assert parse_intersection(corner_name(number - 1)) == number
    for path in ("25-31", "1-4", "50-53"):
        assert parse_path(side_name(path)) == path
    assert bundle_text({"ore": 2, "brick": 1}) == "1 brick and 2 ore" and bundle_text({}) == ""


@pytest.mark.parametrize(
    ("typed", "bundle"),
    [
        ("2 砖块, 1 矿石", {"brick": 2, "ore": 1}),
        ("2 磚, 1 鐵", {"brick": 2, "ore": 1}),
        ("2 глины и 1 руда", {"brick": 2, "ore": 1}),
        ("3 шерсти", {"wool": 3}),
    ],
)
def test_amounts_typed_in_chinese_and_russian(typed: str, bundle: dict[str, int]) -> None:
    assert parse_bundle_text(typed) == bundle


def test_each_language_s_example_amount_reads_back() -> None:
    from bot.text import t
    from bot.text.i18n import LANGUAGES, speaking

    for language in LANGUAGES:
        with speaking(language):
            assert parse_bundle_text(t("catan.bundle_example")) == {"brick": 2, "ore": 1}


@pytest.mark.parametrize("typed", ["² brick", "2² ore", "① wool", "½ grain"])
def test_amounts_in_other_digits_are_explained(typed: str) -> None:
    with pytest.raises(Refusal) as refused:
        parse_bundle_text(typed)
    reason = refused.value.params["reason"]
    assert "is not an amount: write amounts with the digits 0–9, for example: 2 brick, 1 ore." in reason


def test_decimal_digits_of_other_scripts_still_count() -> None:
    assert parse_bundle_text("２ brick") == {"brick": 2}  # full-width, as Chinese keyboards type them


@pytest.mark.parametrize("typed", ["²", "①", "²⁵", "①-②", "²-³"])
def test_intersection_and_path_names_in_other_digits_are_refused_not_crashed(typed: str) -> None:
    from engine import RuleError

    with pytest.raises(RuleError) as intersection:
        parse_intersection(typed)
    assert intersection.value.code == "unknown_intersection"
    with pytest.raises(RuleError) as path:
        parse_path(typed)
    assert path.value.code == "unknown_path"
    assert parse_intersection("２５") == 25 and parse_path("２５-３１") == "25-31"


def test_unknown_places_are_explained_in_every_language() -> None:
    from bot.core.components import rule_reason
    from bot.text.i18n import LANGUAGES, speaking
    from engine import RuleError

    for language in LANGUAGES:
        with speaking(language):
            for parse, code in ((parse_intersection, "rule.unknown_intersection"), (parse_path, "rule.unknown_path")):
                with pytest.raises(RuleError) as refused:
                    parse("²")
                reason = rule_reason(refused.value)
                assert "²" in reason and "J-" in reason and code not in reason, (language, reason)


@pytest.mark.parametrize(
    ("typed", "bundle"),
    [
        ("2 砖块，1 矿石", {"brick": 2, "ore": 1}),  # full-width comma
        ("２ 砖块，１ 矿石", {"brick": 2, "ore": 1}),  # full-width digits too
        ("2张砖块", {"brick": 2}),  # measure word, no space
        ("两个木材", {"lumber": 2}),  # Chinese numeral
        ("两个木材三个矿石", {"lumber": 2, "ore": 3}),  # no separator at all
        ("2块砖、十份羊毛", {"brick": 2, "wool": 10}),  # 块 as a measure word; the enumeration comma
        ("2砖块和1矿石", {"brick": 2, "ore": 1}),  # 块 as part of the name
        ("2 磚，1 鐵", {"brick": 2, "ore": 1}),  # Taiwan's edition
        ("一張麥、兩個羊", {"grain": 1, "wool": 2}),
        ("1 глину", {"brick": 1}),  # accusative
        ("2 древесины и 5 руд", {"lumber": 2, "ore": 5}),  # genitive singular and plural
        ("шерсть, зерно", {"wool": 1, "grain": 1}),
        ("3 кирпича", {"brick": 3}),
        ("две глины", {"brick": 2}),  # amounts as words: the number in the gender and case the noun takes
        ("одну руду и три зерна", {"ore": 1, "grain": 3}),
        ("two brick, ore", {"brick": 2, "ore": 1}),
    ],
)
def test_amounts_typed_as_chinese_and_russian_players_type_them(typed: str, bundle: dict[str, int]) -> None:
    assert parse_bundle_text(typed) == bundle


@pytest.mark.parametrize(
    ("typed", "says"),
    [("2 драконов", "“драконов” is not a resource"), ("2张龙", "“龙” is not a resource"), ("2 和", "“2 和”")],
)
def test_what_cannot_be_read_in_other_languages_is_named(typed: str, says: str) -> None:
    with pytest.raises(Refusal) as refused:
        parse_bundle_text(typed)
    assert says in refused.value.params["reason"]


@pytest.mark.parametrize(
    ("typed", "count"),
    [("2", 2), ("２", 2), ("两", 2), ("2张", 2), ("三个", 3), ("十", 10), ("十二", 12), ("0", 0), ("x", None),
     ("²", None), ("2²", None), ("", None)],
)  # fmt: skip
def test_a_number_of_cards_to_discard_as_typed(typed: str, count: int | None) -> None:
    from bot.catan.typed_input import read_count

    assert read_count(typed) == count


def test_places_typed_with_full_width_letters_and_dashes() -> None:
    from bot.catan.typed_input import normalise

    assert parse_intersection(normalise("Ｊ－ＮＥ")) == parse_intersection("J-NE")
    assert parse_path(normalise("２５—３１")) == "25-31"
