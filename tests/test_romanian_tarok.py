"""Romanian Tarok (rulesets/romanian-tarok/): the text's figures as tests (counting in threes to
70, the values won and lost at each level, Michi-michi paid into the pool and the hands at
double stakes after it), the commands, and whole sittings checked hand by hand against the
independent reading of `tests/independent_romanian` (written from the text alone): a few seeds
in the fast tier, many in the slow one."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from independent_romanian.game import sitting_differences
from independent_romanian.hand import LADDER

from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_game
from tarot.engine.phases.settle import count_points
from tarot.expressions.builtins import Number
from tarot.players.lineup import seat_agents
from tarot.players.random_agent import RandomAgent
from tarot.records.record import game_record
from tarot.records.record_json import record_text
from tests.commands import run_in_process

RULESET = load_ruleset("romanian-tarok")


def engine_count(cards: list[str]) -> Number:
    counting = RULESET.counting
    pile = [RULESET.deck.by_id[c] for c in cards]
    return count_points(counting, pile)


def test_the_pack_counts_70_in_threes():
    """J and W: 70 card points in all, counted in threes; 36 win."""
    every = [c.id for c in RULESET.deck.cards]
    assert len(every) == 54
    assert engine_count(every) == 70
    # a King, the Skiz and a small card: 5 + 5 + 1 less 2; two cards left over: their sum less 1
    assert engine_count(["hearts-K", "fool", "trump-2"]) == 9
    assert engine_count(["spades-Q", "clubs-J"]) == 5


def test_the_ladder_and_values_are_the_texts():
    """W's table: Two won 2, lost 2 x level; One 3 and 3 x level; Solo 8 either way; the later
    packets bid as second, third... Two or One, at levels 2, 3..."""
    contracts = {c.id: c for c in RULESET.bidding.contracts}
    for name, won, lost, level, _packets in LADDER:
        values = contracts[name].values
        assert (values["won"], values["lost"], values["level"]) == (won, lost, level), name
    ladder = [c.id for c in RULESET.bidding.contracts if c.id != "michi"]
    assert ladder == [name for name, *_ in LADDER]


class Passer(RandomAgent):
    """A random player that passes in every auction: every hand is a Michi-michi."""

    def choose(self, state, seat):
        if "pass" in state.legal_actions():
            return "pass"
        return super().choose(state, seat)


def _sitting(agent_kind: str, seed: int, hands: int = 4, options: dict | None = None) -> dict:
    """A sitting's record, played in this process; `passer`: everybody passes in the first
    hand's auction only."""
    ruleset = load_ruleset("romanian-tarok", options) if options else RULESET

    def seating(number: int) -> list:
        if agent_kind == "passer" and number == 1:
            return [Passer(f"{seed}/{number}/{s}") for s in range(4)]
        return seat_agents(["random" if agent_kind == "passer" else agent_kind], seed, number, 4)

    states = play_game(ruleset, seed, seating, hands)
    names = [a.name for a in seating(2)]
    return json.loads(record_text(game_record(ruleset, seed, names, states)))


def test_michi_michi_feeds_the_pool_and_doubles_the_next_four_hands():
    """W: all pass, Michi-michi: one into the pool for each trick taken, no other payment;
    the next four hands are at double stakes (the pool excepted): each member of the losing
    side pays twice the game's value."""
    record = _sitting("passer", 1)
    first = record["hands"][0]
    assert first["sides"]["contract"] == "michi"
    michi = [t for t in first["lasting"]["transfers"] if t["rule"] == "michi_tricks"]
    taken = [sum(1 for t in first["tricks"] if t["winner"] == s) for s in range(4)]
    assert sorted((t["from"], t["amount"]) for t in michi) == [
        (s, n) for s, n in enumerate(taken) if n
    ]
    assert first["payments"] == []
    assert first["lasting"]["after"]["double_stakes"] == 4
    ladder = {name: (won, lost, level) for name, won, lost, level, _p in LADDER}
    for hand in record["hands"][1:]:
        assert hand["lasting"]["before"]["double_stakes"] > 0
        game = [p for p in hand["payments"] if p["rule"] == "game"]
        if not game:
            continue
        won, lost, level = ladder[hand["sides"]["contract"]]
        contras = sum(1 for d in hand["decisions"] if d["choice"].endswith(":game"))
        values = (won * (level if contras else 1), lost * level)
        losers = {p["from"] for p in game}
        total = sum(Fraction(str(p["amount"])) for p in game)
        doubled = {2 * len(losers) * v * 2**contras for v in values}
        assert total in doubled
    assert sitting_differences(record) == []


