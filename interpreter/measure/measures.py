"""Game measures of one ruleset over many hands, in the manner of Ludii's metrics.

Where it sits: `RulesetMeasures.add` folds in one `HandSummary` at a time, `add_all` a run's
chunk of them (constant memory); `report` gives plain dicts for `tarot.measure.report` to
print, which prints those that fit the game's shape (`shape.GameShape`). Seats are reported
two ways: by seat number (as in a game record) and by place relative to the dealer (dealer,
first after the dealer, ...), which is where an advantage of position shows.

A hand's winner is the side with the best net result (a seat without partners is a side
alone): every seat with the best result must be on it; a hand whose best result is shared by
sides is a draw and counts as a win for nobody. A side's win counts for each of its seats.
Of the hands won, the share the dealer's side won says, in a game of partners, which side
the deal favours (each for himself, it is the dealer's own share).
Balance is one less the largest gap between the win rates of two places at the table
(Ludii's Balance). "Decided after" is the share of a hand's decisions taken before its
winner led the running result for good (Ludii's Decisiveness Moves, with the running
result as the state evaluation).

In a game with an auction, a hand nobody took (every player passed, or a deal thrown in)
counts among the hands but has no taker. A contract is made when the taker ends the hand
ahead (a net result above zero, bonuses included). The defence's result is the mean of the
defenders' results in the hand. In a sitting of several hands, the auction's measures read
each of its hands (`HandSummary.deals`), and their shares are of the hands dealt.

What a rule paid in a hand is the sum of the amounts of its payments (`HandSummary.paid`);
its share of the swing is that, summed over the hands, over what every rule paid.

Intervals (see `statistics`): t for every mean, Wilson for every rate.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tarot.core.ruleset import Ruleset
from tarot.core.summary import HandSummary
from tarot.measure.shape import GameShape
from tarot.measure.statistics import KeyedMeans, Rate, RunningMean


def spread(net: Sequence[float]) -> float:
    """The standard deviation of the seats' results in one hand (how much was at stake)."""
    mean = sum(net) / len(net)
    return (sum((v - mean) ** 2 for v in net) / len(net)) ** 0.5


class TakerMeasures:
    """The auction's measures: who took, at which contract, and how it went."""

    def __init__(self, shape: GameShape) -> None:
        self.players = shape.players
        self.contracts = shape.contracts
        self.bid: Counter[str] = Counter()  # contract -> hands played at it
        self.made = {contract: Rate() for contract in shape.contracts}
        self.taker_by_contract = {contract: RunningMean() for contract in shape.contracts}
        self.taker = RunningMean()  # the taker's result, over the hands taken
        self.defence = RunningMean()  # a defender's mean result, over the hands taken
        self.takes_by_place = [0] * shape.players  # 0 = dealer
        self.hands = 0  # hands dealt (a sitting's hands each count)

    def add(self, summary: HandSummary) -> None:
        for hand in summary.taken:
            self.hands += 1
            if hand.taker is None or hand.contract is None:
                continue
            taker_net = hand.net[hand.taker]
            self.bid[hand.contract] += 1
            self.made.setdefault(hand.contract, Rate()).add(taker_net > 0)
            self.taker_by_contract.setdefault(hand.contract, RunningMean()).add(taker_net)
            self.taker.add(taker_net)
            attack = hand.attackers
            defenders = [v for seat, v in enumerate(hand.net) if seat not in attack]
            if defenders:
                self.defence.add(sum(defenders) / len(defenders))
            self.takes_by_place[(hand.taker - hand.dealer) % self.players] += 1

    def report(self) -> dict:
        hands = self.hands
        contracts = [*self.contracts, *sorted(set(self.bid) - set(self.contracts))]
        taken = sum(self.bid.values())
        return {
            "taken": Rate(taken, hands).as_dict(),
            "contracts": {
                contract: {
                    "bid": Rate(self.bid[contract], hands).as_dict(),
                    "made": self.made[contract].as_dict(),
                    "taker": self.taker_by_contract[contract].estimate().as_dict(),
                }
                for contract in contracts
            },
            "made": Rate(sum(rate.hits for rate in self.made.values()), taken).as_dict(),
            "taker": self.taker.estimate().as_dict(),
            "defence": self.defence.estimate().as_dict(),
            "takes_by_place": [Rate(n, hands).as_dict() for n in self.takes_by_place],
        }


