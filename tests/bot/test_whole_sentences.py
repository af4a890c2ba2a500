"""Whole sentences in every language: lists in the language's own format, Russian nouns in the case the sentence
needs, Chinese punctuation, zh-TW written for Taiwan, and one template where a placeholder would need another form."""

from __future__ import annotations

import contextvars
import re
from typing import Any

import pytest

from bot.carcassonne.narration import narrate as carcassonne_narrate
from bot.catan.names import bundle_text
from bot.catan.narration import narrate as catan_narrate
from bot.text import listing, t
from bot.text.catalogue import MESSAGES
from bot.text.i18n import PSEUDO, mentioning, set_guild, speaking, translations


def forms(value: str | tuple[str, ...] | None) -> tuple[str, ...]:
    return () if value is None else (value,) if isinstance(value, str) else value


@pytest.mark.parametrize(
    ("lang", "names", "expected"),
    [
        ("en", ["Anna", "Bob", "Katya"], "Anna, Bob, and Katya"),
        ("zh-CN", ["安娜", "鲍勃", "卡佳"], "安娜、鲍勃和卡佳"),
        ("zh-TW", ["安娜", "鮑伯", "卡佳"], "安娜、鮑伯和卡佳"),
        ("ru", ["Аня", "Боб", "Катя"], "Аня, Боб и Катя"),
    ],
)
def test_a_list_of_names_reads_the_way_the_language_writes_it(lang: str, names: list[str], expected: str) -> None:
    with speaking(lang):
        assert listing(names) == expected
        assert listing(names[:1]) == names[0]
        assert listing([]) == ""


def test_an_enumeration_has_no_conjunction_and_a_choice_says_or() -> None:
    with speaking("zh-CN"):
        assert listing(["(0, 0)", "(1, 0)", "(2, 0)"], style="enumeration") == "(0, 0)、(1, 0)、(2, 0)"
        assert listing(["安娜", "鲍勃"], style="or") == "安娜或鲍勃"
    with speaking("ru"):
        assert listing(["Аня", "Боб"], style="or") == "Аня или Боб"
        assert listing(["Аня — 3", "Боб — 5"], style="enumeration") == "Аня — 3, Боб — 5"


def test_the_pseudo_language_marks_the_lists_own_words() -> None:
    with speaking(PSEUDO):
        assert listing(["a", "b"]) == "⟦a and b⟧"


def test_the_narration_of_players_and_scores_uses_the_list_format() -> None:
    events = [{"type": "game_over", "winners": [0, 2], "scores": [12, 9, 12]}]
    with speaking("zh-CN"):
        assert carcassonne_narrate(events, ["安娜", "鲍勃", "卡佳"]) == [
            "游戏结束，平局。获胜者：安娜和卡佳。分数：安娜 12分、鲍勃 9分、卡佳 12分。"
        ]
    with speaking("ru"):
        assert carcassonne_narrate(events, ["Аня", "Боб", "Катя"]) == [
            "Игра окончена вничью: побеждают Аня и Катя. Очки: Аня — 12, Боб — 9, Катя — 12."
        ]
    with speaking("en"):
        one = carcassonne_narrate([{"type": "game_over", "winners": [1], "scores": [3, 7]}], ["ann", "bob"])
    assert one == ["The game is over. Winner: bob. Scores: ann 3, bob 7."]


def test_russian_amounts_after_a_verb_stand_in_the_accusative() -> None:
    one_each = {"brick": 1, "lumber": 1, "wool": 1, "grain": 1, "ore": 1}
    events: list[dict[str, Any]] = [
        {"type": "discarded", "player": 0, "cards": {"brick": 1, "ore": 2}},
        {"type": "took", "player": 0, "cards": {"lumber": 1, "grain": 1}},
        {"type": "bank_traded", "player": 1, "give": {"wool": 4}, "get": {"ore": 1}},
        {"type": "traded", "player": 0, "with": 1, "give": {"brick": 1}, "get": {"lumber": 1}},
        {"type": "offer_made", "player": 0, "to": None, "give": {"ore": 1}, "get": {"brick": 2}, "offer": 3},
        {"type": "produced", "gains": [one_each, {}], "shortage": []},
        {"type": "stolen", "thief": 1, "victim": 0, "resource": "ore"},
    ]
    with speaking("ru"):
        told = catan_narrate(events, ["Аня", "Боб"])
    assert told == [
        "Аня сбрасывает 1 глину и 2 руды.",
        "Аня берёт из банка 1 древесину и 1 зерно.",
        "Боб меняет в банке 4 шерсти на 1 руду.",
        "Аня меняет 1 глину на 1 древесину с игроком Боб.",
        "Аня предлагает всем 1 руду за 2 глины (предложение № 3).",
        "Аня получает 1 глину, 1 древесину, 1 шерсть, 1 зерно и 1 руду.",
        "Боб забирает у игрока Аня 1 руду.",
    ]
    with speaking("ru"):  # a list after a colon stays in the nominative
        assert bundle_text({"brick": 1, "ore": 1}) == "1 глина и 1 руда"


