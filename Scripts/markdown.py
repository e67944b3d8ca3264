"""What the documentation scripts read: fenced code blocks, in Markdown and in Swift doc
comments, and Markdown's prose, headings and links.

A fenced block's info string is its language, then words that tell the scripts what to do with
it (see Documentation/Contributing.md, "Code blocks"). GitHub and docc colour a block by its
first word alone, so the words cost a reader nothing.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^(```+)(.*)$")
# A link or an image: whether it is an image, its label (which may run over lines), its target.
LINK = re.compile(r"(!?)\[((?:[^\]\\]|\\.)*)\]\(([^)\s]+)\)", re.DOTALL)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


@dataclass
class CodeBlock:
    """One fenced code block: where it starts, its language, its words and its lines."""

    path: Path
    line: int  # the 1-based line of the opening fence
    language: str
    words: list[str]
    lines: list[str] = field(default_factory=list)

    @property
    def location(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def code_blocks(path: Path) -> list[CodeBlock]:
    """The fenced code blocks of a Markdown file, in order."""
    return fenced_blocks(path, path.read_text().splitlines())


DOC_COMMENT = re.compile(r"^\s*/// ?(.*)$")


def doc_comment_blocks(path: Path) -> list[CodeBlock]:
    """The fenced code blocks inside the `///` doc comments of a Swift file, in order, with the
    lines of the Swift file."""
    comments = [match.group(1) if (match := DOC_COMMENT.match(line)) else None
                for line in path.read_text().splitlines()]
    return fenced_blocks(path, comments)


def fenced_blocks(path: Path, lines: list[str | None]) -> list[CodeBlock]:
    """The fenced code blocks among `lines`, the file's lines counted from 1; a `None` line is
    not text (code around a doc comment, say), and no block may span it."""
    blocks: list[CodeBlock] = []
    current: CodeBlock | None = None
    fence = ""
    for number, line in enumerate(lines, start=1):
        if current is None:
            match = FENCE.match(line.strip()) if line is not None else None
            if match:
                fence = match.group(1)
                words = match.group(2).split()
                current = CodeBlock(path, number, words[0] if words else "", words[1:])
        elif line is None:
            break
        elif line.strip() == fence:
            blocks.append(current)
            current = None
        else:
            current.lines.append(line)
    if current is not None:
        raise SystemExit(f"{current.location}: this code block is never closed")
    return blocks


def prose(text: str) -> str:
    """Markdown text with the lines of its fenced code blocks, fences included, left empty, so
    that what is searched in it is prose and its line numbers still count."""
    lines, inside = [], False
    for line in text.splitlines():
        if FENCE.match(line.strip()):
            inside = not inside
            lines.append("")
        else:
            lines.append("" if inside else line)
    return "\n".join(lines)


def headings(text: str) -> list[tuple[int, str]]:
    """The headings of Markdown text outside code blocks, as (level, title)."""
    return [(len(match.group(1)), match.group(2))
            for line in prose(text).splitlines() if (match := HEADING.match(line))]


def github_anchor(title: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation gone, spaces as hyphens."""
    title = re.sub(r"`", "", title).lower()
    title = re.sub(r"[^\w\- ]", "", title)
    return title.replace(" ", "-")
