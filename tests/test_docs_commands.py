"""Every command in README.md and docs/*.md runs, as the text says it does.

The pages' fenced blocks are the tests (docs/development.md states the conventions):

* ```` ```bash ````: each command (a line, or lines joined by a trailing ``\\``) runs with bash in
  a fresh directory holding a copy of the repository's ``data/``; it must exit 0, or N when the
  line ends with the comment ``# exit N``.  The commands of one block share that directory, so a
  file one writes, the next may read.
* ```` ```console ````: ``$ command`` lines, each followed by the output it prints (stdout), which
  must match; ``...`` stands for any text (doctest's ELLIPSIS), runs of spaces are one space.
* ```` ```python ````: run as a script in such a directory; when an ```` ```output ```` block
  follows right after it, its stdout must match that block the same way.
* ``<!-- skip: why -->`` on the line before a block: the block is not run (a count of hours).
* ``<!-- server -->`` on the line before a bash block: a ``mindgames serve`` line in it starts
  the server in the background (on a free port, which stands for the ``8000`` of the text) and
  the block's other commands run against it.

Pages are globbed (README.md, docs/*.md), so a new page is tested as it lands.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
MARKER = re.compile(r"<!--\s*(skip|server)\b:?\s*(.*?)\s*-->\s*$")
EXIT = re.compile(r"#\s*exit\s+(\d+)\s*$")
RUN_SECONDS = 120  # one command; a longer one is marked skip in its page
BIN = Path(sys.executable).parent  # the venv's mindgames, python and pip come first on PATH


@dataclass
class Block:
    page: Path
    line: int  # of the opening fence, 1-based
    lang: str
    text: str
    marker: str  # "", "skip" or "server"
    output: str | None  # a python block's ```output block


def blocks(page: Path) -> list[Block]:
    source = page.read_text(encoding="utf-8")
    found: list[Block] = []
    matches = list(FENCE.finditer(source))
    for k, match in enumerate(matches):
        lang = match.group(1)
        if lang not in ("bash", "console", "python"):
            continue
        before = source[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marked = MARKER.search(before)
        output = None
        if lang == "python" and k + 1 < len(matches) and matches[k + 1].group(1) == "output":
            if source[match.end() : matches[k + 1].start()].strip() == "":
                output = matches[k + 1].group(2)
        found.append(
            Block(
                page=page,
                line=source[: match.start()].count("\n") + 1,
                lang=lang,
                text=match.group(2),
                marker=marked.group(1) if marked else "",
                output=output,
            )
        )
    return found


def commands(text: str) -> list[str]:
    """The block's commands: continuation lines joined, comments-only and blank lines dropped."""
    joined: list[str] = []
    pending = ""
    for line in text.splitlines():
        if line.rstrip().endswith("\\"):
            pending += (line.strip() if pending else line.rstrip())[:-1].rstrip() + " "
            continue
        line = pending + line.strip() if pending else line
        pending = ""
        if line.strip() and not line.lstrip().startswith("#"):
            joined.append(line.strip())
    return joined


def console(text: str) -> list[tuple[str, str]]:
    """(command, expected output) pairs of a console block."""
    pairs: list[tuple[str, list[str]]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            command = line[2:]
            while command.rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                command = command.rstrip()[:-1].rstrip() + " " + lines[i].strip()
            pairs.append((command, []))
        elif pairs:
            pairs[-1][1].append(line)
        i += 1
    return [(command, "\n".join(out).rstrip() + "\n") for command, out in pairs]


def expected_exit(command: str) -> int:
    found = EXIT.search(command)
    return int(found.group(1)) if found else 0


def matches(expected: str, got: str) -> bool:
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    return doctest.OutputChecker().check_output(expected, got, flags)


def environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["NO_COLOR"] = "1"
    env.pop("MINDGAMES_DB", None)
    return env


def workdir(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "data", tmp_path / "data")
    return tmp_path


def run(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=RUN_SECONDS,
        stdin=subprocess.DEVNULL,
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port: int, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError(f"mindgames serve did not listen on port {port} within {seconds} s")


ALL = [block for page in PAGES for block in blocks(page)]


def block_id(block: Block) -> str:
    return f"{block.page.relative_to(ROOT)}:{block.line}"


@pytest.mark.parametrize("block", ALL, ids=block_id)
def test_documented_block_runs_as_stated(block: Block, tmp_path: Path) -> None:
    if block.marker == "skip":
        pytest.skip("marked skip in the page")
    cwd = workdir(tmp_path)
    env = environment()
    where = block_id(block)
    if block.lang == "python":
        script = cwd / "example.py"
        script.write_text(block.text, encoding="utf-8")
        done = run(f"{shlex.quote(sys.executable)} example.py", cwd, env)
        assert done.returncode == 0, f"{where}: the example failed:\n{done.stderr}"
        if block.output is not None:
            assert matches(block.output, done.stdout), f"{where}: printed\n{done.stdout}"
        return
    if block.lang == "console":
        for command, output in console(block.text):
            done = run(command, cwd, env)
            assert done.returncode == expected_exit(command), f"{where}: {command}\n{done.stderr}"
            assert matches(output, done.stdout), f"{where}: {command} printed\n{done.stdout}"
        return
    server = None
    port = free_port()
    try:
        for command in commands(block.text):
            if command.startswith("mindgames serve") and block.marker != "server":
                pytest.fail(
                    f"{where}: `{command}` runs until stopped: mark the block <!-- server --> or <!-- skip: ... -->"
                )
            if block.marker == "server" and command.startswith("mindgames serve"):
                if server is not None:
                    continue  # one server per block: the others are shown, not started
                argv = shlex.split(command.split("#", 1)[0]) + ["--port", str(port), "--db", "jobs.sqlite3"]
                server = subprocess.Popen(argv, cwd=cwd, env=env, start_new_session=True)
                wait_for(port)
                continue
            command = command.replace(":8000", f":{port}")
            done = run(command, cwd, env)
            assert done.returncode == expected_exit(command), (
                f"{where}: {command}\nexit {done.returncode}\n{done.stderr[-2000:]}"
            )
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)


def test_the_pages_hold_blocks_to_run() -> None:
    # the collector finds the README's two commands and more: a broken fence would hide them all
    readme = [b for b in ALL if b.page.name == "README.md"]
    assert any("mindgames sudoku solve data/sudoku/seed.txt" in b.text for b in readme)
    assert len(ALL) > 20


def test_the_conventions_read_as_documented(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "<!-- skip: an hour -->\n```bash\nmindgames binairo count --size 12\n```\n\n"
        "```bash\n# a comment line\nmindgames sudoku solve \\\n    data/sudoku/seed.txt\nfalse   # exit 1\n```\n\n"
        "```console\n$ echo a \\\n    b\na b\n$ true\n```\n\n"
        "```python\nprint(6)\n```\n\n```output\n6\n```\n",
        encoding="utf-8",
    )
    skipped, shell, shown, script = blocks(page)
    assert skipped.marker == "skip" and shell.marker == ""
    assert commands(shell.text) == ["mindgames sudoku solve data/sudoku/seed.txt", "false   # exit 1"]
    assert [expected_exit(c) for c in commands(shell.text)] == [0, 1]
    assert console(shown.text) == [("echo a b", "a b\n"), ("true", "\n")]
    assert script.output == "6\n"
    assert matches(
        "8x8 takuzu grids: 4,111,116 (mitm, ...)\n", "8x8 takuzu grids: 4,111,116 (mitm, 164 cubes, 0.2 s)\n"
    )
