"""Hand scenarios written as YAML (`tests/scenarios/*.yaml`, described in the README there),
each run through the public API alone (`import tarot`): the ruleset loaded with its options,
the hand dealt from its chosen deal or its seed, the decisions taken in order (each a text, or
a step that also checks the seat asked, the legal actions, a refusal, or what holds after it),
and what the scenario expects compared with what the hand did. A failure names the file, the
scenario and the first difference."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
import yaml

import tarot

ROOT = Path(__file__).parent.parent
SCENARIOS = ROOT / "tests" / "scenarios"
PAYMENT_KEYS = ("rule", "name", "payer", "payee", "amount", "at", "source")
SCENARIO_KEYS = {
    "name",
    "ruleset",
    "options",
    "deal",
    "seed",
    "hand",
    "decisions",
    "expect",
    "settlements",
    "play_out",
    "source",
    "note",
}
#: what a scenario may expect, at its end or after a decision (`expect:` in a step)
EXPECT_KEYS = {
    "net",
    "payments",
    "paid_at",
    "paid_for",
    "card_points",
    "thrown_in",
    "transcript",
    "taker",
    "contract",
    "partner",
    "called_card",
    "shown",
    "hand_sizes",
    "hands",
    "discards",
}
#: what only a finished hand has
AT_THE_END = {"card_points", "thrown_in", "transcript"}
#: a decision written as a mapping: who is asked, what about, what is legal, what is taken or
#: refused, and what holds afterwards
STEP_KEYS = {"seat", "kind", "legal", "take", "refused", "because", "expect"}


class ScenarioFailure(AssertionError):
    """A scenario whose hand did not do what it expects; the message says where."""


def _scenarios() -> list[pytest.param]:
    found = []
    for path in sorted(SCENARIOS.glob("*.yaml")):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        defaults = {k: v for k, v in document.items() if k != "scenarios"}
        for scenario in document["scenarios"]:
            merged = {**defaults, **scenario}
            found.append(pytest.param(path, merged, id=f"{path.stem}::{merged['name']}"))
    return found


@pytest.mark.parametrize(("path", "scenario"), _scenarios())
def test_scenario(path: Path, scenario: dict) -> None:
    where = f"{path.relative_to(ROOT)}, scenario {scenario['name']!r}"
    try:
        run(scenario)
    except ScenarioFailure as failure:
        pytest.fail(f"{where}: {failure}", pytrace=False)


def run(scenario: Mapping) -> tarot.State:
    """Play the scenario's hand and compare; raise ScenarioFailure at the first difference."""
    unknown = set(scenario) - SCENARIO_KEYS
    if unknown:
        known = ", ".join(sorted(SCENARIO_KEYS))
        raise ScenarioFailure(f"unknown key(s) {sorted(unknown)}; a scenario has {known}")
    name = str(scenario["ruleset"])
    if name.endswith((".yaml", ".yml")):  # a ruleset file, from the repository's root
        name = str(ROOT / name)
    ruleset = tarot.load(name, options=scenario.get("options"))
    if ("deal" in scenario) == ("seed" in scenario):
        raise ScenarioFailure("give either a deal or a seed")
    hand = scenario.get("hand", 1)
    try:
        state = ruleset.new_hand(seed=scenario.get("seed", 1), hand=hand, deal=scenario.get("deal"))
    except tarot.DealError as error:
        raise ScenarioFailure(f"deal: {error}") from None
    for index, decision in enumerate(scenario["decisions"]):
        step(state, decision, f"decisions[{index}]")
    play_out = scenario.get("play_out")
    if play_out not in (None, "first"):
        raise ScenarioFailure(f"play_out: 'first' or nothing, not {play_out!r}")
    while play_out == "first" and not state.is_terminal():
        state.apply(state.legal_actions()[0])  # the rest of the hand does not matter here
    if not state.is_terminal():
        legal = ", ".join(str(a) for a in state.legal_actions()[:8])
        raise ScenarioFailure(
            f"decisions: the hand is not over after {len(scenario['decisions'])} decisions: "
            f"seat {state.current_player} is to {state.decision_kind} ({legal}...)"
        )
    check_expect(scenario.get("expect", {}), state, "expect")
    made = list(state.payments)
    for index, row in enumerate(scenario.get("settlements", [])):
        at = f"settlements[{index}] (card points {row['card_points']})"
        paid = state.settlement(row["card_points"])
        if "payments" in row:
            compare_payments(row["payments"], paid, f"{at}.payments")
        if "net" in row:
            compare(row["net"], net_of(paid, ruleset.players), f"{at}.net")
        if state.payments != made:
            raise ScenarioFailure(f"{at}: asking for the settlement changed the hand's payments")
    return state


