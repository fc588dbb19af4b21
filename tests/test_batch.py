"""The batch back end (`tarot.batch`): hands independent of their batch, every hand it
plays replayed through the scalar engine with every payment equal, the same distributions
as the scalar engine, and a whitelist that refuses what it cannot run."""

from __future__ import annotations

import dataclasses
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from batch_checks import means_agree, refusing, replayed

from tarot.batch.masks import Layout, count, distinct
from tarot.batch.run import play_batch, play_summaries, summaries
from tarot.batch.support import supports
from tarot.cli import main
from tarot.compile.loader import load_ruleset
from tarot.load import paths
from tarot.records.batch_agreement import (
    SAMPLE,
    BatchDisagreement,
    batch_records,
    check_sample,
    replay,
)
from tarot.records.replay import ReplayMismatch

BASE = "marolles-1637"
LITERAL = "marolles-1637-ultimo-literal"

NUMBERS = str(Path(__file__).parent / "data" / "batch" / "numbers.yaml")
QUESTIONS = str(Path(__file__).parent / "data" / "rulesets" / "questions-in-play.yaml")
FAMILY = [BASE, *sorted(paths.builtin_variants(BASE))]


@cache
def loaded(target: str):
    return load_ruleset(target)


def test_masks_count_list_and_pick_cards():
    layout = Layout(78)
    cards = [0, 5, 63, 64, 77]
    mask = layout.of(cards)
    assert int(count(mask)) == 5
    assert np.flatnonzero(layout.to_bools(mask)).tolist() == cards
    assert (layout.from_bools(layout.to_bools(mask)) == mask).all()
    picked = layout.nth_card(np.stack([mask] * 5), np.arange(5))
    assert picked.tolist() == cards
    assert layout.contains(np.stack([mask] * 3), np.array([64, 62, -1])).tolist() == [
        True,
        False,
        False,
    ]


def test_distinct_gives_what_np_unique_gives():
    rng = np.random.default_rng(3)
    for values in (rng.integers(-3, 9, size=(40, 3)), np.array([], dtype=np.int64), np.array([5])):
        assert distinct(values) == np.unique(values).tolist()


def test_a_hand_plays_the_same_alone_or_in_any_batch():
    ruleset = loaded(BASE)
    alone = batch_records(ruleset, 5, [17])
    in_64 = batch_records(ruleset, 5, range(1, 65), keep=[17])
    in_4096 = batch_records(ruleset, 5, range(1, 4097), keep=[17])
    among_others = batch_records(ruleset, 5, [3, 17, 900], keep=[17])
    assert alone == in_64 == in_4096 == among_others
    assert len(alone) == 1 and alone[0]["number"] == 17
    other_seed = batch_records(ruleset, 6, [17])
    assert other_seed[0]["packs"] != alone[0]["packs"]


@pytest.mark.parametrize("target", [*FAMILY, NUMBERS])
def test_every_payment_agrees_with_the_scalar_engine(target):
    ruleset = loaded(target)
    assert supports(ruleset) == []
    records = batch_records(ruleset, 11, range(1, 41))
    for record in records:
        record["fired"] = dict(sorted(record["fired"].items()))
        replay(ruleset, record)
    assert sum(len(r["payments"]) for r in records) > 100  # the hands paid something
    assert sum(len(r["paid"]) for r in records) > 40  # and what each rule paid was compared


@pytest.mark.parametrize("target", [BASE, NUMBERS])
def test_results_are_the_same_with_or_without_a_log(target):
    """Without a log, whole amounts are paid every pair at once; with one, one by one."""
    ruleset = loaded(target)
    quick = play_summaries(ruleset, 4, range(1, 201))
    logged = summaries(play_batch(ruleset, 4, range(1, 201), logging=True))
    assert quick == logged


def test_a_changed_payment_is_caught_by_the_replay():
    ruleset = loaded(BASE)
    record = batch_records(ruleset, 11, [1])[0]
    record["fired"] = dict(sorted(record["fired"].items()))
    record["payments"][0]["amount"] += 1
    with pytest.raises(ReplayMismatch, match="payments"):
        replay(ruleset, record)


@pytest.mark.slow
def test_means_per_seat_and_per_rule_agree_in_distribution():
    means_agree(loaded(BASE), 21, 2500, {}, rules_at_least=10)


def test_only_what_it_knows_is_run():
    assert supports(loaded("minchiate")) == []
    assert supports(loaded("marolles-1637-wickson-2p-le-mort")) == []
    assert supports(loaded("french-tarot-2")) == []
    assert supports(loaded("hungarian-tarokk")) == []
    assert supports(loaded(QUESTIONS)) == []
    ruleset = loaded(BASE)
    assert supports(ruleset, ("search", "random", "random"))[0].startswith("the player 'search'")
    unknown_section = dataclasses.replace(ruleset, document={**ruleset.document, "tableau": {}})
    assert supports(unknown_section) == ["tableau: a section the batch back end does not know"]
    new_key = {**ruleset.document, "play": {**ruleset.document["play"], "doubling": True}}
    assert supports(dataclasses.replace(ruleset, document=new_key)) == [
        "play.doubling: a key the batch back end does not know"
    ]