def test_chinese_amounts_take_the_measure_word() -> None:
    bundle = {"brick": 2, "ore": 1}
    with speaking("zh-CN"):
        assert bundle_text(bundle) == "2张砖块和1张矿石"
    with speaking("zh-TW"):
        assert bundle_text(bundle) == "2張磚和1張鐵"


def test_a_sentence_about_a_piece_or_feature_names_it_in_its_own_words() -> None:
    events: list[dict[str, Any]] = [
        {"type": "follower_placed", "player": 0, "x": 1, "y": 0, "on": "road:E", "role": "thief"},
        {"type": "feature_completed", "feature": "road", "cells": [[0, 0], [1, 0]], "tiles": 2, "pennants": 0,
         "points": 2, "scorers": [0, 1]},
        {"type": "follower_returned", "player": 0, "x": 1, "y": 0, "on": "road:E"},
    ]  # fmt: skip
    with speaking("ru"):
        assert carcassonne_narrate(events, ["Аня", "Боб"]) == [
            "Аня ставит разбойника на дорогу (восток) на квадрате в столбце 1, строке 0.",
            "Дорога в столбцах 0 и 1, строке 0 завершена: Аня и Боб получают по 2 очка (2 квадрата).",
            "Разбойник игрока Аня возвращается в запас с дороги (восток) на квадрате в столбце 1, строке 0.",
        ]
    with speaking("zh-TW"):
        assert carcassonne_narrate(events[1:2], ["安娜", "鮑伯"]) == [
            "第0列第0、1欄的道路完成了：安娜和鮑伯各得2分（2片版圖）。"
        ]
    built = [{"type": "built", "player": 0, "piece": "settlement", "at": 25}]
    with speaking("ru"):
        assert catan_narrate(built, ["Аня"]) == ["Аня строит поселение на перекрёстке 25 (F-S)."]


def test_an_offer_to_everyone_and_an_empty_hand_have_their_own_sentences() -> None:
    with speaking("ru"):
        assert t("catan.modal.offer_all_title") == "Предложение всем"
        assert t("catan.cannot_afford_nothing", what="Дорога", cost="1 глину и 1 древесину") == (
            "Дорога стоит 1 глину и 1 древесину; у вас нет карт ресурсов."
        )
    with speaking("zh-CN"):
        assert t("catan.hand.no_resources") == "资源：没有资源卡。"
    for lang in ("zh-CN", "zh-TW", "ru"):
        texts = translations(lang).texts.values()
        assert not [f for v in texts for f in forms(v) if "什么也没有" in f or "什麼也沒有" in f or "игроку всем" in f]


HAN = r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]"
SEPARATOR = r"[·→▶◀×+=⏮⏭]"
CHINESE_RULES = {
    "an ASCII comma, colon, semicolon, ! or ? beside Chinese": re.compile(rf"{HAN}[,;:!?]|[,;:!?] ?{HAN}"),
    "a space after full-width punctuation": re.compile(r"[。，！？；：、] "),
    "a space before full-width punctuation": re.compile(r" [。，！？；：、）]"),
    "brackets inside brackets": re.compile(r"（[^（）]*[(]|[)][^（）]*）|（\{where\}"),
    "an English dash": re.compile(r"——| — "),
    # docs/translating.md: Chinese sets no space between a Chinese character and a name, mention or number (the
    # placeholders stand for those); spaces stay only among Latin text and around the separators · → ▶ ◀ ⏮ ⏭ × + =
    "a space beside Chinese or beside a placeholder next to Chinese": re.compile(
        rf"{HAN} +(?!{SEPARATOR})|(?<!{SEPARATOR}) +{HAN}|{HAN}\{{\w+\}} +(?!{SEPARATOR}|[({{])"
    ),
}


