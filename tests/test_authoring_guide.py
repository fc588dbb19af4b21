"""The authoring walkthrough, docs/authoring.md, kept true to the code: each step of its
teaching game (docs/examples/authoring/step1.yaml .. step5.yaml) validates, plays hands with
random and heuristic players whose records replay, and shows in its transcript what the guide
says it shows; every YAML block and command output the guide quotes is the text of the file
or the command it names, and every link in it leads somewhere."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.commands import ROOT, run_in_process

GUIDE = ROOT / "docs" / "authoring.md"
STEPS = [ROOT / "docs" / "examples" / "authoring" / f"step{n}.yaml" for n in range(1, 6)]
# the seed whose hand the guide shows: an auction, packets taken, a partner, an announcement
SHOWN_SEED = "20"

# a quoted block: an HTML comment naming what it quotes, then a fenced block
QUOTE = re.compile(r"<!-- (file|excerpt|output|output-excerpt): (.+?) -->\n```\w*\n(.*?)```", re.S)
LINK = re.compile(r"\]\(([^)\s]+)\)")


@dataclass(frozen=True)
class Quote:
    kind: str  # file, excerpt, output or output-excerpt
    what: str  # a path from the repository's root, or a `tarot ...` command
    text: str
    line: int

    def __str__(self) -> str:
        return f"docs/authoring.md:{self.line}: {self.kind}: {self.what}"


def _quotes() -> list[Quote]:
    guide = GUIDE.read_text(encoding="utf-8")
    return [
        Quote(m[1], m[2], m[3], guide.count("\n", 0, m.start()) + 1) for m in QUOTE.finditer(guide)
    ]


QUOTES = _quotes()


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _tarot(capsys, monkeypatch, command: str) -> str:
    """The standard output of a `tarot ...` command run from the repository's root."""
    words = shlex.split(command)
    assert words[0] == "tarot", command
    monkeypatch.chdir(ROOT)
    status, out, err = run_in_process(capsys, *words[1:])
    assert status == 0, err
    return out


def _in_order(chunks: list[str], text: str) -> bool:
    """Whether each chunk is a run of whole lines of `text`, each after the one before."""
    at = 0
    padded = "\n" + text
    for chunk in chunks:
        found = padded.find("\n" + chunk, at)
        if found < 0:
            return False
        at = found + len(chunk)
    return True


def _chunks(quote: Quote) -> list[str]:
    """An excerpt's parts, split at its `...` lines."""
    parts = re.split(r"^\.\.\.\n", quote.text, flags=re.M)
    return [part for part in parts if part]


# --- the steps ---------------------------------------------------------------------------


@pytest.mark.parametrize("step", STEPS, ids=lambda p: p.stem)
def test_each_step_validates(capsys, monkeypatch, step: Path):
    out = _tarot(capsys, monkeypatch, f"tarot validate {_relative(step)}")
    assert out == f"{_relative(step)}: ok\n"


@pytest.mark.parametrize("agent", ["random", "heuristic"])
@pytest.mark.parametrize("step", STEPS, ids=lambda p: p.stem)
def test_each_step_plays_and_its_record_replays(capsys, monkeypatch, tmp_path, step, agent):
    path = _relative(step)
    record = _tarot(
        capsys,
        monkeypatch,
        f"tarot play {path} --seed 2 --hands 4 --agents {agent} --record - --quiet",
    )
    hands = json.loads(record)["hands"]
    assert len(hands) == 4
    # a deal that every player passes is thrown in; at least one hand is played out
    assert any(hand["tricks"] for hand in hands)
    saved = tmp_path / "game.json"
    saved.write_text(record, encoding="utf-8")
    replayed = _tarot(capsys, monkeypatch, f"tarot replay {saved} --ruleset {path}")
    assert "4 hand(s) replayed" in replayed


