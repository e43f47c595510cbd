"""Refresh the bundled CJK font: a subset of Noto Sans CJK SC Bold for names in pictures.

DejaVu Sans Bold (the pictures' font) has no Chinese, Japanese or Korean; the full Noto Sans CJK
weighs 20 MB. Players' names need only the common characters, so this keeps:

- Chinese: GB2312 (6763 simplified characters) and Big5's frequent characters (5401 traditional);
- Japanese: JIS X 0208 (kanji levels 1 and 2, kana), half-width kana;
- Korean: KS X 1001's 2350 Hangul syllables (the ones in daily use) and the Hangul letters;
- CJK punctuation and full-width forms.

Characters outside it still get a host font when one is installed (``SYSTEM_FALLBACKS``), else
the neutral dot. Run by hand when the character set changes (needs the ``fonttools`` package and
Debian's ``fonts-noto-cjk``); not used at run time:

    python -m bot.render.fonts.subset_cjk [--source NotoSansCJK-Bold.ttc]
"""

from __future__ import annotations

import argparse
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUTPUT = HERE / "NotoSansCJKsc-Bold-subset.otf"
DEFAULT_SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"
#: The collection's Simplified Chinese face (0 JP, 1 KR, 2 SC, 3 TC, 4 HK).
SC_INDEX = 2

#: Whole Unicode blocks kept: kana, Hangul letters, punctuation and full-width forms.
BLOCKS = (
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3041, 0x30FF),  # hiragana, katakana
    (0x3130, 0x318F),  # Hangul compatibility letters
    (0x31F0, 0x31FF),  # katakana phonetic extensions
    (0xFF01, 0xFFEF),  # full-width and half-width forms
)


def _encodable(codec: str, first: int, last: int) -> set[str]:
    """The characters in ``first..last`` that ``codec`` can write (its character set)."""
    chars = set()
    for code in range(first, last + 1):
        char = chr(code)
        try:
            char.encode(codec)
        except UnicodeEncodeError:
            continue
        chars.add(char)
    return chars


def _decodable(codec: str, leads: range, trails: list[int]) -> set[str]:
    """The characters a double-byte ``codec`` reads from these lead and trail bytes."""
    chars = set()
    for lead in leads:
        for trail in trails:
            try:
                chars.add(bytes((lead, trail)).decode(codec))
            except UnicodeDecodeError:
                continue
    return chars


def _big5_frequent() -> set[str]:
    """Big5's frequent characters: lead bytes 0xA4-0xC6 (its level 1, 5401 characters)."""
    return _decodable("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *range(0xA1, 0xFF)])


def _ksx1001_hangul() -> set[str]:
    """KS X 1001's 2350 Hangul syllables: rows 0xB0-0xC8 (Python's ``euc_kr`` writes every
    syllable, the others through composition sequences, so its encoder cannot tell them)."""
    return _decodable("euc_kr", range(0xB0, 0xC9), list(range(0xA1, 0xFF)))


def characters() -> str:
    """Every character the subset keeps, sorted."""
    han = (0x4E00, 0x9FFF)
    chars = _encodable("gb2312", *han) | _encodable("shift_jis", *han) | _big5_frequent()
    chars |= _ksx1001_hangul()
    for first, last in BLOCKS:
        chars |= {chr(code) for code in range(first, last + 1)}
    return "".join(sorted(chars))


def main() -> None:
    from fontTools import subset  # a developer's tool only: not a run-time dependency
    from fontTools.ttLib import TTCollection

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--source", default=DEFAULT_SOURCE)
    parser.add_argument("--out", type=Path, default=OUTPUT)
    args = parser.parse_args()
    font = TTCollection(args.source).fonts[SC_INDEX]
    options = subset.Options()
    options.layout_features = []  # names are drawn glyph by glyph: no vertical or ligature forms
    options.hinting = False
    options.desubroutinize = False
    options.name_languages = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=characters())
    subsetter.subset(font)
    font.save(str(args.out))
    print(f"{args.out.name}: {len(characters())} characters, {args.out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
