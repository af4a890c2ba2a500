"""zh-TW is written for Taiwan, not converted from zh-CN.

The measure is the share of zh-TW entries (those holding Chinese text) that are exactly what OpenCC's ``s2twp``
(Simplified to Taiwan Traditional, with Taiwan's own phrases) makes of the zh-CN entry: a catalogue produced by
conversion scores near 100%. It must stay below 35%, and every identical entry is one we chose to keep: it is listed
below with the reason. ``python -m tests.bot.test_taiwan_not_converted`` prints the measure.
"""

from __future__ import annotations

import re
from functools import cache

import opencc

from bot.text.catalogue import MESSAGES
from bot.text.i18n import Entry, translations

LIMIT = 0.35
HAN = re.compile(r"[\u3400-\u9fff]")

# Entries whose zh-TW is deliberately the converted zh-CN, by reason.
ALLOWED: dict[str, str] = {
    "names: the games, cards, awards, terrains, pieces and sides as Taiwan's rulebooks name them, and autonyms": """
        game.carcassonne game.catan image.title_carcassonne image.title_catan slash.carcassonne.name slash.catan.name
        option.river option.tower slash.carcassonne.new.river.name slash.carcassonne.new.tower.name
        catan.card.monopoly catan.award.longest_road catan.award.largest_army image.longest_road image.largest_army
        image.cat_catan_longest_road image.cat_catan_largest_army catan.terrain.hills catan.terrain.forest
        catan.terrain.pasture catan.terrain.desert catan.cost.road catan.cost.city catan.cost.card slash.choice.road
        slash.choice.city image.cat_carcassonne_road image.cat_carcassonne_cloister image.cat_catan_city
        image.cat_carcassonne_ransom image.cat_ransom_paid image.spot_road image.spot_cloister image.spot_tower
        image.side_N image.side_E image.side_S image.side_W narrate.side_middle
        image.half_Nw image.half_Ne image.half_En image.half_Es image.half_Se image.half_Sw image.half_Ws image.half_Wn
        slash.choice.zh-TW alt.carcassonne.side.N alt.carcassonne.side.E alt.carcassonne.side.S alt.carcassonne.side.W
        alt.carcassonne.tile.tower alt.colour.1 alt.colour.2 alt.colour.3 alt.colour.5
    """,
    "short labels: buttons, options, menus, slash-command names and image text of a few words": """
        cmd.status.title cmd.board.caption replay.turn replay.button.first replay.button.back replay.button.next
        replay.button.last reminder.limit_hours lobby.title lobby.hosted_by lobby.players lobby.options
        lobby.turn_limit lobby.button.join lobby.button.leave lobby.button.start lobby.button.cancel
        lobby.button.add_computer lobby.button.remove_computer computer.name computer.level.random
        computer.level.standard computer.button.back option.on option.off option.board option.strict_phases
        option.first_player option.deck option.harbors option.value.current option.value.first_edition
        option.value.random option.value.random_numbers option.value.beginner option.value.snake carcassonne.score
        carcassonne.cell_placeholder carcassonne.cell_placeholder_only carcassonne.page_prev carcassonne.page_next
        carcassonne.page_prev_one carcassonne.page_next_one carcassonne.tower_placeholder narrate.catan.owes
        catan.turn.owes catan.button.play catan.button.discard catan.button.build_road catan.button.build_city
        catan.button.buy catan.button.trade catan.button.end catan.button.hand catan.button.offer_all
        catan.button.offer_to catan.choose_spot catan.page_prev catan.page_next catan.steal_nobody
        catan.yop_placeholder catan.rb_first catan.rb_second catan.modal.offer_title catan.modal.offer_all_title
        catan.private.header catan.hand.development catan.hand.no_development slash.carcassonne.new.name
        slash.carcassonne.new.turn_limit.name slash.catan.new.name slash.catan.new.board.name
        slash.catan.new.board.description slash.catan.new.strict_phases.name slash.catan.new.turn_limit.name
        slash.game.name slash.game.status.name slash.game.board.name slash.game.rules.name
        slash.game.rules.description slash.game.abandon.name slash.game.leave.name slash.game.language.name
        slash.game.language.language.name slash.game.language.language.description slash.game.back.name
        slash.game.export.name slash.game.replay.turn.name slash.stats.name slash.settings.name slash.place.name
        slash.place.cell.name slash.place.rotation.name slash.hand.name slash.build.name slash.build.where.name
        slash.choice.current slash.choice.first_edition slash.choice.random slash.choice.random_numbers
        slash.choice.beginner slash.choice.snake image.score image.turn image.to_move image.towers image.prisoners
        image.drawn image.finished image.winner image.final_scores image.points image.cards image.dev_cards
        image.discard_owed image.dice away.button.back mine.button mine.title slash.game.mine.name
        slash.settings.away.name slash.settings.away.until.name slash.settings.notifications.name
        slash.settings.notifications.time_zone.name slash.carcassonne.new.away.name slash.catan.new.away.name
        slash.choice.computer computer.level.expert lobby.stand_in slash.carcassonne.new.stand_in.name
        slash.catan.new.stand_in.name slash.choice.level.expert slash.choice.level.random slash.choice.level.standard
        cmd.stats.computer cmd.stats.games image.story_turns slash.stats.player.name
        try.you try.channels try.language try.true try.false try.send try.cancel try.download try.loading
    """,
    "amounts: a number with its measure word and the rulebook's term, or points after a name": """
        alt.points alt.score alt.end.part alt.carcassonne.tower_pieces alt.catan.cards alt.catan.development
        alt.catan.count.city alt.catan.count.road
    """,
    "short sentences a Taiwanese player writes the same way": """
        cmd.abandoned lobby.joined lobby.left error.not_your_turn rule.not_your_turn narrate.prisoners_exchanged
        narrate.catan.rolled narrate.catan.discarded narrate.catan.played catan.play_prompt catan.modal.discard_field
        rule.not_a_tower rule.no_such_card
    """,
    "neutral sentences around a position (cells, hexes, paths), whose forms are reworked on their own": """
        carcassonne.tower_option carcassonne.tower_capture.road carcassonne.tower_capture_own.road
        alt.carcassonne.follower.thief narrate.completed.road narrate.completed_tie.road narrate.completed.cloister
        narrate.completed_tie.cloister narrate.final_scored.road narrate.final_scored_tie.road
        narrate.final_scored.cloister narrate.final_scored_tie.cloister narrate.tower_built narrate.captured.road
        narrate.captured_own.road
        catan.hex catan.hex_inline
    """,
}
ALLOWED_KEYS = {key for keys in ALLOWED.values() for key in keys.split()}