@pytest.mark.parametrize("step", STEPS[2:], ids=lambda p: p.stem)
def test_the_shown_seed_has_packets_a_partner_and_in_step_4_an_announcement(
    capsys, monkeypatch, step
):
    out = _tarot(capsys, monkeypatch, f"tarot play {_relative(step)} --seed {SHOWN_SEED} --sources")
    assert "The talon is laid out in 4 packets" in out
    assert "Seat 1 takes packet 4" in out
    assert "The packets left (coins-2, coins-4, trump-11) go to seat 0's tricks" in out
    assert "partner seat 2 (the holder of the called card)" in out
    assert "Play: sides 0+3 against 1+2" in out
    if step.stem == "step3":
        assert "Announcements:" not in out
    else:
        assert "Seat 2 announces The Little one wins the last trick" in out
        assert "The Little one announced: doubled 2 time(s), x4" in out


def test_seed_1_is_the_hand_the_guide_says_it_is(capsys, monkeypatch):
    out = _tarot(capsys, monkeypatch, f"tarot play {_relative(STEPS[4])} --seed 1")
    assert "without alone" in out
    assert "--seed 1` happens to give a hand where the taker bids *without* and plays alone" in (
        GUIDE.read_text(encoding="utf-8")
    )


def test_the_steps_grow_one_game():
    """Each step after the first extends the one before and adds the sections it teaches."""
    texts = [step.read_text(encoding="utf-8") for step in STEPS]
    for n, text in enumerate(texts[1:], start=1):
        assert f"\nextends: step{n}.yaml\n" in text
    added = {"sides:": 1, "bidding:": 2, "partner_call:": 2, "announcements:": 3, "options:": 4}
    for key, step in added.items():
        assert [f"\n{key}" in text or f"\n  {key}" in text for text in texts].index(True) == step


# --- the guide's quotes ------------------------------------------------------------------


def test_every_yaml_block_of_the_guide_names_the_file_it_quotes():
    guide = GUIDE.read_text(encoding="utf-8")
    quoted = [q for q in QUOTES if q.kind in ("file", "excerpt")]
    assert guide.count("```yaml\n") == len(quoted)
    # every step of the walkthrough, and the games quoted for the order of the hand: a real
    # one (Cego) and a small one the tests play
    flow_games = {"rulesets/cego/cego.yaml", "tests/data/rulesets/flow-two-stage-auction.yaml"}
    assert {q.what for q in quoted} == {_relative(step) for step in STEPS} | flow_games


@pytest.mark.parametrize("quote", [q for q in QUOTES if q.kind in ("file", "excerpt")], ids=str)
def test_a_quoted_yaml_block_is_the_text_of_its_file(quote: Quote):
    text = (ROOT / quote.what).read_text(encoding="utf-8")
    if quote.kind == "file":
        assert quote.text == text, f"{quote} differs from the file"
    else:
        assert _in_order(_chunks(quote), text), f"{quote} is not in the file"


@pytest.mark.parametrize("quote", [q for q in QUOTES if q.kind.startswith("output")], ids=str)
def test_a_quoted_output_is_what_the_command_prints(capsys, monkeypatch, quote: Quote):
    out = _tarot(capsys, monkeypatch, quote.what)
    if quote.kind == "output":
        # the guide may leave out the last line, the totals of a one-hand game
        assert out.startswith(quote.text), f"{quote} differs from the output"
        assert out[len(quote.text) :].count("\n") <= 2
    else:
        assert _in_order(_chunks(quote), out), f"{quote} is not in the output"


def _slug(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _page_text(path: Path) -> str:
    """A page's Markdown with the files it includes (the site's `--8<-- "PATH"` lines, PATH
    from the repository's root) put in place, as the site builds it."""
    text = path.read_text(encoding="utf-8")
    return re.sub(
        r'^--8<-- "([^"]+)"$',
        lambda m: (ROOT / m.group(1)).read_text(encoding="utf-8"),
        text,
        flags=re.M,
    )


def _anchors(path: Path) -> set[str]:
    headings = re.findall(r"^#+ (.+)$", _page_text(path), flags=re.M)
    return {_slug(h) for h in headings}


def test_every_link_of_the_guide_leads_to_a_file_and_heading():
    links = LINK.findall(GUIDE.read_text(encoding="utf-8"))
    assert links
    for link in links:
        target, _, anchor = link.partition("#")
        path = (GUIDE.parent / target).resolve() if target else GUIDE
        assert path.exists(), link
        if anchor:
            assert anchor in _anchors(path), link
