"""LZString's ``compressToBase64`` / ``decompressFromBase64``, as f-puzzles and SudokuPad use them.

LZString (pieroxy's lz-string, the JavaScript library both sites load) packs a text into
LZW codes of growing width and writes the bits six to a character of the base64
alphabet, padded with ``=`` to a multiple of four.  A JavaScript string is UTF-16, so the
codes are UTF-16 code units: a character outside the Basic Multilingual Plane is two.

Written here rather than taken from PyPI: the ``lzstring`` package (1.0.4, 2018) reads
and writes the same text (checked against real links in ``tests/test_fpuzzles.py``), but
it needs the Python 2 compatibility package ``future`` and, on a damaged link, fails with
an ``IndexError`` or silently returns garbage, where a reader must name what is wrong.
"""

from __future__ import annotations

from ..errors import PuzzleError

BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_VALUE = {char: value for value, char in enumerate(BASE64)}
_BITS = 6  # bits per base64 character
#: a decompressed text longer than this is no puzzle (LZW output can grow as the square
#: of its input: a crafted link must not fill the memory)
MAX_TEXT = 4_000_000


def compress_to_base64(text: str) -> str:
    """``LZString.compressToBase64(text)``, character for character."""
    units = _utf16_units(text)
    out: list[str] = []
    value = position = 0

    def write(number: int, width: int) -> None:
        """``width`` bits of ``number``, lowest first, into the base64 characters."""
        nonlocal value, position
        for _ in range(width):
            value = (value << 1) | (number & 1)
            number >>= 1
            if position == _BITS - 1:
                out.append(BASE64[value])
                value = position = 0
            else:
                position += 1

    dictionary: dict[str, int] = {}
    to_create: set[str] = set()  # single characters not yet written out literally
    size, width, enlarge_in = 3, 2, 2
    word = ""

    def emit(word: str) -> None:
        nonlocal width, enlarge_in
        if word in to_create:
            code = ord(word)
            wide = code >= 256
            write(int(wide), width)
            write(code, 16 if wide else 8)
            enlarge_in -= 1
            if enlarge_in == 0:
                enlarge_in, width = 1 << width, width + 1
            to_create.discard(word)
        else:
            write(dictionary[word], width)
        enlarge_in -= 1
        if enlarge_in == 0:
            enlarge_in, width = 1 << width, width + 1

    for char in units:
        if char not in dictionary:
            dictionary[char] = size
            size += 1
            to_create.add(char)
        joined = word + char
        if joined in dictionary:
            word = joined
            continue
        emit(word)
        dictionary[joined] = size
        size += 1
        word = char
    if word:
        emit(word)
    write(2, width)  # the end mark
    while True:  # flush the last character
        value <<= 1
        if position == _BITS - 1:
            out.append(BASE64[value])
            break
        position += 1
    return "".join(out) + "=" * (-len(out) % 4)


def decompress_from_base64(data: str, what: str = "the data") -> str:
    """The text ``LZString.compressToBase64`` made ``data`` from; PuzzleError naming the
    character or the point where ``data`` is not such a text (``what`` names it)."""
    stripped = data.rstrip("=")
    values: list[int] = []
    for position, char in enumerate(stripped, 1):
        value = _VALUE.get(char)
        if value is None:
            raise PuzzleError(f"{what}, character {position}: {char!r} is not a base64 character")
        values.append(value)
    if not values:
        raise PuzzleError(f"{what} is empty")
    reader = _Bits(values)
    dictionary: list[str] = ["", "", ""]  # codes 0, 1, 2 are commands, not entries
    width, enlarge_in = 3, 4
    first = reader.read(2)
    if first == 2:
        raise PuzzleError(f"{what} holds an empty text")
    if first == 3:
        raise PuzzleError(f"{what}, character 1: not LZString data (it starts with code {first})")
    word = chr(reader.read(16 if first == 1 else 8))
    dictionary.append(word)
    parts, length = [word], 1
    while True:
        if reader.exhausted():
            raise PuzzleError(f"{what} ends before LZString's end mark (is the link cut short?)")
        code = reader.read(width)
        if code == 2:
            break
        if code in (0, 1):
            dictionary.append(chr(reader.read(8 if code == 0 else 16)))
            code = len(dictionary) - 1
            enlarge_in -= 1
            if enlarge_in == 0:
                enlarge_in, width = 1 << width, width + 1
        if code < len(dictionary) and code > 2:
            entry = dictionary[code]
        elif code == len(dictionary):
            entry = word + word[0]
        else:
            raise PuzzleError(
                f"{what}, character {reader.character()}: code {code} is not in LZString's dictionary "
                "(the data is damaged)"
            )
        parts.append(entry)
        length += len(entry)
        if length > MAX_TEXT:
            raise PuzzleError(f"{what} unpacks to more than {MAX_TEXT} characters: no puzzle is that long")
        dictionary.append(word + entry[0])
        enlarge_in -= 1
        word = entry
        if enlarge_in == 0:
            enlarge_in, width = 1 << width, width + 1
    # the codes are UTF-16 code units: pair the surrogates back into characters
    return "".join(parts).encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


class _Bits:
    """The bits of base64 values, highest first within each value (as lz-string reads them)."""

    def __init__(self, values: list[int]):
        self.values, self.index, self.mask = values, 0, 1 << (_BITS - 1)

    def read(self, width: int) -> int:
        """``width`` bits, the first read the lowest (past the end: zeros, as in JavaScript)."""
        number = 0
        for bit in range(width):
            if self.index < len(self.values) and self.values[self.index] & self.mask:
                number |= 1 << bit
            self.mask >>= 1
            if self.mask == 0:
                self.mask, self.index = 1 << (_BITS - 1), self.index + 1
        return number

    def exhausted(self) -> bool:
        return self.index >= len(self.values)

    def character(self) -> int:
        """The 1-based character being read, for messages."""
        return min(self.index + 1, len(self.values))


def _utf16_units(text: str) -> list[str]:
    """The text as JavaScript sees it: one character per UTF-16 code unit."""
    if text.isascii():
        return list(text)
    raw = text.encode("utf-16-le", "surrogatepass")
    return [chr(raw[i] | raw[i + 1] << 8) for i in range(0, len(raw), 2)]