def test_a_value_shared_by_three_is_paid_in_exact_thirds():
    """RT-16: the winners share what each loser pays; three winners get thirds, written
    exactly in the record ("64/3"), never as a rounded decimal, and adding up to the whole."""
    record = _sitting("random", 1)
    thirds = [
        (hand["number"], p["rule"], p["from"], Fraction(p["amount"]))
        for hand in record["hands"]
        for p in hand["payments"]
        if isinstance(p["amount"], str)
    ]
    assert thirds and all(amount.denominator == 3 for *_rest, amount in thirds)
    by_payer: dict[tuple, Fraction] = {}
    for number, rule, payer, amount in thirds:
        by_payer[number, rule, payer] = by_payer.get((number, rule, payer), 0) + amount
    assert all(total.denominator == 1 for total in by_payer.values())


def test_validate_play_replay_and_simulate(tmp_path, capsys):
    assert run_in_process(capsys, "validate", "romanian-tarok")[0] == 0
    record = tmp_path / "record.json"
    status, _out, err = run_in_process(
        capsys, "play", "romanian-tarok", "--seed", "1", "--record", str(record)
    )
    assert status == 0, err
    status, _out, err = run_in_process(capsys, "replay", str(record))
    assert status == 0, err
    status, _out, err = run_in_process(
        capsys, "simulate", "romanian-tarok", "--hands", "2", "--backend", "scalar"
    )
    assert status == 0, err


@pytest.mark.parametrize("game", [("random", 1), ("heuristic", 2), ("passer", 3)])
def test_a_few_sittings_agree_with_the_independent_reading(game):
    kind, seed = game
    record = _sitting(kind, seed)
    assert sitting_differences(record) == []


def test_the_pool_only_reading_agrees_with_the_independent_reading():
    """The option pagat_pool=pool_only: an announced Pagat ultimo plays for the pool alone."""
    record = _sitting("random", 5, 4, {"pagat_pool": "pool_only"})
    rules = {p["rule"] for hand in record["hands"] for p in hand["payments"]}
    transfers = {t["rule"] for hand in record["hands"] for t in hand["lasting"]["transfers"]}
    assert "pagat_ultimo_announced" not in rules and "pagat_ultimo_pool" in transfers
    assert sitting_differences(record) == []


def _announce_words(record: dict) -> list[list[tuple[int, str]]]:
    """Each hand's round of announcements: (seat, choice), in order."""
    return [
        [(d["seat"], d["choice"]) for d in hand["decisions"] if d["kind"] == "announce"]
        for hand in record["hands"]
    ]


def test_bonuses_only_on_the_first_turn_and_contras_past_supra_contra():
    """W: "After the first round of announcements, players may only contra existing
    announcements on subsequent rounds", and contra, supra contra, "etc."."""
    record = _sitting("random", 1)
    further = 0
    for words in _announce_words(record):
        passed: set[int] = set()
        for seat, choice in words:
            if choice == "pass":
                passed.add(seat)
            elif choice.startswith("announce:"):
                assert seat not in passed, (seat, choice)
            further += choice.startswith("further_contra:")
        doublings: dict[str, int] = {}
        for _seat, choice in words:
            if "contra:" in choice:
                target = choice.split(":")[1]
                doublings[target] = doublings.get(target, 0) + 1
        assert max(doublings.values(), default=0) <= 4
    assert further > 0
    assert sitting_differences(record) == []


def test_the_named_contras_reading_stops_at_supra_contra():
    record = _sitting("random", 1, 2, {"contras": "named"})
    words = [choice for hand in _announce_words(record) for _seat, choice in hand]
    assert any(w.startswith("supracontra:") for w in words)
    assert not any(w.startswith("further_contra:") for w in words)
    assert sitting_differences(record) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "kind, options",
    [
        ("random", {}),
        ("heuristic", {}),
        ("random", {"pagat_pool": "pool_only"}),
        ("random", {"contras": "named"}),
        ("passer", {}),
    ],
)
def test_many_sittings_agree_with_the_independent_reading(kind, options):
    """Thirty sittings of two rounds (eight hands) for each kind of players and reading."""
    seen: set[str] = set()
    for seed in range(10, 40):
        record = _sitting(kind, seed, 8, {"sitting_rounds": "two", **options})
        assert record["ruleset"]["options"]["sitting_rounds"] == "two"
        assert sitting_differences(record) == [], f"--agents {kind} --seed {seed} {options}"
        for hand in record["hands"]:
            seen.add(hand["sides"]["contract"][:3])
            seen.update(p["rule"] for p in hand["payments"])
    assert "game" in seen