def test_an_expression_it_cannot_compile_names_the_rule(tmp_path):
    path = tmp_path / "text-at-run-time.yaml"
    path.write_text(
        "extends: marolles-1637\n"
        "payments:\n"
        "  - id: chosen_read\n"
        "    name: Reads a declaration chosen by the trick\n"
        "    event: trick_end\n"
        "    when: \"declared(player, if last_trick then 'a' else 'b')\"\n"
        "    from: player\n"
        "    to: 'opponents(player)'\n"
        "    amount: 1\n"
        "    source: mcleod\n",
        encoding="utf-8",
    )
    assert supports(load_ruleset(str(path))) == [
        "payment rule chosen_read: declared() with a text worked out at run time"
    ]


def run(capsys, *args: str) -> tuple[int, str, str]:
    try:
        status = main(list(args))
    except SystemExit as exit_:
        status = exit_.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def _shape(report: str) -> list[str]:
    """The report's lines with their numbers taken out."""
    return [
        "".join(ch for ch in line if not ch.isdigit()).split("  ")[0]
        for line in report.splitlines()
    ]


def test_simulate_reports_the_same_shape_from_both_back_ends(capsys):
    common = ("simulate", BASE, "--hands", "300", "--jobs", "1")
    status, scalar, _ = run(capsys, *common)
    assert status == 0
    status, batch, err = run(capsys, *common, "--backend", "batch")
    assert status == 0 and err == ""
    assert _shape(batch)[:20] == _shape(scalar)[:20]
    assert "300 hands" in batch


def test_batch_on_a_ruleset_it_cannot_run_is_refused_naming_the_rule(capsys, monkeypatch):
    refusing(monkeypatch)
    status, out, err = run(capsys, "simulate", QUESTIONS, "--hands", "5", "--backend", "batch")
    assert status == 1 and out == ""
    assert "questions-in-play: --backend batch cannot run questions: questions during" in err
    status, _, err = run(
        capsys, "simulate", BASE, "--hands", "5", "--backend", "batch", "--agents", "heuristic"
    )
    assert status == 1 and "the player 'heuristic'" in err


def test_auto_falls_back_and_says_why(capsys, monkeypatch):
    refusing(monkeypatch)
    status, out, err = run(
        capsys, "diff", BASE, QUESTIONS, "--hands", "4", "--jobs", "1", "--backend", "auto"
    )
    assert status == 0, err
    assert "playing on the scalar engine" in err and "questions-in-play: questions" in err
    assert err.count("\n") == 1  # one line
    assert "1 job(s), scalar engine" in out  # the report says which engine played
    status, out, err = run(
        capsys,
        "diff",
        BASE,
        "marolles-1637-ultimo-literal",
        "--hands",
        "200",
        "--jobs",
        "1",
        "--backend",
        "auto",
    )
    assert status == 0 and "scalar engine" not in err
    assert "200 hands" in out and "1 job(s), batch back end" in out


def test_auto_replays_one_hand_in_sample_and_stops_at_a_difference():
    ruleset = loaded(BASE)
    played = play_summaries(ruleset, 8, range(5, 2 * SAMPLE + 55))
    check_sample(ruleset, 8, played, 5)  # hands 5, 5 + SAMPLE and 5 + 2 SAMPLE: they agree
    second = 5 + SAMPLE
    unchecked = [dataclasses.replace(h, net=(99, 0, 0)) if h.number == 6 else h for h in played]
    check_sample(ruleset, 8, unchecked, 5)  # hand 6 is not in the sample
    wrong = [dataclasses.replace(h, net=(99, 0, 0)) if h.number == second else h for h in played]
    with pytest.raises(BatchDisagreement, match=rf"hand {second} of marolles-1637 \(seed 8\).*net"):
        check_sample(ruleset, 8, wrong, 5)


def test_auto_stops_a_run_whose_batch_disagrees_with_the_scalar_engine(capsys, monkeypatch):
    from tarot.batch.phases import play as batch_play

    settle = batch_play.settle

    def miscounted(program, state, names):  # a bug: one more for seat 0 after the settlement
        settle(program, state, names)
        state.net[:, 0] += 1

    monkeypatch.setattr(batch_play, "settle", miscounted)
    common = ("simulate", BASE, "--hands", "50", "--jobs", "1", "--seed", "3")
    status, out, err = run(capsys, *common, "--backend", "auto")
    assert status == 1
    assert "the batch back end and the scalar engine differ on hand 1 of marolles-1637" in err
    status, out, err = run(capsys, *common, "--backend", "batch")  # not checked: it runs
    assert status == 0


