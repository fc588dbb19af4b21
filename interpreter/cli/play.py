"""`tarot play`: hands with computer players (or a person at one seat), printed as they finish.

Where it sits: called by `tarot.cli`, which parses the arguments. The ruleset is loaded
and the `--record` path checked before any hand is played. Hands are played one at a time
(`engine.game.play_hands`) and nothing of a finished hand is kept but the totals: each is
printed, and written to the record, as it finishes, so memory stays flat in the number of
hands. A run stopped by Ctrl-C, SIGTERM or SIGHUP, by the person leaving the table, or by a
record that can no longer be written still prints the totals of the finished hands and keeps
them in the record.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TextIO

import yaml

from tarot.batch.backend import choose_backend
from tarot.cli.flags import (
    add_agents_flag,
    add_option_flag,
)
from tarot.cli.simulate import DEFAULT_AGENTS, agents_for
from tarot.compile.loader import load_ruleset
from tarot.compile.option_flags import readings_for
from tarot.core import whole_numbers
from tarot.core.agent import Agent
from tarot.core.output_files import OutputError, check_output_path, held_signals
from tarot.core.ruleset import Ruleset
from tarot.core.stopping import exit_status
from tarot.engine.chosen_deal import ChosenDeal, DealError, chosen_deal
from tarot.engine.game import dealer_of, game_winners, play_hand, play_hands, plays_sittings
from tarot.engine.score_sheet import running_lines
from tarot.engine.state import HandState
from tarot.errors import UsageError, shown_text
from tarot.expressions import EvaluationError
from tarot.expressions.builtins import Number
from tarot.players.lineup import LEVELS, parse_agents, seat_agents
from tarot.presentation.human_seat import HumanAgent, LeftTable
from tarot.presentation.transcript import (
    PLAYER,
    SOURCES,
    first_dealer_lines,
    game_line,
    hand_transcript,
    players_line,
    totals_line,
)
from tarot.records.record_file import RecordFile

LEFT_TABLE = 130  # the person at the human seat left: the status of a Ctrl-C


def cmd_play(args: argparse.Namespace) -> int:
    ruleset = load_ruleset(args.ruleset, readings_for(args.option, args.ruleset))
    numbers = (
        range(args.hand, args.hand + 1) if args.hand else args.hands and range(1, args.hands + 1)
    )
    deal = _chosen(args, ruleset) if args.deal is not None else None
    if deal is not None:
        numbers = range(args.hand or 1, (args.hand or 1) + 1)
    # numbers is None for a whole game: as many hands as the ruleset's game takes
    level = getattr(args, "level", None)
    if level is not None and args.agents is not None:
        print(
            "tarot: --level and --agents both choose the computer players; give one",
            file=sys.stderr,
        )
        return 2
    if args.hand and args.hand > 1 and ruleset.lasting is not None:
        print(
            f"tarot: note: in {ruleset.id} each hand starts from what the hands before it "
            f"left (its lasting state); hand {args.hand} is played from the start of a "
            "sitting, not as the whole game reaches it (play the game to see that: leave out "
            "--hand)",
            file=sys.stderr,
        )
    if args.agents is None:
        args.agents = DEFAULT_AGENTS
    kinds = parse_agents(LEVELS[level], ruleset.players) if level else agents_for(args, ruleset)
    if args.human is not None and not 0 <= args.human < ruleset.players:
        raise UsageError(
            f"--human {args.human}: no such seat; {ruleset.id} has seats 0 to {ruleset.players - 1}"
        )
    if args.backend == "batch" and args.human is not None:
        raise UsageError("--backend batch: the batch back end has no seat for a person")
    if args.record and args.record != "-":
        check_output_path("--record", args.record)
    out = sys.stderr if args.record == "-" else sys.stdout
    human = HumanAgent(output=out, seat=args.human) if args.human is not None else None

    def agents(number: int) -> list[Agent]:
        seated = seat_agents(kinds, args.seed, number, ruleset.players)
        if human is not None:
            seated[args.human] = human
        return seated

    first = numbers[0] if numbers else 1
    record = (
        RecordFile(args.record, ruleset, args.seed, [a.name for a in agents(first)], args.backend)
        if args.record
        else None
    )
    tally = _Tally(ruleset.players)
    view = SOURCES if args.sources else PLAYER
    introduced = False

    def show(state: HandState) -> None:
        nonlocal introduced
        if args.quiet:
            return
        seats = [f"seat {s}" for s in range(ruleset.players)]
        sitting = running_lines(tally.nets, seats, ruleset.unit.plural) if tally.hands > 1 else []
        if human is None:
            if not introduced:  # who plays, once, before the first hand
                print(players_line([a.name for a in agents(state.number)]), file=out)
                introduced = True
            print(hand_transcript(state, view), *sitting, sep="\n", file=out)
            print(file=out)
            return
        human.hand_over(state)
        if sitting:
            print("", *sitting, sep="\n", file=out)
        more = ruleset.game is not None and not game_winners(state)
        if numbers:  # the hands asked for, up to the game's end
            more = state.number != numbers[-1] and (ruleset.game is None or more)
        if more:
            human.wait("Press Enter to deal the next hand (q to leave): ")

    hands = play_hands(ruleset, args.seed, agents, numbers)
    if numbers and len(numbers) > 1:
        hands = _to_the_game_end(hands, numbers[-1])
    if deal is not None:
        hands = _chosen_hand(ruleset, deal, numbers[0], agents)
    if args.backend == "batch":
        hands = _batch_hands(args, ruleset, kinds, numbers)
    if not args.quiet and deal is None:  # the game's first dealer, drawn for before any hand
        for line in first_dealer_lines(ruleset, args.seed, view):
            print(line, file=out)
    status, failure = 0, None
    try:
        for state in hands:
            with held_signals():  # the hand is in the record and the totals, or in neither
                if record is not None:
                    record.add(state)
                tally.add(state)
            show(state)
    except (KeyboardInterrupt, LeftTable) as stop:
        why = "interrupted" if isinstance(stop, KeyboardInterrupt) else str(stop)
        kept = f"; the {tally.hands} finished hand(s) are kept" if tally.hands else ""
        during = numbers[tally.hands] if numbers else tally.hands + 1
        print(f"\n{why}: stopped during hand {during}{kept}", file=sys.stderr)
        status = exit_status() if isinstance(stop, KeyboardInterrupt) else LEFT_TABLE
    except OutputError as error:
        failure, status = error, 1
    except EvaluationError as error:
        kept = f"; the {tally.hands} finished hand(s) are kept" if tally.hands else ""
        print(f"{error}\nthe hand was stopped (seed {args.seed}){kept}", file=sys.stderr)
        status = 1
    if tally.hands:
        you = f"  (you are seat {args.human})" if human is not None else ""
        print(totals_line(tally.hands, tally.totals, ruleset.unit.plural) + you, file=out)
        assert tally.last is not None  # kept with every finished hand
        winners = game_winners(tally.last)
        if winners:
            print(game_line(tally.hands, winners), file=out)
    if record is not None:
        status = _close_record(record, out, failure) or status
    return status


def _to_the_game_end(hands: Iterator[HandState], asked: int) -> Iterator[HandState]:
    """The hands of `--hands N` up to the end of the game, where the ruleset's game ends
    sooner (its `game.ends_when`, or a claim): a record holds one game, and the hands after
    its end would go on from a sitting already closed. Says so on standard error."""
    for state in hands:
        yield state
        if state.number < asked and game_winners(state):
            print(
                f"tarot: note: the game of {state.ruleset.id} is over after hand {state.number}"
                f" (its rules end it there); the {asked - state.number} other hand(s) --hands"
                f" {asked} asked for are not played. For another game, give another --seed",
                file=sys.stderr,
            )
            return


def _batch_hands(
    args: argparse.Namespace, ruleset: Ruleset, kinds: Sequence[str], numbers: Sequence[int] | None
) -> Iterator[HandState]:
    """The hands as the batch back end played them in a `simulate` or `diff --backend
    batch|auto` run (its own random numbers: not the scalar engine's hands for the seed; in
    a ruleset that plays sittings, the game of the seed, a sitting of such a run, hand by
    hand from its first, or the hands of it that `--hand` names)."""
    choose_backend("batch", [ruleset], kinds)  # refuses a ruleset or player it cannot run
    from tarot.records.batch_agreement import batch_hands, batch_sitting_hands

    if plays_sittings(ruleset):
        return batch_sitting_hands(ruleset, args.seed, numbers)
    return batch_hands(ruleset, args.seed, numbers or range(1, 2))


def _chosen(args: argparse.Namespace, ruleset: Ruleset) -> ChosenDeal:
    """The deal of `--deal FILE`, read and checked before anything is played."""
    if args.hands is not None:
        raise UsageError("--deal lays out one hand: give --hand N (its number) or nothing")
    if args.backend == "batch":
        raise UsageError("--backend batch deals its own hands: it takes no --deal")
    try:
        with open(args.deal, encoding="utf-8") as file:
            data = yaml.safe_load(file)
    except OSError as error:
        raise UsageError(f"--deal {args.deal}: {error.strerror or error}") from None
    except yaml.YAMLError as error:
        raise UsageError(f"--deal {args.deal}: not YAML or JSON: {error}") from None
    try:
        return chosen_deal(ruleset, data, dealer_of(ruleset, args.hand or 1, args.seed))
    except DealError as error:
        lines = "".join(f"\n  {problem}" for problem in error.problems)
        raise UsageError(f"--deal {args.deal}: not a deal of {ruleset.id}:{lines}") from None


def _chosen_hand(
    ruleset: Ruleset, deal: ChosenDeal, number: int, agents: Callable[[int], list[Agent]]
) -> Iterator[HandState]:
    """The one hand of `--deal`, dealt as chosen and played out."""
    state = HandState(ruleset, deal.dealer, deal.pack, number, chosen=True)
    yield play_hand(state, agents(number))


def _close_record(record: RecordFile, out: TextIO, failure: OutputError | None) -> int:
    """Finish the record and say what it holds; 1 if it could not be written whole."""
    try:
        record.close()
    except OutputError as error:
        failure = failure or error
    if failure is not None:
        print(shown_text(f"tarot: {failure}"), file=sys.stderr)
        return 1
    if not record.hands:
        print("no hand finished: no record written", file=sys.stderr)
    elif record.path != "-":
        print(f"record written to {record.path}", file=out)
    return 0


class _Tally:
    """What the end of a run says about the finished hands: how many, the totals, the last."""

    def __init__(self, players: int) -> None:
        self.hands = 0
        self.totals: list[Number] = [0] * players
        self.last: HandState | None = None
        self.nets: list[list[Number]] = []  # each hand's net per seat, in order

    def add(self, state: HandState) -> None:
        self.hands += 1
        self.nets.append(list(state.returns()))
        self.totals = [t + n for t, n in zip(self.totals, state.returns(), strict=True)]
        self.last = state


def run(args: argparse.Namespace) -> int:
    from tarot.cli.play import cmd_play

    return cmd_play(args)


def add_arguments(play: argparse.ArgumentParser) -> None:
    from tarot.players.lineup import LEVELS

    play.add_argument("ruleset", metavar="RULESET", help="a built-in name or a YAML file")
    play.add_argument(
        "--seed", type=whole_numbers.seed, default=1, help="seed of the shuffle and players"
    )
    which = play.add_mutually_exclusive_group()
    which.add_argument(
        "--hands",
        type=whole_numbers.count,
        help="number of hands (default: one hand, or a whole game for a ruleset played to a "
        "score); play stops sooner where the game ends by its rules",
    )
    which.add_argument(
        "--hand",
        type=whole_numbers.count,
        metavar="N",
        help="play only hand N of the game (as simulate and diff number them; in a ruleset "
        "with lasting state, from the start of a sitting)",
    )
    play.add_argument(
        "--deal",
        metavar="FILE",
        help="deal the hand as this YAML or JSON file lays it out (each seat's cards, the "
        "talon; docs/api.md, A chosen deal) instead of shuffling; plays one hand",
    )
    add_option_flag(play)
    add_agents_flag(play)
    play.set_defaults(agents=None)  # so that --level can tell whether --agents was given
    play.add_argument("--record", metavar="FILE", help="write the game record (JSON); - for stdout")
    play.add_argument(
        "--human",
        type=whole_numbers.seat,
        metavar="SEAT",
        help="you play this seat (0, 1, ...) at the terminal; you see only what it may see",
    )
    play.add_argument(
        "--level",
        choices=list(LEVELS),
        help="the computer players' strength, instead of --agents: "
        + ", ".join(f"{level} = {kind}" for level, kind in LEVELS.items())
        + " (as measured in docs/players/strength.md)",
    )
    play.add_argument(
        "--quiet",
        action="store_true",
        help="print only the totals (with --human: also your decisions, but no hand results)",
    )
    play.add_argument(
        "--sources",
        action="store_true",
        help="the full account of each hand: cards by their ids (as records write them) and "
        "every payment with its sources and the option readings it rests on",
    )
    play.add_argument(
        "--backend",
        choices=["scalar", "batch"],
        default="scalar",
        help="batch: the hands as `simulate`, `diff` or `study` played them on the batch back "
        "end (random players, the batch back end's own deals), each checked against the "
        "scalar engine (default scalar)",
    )
