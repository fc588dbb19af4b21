"""OpenSpiel's tarok bots seated behind our agent interface, for `benchmarks/strength.py`.

Where it sits: beside `outside_players.py` (the French Tarot program on PyPI), under
`benchmarks/strength.py`. Nothing in `interpreter/` knows it. OpenSpiel is no dependency of
this project: install it apart (`pip install --target DIR open_spiel==2.0.2`, or a venv) and
pass `--openspiel DIR`; `load_openspiel(DIR)` appends DIR to `sys.path` and imports `pyspiel`
in this process (its wheel is built for this Python and uses the same numpy as ours, so no
second process is needed to speak to it).

Read from OpenSpiel's source, google-deepmind/open_spiel at commit
112b77704631fc2ce7ad8e4581f6ca09798ce15a (`open_spiel/games/tarok/`):

  - the deal is no chance outcome a caller can choose: `DealCards(players, seed)` shuffles
    with its own `mt19937` (`cards.cc`), and a state is rebuilt from its serialisation, whose
    first line is that seed (`TarokGame::DeserializeState`). So the deal is made in OpenSpiel
    from a seed of ours (`openspiel_deal`, skipping seeds that leave a player without a tarok
    as its own dealing loop does) and the same cards are handed to our engine
    (`our_pack`): OpenSpiel's player p is our seat `seat_order[p]` (p = 0 is forehand, the
    dealer's next; `tarok.cc` DoApplyActionInCardDealing), its talon keeps its order, so
    packet k of ours is its talon set k-1;
  - action ids (`cards.h`, `contracts.h`, `tarok.cc` LegalActions): a card is its index in
    `InitializeCardDeck` (`CARDS` below: taroks Pagat..Mond then the Skis, then hearts,
    diamonds, spades, clubs, each low to high); a bid is 0 for pass and 1..12 for the twelve
    contracts Klop..Valat without (`CONTRACTS`), holding a bid being the same id as the bid;
    a King call and a discard are the card's id; a talon choice is the set's index from 0;
  - the Python state exposes `player_cards`, `talon`, `talon_sets`, `trick_cards`,
    `selected_contract` and `current_game_phase` (`python/pybind11/games_tarok.cc`), and no
    `resample_from_infostate` (it raises "not implemented").

The players:

  - `openspiel-mcts`: `open_spiel.python.algorithms.mcts.MCTSBot` with a random rollout
    evaluator, on an OpenSpiel tarok state kept in step with our hand (every decision of
    every seat applied to it as it happens, mapped both ways). MCTS searches that true state:
    it sees every card, the other hands and the talon included (it is not a fair player; it is
    the bot OpenSpiel ships);
  - `openspiel-ismcts`: `open_spiel.python.algorithms.ismcts.ISMCTSBot`, unchanged. It needs
    states resampled from an information state, which OpenSpiel's tarok cannot give (above);
    so it searches our engine's hand of the same ruleset, seen through `EngineState`, a
    pyspiel-like face over `HandState` whose resampler is our `Sampler` (the cards the seat
    cannot see dealt again consistently with what it saw) and whose information-state key
    is what the seat saw. The search is OpenSpiel's; the rules it searches are ours.

Both maximise their own seat's return as the game pays it (OpenSpiel's `Returns`, our
`returns`): in Slovenian Tarok only the declarer's side writes a score, so a defender's
return is 0 whatever it plays (the mond penalty aside), in OpenSpiel's game as in ours.

Where our `-openspiel` ruleset and OpenSpiel disagree at a decision (a known difference:
docs/games/slovenian-tarok.md) the MCTS adapter notices (OpenSpiel's player to move or its
legal actions are not ours, or an action taken is not legal there) and that decision, and
every later one of the hand once the two have parted, is made by our heuristic player; the
count is kept in `fallbacks` and printed by strength.py.
"""

from __future__ import annotations

import glob
import importlib
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's engine

from tarot.core.actions import DecisionKind
from tarot.core.ruleset import Ruleset
from tarot.engine.dealing import deal_packets
from tarot.engine.game import dealer_of
from tarot.engine.seat_view import PRIVATE_KINDS
from tarot.engine.state import HandState
from tarot.players.heuristic_agent import HeuristicAgent
from tarot.players.sampling import Sampler