def test_auto_replays_the_sample_of_every_chunk_in_one_batch_and_checks_each(monkeypatch):
    """A run's sample is played again with a log once for many chunks (a batch costs about
    the same for one hand as for some tens), and each hand of it checked as its chunk comes
    back: a hand of the second chunk that differs from its replay stops the run there."""
    from tarot.measure import runner
    from tarot.records import batch_agreement

    ruleset = loaded(BASE)
    logged: list[list[int]] = []

    def counted(ruleset, seed, numbers, keep=None):
        logged.append(list(numbers))
        return batch_records(ruleset, seed, numbers, keep)

    monkeypatch.setattr(batch_agreement, "batch_records", counted)
    plan = runner.RunPlan((runner.RulesetSpec(BASE),), 4, 2 * SAMPLE + 1, backend="auto")
    chunks = list(runner.run_chunks(plan, [ruleset], 1))
    assert len(chunks) == 2  # hands 1 and 1001 in the first chunk, 2001 in the second
    assert logged == [[1, 1 + SAMPLE, 1 + 2 * SAMPLE]]
    assert [hand.net for (hand,) in chunks[0]] == [
        hand.net for hand in play_summaries(ruleset, 4, range(1, len(chunks[0]) + 1))
    ]

    logged.clear()
    table_play = runner.Table.play

    def wrong_last(table, work):  # a bug in the hand of the sample of the second chunk
        played = table_play(table, work)
        return [
            (dataclasses.replace(hand, net=(99, 0, 0)),)
            if hand.number == 2 * SAMPLE + 1
            else (hand,)
            for (hand,) in played
        ]

    monkeypatch.setattr(runner.Table, "play", wrong_last)
    chunks = runner.run_chunks(plan, [ruleset], 1)
    assert len(next(chunks)) == SAMPLE + 1  # the first chunk agrees
    with pytest.raises(BatchDisagreement, match=rf"hand {2 * SAMPLE + 1} of marolles-1637"):
        next(chunks)
    assert logged == [[1, 1 + SAMPLE, 1 + 2 * SAMPLE]]


NEW_MECHANISMS = {
    "questions": (
        "french-tarot",
        "questions:\n  - {id: top, name: Top, before_trick: 2, by: taker, cards: trumps,"
        " source: tarot_003}\n",
    ),
}


@pytest.mark.parametrize("mechanism", sorted(NEW_MECHANISMS))
def test_a_mechanism_the_batch_does_not_run_is_refused_by_name(mechanism, tmp_path, monkeypatch):
    """The whitelist refuses what was added to the language after it: one key added to a
    ruleset the batch runs is enough to be named."""
    assert refusing(monkeypatch) == mechanism
    base, extra = NEW_MECHANISMS[mechanism]
    assert supports(loaded(base)) == []
    variant = tmp_path / "variant.yaml"
    variant.write_text(f"extends: {base}\ntitle: variant\n{extra}")
    refused = supports(load_ruleset(str(variant)))
    assert any(mechanism.split(".")[-1] in reason for reason in refused), refused


def test_a_hand_of_a_batch_run_is_shown_by_play_with_the_batch_back_end(capsys):
    """The replay commands of a batch diff name `--backend batch`, and that play shows the
    hand the run played: the same net result, from the batch's own deal."""
    ruleset = loaded(BASE)
    summaries_played = play_summaries(ruleset, 3, range(1, 41))
    assert main(["play", BASE, "--seed", "3", "--hand", "17", "--backend", "batch"]) == 0
    shown = capsys.readouterr().out
    net = summaries_played[16].net
    assert "Net (marques): " + ", ".join(f"seat {s} {v:+}" for s, v in enumerate(net)) in shown
    assert main(["diff", BASE, LITERAL, "--hands", "200", "--backend", "batch"]) == 0
    report = capsys.readouterr().out
    assert "--backend batch" in report.split("Hands that differ most")[1].splitlines()[2]


def _early_french_variant(tmp_path: Path, name: str, extra: str) -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: early-french\ntitle: {name}\n{extra}", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "extra"),
    [
        (  # a seat that reaches 20 in the hand claims the game: play stops there
            "claimed",
            "options:\n  tie_break:\n    default: first_to_claim\n"
            "parameters:\n  target:\n    value: 20\n    source: early_french_002\n",
        ),
        (  # play stops once the dealer has taken three tricks
            "ended",
            "play:\n  ends_when: 'tricks_won(dealer) >= 3'\n",
        ),
    ],
)
def test_hands_scored_and_play_ended_early_as_the_scalar_engine(tmp_path, name, extra):
    """A hand's score (`hand_score`), a claim of the game during play and `play.ends_when`
    run in the batch back end: each hand replayed through the scalar engine, payment by
    payment, with its net (the scores) and the card it stopped at."""
    ruleset = load_ruleset(_early_french_variant(tmp_path, name, extra))
    assert supports(ruleset) == []
    records, kinds, _fired = replayed(ruleset, 7, 120)
    full = 48  # four seats, twelve tricks
    plays = [sum(d["kind"] == "play" for d in record["decisions"]) for record in records]
    assert any(n < full for n in plays) and any(n == full for n in plays)
    assert all(any(record["net"]) for record in records)  # every hand scored
    assert kinds["play"]