@cache
def convert(text: str) -> str:
    return str(opencc.OpenCC("s2twp").convert(text))


def forms(entry: Entry | None) -> tuple[str, ...]:
    return () if entry is None else (entry,) if isinstance(entry, str) else tuple(entry)


def measured() -> tuple[list[str], set[str]]:
    """The keys whose zh-TW holds Chinese text, and those among them identical to s2twp of their zh-CN entry."""
    simplified, traditional = translations("zh-CN"), translations("zh-TW")
    chinese, identical = [], set()
    for key in MESSAGES:
        taiwan = forms(traditional.get(key))
        if not any(HAN.search(text) for text in taiwan):
            continue
        chinese.append(key)
        if tuple(convert(text) for text in forms(simplified.get(key))) == taiwan:
            identical.add(key)
    return chinese, identical


def report() -> str:
    chinese, identical = measured()
    return (
        f"zh-TW entries identical to OpenCC s2twp(zh-CN): {len(identical)} of {len(chinese)} "
        f"({len(identical) / len(chinese):.1%}; limit {LIMIT:.0%})"
    )


def test_the_measure_sees_a_conversion_and_a_rewrite() -> None:
    # s2twp really converts, with Taiwan's words: a converted entry counts as identical, a rewritten one does not.
    assert convert("软件的默认设置") == "軟體的預設設定"
    assert convert("七点！需要弃牌：{who}。") == "七點！需要棄牌：{who}。"
    assert convert("七点！需要弃牌：{who}。") != translations("zh-TW").get("narrate.catan.must_discard")


def test_less_than_35_percent_of_zh_tw_is_a_conversion_of_zh_cn() -> None:
    chinese, identical = measured()
    print(report())
    assert len(chinese) > 500  # the whole catalogue was read
    assert len(identical) / len(chinese) < LIMIT, report()


def test_every_entry_identical_to_the_conversion_is_a_listed_choice() -> None:
    _, identical = measured()
    unlisted = sorted(identical - ALLOWED_KEYS)
    assert not unlisted, (
        "these zh-TW entries are just s2twp of zh-CN: write them as a Taiwanese player would, or list them in "
        "ALLOWED with the reason:\n" + "\n".join(f"{key}: {translations('zh-TW').get(key)!r}" for key in unlisted)
    )


def test_the_allow_list_names_only_entries_that_are_identical() -> None:
    _, identical = measured()
    assert not ALLOWED_KEYS - MESSAGES.keys(), sorted(ALLOWED_KEYS - MESSAGES.keys())
    stale = sorted(ALLOWED_KEYS - identical)
    assert not stale, f"no longer identical to the conversion, take them off ALLOWED: {stale}"


if __name__ == "__main__":
    print(report())