OPENSPIEL_MCTS = "openspiel-mcts"
OPENSPIEL_ISMCTS = "openspiel-ismcts"
OPENSPIEL_KINDS = (OPENSPIEL_MCTS, OPENSPIEL_ISMCTS)
VERSION = "2.0.2"  # the wheel the measurements used

# OpenSpiel's card action id -> our card id (`cards.cc` InitializeCardDeck: taroks by rank,
# Pagat T1 .. Mond T21, then the Skis T22; each suit from its lowest: the red suits 4, 3,
# 2, 1 then Jack, Knight, Queen, King; the black suits 7, 8, 9, 10 then the courts)
_COURTS = ["J", "C", "Q", "K"]
CARDS: tuple[str, ...] = tuple(
    [f"trump-{rank}" for rank in range(1, 22)]
    + ["fool"]
    + [f"{suit}-{rank}" for suit in ("hearts", "diamonds") for rank in [4, 3, 2, 1, *_COURTS]]
    + [f"{suit}-{rank}" for suit in ("spades", "clubs") for rank in [7, 8, 9, 10, *_COURTS]]
)
# OpenSpiel's bid action id - 1 -> our contract id (`contracts.cc` InitializeContracts)
CONTRACTS: tuple[str, ...] = (
    "klop",
    "tri",
    "dva",
    "ena",
    "solo_tri",
    "solo_dva",
    "solo_ena",
    "berac",
    "solo_brez",
    "odprti_berac",
    "barvni_valat",
    "valat",
)
PASS, KLOP = 0, 1  # bid ids
HOLD = "hold:"
PACKET = "packet:"
TALON_SIZE = 6
TAROKS = 22  # the card ids below this are taroks


def to_openspiel(kind: str, choice: str, klop_for_pass: bool = False) -> int | None:
    """OpenSpiel's action id for our choice `choice` at a decision of kind `kind`, or None
    when OpenSpiel has no such action. `klop_for_pass`: forehand's bid once every other
    player has passed, where our pass plays Klop and OpenSpiel has a Klop bid and no pass."""
    if kind == DecisionKind.BID:
        if choice == "pass":
            return KLOP if klop_for_pass else PASS
        contract = choice.removeprefix(HOLD)
        return CONTRACTS.index(contract) + 1 if contract in CONTRACTS else None
    if kind == DecisionKind.PACKET:
        number = choice.removeprefix(PACKET)
        return int(number) - 1 if number.isdigit() else None
    if kind in (DecisionKind.CALL, DecisionKind.DISCARD, DecisionKind.PLAY):
        return CARDS.index(choice) if choice in CARDS else None
    return None


def from_openspiel(
    kind: str, action: int, choices: Sequence[str], klop_for_pass: bool = False
) -> str:
    """Our choice, among `choices`, for OpenSpiel's action id `action` (a bid equal to the
    standing one is our hold). KeyError when none of them is that action."""
    for choice in choices:
        if to_openspiel(kind, choice, klop_for_pass) == action:
            return choice
    raise KeyError(action)


def klop_for_pass(legal: Sequence[int]) -> bool:
    """Whether OpenSpiel's legal actions are those of forehand's forced bid (Klop, no pass)."""
    return KLOP in legal and PASS not in legal


def our_pack(
    ruleset: Ruleset, dealer: int, talon: Sequence[int], hands: Sequence[Sequence[int]]
) -> list[int]:
    """The pack (our card indices, top first) that our engine deals, with this dealer, into
    OpenSpiel's talon (in its order) and hands (`hands[p]`: OpenSpiel player p's card ids,
    dealt to our seat `seat_order[p]`)."""
    players = ruleset.players
    seat_order = [(dealer + 1 + i) % players for i in range(players)]
    size = len(ruleset.deck)
    where = deal_packets(ruleset.packets, list(range(size)), seat_order, dealer)
    by_id = ruleset.deck.by_id
    pack = [-1] * size
    for position, card in zip(where.talon, talon, strict=True):
        pack[position] = by_id[CARDS[card]]
    for p, cards in enumerate(hands):
        positions = [i for packet in where.packets[seat_order[p]] for i in packet]
        for position, card in zip(positions, sorted(cards), strict=True):
            pack[position] = by_id[CARDS[card]]
    if -1 in pack:
        raise ValueError("OpenSpiel's deal does not fill our ruleset's deal")
    return pack


