"""Rich text for hovers that cannot be abused by the document text it shows.

Document text is untrusted: it goes only into fenced code blocks whose fence is longer
than any backtick run in it, or into inline code spans sized the same way, after every
control and bidirectional character has been escaped. No link, HTML or command from a
document can get through. Without markdown support the same content is plain text.

Prose renders as written in CommonMark (and GitHub's dialect, which VS Code's hovers
follow), with as few backslashes as that takes: an editor that shows the markdown as it is
(Neovim's hover highlights it, and shows a backslash escape as typed) shows the words as
written. A character is escaped only where it could start markup: code, emphasis, a link,
raw HTML, an entity, strikethrough, an autolink (``www.``, ``://``, ``@``), or, first on
the line, a heading, a quote, a list item or a thematic break.
"""

from __future__ import annotations

import json
import re

from lsprotocol import types

from ..core.display import visible
from ..core.explain import Block, Code, Para, Plain, Rule, Strong, Text

_BACKTICKS = re.compile(r"`+")
_INLINE_MARKUP = re.compile(
    r"\\(?=[!-/:-@\[-`{-~])"  # a backslash that would escape what follows
    r"|[`*\[\]~@]"  # code, emphasis, a link or an image, strikethrough, an e-mail autolink
    r"|(?<![^\W_])_|_(?![^\W_])"  # emphasis: an underscore not inside a word
    r"|<(?=[A-Za-z/!?])"  # raw HTML, an autolink
    r"|&(?=#?\w+;)"  # an entity
    r"|(?i:(?<=www)\.)|:(?=//)"  # an extended autolink
)
_LINE_START_MARKUP = re.compile(r"[ \t]*(?:[#>+\-=|]|\d{1,9}(?=[.)]))")
"""What makes a line a heading, a quote, a list item, a thematic break or a table row."""


def escaped(text: str) -> str:
    """Prose as CommonMark source that renders as ``text`` (one line)."""
    return _INLINE_MARKUP.sub(lambda m: "\\" + m.group(), text)


def _line_escaped(line: str) -> str:
    """A paragraph's line, a block's first character escaped when it would start one."""
    found = _LINE_START_MARKUP.match(line)
    if found is None:
        return line
    at = found.end() if line[found.end() - 1].isdigit() else found.end() - 1
    return line[:at] + "\\" + line[at:]


def _longest_backtick_run(text: str) -> int:
    return max((len(m.group()) for m in _BACKTICKS.finditer(text)), default=0)


def message_pieces(message: str) -> list[tuple[str, bool]]:
    """A finding's message cut into prose and the values it quotes in backticks, as
    ``(text, quoted)`` pairs (the backticks dropped); together they are the message.

    Messages quote with one backtick on each side, whatever the value holds (`` `"a`b"` ``),
    so a quote closes at a backtick not followed by a letter or digit, the first such one
    after which the quoted text is a JSON value (a value may be cut short with "…") when
    there is one, else the first. A backtick that closes nothing is prose.
    """
    pieces: list[tuple[str, bool]] = []
    prose = at = 0
    while (opening := message.find("`", at)) >= 0:
        closing = _closing_backtick(message, opening)
        if closing is None:
            at = opening + 1
            continue
        if opening > prose:
            pieces.append((message[prose:opening], False))
        pieces.append((message[opening + 1 : closing], True))
        prose = at = closing + 1
    if prose < len(message):
        pieces.append((message[prose:], False))
    return pieces


def _closing_backtick(message: str, opening: int) -> int | None:
    candidates = []
    at = message.find("`", opening + 2)  # a quote holds at least one character
    while at >= 0:
        after = message[at + 1 : at + 2]
        if not (after.isalnum() or after == "_"):
            candidates.append(at)
            if _is_json(message[opening + 1 : at]):
                return at
        at = message.find("`", at + 1)
    return candidates[0] if candidates else None


def _is_json(text: str) -> bool:
    if text.startswith('"') and text.endswith("…"):  # a string value shortened for the message
        return True
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


class RichText:
    """Paragraphs of prose, inline code and code blocks, rendered as markdown or plain text."""

    def __init__(self, markdown: bool) -> None:
        self.markdown = markdown
        self.blocks: list[str] = []

    def code(self, text: str) -> str:
        """An inline code span for untrusted text (one line)."""
        shown = visible(text)
        if not self.markdown:
            return shown
        fence = "`" * (_longest_backtick_run(shown) + 1)
        pad = " " if shown.startswith("`") or shown.endswith("`") or not shown.strip() else ""
        return f"{fence}{pad}{shown}{pad}{fence}"

    def strong(self, text: str) -> str:
        """Bold prose that we wrote (escaped all the same)."""
        if not self.markdown:
            return text
        return "**" + escaped(text) + "**"

    def text(self, text: str) -> str:
        """Prose that may quote untrusted values in backticks (a finding's message), one
        line: as markdown, each backtick-quoted value an inline code span (sized to what it
        holds) and the prose between them escaped; as plain text, the message as it is."""
        shown = visible(text)
        if not self.markdown:
            return shown
        return "".join(self.code(piece) if quoted else self.prose(piece) for piece, quoted in message_pieces(shown))

    def prose(self, text: str) -> str:
        """Prose shown as it is written: every character that could start markup escaped."""
        return escaped(text) if self.markdown else text

    def link(self, text: str, target: str) -> str:
        """A link we made (to a place in the session file): our words, our URI."""
        if not self.markdown:
            return text
        label = escaped(text)
        destination = target.replace(">", "%3E").replace(" ", "%20")
        return "[" + label + "](<" + destination + ">)"

    def para(self, *parts: str) -> None:
        line = "".join(parts)
        self.blocks.append(_line_escaped(line) if self.markdown else line)

    def block(self, text: str) -> None:
        """A fenced code block for untrusted text; newlines kept, everything else visible."""
        shown = visible(text, keep_newlines=True)
        if not self.markdown:
            self.blocks.append("\n".join("  " + line for line in shown.split("\n")))
            return
        fence = "`" * max(3, _longest_backtick_run(shown) + 1)
        self.blocks.append(f"{fence}text\n{shown}\n{fence}")

    def rule(self) -> None:
        self.blocks.append("---" if self.markdown else "")

    def add(self, text: Text) -> None:
        """Blocks of the core's plain description (see ``core/explain.py``)."""
        for block in text:
            if isinstance(block, Para):
                self.para(*(self.inline(part) for part in block.parts))
            elif isinstance(block, Block):
                self.block(block.text)
            elif isinstance(block, Rule):
                self.rule()

    def inline(self, part: str | Code | Strong | Plain) -> str:
        if isinstance(part, Code):
            return self.code(part.text)
        if isinstance(part, Strong):
            return self.strong(part.text)
        if isinstance(part, Plain):
            return self.text(part.text)
        return part

    def markup(self) -> types.MarkupContent:
        kind = types.MarkupKind.Markdown if self.markdown else types.MarkupKind.PlainText
        return types.MarkupContent(kind=kind, value="\n\n".join(self.blocks))


def rendered(text: Text, markdown: bool) -> types.MarkupContent:
    """The core's description as markdown (or plain text), document text kept inert."""
    out = RichText(markdown)
    out.add(text)
    return out.markup()
