"""The Python API (`import tarot`): every function of the surface, its refusals, and its
numbers against the command line's for the same seeds."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import tarot
from tarot.records.record_json import record_text
from tarot.records.replay import replay_record

ROOT = Path(__file__).resolve().parent.parent
MAROLLES = "marolles-1637"


def cli(*args: str) -> str:
    """The command line's standard output (run from the repository root)."""
    done = subprocess.run(
        [sys.executable, "-m", "tarot", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.fixture(scope="module")
def marolles() -> tarot.Ruleset:
    return tarot.load(MAROLLES)


# --- the package ------------------------------------------------------------------------


def test_the_surface_is_listed_and_every_name_is_there() -> None:
    names = set(tarot.__all__)
    assert {"load", "play", "simulate", "diff", "Agent", "Card", "Action", "State"} <= names
    assert names <= set(dir(tarot))
    assert all(getattr(tarot, name) is not None for name in tarot.__all__)
    assert not {"Any", "annotations"} & set(dir(tarot))
    from tarot import api

    assert sorted(tarot.__all__) == sorted(api.__all__)  # the package lists what api exports
    with pytest.raises(AttributeError, match="no attribute 'lod'"):
        tarot.lod  # noqa: B018


def test_the_command_line_does_not_import_the_api() -> None:
    code = (
        "import sys, interpreter, tarot.cli; "
        "print(any(m.endswith('.api') or '.api.' in m for m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "False"


# --- load -------------------------------------------------------------------------------


def test_load_a_builtin_ruleset(marolles: tarot.Ruleset) -> None:
    assert marolles.id == MAROLLES
    assert marolles.players == 3
    assert marolles.unit == "marques"
    assert marolles.options["ultimo_failure"] == "mcleod"
    assert len(marolles.cards) == 66


def test_load_with_options_and_from_a_file(tmp_path: Path) -> None:
    chosen = tarot.load(MAROLLES, options={"ultimo_failure": "literal"})
    assert chosen.options["ultimo_failure"] == "literal"
    assert chosen.chosen == {"ultimo_failure": "literal"}
    variant = tmp_path / "mine.yaml"
    variant.write_text("extends: marolles-1637\ntitle: Mine\n", encoding="utf-8")
    mine = tarot.load(variant)
    assert mine.title == "Mine"
    assert mine.cards == chosen.cards


def test_load_refuses_an_unknown_ruleset_or_reading() -> None:
    with pytest.raises(tarot.RulesetError, match="no ruleset named 'marole'; did you mean"):
        tarot.load("marole")
    with pytest.raises(tarot.RulesetError) as raised:
        tarot.load(MAROLLES, options={"ultimo_failure": "never"})
    assert "never" in str(raised.value)
    assert raised.value.problems
    with pytest.raises(tarot.RulesetError, match="a reading is a name"):
        tarot.load(MAROLLES, options={"ultimo_failure": 6})  # type: ignore[dict-item]
    with pytest.raises(TypeError):
        tarot.load(42)  # type: ignore[arg-type]


def test_a_broken_file_is_refused_with_its_position(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("extends: marolles-1637\ntitle: [unclosed\n", encoding="utf-8")
    with pytest.raises(tarot.RulesetError) as raised:
        tarot.load(broken)
    assert f"{broken}:" in str(raised.value)


# --- cards and actions ------------------------------------------------------------------


def test_a_card_is_its_id_with_what_the_pack_says(marolles: tarot.Ruleset) -> None:
    king = marolles.card("cups-K")
    assert king == "cups-K" and str(king) == "cups-K" and king.id == "cups-K"
    assert isinstance(king, str) and repr(king) == "Card('cups-K')"
    assert (king.suit, king.rank, king.trump, king.fool) == ("cups", "King", None, False)
    assert king.points == 5 and king.label == "King of cups"
    world = marolles.card("trump-21")
    assert world.is_trump and world.trump == 21 and world.suit is None
    assert {king: 1}["cups-K"] == 1  # a key beside plain ids
    assert pickle.loads(pickle.dumps(king)).label == "King of cups"
    with pytest.raises(KeyError, match="no card 'cups-Z'"):
        marolles.card("cups-Z")


def test_actions_are_typed_and_print_as_the_record_writes_them(marolles: tarot.Ruleset) -> None:
    state = marolles.new_hand(7)
    actions = state.legal_actions()
    assert actions and all(isinstance(a, tarot.Action) for a in actions)
    assert all(a.kind == state.decision_kind for a in actions)
    assert [str(a) for a in actions] == state.engine.legal_actions()
    assert all(a.card == str(a) for a in actions if a.kind in ("discard", "play"))


# --- a state stepped by hand ------------------------------------------------------------


def test_step_a_hand_to_its_end_and_replay_its_record(marolles: tarot.Ruleset) -> None:
    state = marolles.new_hand(seed=11)
    steps = 0
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        actions = state.legal_actions()
        # alternately an Action, a Card and a text: all three are accepted
        choice = actions[steps % len(actions)]
        state.apply([choice, choice.card or choice.text, choice.text][steps % 3])
        steps += 1
    assert state.current_player is None and state.legal_actions() == []
    assert sum(state.returns()) == 0  # what one pays another receives
    assert state.returns() == state.record()["hands"][0]["net"]
    assert len(state.card_points()) == 3
    assert "Net (marques)" in state.transcript()
    record = json.loads(record_text(state.record()))
    assert record["seats"] == [{"seat": seat, "agent": "human"} for seat in range(3)]
    replay_record(record, marolles.compiled)  # raises on any difference


def test_an_illegal_action_is_refused_and_the_state_is_unchanged(marolles: tarot.Ruleset) -> None:
    state = marolles.new_hand(3)
    before = (state.current_player, state.legal_actions(), state.returns(), state.observation(0))
    legal = [str(a) for a in state.legal_actions()]
    not_legal = next(card for card in marolles.cards if card not in legal)
    for wrong in ("nonsense", not_legal, 17):
        with pytest.raises(tarot.IllegalAction):
            state.apply(wrong)  # type: ignore[arg-type]
    after = (state.current_player, state.legal_actions(), state.returns(), state.observation(0))
    assert after == before
    assert state.engine.decisions == []


def test_an_action_of_another_kind_is_refused() -> None:
    french = tarot.load("french-tarot")
    state = next(s for s in map(french.new_hand, range(1, 20)) if s.decision_kind == "bid")
    misplaced = tarot.Action("play", "pass")
    with pytest.raises(tarot.IllegalAction, match="answers a play decision"):
        state.apply(misplaced)
    state.apply("pass")


def test_what_only_a_finished_hand_has_is_refused_before(marolles: tarot.Ruleset) -> None:
    state = marolles.new_hand(3)
    for ask in (state.record, state.card_points, state.transcript):
        with pytest.raises(tarot.HandNotOver, match="still to take a discard decision"):
            ask()
    assert "to discard" in str(state) and "seat" in repr(state)


def test_a_clone_is_independent(marolles: tarot.Ruleset) -> None:
    state = marolles.new_hand(5)
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert copy.current_player != state.current_player or len(copy.engine.decisions) == 1
    assert state.engine.decisions == []
    assert state.legal_actions() == marolles.new_hand(5).legal_actions()


def test_new_hand_is_the_deal_of_the_command_line(marolles: tarot.Ruleset) -> None:
    state = marolles.new_hand(seed=4, hand=2)
    assert state.hand_number == 2 and state.dealer == 1
    with pytest.raises(ValueError, match="numbered from 1"):
        marolles.new_hand(4, hand=0)
    with pytest.raises(TypeError, match="whole number"):
        marolles.new_hand("4")  # type: ignore[arg-type]


# --- observations -----------------------------------------------------------------------


def test_an_observation_shows_only_what_the_seat_may_see(marolles: tarot.Ruleset) -> None:
    state = marolles.new_hand(9)
    # play on to the first card of trick play: the discards are made and private
    while state.decision_kind != "play":
        state.apply(state.legal_actions()[0])
    engine = state.engine
    for seat in range(3):
        seen = state.observation(seat)
        assert seen.seat == seat
        assert list(seen.hand) == [marolles.cards[c] for c in engine.hands[seat]]
        text = repr(seen)
        for other in range(3):
            hidden = set(engine.hands[other]) | set(engine.discards[other])
            shown = {c for _s, _what, cards in engine.shown for c in cards} | {engine.deal.cut_card}
            secret = {marolles.cards[c] for c in hidden - shown}
            if other != seat:
                assert secret and not secret & set(_cards_in(seen))
                assert not any(repr(card) in text for card in secret)
        for decided in seen.decisions:
            if decided.kind == "discard":
                assert (decided.choice is None) == (decided.seat != seat)
    assert state.observation(state.current_player).kind == "play"  # type: ignore[arg-type]
    others = [s for s in range(3) if s != state.current_player]
    assert all(state.observation(s).kind is None for s in others)
    with pytest.raises(ValueError, match="no seat 3"):
        state.observation(3)


def _cards_in(seen: tarot.Observation) -> list[tarot.Card]:
    """Every card an observation names, in any of its fields."""
    cards = [*seen.hand, *seen.discards, *(c for tops in seen.pile_tops for c in tops)]
    cards += [c for shown in seen.shown for c in shown.cards]
    cards += [c for taken in seen.talon_taken for c in taken.cards]
    cards += [p.card for trick in seen.tricks for p in trick.plays] + [p.card for p in seen.trick]
    cards += [c for c in (seen.cut_card, seen.called_card) if c is not None]
    cards += [d.choice for d in seen.decisions if d.choice is not None]  # type: ignore[misc]
    return cards


def test_an_observation_tells_the_talon_taken_as_the_seat_may_know_it() -> None:
    # Hungarian Tarokk: each take of the talon is hidden from the other seats
    state = tarot.play("hungarian-tarokk", seed=1, agents="heuristic")
    shared = state.engine.talon_phase.shared
    assert len(shared) > 1
    hungarian = tarot.load("hungarian-tarokk")
    for seat in range(4):
        seen = state.observation(seat)
        assert [(t.seat, t.count) for t in seen.talon_taken] == [(s, len(c)) for s, c in shared]
        for taken, (taker, cards) in zip(seen.talon_taken, shared, strict=True):
            if taker == seat:
                assert list(taken.cards) == [hungarian.cards[c] for c in cards]
            else:
                assert taken.cards == ()
    # French Tarot, a garde: the chien is shown to all before the taker takes it
    french = tarot.load("french-tarot")
    state = french.new_hand(seed=3)
    taker = state.current_player
    state.apply("garde")
    while not state.is_terminal():  # every other seat passes
        legal = [str(action) for action in state.legal_actions()]
        state.apply("pass" if "pass" in legal else legal[0])
    ((took, chien),) = state.engine.talon_phase.shared
    assert took == taker
    for seat in range(4):
        (taken,) = state.observation(seat).talon_taken
        assert (taken.seat, taken.count) == (taker, 6)
        assert list(taken.cards) == [french.cards[c] for c in chien]


# --- play -------------------------------------------------------------------------------


def test_play_gives_the_hand_the_command_line_plays(tmp_path: Path) -> None:
    hand = tarot.play(MAROLLES, seed=5, agents="heuristic", hand=2)
    assert hand.is_terminal()
    path = tmp_path / "cli.json"
    cli(
        "play",
        MAROLLES,
        "--seed",
        "5",
        "--hand",
        "2",
        "--agents",
        "heuristic",
        "--record",
        str(path),
    )
    assert record_text(hand.record()) + "\n" == path.read_text(encoding="utf-8")
    assert hand.payments and all(isinstance(p, tarot.Payment) for p in hand.payments)
    first = hand.payments[0]
    assert first.name and first.source and first.at


def test_built_in_players_by_class_and_by_name() -> None:
    by_class = tarot.play(
        "french-tarot",
        seed=4,
        agents=[tarot.SearchAgent(samples=2), "heuristic", "random", "random"],
    )
    by_name = tarot.play("french-tarot", seed=4, agents="search:samples=2,heuristic,random,random")
    assert by_class.record() == by_name.record()
    assert [s["agent"] for s in by_class.record()["seats"]] == [
        "search(samples=2)",
        "heuristic",
        "random",
        "random",
    ]
    assert repr(tarot.SearchAgent()) == "SearchAgent('search')"
    assert repr(tarot.SearchAgent(samples=2)) == "SearchAgent('search:samples=2')"


def test_a_built_in_player_decides_when_asked_directly(marolles: tarot.Ruleset) -> None:
    state = marolles.new_hand(3)
    player = tarot.HeuristicAgent()
    player.start_hand("3/1/1")
    choice = player.act(state.observation(state.current_player), state.legal_actions())  # type: ignore[arg-type]
    state.apply(choice)


def test_a_built_in_helper_keeps_its_state_from_decision_to_decision(
    marolles: tarot.Ruleset,
) -> None:
    """Called from a user's agent, a built-in player is one player through the hand: the
    same random numbers go on (not drawn again from the start at every decision, which
    would make the random player choose by the same first number each time), and it is
    seated afresh only when a hand starts."""
    helper = tarot.RandomAgent()
    helper.start_hand("5/1/0")
    state = marolles.new_hand(5)
    draws = []
    while not state.is_terminal() and len(draws) < 12:
        seat = state.current_player
        engine_before = helper._engine
        state.apply(helper.act(state.observation(seat), state.legal_actions()))
        draws.append(helper._engine)
        assert engine_before is None or helper._engine is engine_before
    assert len({id(engine) for engine in draws}) == 1, "one player through the hand"
    first = helper._engine
    helper.start_hand("5/2/0")
    assert helper._engine is None
    state = marolles.new_hand(5, 2)
    helper.act(state.observation(state.current_player), state.legal_actions())
    assert helper._engine is not first, "a new hand seats it afresh, with the hand's seed"


def test_rulesets_and_the_readings_of_options() -> None:
    found = tarot.rulesets()
    assert "marolles-1637" in found and found["marolles-1637"].name == "marolles-1637.yaml"
    readings = tarot.load("marolles-1637").option_readings
    assert readings["illegal_discard"] == ("per_card", "per_discard", "forbidden")
    assert all(tarot.load("marolles-1637").options[name] in r for name, r in readings.items())


def test_rows_say_who_took_the_contract_and_how_it_went() -> None:
    run = tarot.simulate("french-tarot", hands=60, agents="heuristic", seed=2)
    taken = [row for row in run if row["contract"] is not None]
    assert taken, "some hand of 60 has a taker"
    for row in run:
        if row["contract"] is None:
            assert row["taker"] is None and row["made"] is None and row["side_0"] is None
            continue
        taker = row["taker"]
        assert row["taker_net"] == row[f"net_{taker}"]
        assert row["made"] is (row["taker_net"] > 0)
        assert row[f"side_{taker}"] == "attack"
        assert sorted(row[f"side_{s}"] for s in range(4)).count("defence") == 3
    contracts = run.summary["auction"]["contracts"]
    for contract, figures in contracts.items():
        rows = [row for row in taken if row["contract"] == contract]
        assert figures["bid"]["hits"] == len(rows)
        assert figures["made"]["hits"] == sum(row["made"] for row in rows)


class LowestCard(tarot.Agent):
    """Plays and discards its card worth least; anything else at random."""

    def act(self, observation, legal_actions):
        assert observation.kind == legal_actions[0].kind
        cards = [a for a in legal_actions if a.card is not None]
        if cards:
            return min(cards, key=lambda a: (a.card.points, str(a)))
        return self.random.choice(legal_actions)


def test_an_agent_of_ones_own_plays_a_hand() -> None:
    agents = [LowestCard(), "random", tarot.RandomAgent(), LowestCard()]
    hand = tarot.play("french-tarot", seed=8, agents=agents)
    again = tarot.play(
        "french-tarot", seed=8, agents=[LowestCard(), "random", "random", LowestCard()]
    )
    assert hand.record() == again.record()  # seeded per hand and seat: reproducible
    record = json.loads(record_text(hand.record()))
    assert [s["agent"] for s in record["seats"]] == ["human", "random", "random", "human"]
    assert LowestCard().random.random() == LowestCard().random.random()  # outside a hand too
    replay_record(record, hand.ruleset.compiled)


class Cheater(tarot.Agent):
    name = "cheater"

    def act(self, observation, legal_actions):
        return "trump-21" if "trump-21" not in map(str, legal_actions) else "cups-Z"


def test_an_agent_answering_an_illegal_action_is_named() -> None:
    with pytest.raises(tarot.IllegalAction, match=r"cheater \(seat \d\) chose"):
        tarot.play(MAROLLES, seed=1, agents=Cheater())


def test_agents_that_cannot_be_seated_are_refused() -> None:
    with pytest.raises(tarot.AgentError, match="one for every seat or one per seat"):
        tarot.play(MAROLLES, agents=["random", "random"])
    with pytest.raises(tarot.AgentError, match="no agent kind 'clever'"):
        tarot.play(MAROLLES, agents="clever")
    with pytest.raises(tarot.AgentError, match="^agent search:samplez=3: .*no setting"):
        tarot.SearchAgent(samplez=3)
    with pytest.raises(tarot.AgentError, match="neither a tarot.Agent"):
        tarot.play(MAROLLES, agents=[3])  # type: ignore[list-item]
    with pytest.raises(NotImplementedError, match="must override act"):
        tarot.play(MAROLLES, agents=tarot.Agent())


# --- simulate and diff ------------------------------------------------------------------


def test_simulate_gives_the_numbers_and_rows_of_the_command_line(tmp_path: Path) -> None:
    run = tarot.simulate(MAROLLES, hands=12, seed=3, agents="heuristic")
    rows = tmp_path / "rows.jsonl"
    printed = cli(
        "simulate",
        MAROLLES,
        "--hands",
        "12",
        "--seed",
        "3",
        "--agents",
        "heuristic",
        "--jobs",
        "1",
        "--format",
        "json",
        "--out",
        str(rows),
    )
    assert run.report("json") + "\n" == printed
    lines = rows.read_text(encoding="utf-8").splitlines()
    assert list(run) == [json.loads(line) for line in lines]
    assert len(run) == 12 and run[0]["hand"] == 1 and run[-1]["hand"] == 12
    assert run.summary["hands"] == 12
    assert "Net result per hand by seat" in run.report()


def test_simulate_in_worker_processes_gives_the_same() -> None:
    here = tarot.simulate(MAROLLES, hands=6, seed=2)
    spread = tarot.simulate(MAROLLES, hands=6, seed=2, jobs=2)
    assert spread.rows == here.rows and spread.summary == here.summary


def test_the_table_goes_into_pandas() -> None:
    import pandas  # in the test extra: never skipped

    run = tarot.simulate(MAROLLES, hands=5, seed=1)
    frame = pandas.DataFrame(run)
    assert list(frame["hand"]) == [1, 2, 3, 4, 5]
    assert frame.equals(run.to_pandas())
    assert (frame["net_0"] + frame["net_1"] + frame["net_2"]).abs().max() < 1e-9


def test_simulate_with_an_agent_of_ones_own() -> None:
    run = tarot.simulate(MAROLLES, hands=4, seed=1, agents=[LowestCard(), "random", "random"])
    assert len(run) == 4 and run[0]["agents"] == "LowestCard,random,random"
    with pytest.raises(ValueError, match="jobs=1"):
        tarot.simulate(MAROLLES, hands=4, agents=LowestCard(), jobs=2)
    with pytest.raises(ValueError, match="hands must be a whole number from 1"):
        tarot.simulate(MAROLLES, hands=0)


def test_simulate_plays_games_for_a_ruleset_played_to_a_score() -> None:
    run = tarot.simulate("early-french", hands=3, seed=1)
    assert run.games is not None and run.games["games"] >= 1


def test_diff_gives_the_numbers_of_the_command_line() -> None:
    literal = tarot.load(MAROLLES, options={"ultimo_failure": "literal"})
    compared = tarot.diff(MAROLLES, literal, hands=10, seed=2)
    printed = cli(
        "diff",
        MAROLLES,
        MAROLLES,
        "--option",
        "ultimo_failure=literal",
        "--hands",
        "10",
        "--seed",
        "2",
        "--jobs",
        "1",
        "--format",
        "json",
        "--backend",
        "scalar",  # the engine the Python API plays on
    )
    assert compared.report("json") + "\n" == printed
    assert compared.table == json.loads(printed)["table"]
    assert compared.table is not None and compared.table["paired"]
    assert len(compared.rows) == 20  # one per hand and ruleset
    assert compared.paper["options"][0]["option"] == "ultimo_failure"


def test_diff_on_paper_only() -> None:
    compared = tarot.diff(MAROLLES, "marolles-1637-ultimo-literal")
    assert compared.table is None and compared.rows == []
    printed = cli("diff", MAROLLES, "marolles-1637-ultimo-literal", "--format", "json")
    assert compared.paper == json.loads(printed)
    assert compared.report() + "\n" == cli("diff", MAROLLES, "marolles-1637-ultimo-literal")


def test_the_settlement_of_other_card_points_leaves_the_hand_as_it_was(marolles) -> None:
    state = marolles.new_hand(seed=3)
    with pytest.raises(tarot.HandNotOver, match="the settlement is kept for a finished hand"):
        state.settlement()
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    paid, net = list(state.payments), state.returns()
    assert state.settlement() == [p for p in paid if p.at == "settlement"]
    rows = state.settlement([5, 20, 49])  # one winner: 4 and 1 marques by the shortfall from 25
    assert [(p.payer, p.payee, p.amount, p.at) for p in rows] == [
        (0, 2, 4, "settlement"),
        (1, 2, 1, "settlement"),
    ]
    assert state.payments == paid and state.returns() == net
    for wrong in ([1, 2], [1, 2, "3"], [True, 1, 2]):
        with pytest.raises(ValueError, match="card_points: one number per seat"):
            state.settlement(wrong)