def check_ruleset(ruleset: Ruleset) -> None:
    """ValueError unless OpenSpiel's tarok can play this ruleset's deal: its 54 cards, three
    or four players, a talon of six (the `-openspiel` Slovenian Tarok rulesets)."""
    try:
        our_pack(ruleset, 0, range(TALON_SIZE), _split(ruleset.players))
    except (KeyError, ValueError, TypeError):
        raise ValueError(
            f"{ruleset.id}: OpenSpiel's tarok bots play slovenian-tarok-openspiel and "
            "slovenian-tarok-3-openspiel only (its deck, players and talon)"
        ) from None


def _split(players: int) -> list[list[int]]:
    """OpenSpiel's cards after the talon shared out as its DealCards does, in order."""
    if players not in (3, 4):
        raise ValueError(players)
    each = (len(CARDS) - TALON_SIZE) // players
    return [list(range(TALON_SIZE + p * each, TALON_SIZE + (p + 1) * each)) for p in range(players)]


def deal_seed(seed: int, number: int, attempt: int = 0) -> int:
    """The OpenSpiel dealing seed for hand `number` of a run seeded `seed`."""
    return random.Random(f"openspiel-deal/{seed}/{number}/{attempt}").randrange(2**31)


def openspiel_deal(pyspiel: ModuleType, game: Any, seed: int, number: int) -> tuple[int, Any]:
    """OpenSpiel's deal for hand `number`: its dealing seed and its state after the deal
    (seeds leaving a player without a tarok are skipped, as OpenSpiel's own dealing does)."""
    players = game.num_players()
    for attempt in range(1000):
        dealing = deal_seed(seed, number, attempt)
        state = game.deserialize_state(str(dealing))
        if all(min(state.player_cards(p)) < TAROKS for p in range(players)):
            return dealing, state
    raise RuntimeError("no deal with a tarok in every hand")  # never: 1000 draws fail rarely


def openspiel_hand(ruleset: Ruleset, openspiel: OpenSpiel, seed: int, number: int) -> HandState:
    """Hand `number` dealt by OpenSpiel, in our engine (the same cards in the same seats)."""
    _dealing, state = openspiel_deal(openspiel.pyspiel, openspiel.game(ruleset), seed, number)
    dealer = dealer_of(ruleset, number, seed)
    hands = [state.player_cards(p) for p in range(ruleset.players)]
    return HandState(ruleset, dealer, our_pack(ruleset, dealer, state.talon(), hands), number)


DEFAULT_SIMULATIONS = 100  # per decision, each ending in one random rollout
DEFAULT_UCT_C = 2.0  # the exploration constant of OpenSpiel's examples (mcts_example.py)
SETTINGS = {"simulations": int, "c": float}


def parse_openspiel(text: str) -> tuple[str, dict[str, float]]:
    """`openspiel-mcts[:simulations=N][:c=X]` (likewise `openspiel-ismcts`): the kind and
    its settings, defaults filled in. ValueError naming what is wrong."""
    kind, *parts = text.strip().split(":")
    if kind not in OPENSPIEL_KINDS:
        raise ValueError(f"{text}: not one of {', '.join(OPENSPIEL_KINDS)}")
    settings: dict[str, float] = {"simulations": DEFAULT_SIMULATIONS, "c": DEFAULT_UCT_C}
    for part in parts:
        key, equals, value = part.partition("=")
        if not equals or key not in SETTINGS:
            raise ValueError(f"{text}: {part!r} is not simulations=N or c=X")
        try:
            settings[key] = SETTINGS[key](value)
        except ValueError:
            raise ValueError(f"{text}: {key} must be a number, not {value!r}") from None
    if not 1 <= settings["simulations"] <= 100_000 or not 0 <= settings["c"] <= 1000:
        raise ValueError(f"{text}: simulations must be 1 to 100,000 and c 0 to 1000")
    return kind, settings


def is_openspiel(text: str) -> bool:
    return text.strip().split(":")[0] in OPENSPIEL_KINDS