class RulesetMeasures:
    def __init__(self, players: int | GameShape) -> None:
        self.shape = players if isinstance(players, GameShape) else GameShape(players)
        players = self.shape.players
        self.players = players
        self.hands = 0
        self.by_seat = [RunningMean() for _ in range(players)]
        self.by_place = [RunningMean() for _ in range(players)]  # 0 = dealer
        self.wins_by_place = [0] * players
        self.dealer_side_wins = Rate()  # hands the dealer's side won, of the hands won
        self.draws = 0
        self.spread = RunningMean()  # standard deviation of the seats' results in a hand
        self.moved = RunningMean()  # what changed hands, net, in a hand (in the ruleset's unit)
        self.length = RunningMean()
        self.choices = 0
        self.decisions = 0
        self.decided_share = RunningMean()
        self.lead_changes = RunningMean()
        self.fired_hands: Counter[str] = Counter()  # hands in which the rule paid
        self.fired_total: Counter[str] = Counter()
        self.paid = KeyedMeans()  # rule -> what it paid in a hand
        self.swing = RunningMean()  # what every rule paid in a hand, together
        self.auction = TakerMeasures(self.shape) if self.shape.sides else None
        # per seat: result -> hands
        self.histogram: list[Counter[float]] = [Counter() for _ in range(players)]

    @classmethod
    def of(cls, ruleset: Ruleset) -> RulesetMeasures:
        """Measures fitting the ruleset's shape."""
        return cls(GameShape.of(ruleset))

    def place_of(self, seat: int, dealer: int) -> int:
        return (seat - dealer) % self.players

    def add(self, hand: HandSummary) -> None:
        self.add_all((hand,))

    def add_all(self, hands: Sequence[HandSummary]) -> None:
        """Fold in each of `hands` in turn: every running mean gets the same values in the
        same order as hand by hand (`RunningMean.add_all`), so the same figures to the last
        bit, a measure at a time rather than a hand at a time."""
        players = self.players
        self.hands += len(hands)
        nets = [hand.net for hand in hands]
        for seat in range(players):
            column = [net[seat] for net in nets]
            self.by_seat[seat].add_all(column)
            self.histogram[seat].update(column)
        for place in range(players):
            self.by_place[place].add_all(
                [hand.net[(place + hand.dealer) % players] for hand in hands]
            )
        for hand in hands:
            winners = hand.winners or ((hand.winner,) if hand.winner is not None else ())
            if hand.winner is None:
                self.draws += 1
            else:
                self.dealer_side_wins.add(hand.dealer in winners)
            for seat in winners:
                self.wins_by_place[self.place_of(seat, hand.dealer)] += 1
        self.spread.add_all([spread(net) for net in nets])
        self.moved.add_all([sum(v for v in net if v > 0) for net in nets])
        self.length.add_all([hand.decisions for hand in hands])
        self.choices += sum(hand.choices for hand in hands)
        self.decisions += sum(hand.decisions for hand in hands)
        self.decided_share.add_all(
            [share for hand in hands if (share := hand.decided_share) is not None]
        )
        self.lead_changes.add_all([hand.lead_changes for hand in hands])
        for hand in hands:
            for rule, times in hand.fired.items():
                self.fired_hands[rule] += 1
                self.fired_total[rule] += times
        paid = [hand.paid for hand in hands]
        self.paid.add_all(paid)
        self.swing.add_all([sum(values.values()) for values in paid])
        if self.auction is not None:
            for hand in hands:
                self.auction.add(hand)

    def win_rates(self) -> list[float]:
        return [wins / self.hands if self.hands else 0.0 for wins in self.wins_by_place]

    def balance(self) -> float:
        rates = self.win_rates()
        return 1.0 - (max(rates) - min(rates)) if self.hands else 0.0

    def report(self) -> dict:
        """Every measure as plain numbers (estimates as {mean, ci95, n}, rates as
        {rate, ci95, hits, n})."""
        hands = self.hands or 1
        swing = self.swing.mean
        return {
            "hands": self.hands,
            "shape": self.shape.as_dict(),
            "by_seat": [m.estimate().as_dict() for m in self.by_seat],
            "by_place": [m.estimate().as_dict() for m in self.by_place],
            "win_rate_by_place": self.win_rates(),
            "balance": self.balance(),
            "draws": self.draws / hands,
            "dealer_side_wins": self.dealer_side_wins.as_dict(),
            "spread": self.spread.estimate().as_dict(),
            "moved": self.moved.estimate().as_dict(),
            "decisions_per_hand": self.length.estimate().as_dict(),
            "choices_per_decision": self.choices / self.decisions if self.decisions else 0.0,
            "decided_after": self.decided_share.estimate().as_dict(),
            "lead_changes": self.lead_changes.estimate().as_dict(),
            "swing": self.swing.estimate().as_dict(),
            "rules": {
                rule: {
                    "hands": self.fired_hands[rule] / hands,
                    "fired": Rate(self.fired_hands[rule], self.hands).as_dict(),
                    "per_hand": self.fired_total[rule] / hands,
                    "paid": self.paid.estimate(rule).as_dict(),
                    "share_of_swing": self.paid.mean(rule) / swing if swing else 0.0,
                }
                for rule in sorted(self.fired_hands.keys() | self.paid.means.keys())
            },
            "auction": self.auction.report() if self.auction is not None else None,
        }
