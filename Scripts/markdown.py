"""What the documentation scripts read: fenced code blocks, in Markdown and in Swift doc
comments, and Markdown headings.

A fenced block's info string is its language, then words that tell the scripts what to do with
it (see Documentation/Contributing.md, "Code blocks"). GitHub and docc colour a block by its
first word alone, so the words cost a reader nothing.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^(```+)(.*)$")
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
    blocks: list[CodeBlock] = []
    current: CodeBlock | None = None
    fence = ""
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if current is None:
            match = FENCE.match(line)
            if match:
                fence = match.group(1)
                words = match.group(2).split()
                language = words[0] if words else ""
                current = CodeBlock(path, number, language, words[1:])
        elif line.strip() == fence:
            blocks.append(current)
            current = None
        else:
            current.lines.append(line)
    if current is not None:
        raise SystemExit(f"{current.location}: this code block is never closed")
    return blocks


DOC_COMMENT = re.compile(r"^\s*/// ?(.*)$")


def doc_comment_blocks(path: Path) -> list[CodeBlock]:
    """The fenced code blocks inside the `///` doc comments of a Swift file, in order, with the
    lines of the Swift file."""
    blocks: list[CodeBlock] = []
    current: CodeBlock | None = None
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        comment = DOC_COMMENT.match(line)
        if comment is None:
            if current is not None:
                raise SystemExit(f"{current.location}: this code block is never closed")
            continue
        text = comment.group(1)
        if current is None:
            match = FENCE.match(text.strip())
            if match:
                words = match.group(2).split()
                current = CodeBlock(path, number, words[0] if words else "", words[1:])
        elif text.strip() == "```":
            blocks.append(current)
            current = None
        else:
            current.lines.append(text)
    return blocks


def headings(text: str) -> list[tuple[int, str]]:
    """The headings of Markdown text outside code blocks, as (level, title)."""
    found = []
    inside = False
    for line in text.splitlines():
        if FENCE.match(line):
            inside = not inside
            continue
        match = None if inside else HEADING.match(line)
        if match:
            found.append((len(match.group(1)), match.group(2)))
    return found


def github_anchor(title: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation gone, spaces as hyphens."""
    title = re.sub(r"`", "", title).lower()
    title = re.sub(r"[^\w\- ]", "", title)
    return title.replace(" ", "-")