def openspiel_agent(
    text: str, openspiel: OpenSpiel, ruleset: Ruleset, seed: int, number: int, agent_seed: str
) -> OpenSpielMctsAgent | OpenSpielIsmctsAgent:
    """The bot `text` names, for one seat of hand `number` of a run seeded `seed`."""
    kind, settings = parse_openspiel(text)
    simulations, uct_c = int(settings["simulations"]), settings["c"]
    if kind == OPENSPIEL_MCTS:
        return OpenSpielMctsAgent(openspiel, ruleset, seed, number, agent_seed, simulations, uct_c)
    return OpenSpielIsmctsAgent(openspiel, ruleset, agent_seed, simulations, uct_c)


class OpenSpiel:
    """The OpenSpiel modules this process loaded, and its tarok games by player count."""

    def __init__(self, pyspiel: ModuleType, mcts: ModuleType, ismcts: ModuleType) -> None:
        self.pyspiel, self.mcts, self.ismcts = pyspiel, mcts, ismcts
        self._games: dict[int, Any] = {}

    def game(self, ruleset: Ruleset) -> Any:
        players = ruleset.players
        if players not in self._games:
            self._games[players] = self.pyspiel.load_game(f"tarok(players={players})")
        return self._games[players]


def load_openspiel(directory: str | None) -> OpenSpiel | None:
    """OpenSpiel's modules, from `directory` (a `pip install --target` folder, a venv or its
    site-packages) or this environment; None if it is not installed there."""
    if directory:
        folders = [directory, *glob.glob(str(Path(directory) / "lib/python3*/site-packages"))]
        for folder in folders:
            if folder not in sys.path:
                sys.path.append(folder)  # after ours: our own numpy and friends come first
    try:
        pyspiel = importlib.import_module("pyspiel")
        mcts = importlib.import_module("open_spiel.python.algorithms.mcts")
        ismcts = importlib.import_module("open_spiel.python.algorithms.ismcts")
    except ImportError:
        return None
    return OpenSpiel(pyspiel, mcts, ismcts)


class Mirror:
    """OpenSpiel's tarok state of our hand's deal, kept in step with our hand: every decision
    made in our hand is applied to it, mapped, until the two part (`parted`)."""

    def __init__(self, state: Any, ruleset: Ruleset, number: int) -> None:
        self.state = state  # OpenSpiel's, just dealt
        # the rulesets OpenSpiel's tarok mirrors name a fixed first dealer: no seed draws it
        dealer = dealer_of(ruleset, number, seed=0)
        self.player_of = {(dealer + 1 + p) % ruleset.players: p for p in range(ruleset.players)}
        self.applied = 0  # our decisions already applied
        self.parted: str | None = None  # the kind of decision at which the two parted

    @classmethod
    def dealt(cls, openspiel: OpenSpiel, ruleset: Ruleset, seed: int, number: int) -> Mirror:
        """The mirror of hand `number` of a run seeded `seed`, dealt by OpenSpiel."""
        _dealing, state = openspiel_deal(openspiel.pyspiel, openspiel.game(ruleset), seed, number)
        return cls(state, ruleset, number)

    def follow(self, hand: HandState) -> None:
        """Apply every decision of `hand` not applied yet."""
        for made in hand.decisions[self.applied :]:
            self.applied += 1
            if self.parted is None:
                action = self.agrees(made["seat"], made["kind"], [made["choice"]], strict=False)
                if action is None:
                    self.parted = made["kind"]
                else:
                    self.state.apply_action(action[0])

    def agrees(
        self, seat: int, kind: str, choices: Sequence[str], strict: bool = True
    ) -> list[int] | None:
        """OpenSpiel's ids of `choices`, if it is `seat`'s turn there and each choice is legal
        there (`strict`: and no other action is); None otherwise."""
        state = self.state
        if self.parted is not None or state.is_terminal():
            return None
        legal = state.legal_actions()
        klop = klop_for_pass(legal)
        ids = [to_openspiel(kind, choice, klop) for choice in choices]
        if state.current_player() != self.player_of[seat] or any(a not in legal for a in ids):
            return None
        if strict and len(set(ids)) != len(legal):
            return None
        return [a for a in ids if a is not None]