@pytest.mark.parametrize("lang", ["zh-CN", "zh-TW"])
def test_chinese_catalogues_use_full_width_punctuation_without_stray_spaces(lang: str) -> None:
    found = [
        f"{key}: {rule}: {text!r}"
        for key, value in translations(lang).texts.items()
        for text in forms(value)
        for rule, pattern in CHINESE_RULES.items()
        if pattern.search(text)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("zh-CN", ["小明把骑士放在", "向小红提议用1张羊毛换1张砖块"]),
        ("zh-TW", ["小明派騎士到", "向春嬌提議用1張羊換1張磚"]),
    ],
)
def test_chinese_names_and_amounts_sit_in_the_sentence_without_spaces(lang: str, expected: list[str]) -> None:
    names = ["小明", "小红" if lang == "zh-CN" else "春嬌"]
    with speaking(lang):
        placed = "".join(
            carcassonne_narrate([{"type": "follower_placed", "player": 0, "x": 1, "y": 0, "on": "city:N"}], names)
        )
        offer = "".join(
            catan_narrate(
                [{"type": "offer_made", "player": 0, "to": 1, "give": {"wool": 1}, "get": {"brick": 1}, "offer": 3}],
                names,
            )
        )
        exchanged = "".join(carcassonne_narrate([{"type": "prisoners_exchanged", "players": [0, 1]}], names))
    assert expected[0] in placed, placed
    assert expected[1] in offer, offer
    assert " " not in exchanged, exchanged


def test_each_chinese_catalogue_uses_its_own_quotes() -> None:
    simplified = [k for k, v in translations("zh-CN").texts.items() for f in forms(v) if "「" in f or "」" in f]
    traditional = [k for k, v in translations("zh-TW").texts.items() for f in forms(v) if "“" in f or "”" in f]
    assert not simplified and not traditional


# Words a Simplified Chinese text keeps when it is only converted character by character; Taiwan writes the word
# on the right. 設置 stays allowed in 設置階段, the set-up phase of Taiwan's Catan rules.
MAINLAND_WORDS = {
    "信息": "訊息", "消息": "訊息", "默認": "預設", "用戶": "使用者", "文件": "檔案", "菜單": "選單",
    "服務器": "伺服器", "鏈接": "連結", "網絡": "網路", "程序": "程式", "軟件": "軟體", "視頻": "影片",
    "屏幕": "螢幕", "登錄": "登入", "賬號": "帳號", "支持": "支援", "回復": "回覆", "發佈": "發布", "點擊": "點選",
    "保存": "儲存", "添加": "新增", "創建": "建立", "數據": "資料", "界面": "介面", "窗口": "視窗", "獲取": "取得",
    "質量": "品質", "連線": "連接", "許可權": "權限", "私信": "私訊", "檢視": "查看", "回放": "對局紀錄",
}  # fmt: skip


def test_traditional_chinese_is_written_for_taiwan() -> None:
    found = []
    for key, value in translations("zh-TW").texts.items():
        for text in forms(value):
            for word, taiwan in MAINLAND_WORDS.items():
                if word in text:
                    found.append(f"{key}: {word} (Taiwan: {taiwan}) in {text!r}")
            if "設置" in text.replace("設置階段", ""):
                found.append(f"{key}: 設置 (Taiwan: 設定) in {text!r}")
    assert not found, "\n".join(found)


def test_russian_never_puts_a_name_straight_after_a_preposition() -> None:
    """Names cannot be declined, so they follow a noun that can («с игроком {name}», not «с {name}»)."""
    bare = re.compile(r"\b(с|у|от|к|для|игроку всем) \{(name|to|other|victim|thief|owner|holder|names)\}")
    texts = translations("ru").texts
    assert not [f"{k}: {f}" for k, v in texts.items() for f in forms(v) if bare.search(f)]


COMMAND_AS_TEXT = re.compile(r"(?<![<\w])/(carcassonne|catan|game|hand|build|place|stats|settings)\b")


def test_texts_name_commands_by_placeholder_never_as_written_commands() -> None:
    for lang in ("en", "zh-CN", "zh-TW", "ru"):
        texts = MESSAGES if lang == "en" else translations(lang).texts
        written = [
            f"{key}: {text}"
            for key, value in texts.items()
            if not key.startswith("slash.")
            for text in forms(value)
            if COMMAND_AS_TEXT.search(text)
        ]
        assert not written, (lang, written)


def test_a_command_placeholder_becomes_the_commands_mention_in_the_current_server() -> None:
    params = {"mention": "<@1>", "level": "standard"}
    with speaking("ru"):
        assert t("computer.takeover", **params).endswith("(кнопка «Я снова в игре» или /game back).")

    def in_server() -> list[str]:
        set_guild(77)
        told = []
        for lang in ("en", "zh-CN", "zh-TW", "ru"):
            with speaking(lang):
                told.append(t("computer.takeover", **params))
        return told

    with mentioning(lambda name, guild: f"</{name}:{guild}>"):
        told = contextvars.copy_context().run(in_server)
    assert all("</game back:77>" in text and "/game back)" not in text for text in told)
    with speaking("zh-TW"):
        assert t("catan.dm_failed", mention="<@1>") == "<@1>，私訊你失敗了。請用/hand查看你的牌和還有效的提案。"