def step(state: tarot.State, decision: object, where: str) -> None:
    """One decision: a text, taken; or a mapping whose `seat`, `kind` and `legal` say the
    decision asked, whose `take` is taken or `refused` refused (`because`: words of the
    refusal), and whose `expect` holds afterwards."""
    if not isinstance(decision, Mapping):
        decision = {"take": decision}
    unknown = set(decision) - STEP_KEYS
    if unknown:
        known = ", ".join(sorted(STEP_KEYS))
        raise ScenarioFailure(f"{where}: unknown key(s) {sorted(unknown)}; a step has {known}")
    taken = decision.get("take")
    shown = f"{where} {taken!r}" if taken is not None else where
    if state.is_terminal() and taken is not None:
        raise ScenarioFailure(f"{shown}: the hand is already over")
    if "seat" in decision:
        compare(decision["seat"], state.current_player, f"{shown}.seat")
    if "kind" in decision:
        compare(decision["kind"], state.decision_kind, f"{shown}.kind")
    if "legal" in decision:
        legal = [str(action) for action in state.legal_actions()]
        compare([str(a) for a in decision["legal"]], legal, f"{shown}.legal")
    if "refused" in decision:
        refused = str(decision["refused"])
        before = [str(a) for a in state.legal_actions()], len(state.payments)
        try:
            state.apply(refused)
        except tarot.IllegalAction as error:
            if str(decision.get("because", "")) not in str(error):
                raise ScenarioFailure(
                    f"{where}: {refused!r} refused with {str(error)!r}, "
                    f"not for {decision['because']!r}"
                ) from None
        else:
            raise ScenarioFailure(f"{where}: {refused!r} was taken, not refused")
        after = [str(a) for a in state.legal_actions()], len(state.payments)
        if after != before:
            raise ScenarioFailure(f"{where}: refusing {refused!r} changed the hand")
    if taken is not None:
        try:
            state.apply(str(taken))
        except tarot.IllegalAction as error:
            raise ScenarioFailure(f"{shown}: {error}") from None
    if "expect" in decision:
        check_expect(decision["expect"], state, f"{shown}.expect")


def check_expect(expect: Mapping, state: tarot.State, where: str) -> None:
    """Compare what `expect` names with the hand as it stands."""
    unknown = set(expect) - EXPECT_KEYS
    if unknown:
        raise ScenarioFailure(f"{where}: unknown key(s) {sorted(unknown)}")
    early = set(expect) & AT_THE_END
    if early and not state.is_terminal():
        raise ScenarioFailure(f"{where}: {sorted(early)} only once the hand is over")
    if "payments" in expect:
        compare_payments(expect["payments"], state.payments, f"{where}.payments")
    for moment, payments in expect.get("paid_at", {}).items():
        made_then = [p for p in state.payments if p.at == moment]
        compare_payments(payments, made_then, f"{where}.paid_at[{moment!r}]")
    for rule, payments in expect.get("paid_for", {}).items():
        made_for = [p for p in state.payments if p.rule == rule]
        compare_payments(payments, made_for, f"{where}.paid_for[{rule!r}]")
    if "net" in expect:
        compare(expect["net"], state.returns(), f"{where}.net")
    if "card_points" in expect:
        compare(expect["card_points"], state.card_points(), f"{where}.card_points")
    if "thrown_in" in expect:
        compare(expect["thrown_in"], state.record()["hands"][0]["thrown_in"], f"{where}.thrown_in")
    text = state.transcript() if "transcript" in expect else ""
    for words in expect.get("transcript", []):  # lines the transcript must hold
        if words not in text:
            raise ScenarioFailure(f"{where}.transcript: no {words!r} in:\n{text}")
    seen = state.observation(0)  # what is public: known to every seat alike
    for key in ("taker", "contract", "hand_sizes"):
        if key in expect:
            compare(expect[key], getattr(seen, key), f"{where}.{key}")
    if "partner" in expect:  # as the seats that know him know him (the taker may not yet)
        known = [state.observation(s).partner for s in range(len(seen.hand_sizes))]
        compare(
            expect["partner"], next((p for p in known if p is not None), None), f"{where}.partner"
        )
    if "called_card" in expect:
        card = None if seen.called_card is None else str(seen.called_card)
        compare(expect["called_card"], card, f"{where}.called_card")
    for key in ("hands", "discards"):  # each seat's own cards, as it sees them
        for seat, cards in expect.get(key, {}).items():
            seen_by = state.observation(int(seat))
            held = sorted(str(c) for c in (seen_by.hand if key == "hands" else seen_by.discards))
            compare(sorted(map(str, cards)), held, f"{where}.{key}[{seat}]")
    if "shown" in expect:
        shown = [
            {"seat": s.seat, "what": s.what, "cards": [str(c) for c in s.cards]} for s in seen.shown
        ]
        compare_shown(expect["shown"], shown, f"{where}.shown")