class OpenSpielMctsAgent:
    """OpenSpiel's MCTS bot in one seat, on OpenSpiel's tarok state of the same deal."""

    name = OPENSPIEL_MCTS

    def __init__(
        self,
        openspiel: OpenSpiel,
        ruleset: Ruleset,
        hand_seed: int,
        number: int,
        agent_seed: str,
        simulations: int,
        uct_c: float,
    ) -> None:
        self.mirror = Mirror.dealt(openspiel, ruleset, hand_seed, number)
        numbers = random.Random(f"openspiel-mcts/{agent_seed}")
        evaluator = openspiel.mcts.RandomRolloutEvaluator(
            n_rollouts=1, random_state=_numpy_state(numbers)
        )
        self.bot = openspiel.mcts.MCTSBot(
            openspiel.game(ruleset),
            uct_c,
            simulations,
            evaluator,
            random_state=_numpy_state(numbers),
        )
        self.fallback = HeuristicAgent(agent_seed)
        self.fallbacks = 0  # decisions made by the fallback policy
        self.asked = 0  # decisions asked of it

    def choose(self, state: HandState, seat: int) -> str:
        decision = state.decision
        assert decision is not None  # an agent is asked only while a decision is open
        self.asked += 1
        mirror = self.mirror
        mirror.follow(state)
        ids = mirror.agrees(seat, decision.kind, decision.choices)
        if ids is None:
            self.fallbacks += 1
            return self.fallback.choose(state, seat)
        if len(decision.choices) == 1:
            return decision.choices[0]
        return decision.choices[ids.index(self.bot.step(mirror.state))]


def agreement(
    openspiel: OpenSpiel, ruleset: Ruleset, kind: str, seed: int, hands: int
) -> dict[str, int]:
    """Hands `1..hands` played by our `kind` players in every seat, each followed by a
    `Mirror`: how many agreed at every decision and in their returns, agreed at every
    decision only, or parted (by the kind of decision where they did)."""
    from tarot.players.lineup import seat_agents

    counts: dict[str, int] = {}
    for number in range(1, hands + 1):
        hand = openspiel_hand(ruleset, openspiel, seed, number)
        mirror = Mirror.dealt(openspiel, ruleset, seed, number)
        agents = seat_agents([kind] * ruleset.players, seed, number, ruleset.players)
        while (decision := hand.decision) is not None:
            if mirror.agrees(decision.seat, decision.kind, decision.choices) is None:
                mirror.parted = mirror.parted or f"legal actions of a {decision.kind}"
            hand.apply_action(agents[decision.seat].choose(hand, decision.seat))
            mirror.follow(hand)
        if mirror.parted is None and not mirror.state.is_terminal():
            mirror.parted = "the end of the hand"
        if mirror.parted is not None:
            outcome = f"parted at {mirror.parted}"
        else:
            theirs = list(mirror.state.returns())
            ours = [
                hand.returns()[seat] for seat in sorted(mirror.player_of, key=mirror.player_of.get)
            ]
            outcome = (
                "same decisions and returns" if ours == theirs else "same decisions, returns differ"
            )
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    """`python benchmarks/openspiel_players.py --openspiel DIR [--hands N] [--players KIND]`:
    how often our `-openspiel` rulesets and OpenSpiel agree, decision by decision."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--openspiel", help="the directory open_spiel is installed in")
    parser.add_argument(
        "--rulesets", default="slovenian-tarok-openspiel,slovenian-tarok-3-openspiel"
    )
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="random,heuristic", help="our agent kinds")
    args = parser.parse_args(argv)
    from tarot.compile.loader import load_ruleset

    openspiel = load_openspiel(args.openspiel)
    if openspiel is None:
        print("open_spiel is not installed there (--openspiel DIR)", file=sys.stderr)
        return 1
    for name in args.rulesets.split(","):
        for kind in args.players.split(","):
            counts = agreement(openspiel, load_ruleset(name), kind, args.seed, args.hands)
            print(
                f"{name}, {args.hands} hands of {kind} play: "
                + ", ".join(f"{outcome} {count}" for outcome, count in sorted(counts.items()))
            )
    return 0


class ActionIds:
    """Our typed actions as the integers OpenSpiel's bots deal in (given out as first seen)."""

    def __init__(self) -> None:
        self.ids: dict[object, int] = {}
        self.actions: list[object] = []

    def id(self, action: object) -> int:
        number = self.ids.get(action)
        if number is None:
            number = self.ids[action] = len(self.actions)
            self.actions.append(action)
        return number


