"""The smaller holes of issue 32, each closed: a record of `play --backend batch` names its
back end and replays; a user's ruleset that hides a built-in one is noted by `replay` and
`serve`; an `Observation` holds only what its seat may see, and the built-in players still
decide when a user's agent asks them. See SECURITY.md."""

from __future__ import annotations

import gc
import json
import shutil
from pathlib import Path

import pytest

import tarot
from tarot.api import view as api_view
from tarot.cli import main
from tarot.load import paths

pytestmark = pytest.mark.timeout(60)


def test_a_record_of_batch_hands_names_the_back_end_and_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    batch, scalar = tmp_path / "batch.json", tmp_path / "scalar.json"
    common = ["play", "marolles-1637", "--agents", "random", "--seed", "5", "--hand", "3"]
    assert main([*common, "--backend", "batch", "--record", str(batch)]) == 0
    assert main([*common, "--record", str(scalar)]) == 0
    assert json.loads(batch.read_text())["backend"] == "batch"
    assert "backend" not in json.loads(scalar.read_text())  # records of the scalar engine as before
    capsys.readouterr()
    for record in (batch, scalar):
        assert main(["replay", str(record)]) == 0, capsys.readouterr().err
    # a batch record claimed as the scalar engine's deals is refused, and the other way round
    for record, claimed in ((batch, None), (scalar, "batch")):
        data = json.loads(record.read_text())
        data.pop("backend", None)
        if claimed:
            data["backend"] = claimed
        record.write_text(json.dumps(data))
        assert main(["replay", str(record)]) == 1
        assert "pack" in capsys.readouterr().err


@pytest.fixture
def shadowing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of the user's with its own marolles-1637 on the search path."""
    folder = tmp_path / "mine"
    folder.mkdir()
    shutil.copy(paths.find_builtin("marolles-1637"), folder / "marolles-1637.yaml")  # type: ignore[arg-type]
    monkeypatch.setenv(paths.PATH_VARIABLE, str(folder))
    return folder


def test_replay_notes_a_users_ruleset_that_hides_the_built_in_one(
    tmp_path: Path, shadowing: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "record.json"
    assert main(["play", "marolles-1637", "--hand", "1", "--record", str(record)]) == 0
    capsys.readouterr()
    assert main(["replay", str(record)]) == 0
    err = capsys.readouterr().err
    assert f"marolles-1637 is {shadowing / 'marolles-1637.yaml'}" in err
    assert "hides the built-in ruleset" in err


def test_serve_notes_a_users_ruleset_that_hides_the_built_in_one(
    shadowing: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tarot.web.serve import _note_shadowed

    _note_shadowed()
    err = capsys.readouterr().err
    assert "marolles-1637 is" in err and "tables of that name play the built-in one" in err


def test_an_observation_holds_no_hand_and_the_built_in_players_still_decide() -> None:
    ruleset = tarot.load("french-tarot")
    state = ruleset.new_hand(3)
    seat = state.current_player
    assert seat is not None
    seen = state.observation(seat)
    hidden = {c for c in state.engine.zones.hands[(seat + 1) % 4]}  # another seat's cards
    assert not any(isinstance(value, type(state.engine)) for value in vars(seen).values())
    reachable = gc.get_referents(seen)
    assert state.engine not in reachable
    assert not hasattr(seen, "_state")
    for kind in ("random", "heuristic", "search"):
        player = {
            "random": tarot.RandomAgent,
            "heuristic": tarot.HeuristicAgent,
            "search": tarot.SearchAgent,
        }[kind]()
        player.start_hand("3/1/0")
        choice = player.act(seen, state.legal_actions())
        assert str(choice) in {str(action) for action in state.legal_actions()}
    guessed = api_view.guessed_hand(seen)
    assert guessed is not state.engine
    assert list(guessed.zones.hands[seat]) == list(state.engine.zones.hands[seat])
    assert hidden  # the guess need not hold them: it is drawn from what the seat sees
    with pytest.raises(ValueError, match="observation the API made"):
        api_view.guessed_hand(tarot.Observation(**vars(seen)))
    hand = tarot.play("french-tarot", seed=4, agents=["heuristic", "search", "random", "random"])
    assert hand.is_terminal()
