"""What players type for amounts of resources, read the way they type it in each language.

English ``2 brick, 1 ore`` or ``brick brick ore``; Chinese with full-width punctuation and digits, measure words and
numerals (「2 砖块，1 矿石」「2张砖块」「两个木材」「2 磚，1 鐵」, no spaces needed); Russian in the case the
sentence puts it in («1 глину», «2 древесины», «5 руд», «две глины»). Pure: the callers turn a ``Misread`` into a
message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from engine.catan.board import RESOURCES

# English words players use, singular and plural.
ENGLISH: Final = {
    "brick": "brick", "bricks": "brick", "clay": "brick",
    "lumber": "lumber", "wood": "lumber", "woods": "lumber", "log": "lumber", "logs": "lumber",
    "wool": "wool", "sheep": "wool",
    "grain": "grain", "grains": "grain", "wheat": "grain",
    "ore": "ore", "ores": "ore", "stone": "ore", "rock": "ore", "rocks": "ore",
}  # fmt: skip
# 简体中文 and 繁體中文: the editions' names and the everyday ones. Chinese is written without spaces, so these are
# found by the longest match at each position.
CHINESE: Final = {
    "砖": "brick", "砖块": "brick", "磚": "brick", "磚塊": "brick", "黏土": "brick", "砖头": "brick", "磚頭": "brick",
    "木": "lumber", "木材": "lumber", "木头": "lumber", "木頭": "lumber",
    "羊": "wool", "羊毛": "wool",
    "麦": "grain", "麥": "grain", "小麦": "grain", "小麥": "grain", "粮食": "grain", "糧食": "grain",
    "粮": "grain", "糧": "grain",
    "矿": "ore", "矿石": "ore", "礦": "ore", "礦石": "ore", "铁": "ore", "鐵": "ore",
}  # fmt: skip
# Русский: stems, each followed by one of its case endings (глина, глины, глину, глиной; руда, руды, руду, руд ...).
RUSSIAN: Final = (
    (re.compile(r"глин(?:а|ы|е|у|ой|ою|ам|ами|ах)?"), "brick"),
    (re.compile(r"кирпич(?:а|у|ом|е|и|ей|ам|ами|ах)?"), "brick"),
    (re.compile(r"древесин(?:а|ы|е|у|ой|ою)?"), "lumber"),
    (re.compile(r"дерев(?:о|а|у|ом|е|ьев|ья|ьям)"), "lumber"),
    (re.compile(r"бр[её]в(?:но|на|ну|ном|не|ен|нам|нами|нах)"), "lumber"),
    (re.compile(r"лес(?:а|у|ом|е)?"), "lumber"),
    (re.compile(r"шерст(?:ь|и|ью)"), "wool"),
    (re.compile(r"ов(?:ца|цы|це|цу|цой|ец|цам|цами|цах)"), "wool"),
    (re.compile(r"зерн(?:о|а|у|ом|е|ам|ами|ах)|з[её]рен"), "grain"),
    (re.compile(r"пшениц(?:а|ы|е|у|ей|ею)?"), "grain"),
    (re.compile(r"руд(?:а|ы|е|у|ой|ою|ам|ами|ах)?"), "ore"),
)
# Amounts written as words: Russian in every gender and case a count of cards takes («одну руду», «две глины»,
# «трёх овец»), and English.
NUMBER_WORDS: Final = {
    "один": 1, "одна": 1, "одну": 1, "одно": 1, "одного": 1, "одной": 1,
    "два": 2, "две": 2, "двух": 2, "три": 3, "трёх": 3, "трех": 3, "четыре": 4, "четырёх": 4, "четырех": 4,
    "пять": 5, "шесть": 6, "семь": 7, "восемь": 8, "девять": 9, "десять": 10,
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
}  # fmt: skip
FILLERS: Final = frozenset({"and", "a", "an", "и", "да", "和", "及", "与", "與", "跟", "还有", "還有", "加"})
# Chinese measure words between a number and the resource: 2张砖块, 两个木材, 3份羊毛.
MEASURES: Final = ("张", "張", "个", "個", "份", "块", "塊", "片", "枚", "单位", "單位")
CHINESE_DIGITS: Final = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5,
                         "六": 6, "七": 7, "八": 8, "九": 9}  # fmt: skip
SEPARATORS: Final = " \t\n,;+&/"
# Full-width and ideographic punctuation as Chinese keyboards type it, read as its ASCII counterpart.
_PUNCTUATION: Final = str.maketrans({"，": ",", "、": ",", "；": ";", "＋": "+", "＆": "&", "／": "/", "。": " ",
                                     "　": " ", "—": "-", "–": "-", "ｘ": "x", "＊": "*"})  # fmt: skip
_DIGITS: Final = re.compile(r"\d+")
_CHINESE_NUMBER: Final = re.compile(r"[零〇一二两兩三四五六七八九十]+")
_TIMES: Final = re.compile(r"\s*[x×*]\s*")
_LETTERS: Final = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True, slots=True)
class Misread(Exception):
    """Why a text is not an amount of resources: ``code`` is ``empty``, ``bad``, ``number``, ``unknown`` or
    ``too_many``; ``text`` is the part that could not be read."""

    code: str
    text: str = ""


def normalise(text: str) -> str:
    """Lower case, with full-width punctuation and letters as their ASCII forms (digits keep their own script)."""
    folded = []
    for char in text.translate(_PUNCTUATION):
        code = ord(char)
        # Full-width ASCII letters and signs (Ａ -> A, － -> -); full-width digits stay: int() reads them.
        if 0xFF01 <= code <= 0xFF5E and not char.isdecimal():
            char = chr(code - 0xFEE0)
        folded.append(char)
    return "".join(folded).lower()


def chinese_number(text: str) -> int | None:
    """一 ... 九十九 (两 for two); None if ``text`` is not such a number."""
    if "十" not in text:
        return CHINESE_DIGITS.get(text) if len(text) == 1 else None
    tens, _, ones = text.partition("十")
    if "十" in ones or len(tens) > 1 or len(ones) > 1:
        return None
    high = CHINESE_DIGITS.get(tens) if tens else 1  # 十二 is twelve, 二十 twenty
    low = CHINESE_DIGITS.get(ones) if ones else 0
    return None if high is None or low is None else high * 10 + low


def read_count(text: str) -> int | None:
    """A number of cards as typed: ``2``, ``２``, ``两``, ``2张``, ``三个``; None if it is not one."""
    word = normalise(text).strip()
    for measure in MEASURES:
        if word.endswith(measure) and len(word) > len(measure):
            word = word[: -len(measure)].strip()
            break
    if word.isdecimal():  # any script's decimal digits (２ too), never ² or ①
        return int(word)
    return chinese_number(word)


def _resource_at(text: str, position: int) -> tuple[str, int] | None:
    """The resource (or filler, as "") that starts at ``position``, and where it ends."""
    letters = _LETTERS.match(text, position)
    if letters is None:
        return None
    word = letters[0]
    if word in ENGLISH:
        return ENGLISH[word], letters.end()
    if word in FILLERS:
        return "", letters.end()
    for pattern, name in RUSSIAN:
        if pattern.fullmatch(word):
            return name, letters.end()
    # Chinese runs on without spaces: the longest known word at this position.
    for size in range(min(4, len(word)), 0, -1):
        piece = text[position : position + size]
        if piece in CHINESE:
            return CHINESE[piece], position + size
        if piece in FILLERS:
            return "", position + size
    return None


def _count_at(text: str, position: int) -> tuple[int | None, int]:
    """An amount (digits of any script or a Chinese numeral) with its measure word and ``x``, and where it ends."""
    number: int | None = None
    digits = _DIGITS.match(text, position)
    chinese = _CHINESE_NUMBER.match(text, position)
    word = _LETTERS.match(text, position)
    if digits:
        number, position = int(digits[0]), digits.end()
    elif chinese and chinese_number(chinese[0]) is not None:
        number, position = chinese_number(chinese[0]), chinese.end()
    elif word and word[0] in NUMBER_WORDS:
        number, position = NUMBER_WORDS[word[0]], word.end()
    if number is None:
        return None, position
    while position < len(text) and text[position] == " ":
        position += 1
    for measure in MEASURES:
        # 块 is a measure word (两块砖) and part of a name (砖块): a name that starts here wins.
        if text.startswith(measure, position) and (_resource_at(text, position) is None or measure not in ("块", "塊")):
            position += len(measure)
            break
    times = _TIMES.match(text, position)
    return number, times.end() if times else position


def read_bundle(text: str, limit: int) -> dict[str, int]:
    """``"2 brick, 1 ore"`` (and the forms above) -> ``{"brick": 2, "ore": 1}``; raises ``Misread``."""
    rest = normalise(text).strip()
    bundle = dict.fromkeys(RESOURCES, 0)
    position = 0
    while position < len(rest):
        if rest[position] in SEPARATORS:
            position += 1
            continue
        start = position
        count, position = _count_at(rest, position)
        if position < len(rest) and rest[position].isnumeric() and not rest[position].isdecimal():
            raise Misread("number", _word_at(rest, position))  # ², ①, ½: numbers that are no amounts
        found = _resource_at(rest, position)
        if found is None:
            if count is None and rest[position].isnumeric():
                raise Misread("number", _word_at(rest, position))
            word = _word_at(rest, position)
            if word and _LETTERS.fullmatch(word):
                raise Misread("unknown", word)
            raise Misread("bad", rest[start:].strip() or rest[position:])
        name, position = found
        if not name:
            if count is not None:
                raise Misread("bad", rest[start:position])
            continue
        bundle[name] += 1 if count is None else count
    if not any(bundle.values()):
        raise Misread("empty")
    if any(n > limit for n in bundle.values()):
        raise Misread("too_many")
    return {r: n for r, n in bundle.items() if n}


def _word_at(text: str, position: int) -> str:
    end = position
    while end < len(text) and text[end] not in SEPARATORS:
        end += 1
    return text[position:end]