class EngineState:
    """A `HandState` with the face of a `pyspiel.State` that OpenSpiel's ISMCTS bot and
    random rollout evaluator use; players are our seats."""

    def __init__(self, hand: HandState, game: Any, ids: ActionIds, seen: tuple = ()) -> None:
        self.hand, self.game, self.ids = hand, game, ids
        self.seen = seen  # (seat, kind, action id) of every decision taken so far

    def get_game(self) -> Any:
        return self.game

    def current_player(self) -> int:
        seat = self.hand.current_player()
        return -4 if seat is None else seat  # pyspiel's terminal player id

    def is_terminal(self) -> bool:
        return self.hand.is_terminal()

    def is_chance_node(self) -> bool:
        return False

    def legal_actions(self, player: int | None = None) -> list[int]:
        return [self.ids.id(action) for action in self.hand.legal_moves()]

    def apply_action(self, action: int) -> None:
        decision = self.hand.decision
        assert decision is not None
        self.seen = (*self.seen, (decision.seat, decision.kind, action))
        self.hand.apply_action(self.ids.actions[action])  # type: ignore[arg-type]

    def returns(self) -> list[float]:
        return list(self.hand.returns())

    def clone(self) -> EngineState:
        copy = self.hand.clone()
        copy.keeps_log = False
        return EngineState(copy, self.game, self.ids, self.seen)

    def information_state_string(self, player: int | None = None) -> str:
        """What `player` (the one to move) has seen: its hand, every decision (another
        seat's private one without its choice), the cards shown and the talon laid out."""
        seat = self.current_player() if player is None else player
        hand = self.hand
        seen = [(s, k, a if s == seat or k not in PRIVATE_KINDS else None) for s, k, a in self.seen]
        return repr(
            (
                seat,
                sorted(hand.zones.hands[seat]),
                seen,
                [(holder, what, list(cards)) for holder, what, cards in hand.shown],
                [list(packet) for packet in hand.zones.packets],
            )
        )


class OpenSpielIsmctsAgent:
    """OpenSpiel's ISMCTS bot in one seat, searching our engine's hand (`EngineState`)."""

    name = OPENSPIEL_ISMCTS

    def __init__(
        self,
        openspiel: OpenSpiel,
        ruleset: Ruleset,
        agent_seed: str,
        simulations: int,
        uct_c: float,
    ) -> None:
        self.game = openspiel.game(ruleset)
        numbers = random.Random(f"openspiel-ismcts/{agent_seed}")
        self.rng = random.Random(numbers.random())
        evaluator = openspiel.mcts.RandomRolloutEvaluator(
            n_rollouts=1, random_state=_numpy_state(numbers)
        )
        self.bot = openspiel.ismcts.ISMCTSBot(
            self.game,
            evaluator,
            uct_c,
            simulations,
            random_state=_numpy_state(numbers),
            allow_inconsistent_action_sets=True,
        )
        self.ids = ActionIds()
        self.fallbacks = 0  # never used: it searches our own rules
        self.asked = 0

    def choose(self, state: HandState, seat: int) -> str:
        decision = state.decision
        assert decision is not None  # an agent is asked only while a decision is open
        self.asked += 1
        if len(decision.choices) == 1:
            return decision.choices[0]
        root = state.clone()
        root.keeps_log = False
        # the hand so far, as the key's prefix (the search appends action ids after it)
        seen = tuple((made["seat"], made["kind"], made["choice"]) for made in state.decisions)
        sampler = Sampler(state, seat)

        def resample(_state: EngineState, _player: int) -> EngineState:
            guess = sampler.sample(self.rng)
            guess.keeps_log = False
            return EngineState(guess, self.game, self.ids, seen)

        self.bot.set_resampler(resample)
        action = self.bot.step(EngineState(root, self.game, self.ids, seen))
        return decision.choices[decision.actions.index(self.ids.actions[action])]


def _numpy_state(numbers: random.Random) -> Any:
    import numpy

    return numpy.random.RandomState(numbers.randrange(2**32))


if __name__ == "__main__":
    sys.exit(main())
