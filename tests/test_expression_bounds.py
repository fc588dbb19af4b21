"""The bounds of expressions in a loaded ruleset: definitions remembered once per state of the
hand (and forgotten whenever it changes), the cost budget per evaluation and per hand, the
range of numbers at load and at run time, and the names the language keeps for itself."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_game
from tarot.engine.state import HandState
from tarot.errors import RulesetError
from tarot.expressions import EvaluationError
from tarot.load import paths
from tarot.players.random_agent import RandomAgent

BASE = "extends: early-french\ntitle: test\n"
SOURCE = "source: early_french_002"


def _load(tmp_path: Path, text: str):
    path = tmp_path / "test.yaml"
    path.write_text(BASE + text, encoding="utf-8")
    return load_ruleset(path)


def _refusal(tmp_path: Path, text: str) -> str:
    with pytest.raises(RulesetError) as raised:
        _load(tmp_path, text)
    return str(raised.value)


class CheckedState(HandState):
    """A hand that works every remembered value out again and checks it is the same: a
    change of state that does not forget the remembered values would show here."""

    remembered = 0

    def remember(self, key, compute, *args):
        if key in self.memo:
            CheckedState.remembered += 1
            assert self.memo[key] == compute(*args), f"{key!r} remembered from an earlier state"
        return super().remember(key, compute, *args)


@pytest.mark.parametrize("name", sorted(paths.builtin_rulesets()))
def test_remembered_definitions_are_those_of_the_state_as_it_stands(name: str) -> None:
    ruleset = load_ruleset(name)
    rng = random.Random(7)
    for number in range(1, 4):
        pack = list(range(len(ruleset.deck)))
        rng.shuffle(pack)
        state = CheckedState(ruleset, (number - 1) % ruleset.players, pack, number)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        if ruleset.game is not None:
            state.evaluate(ruleset.game.ends_when)
            state.evaluate(ruleset.game.winners)


def test_some_built_in_ruleset_reads_a_remembered_definition_back() -> None:
    """The check above is not empty: built-in rulesets do use a definition twice in a state."""
    CheckedState.remembered = 0
    test_remembered_definitions_are_those_of_the_state_as_it_stands("french-tarot")
    assert CheckedState.remembered > 0


def test_a_chain_of_definitions_is_worked_out_once_per_state(tmp_path: Path) -> None:
    lines = ["definitions:", f'  d0: {{value: "count(c in hand(dealer): c in kings)", {SOURCE}}}']
    lines += [
        f'  d{i}: {{value: "d{i - 1} + d{i - 1} - d{i - 1}", {SOURCE}}}' for i in range(1, 30)
    ]
    lines += [
        "payments:",
        f'  - {{id: p, name: p, event: card_played, when: "d29 > 99", from: player, to: dealer,'
        f" amount: 1, {SOURCE}}}",
    ]
    ruleset = _load(tmp_path, "\n".join(lines) + "\n")
    computed = []
    real_remember = HandState.remember

    class Counting(HandState):
        def remember(self, key, compute, *args):
            if key not in self.memo:
                computed.append(key)
            return real_remember(self, key, compute, *args)

    pack = list(range(len(ruleset.deck)))
    random.Random(1).shuffle(pack)
    state = Counting(ruleset, 0, pack)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    cards_played = len(ruleset.deck) - len(state.deal.talon_dealt)
    # each definition once for each card played (the state changes with every card)
    assert len(computed) == 30 * cards_played


def _three_nested(tmp_path: Path, innermost: str) -> str:
    return _refusal(
        tmp_path,
        "payments:\n"
        "  - id: slow\n    name: slow\n    event: card_played\n"
        '    when: "count(a in every_card: count(b in every_card: count(c in every_card:'
        f' {innermost}) > 0) > 0) > 9"\n'
        f"    from: player\n    to: dealer\n    amount: 1\n    {SOURCE}\n",
    )


def test_nested_aggregations_past_the_budget_are_refused_where_they_blow_it(
    tmp_path: Path,
) -> None:
    message = _three_nested(tmp_path, "c in hand(player) and c in hand(dealer)")
    assert "test.yaml:7:35: $.payments[0].when: count() looks at up to 78 cards" in message
    assert "over the limit of 100,000" in message


def test_a_set_worked_out_once_is_counted_once(tmp_path: Path) -> None:
    """`count(c in every_card: c in hand(player))` runs as set operations, the hand worked
    out once: the two inner aggregations are within the budget, the third is not."""
    message = _three_nested(tmp_path, "c in hand(player)")
    assert "test.yaml:7:12: $.payments[0].when: count() looks at up to 78 cards" in message
    assert "over the limit of 100,000" in message


def test_a_definition_of_a_seat_counts_once_per_seat(tmp_path: Path) -> None:
    """A seat's definition used inside an aggregation over cards is remembered per seat, so
    the aggregation does not multiply its cost (78 times its steps would be over budget)."""
    heavy = (
        "definitions:\n"
        "  heavy:\n    of_seat: s\n"
        '    value: "count(a in every_card: a in hand(s) or a in kings)"\n'
        f"    {SOURCE}\n"
    )
    ruleset = _load(
        tmp_path,
        heavy + "payments:\n"
        '  - {id: p, name: p, event: trick_end, when: "count(c in every_card: heavy(player) > 0)'
        f' > 0", from: player, to: dealer, amount: 1, {SOURCE}}}\n',
    )
    when = ruleset.payments["trick_end"][0].when
    players = ruleset.players
    assert when.memo["heavy"] * len(ruleset.deck) // (players + 1) > 100_000 >= when.cost
    message = _refusal(
        tmp_path,
        heavy.replace("a in hand(s)", "count(b in every_card: a in hand(s) and b in pile(s)) > 0"),
    )
    assert "$.definitions.heavy.value: count() looks at up to 78 cards" in message


def test_the_hand_score_cannot_use_total(tmp_path: Path) -> None:
    message = _refusal(
        tmp_path,
        f'definitions:\n  mine: {{value: "total(dealer)", {SOURCE}}}\n'
        f'hand_score:\n  value: "points(player) - mine"\n  {SOURCE}\n',
    )
    assert "$.hand_score.value: the hand score cannot use total(), even through a definition" in (
        message
    )


def _heavy_hand_score(copies: int) -> str:
    """A hand score whose definition looks at two piles against each other `copies` times."""
    heavy = " + ".join(
        f"count(c in pile(dealer): any(d in tricks(next_seat(dealer)): c == d) or {i} > 5)"
        for i in range(copies)
    )
    return (
        f'definitions:\n  heavy: {{value: "{heavy}", {SOURCE}}}\n'
        f'hand_score:\n  value: "points(player) - heavy"\n  {SOURCE}\n'
    )


def test_a_hand_score_counts_its_definitions_once_for_every_seat(tmp_path: Path) -> None:
    """Every seat's score shares the definitions it uses: a hand score of some 25,000 steps
    (over the old limit of 5,000) is accepted, and `total()` costs what it works out."""
    ruleset = _load(tmp_path, _heavy_hand_score(1))
    score = ruleset.hand_score
    assert score is not None and 25_000 < score.cost < 50_000
    assert ruleset.game is not None
    totals = ruleset.game.winners.cost  # every seat's total(), each once
    assert score.cost < totals < score.cost + 5 * 78 * 4 + 1_000
    state = HandState(ruleset, 0, list(range(len(ruleset.deck))))
    state.apply_action(state.legal_actions()[0])
    assert [state.total(s) for s in range(4)] == [state.hand_score(s) for s in range(4)]


def test_a_hand_score_over_its_limit_is_refused(tmp_path: Path) -> None:
    message = _refusal(tmp_path, _heavy_hand_score(3))
    assert "$.hand_score.value: every seat's hand score could take about" in message
    assert "over the limit of 50,000" in message


def test_numbers_out_of_range_are_refused_at_load(tmp_path: Path) -> None:
    message = _refusal(
        tmp_path,
        f"parameters:\n  share: {{value: .inf, description: x, {SOURCE}}}\n"
        "payments:\n"
        f'  - {{id: p, name: p, event: card_played, when: "true", from: player, to: dealer,'
        f' amount: "param.share / 2", {SOURCE}}}\n'
        f"  - {{id: q, name: q, event: card_played, when: true, from: player, to: dealer,"
        f" amount: 1.0e+300, {SOURCE}}}\n",
    )
    # numbers written in the YAML itself are bounded by the reader, before any expression
    assert "test.yaml:4:18: $.parameters.share.value: '.inf' is not" in message
    assert "$.payments[1].amount: 1.0e+300 is too large" in message
    message = _refusal(
        tmp_path,
        "payments:\n"
        f"  - {{id: q, name: q, event: card_played, when: true, from: player, to: dealer,"
        f' amount: "{"9" * 1000}", {SOURCE}}}\n',
    )
    assert "$.payments[0].amount: the number 10^999 or more is out of range" in message


def test_an_overflow_at_run_time_names_the_rule_the_hand_and_the_trick(tmp_path: Path) -> None:
    ruleset = _load(
        tmp_path,
        "payments:\n"
        '  - {id: p, name: p, event: trick_end, when: "trick_number == 2", from: player,'
        ' to: "next_seat(player)", amount: "(points(player) + 1) * 1000000000000000",'
        f" {SOURCE}}}\n",
    )
    agents = [RandomAgent(seat) for seat in range(ruleset.players)]
    finished = []
    with pytest.raises(EvaluationError) as raised:
        play_game(ruleset, seed=3, agents=agents, hands=[1, 2], on_hand=finished.append)
    message = str(raised.value)
    assert "test.yaml:4:" in message and "$.payments[0].amount: arithmetic gave" in message
    assert message.endswith("(hand 1, during trick 2)")
    assert finished == []


def _costly_rules(count: int, guard: str) -> str:
    """`count` rules at every card played, each about 13,000 steps an evaluation."""
    heavy = "count(a in every_card: a in hand(player) and a in hand(dealer))"
    return "payments:\n" + "".join(
        f'  - {{id: r{i}, name: r{i}, event: card_played, when: "{guard}{heavy} > {i}",'
        f" from: player, to: dealer, amount: 1, {SOURCE}}}\n"
        for i in range(count)
    )


def test_a_hand_counts_what_it_evaluates_not_what_it_could(tmp_path: Path) -> None:
    """Ten costly rules at `card_played`, each asked only when a King is played (the rule
    index skips the others): counted for every card of the pack, as the load-time estimate
    of earlier releases did, they would pass a hand's budget (about 10 x 48 x 13,000), and
    that ruleset was refused; counted as played, a hand takes well under it."""
    ruleset = _load(tmp_path, _costly_rules(10, "card in kings and "))
    agents = [RandomAgent(seat) for seat in range(ruleset.players)]
    finished: list[HandState] = []
    play_game(ruleset, seed=3, agents=agents, hands=[1, 2, 3], on_hand=finished.append)
    assert len(finished) == 3
    assert all(0 < hand.meter.steps < hand.meter.limit for hand in finished)


def test_a_hand_past_its_budget_stops_naming_the_rule_and_keeps_the_hands_before(
    tmp_path: Path,
) -> None:
    """Forty costly rules asked at every card played pass the budget in the first hand:
    loaded all the same, the hand stops at the rule that passed it."""
    ruleset = _load(tmp_path, _costly_rules(40, ""))
    agents = [RandomAgent(seat) for seat in range(ruleset.players)]
    with pytest.raises(EvaluationError) as raised:
        play_game(ruleset, seed=3, agents=agents, hands=[1, 2])
    message = str(raised.value)
    assert "$.payments[" in message and "took more than 5,000,000 steps in this hand" in message
    assert "(hand 1, during trick" in message


def test_an_expression_over_its_budget_is_told_what_each_part_counts(tmp_path: Path) -> None:
    """Five definitions of about 25,000 steps each, used together: the refusal names the
    costliest parts of the expression and what each definition counts."""
    heavy = "count(a in hand(dealer): count(b in every_card: b == a) > 0)"
    names = [f"d{i}" for i in range(5)]
    message = _refusal(
        tmp_path,
        "definitions:\n"
        + "".join(f'  {name}: {{value: "{heavy}", {SOURCE}}}\n' for name in names)
        + "payments:\n"
        + '  - {id: p, name: p, event: trick_end, when: "'
        + " + ".join(names)
        + f' > count(c in hand(player): c in kings)", from: player, to: dealer, amount: 1,'
        f" {SOURCE}}}\n",
    )
    assert "$.payments[0].when: this expression could take about" in message
    assert "over the limit of 100,000" in message
    assert "its costliest parts: count(c in ...) about" in message
    assert "the definitions it uses: d0 " in message and "d4 " in message


def test_names_of_the_language_are_refused(tmp_path: Path) -> None:
    message = _refusal(
        tmp_path,
        "options:\n  then:\n    default: a\n"
        f"    readings: {{a: {{value: 1, description: x, {SOURCE}}}}}\n"
        "definitions:\n"
        f'  sum: {{value: "1", {SOURCE}}}\n'
        f'  keeper: {{value: "1", {SOURCE}}}\n'
        f'  ok: {{value: "1", of_seat: param, {SOURCE}}}\n'
        f'  fine: {{value: "1", of_seat: ok, {SOURCE}}}\n',
    )
    assert "$.options.then: 'then' is a word of the expression language: option.then" in message
    assert "$.definitions.sum: 'sum' is a word of the expression language" in message
    assert "$.definitions.keeper: 'keeper' is already a name in rulesets" in message
    assert "$.definitions.ok.of_seat: 'param' is a word of the expression language" in message
    assert "$.definitions.fine.of_seat: 'ok' is a definition's name" in message