def compare_shown(expected: list[Mapping], shown: list[dict], where: str) -> None:
    """Every showing in order, each on the keys given; `cards` compared as a set."""
    if len(expected) != len(shown):
        raise ScenarioFailure(f"{where}: expected {expected!r}, got {shown!r}")
    for index, (wanted, made) in enumerate(zip(expected, shown, strict=True)):
        for key, value in wanted.items():
            if key not in made:
                raise ScenarioFailure(f"{where}[{index}]: a showing has no {key!r}")
            if key == "cards":
                compare(sorted(map(str, value)), sorted(made[key]), f"{where}[{index}].cards")
            else:
                compare(value, made[key], f"{where}[{index}].{key}")


def net_of(payments: list[tarot.Payment], players: int) -> list[float]:
    net = [0] * players
    for payment in payments:
        net[payment.payer] -= payment.amount
        net[payment.payee] += payment.amount
    return net


def compare_payments(expected: list[Mapping], paid: list[tarot.Payment], where: str) -> None:
    """Every payment in order, each compared on the keys the scenario gives."""
    for index, (wanted, payment) in enumerate(zip(expected, paid, strict=False)):
        for key, value in wanted.items():
            if key not in PAYMENT_KEYS:
                raise ScenarioFailure(f"{where}[{index}]: a payment has no {key!r}")
            compare(value, getattr(payment, key), f"{where}[{index}].{key}", paid=paid)
    if len(expected) != len(paid):
        raise ScenarioFailure(
            f"{where}: {len(expected)} payment(s) expected, {len(paid)} made:\n"
            + "\n".join(f"  {_shown(p)}" for p in paid)
        )


def compare(expected: object, actual: object, where: str, paid: list | None = None) -> None:
    if isinstance(expected, list) and isinstance(actual, list | tuple):
        if len(expected) != len(actual):
            raise ScenarioFailure(f"{where}: expected {expected!r}, got {list(actual)!r}")
        for index, (a, b) in enumerate(zip(expected, actual, strict=True)):
            compare(a, b, f"{where}[{index}]", paid)
        return
    if expected != actual or isinstance(expected, bool) != isinstance(actual, bool):
        made = (
            ""
            if paid is None
            else "; the payments made:\n" + "\n".join(f"  {_shown(p)}" for p in paid)
        )
        raise ScenarioFailure(f"{where}: expected {expected!r}, got {actual!r}{made}")


def _shown(payment: tarot.Payment) -> str:
    return (
        f"{payment.rule}: seat {payment.payer} pays seat {payment.payee} {payment.amount} "
        f"({payment.at})"
    )


# --- the runner's own messages -------------------------------------------------------------


def _talon_tricks() -> tuple[Path, dict]:
    path = SCENARIOS / "talon-tricks.yaml"
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    defaults = {key: value for key, value in document.items() if key != "scenarios"}
    return path, {**defaults, **document["scenarios"][0]}


def test_a_failure_names_the_file_the_scenario_and_the_first_difference() -> None:
    path, scenario = _talon_tricks()
    scenario["expect"] = {**scenario["expect"], "net": [-3, 1, 2, 0]}
    scenario["expect"]["payments"] = [dict(p) for p in scenario["expect"]["payments"]]
    scenario["expect"]["payments"][4]["payee"] = 3
    with pytest.raises(pytest.fail.Exception) as failed:
        test_scenario(path, scenario)
    message = str(failed.value)
    assert message.startswith(
        "tests/scenarios/talon-tricks.yaml, scenario 'the lowest trump takes the two highest, "
        "and the leaders share the talon': expect.payments[4].payee: expected 3, got 2"
    )
    assert "most_points: seat 0 pays seat 2 1 (settlement)" in message  # what was paid


def test_a_decision_that_is_not_legal_is_named_with_its_place() -> None:
    _path, scenario = _talon_tricks()
    scenario["decisions"] = [*scenario["decisions"][:5], "swords-2", *scenario["decisions"][6:]]
    with pytest.raises(ScenarioFailure, match=r"^decisions\[5\] 'swords-2': seat 2 may not"):
        run(scenario)


def test_a_hand_left_unfinished_is_a_failure() -> None:
    _path, scenario = _talon_tricks()
    scenario["decisions"] = scenario["decisions"][:-1]
    with pytest.raises(ScenarioFailure, match="the hand is not over after 27 decisions: seat 3"):
        run(scenario)


def test_a_refusal_expected_must_happen_and_leave_the_hand_as_it_was() -> None:
    path = SCENARIOS / "contract-play-rules.yaml"
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    scenario = {**document, **document["scenarios"][0]}
    del scenario["scenarios"]
    state = run(scenario)  # swords-1 refused, then the hand goes on as written
    assert state.returns() == [3, -6, 3]
    steps = list(scenario["decisions"])
    steps[4] = {"seat": 2, "refused": "swords-K"}  # the one card seat 2 may play
    with pytest.raises(ScenarioFailure, match=r"^decisions\[4\]: 'swords-K' was taken"):
        run({**scenario, "decisions": steps})
    steps[4] = {"seat": 2, "refused": "swords-1", "because": "must beat"}
    with pytest.raises(ScenarioFailure, match="refused with .* not for 'must beat'"):
        run({**scenario, "decisions": steps})
