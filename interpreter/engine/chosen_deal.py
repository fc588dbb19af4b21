"""A chosen deal: each seat's cards, the talon and the piles as someone lays them out, turned
into the pack from which the ruleset's own deal hands them out exactly so.

Where it sits: beside `engine.dealing`, whose `deal_packets` it runs backwards (the deal is
dealt from a pack of positions, and each position takes the card the chosen deal puts
there), so the engine deals a chosen hand as it deals a shuffled one. Used by the Python API
(`Ruleset.new_hand(deal=...)`), `tarot play --deal FILE` and the replay of a record that
asserts its deal (`$.hands[i].deal`).

The shape (in the ruleset's card ids; `deal_of` writes it back from a dealt hand):

- `hands`: one list per seat (0, 1, 2... in the order of play), its cards in the order dealt,
  packet by packet;
- `talon`: the talon's cards in the order dealt (left out or empty when the deal lays none);
- `piles`: per seat, its piles on the table, each bottom card first (rulesets that deal
  piles only);
- `dealer`: the seat that deals (the ruleset's rotation when left out).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tarot.core.ruleset import Ruleset
from tarot.engine.dealing import Dealt, deal_packets
from tarot.engine.seating import seating_of
from tarot.errors import TarotError, did_you_mean

KEYS = ("dealer", "hands", "talon", "piles")
MISSING_SHOWN = 12  # the cards not given that a message names


class DealError(TarotError, ValueError):
    """A chosen deal that does not fit the ruleset: every problem found, one per line, each
    naming its place in the deal (`hands[1][3]`, `talon`...)."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class ChosenDeal:
    """A checked deal: the dealer and the pack (card indices, top first) that deals it."""

    dealer: int
    pack: tuple[int, ...]


def seat_order(ruleset: Ruleset, dealer: int) -> list[int]:
    """The order the deal goes round: from the dealer's next (as `HandState` deals), the
    seats sitting the hand out left out."""
    return list(seating_of(ruleset, dealer).from_next(dealer))


def dealt_positions(ruleset: Ruleset, dealer: int) -> Dealt:
    """Where each position of the pack goes when `dealer` deals: the deal of the pack
    0, 1, 2... (each card index there is a position)."""
    pack = range(len(ruleset.deck))
    order = seat_order(ruleset, dealer)
    return deal_packets(ruleset.packets, pack, order, dealer, 0, ruleset.players)


def chosen_deal(ruleset: Ruleset, deal: object, default_dealer: int) -> ChosenDeal:
    """Check `deal` (the shape in this module's docstring) against the ruleset, fully, and
    give the pack that deals it; raise DealError listing every problem found."""
    if not isinstance(deal, Mapping):
        raise DealError([f"a deal is a mapping with {', '.join(KEYS)} (not {type(deal).__name__})"])
    problems: list[str] = []
    for key in deal:
        if key not in KEYS:
            hint = did_you_mean(str(key), KEYS) if isinstance(key, str) else ""
            problems.append(f"{key!r}: not a part of a deal; {hint}a deal has {', '.join(KEYS)}")
    dealer = _dealer(ruleset, deal.get("dealer", default_dealer), problems)
    if dealer is None:
        raise DealError(problems)
    positions = dealt_positions(ruleset, dealer)
    card_at: dict[int, int] = {}
    given: dict[int, str] = {}  # card -> where it was first given
    n = ruleset.players

    def lay(where: str, cards: object, places: Sequence[int]) -> None:
        """Put the cards given at `where` on the pack positions `places`."""
        if not isinstance(cards, list | tuple):
            problems.append(f"{where}: a list of card ids (not {type(cards).__name__})")
            return
        if len(cards) != len(places):
            problems.append(
                f"{where}: {len(cards)} card(s) given, but {ruleset.id} deals {len(places)} "
                f"there (dealer: seat {dealer})"
            )
        for i, card_id in enumerate(cards):
            card = _card(ruleset, card_id, f"{where}[{i}]", problems)
            if card is None:
                continue
            if card in given:
                first = given[card]
                problems.append(f"{where}[{i}]: {card_id!r} is given twice (first at {first})")
                continue
            given[card] = f"{where}[{i}]"
            if i < len(places):
                card_at[places[i]] = card

    hands = deal.get("hands")
    if not isinstance(hands, list | tuple) or len(hands) != n:
        problems.append(f"hands: one list of cards per seat, {n} lists for {ruleset.id}")
    else:
        for seat, cards in enumerate(hands):
            places = [p for packet in positions.packets[seat] for p in packet]
            lay(f"hands[{seat}]", cards, places)
    talon = deal.get("talon", [])
    if talon or positions.talon:
        lay("talon", talon, positions.talon)
    piles = deal.get("piles")
    dealt_piles = any(positions.piles)
    if piles is not None and not dealt_piles:
        problems.append(f"piles: {ruleset.id} deals no piles")
    elif dealt_piles:
        if not isinstance(piles, list | tuple) or len(piles) != n:
            problems.append(f"piles: {ruleset.id} deals piles; one list of piles per seat")
        else:
            for seat, seat_piles in enumerate(piles):
                at = f"piles[{seat}]"
                if not isinstance(seat_piles, list | tuple) or len(seat_piles) != len(
                    positions.piles[seat]
                ):
                    problems.append(f"{at}: {len(positions.piles[seat])} piles for this seat")
                    continue
                for k, pile in enumerate(seat_piles):
                    lay(f"{at}[{k}]", pile, positions.piles[seat][k])
    missing = [ruleset.deck.cards.ids[c] for c in range(len(ruleset.deck)) if c not in given]
    if missing and len(missing) <= MISSING_SHOWN:
        problems.append(f"{len(missing)} card(s) of the pack not given: {', '.join(missing)}")
    elif missing:
        shown = ", ".join(missing[:MISSING_SHOWN])
        problems.append(f"{len(missing)} card(s) of the pack not given: {shown}...")
    if problems:
        raise DealError(problems)
    return ChosenDeal(dealer, tuple(card_at[p] for p in range(len(ruleset.deck))))


def deal_of(ruleset: Ruleset, dealer: int, pack: Sequence[int]) -> dict:
    """The deal that `dealer` dealing `pack` lays out, in the shape `chosen_deal` reads."""
    ids = ruleset.deck.cards.ids
    order = seat_order(ruleset, dealer)
    dealt = deal_packets(ruleset.packets, pack, order, dealer, 0, ruleset.players)
    deal: dict = {
        "dealer": dealer,
        "hands": [[ids[c] for packet in packets for c in packet] for packets in dealt.packets],
        "talon": [ids[c] for c in dealt.talon],
    }
    if any(dealt.piles):
        deal["piles"] = [[[ids[c] for c in pile] for pile in piles] for piles in dealt.piles]
    return deal


def _dealer(ruleset: Ruleset, dealer: object, problems: list[str]) -> int | None:
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < ruleset.players:
        problems.append(f"dealer: a seat from 0 to {ruleset.players - 1}, not {dealer!r}")
        return None
    return dealer


def _card(ruleset: Ruleset, card_id: object, where: str, problems: list[str]) -> int | None:
    if not isinstance(card_id, str):
        problems.append(f"{where}: a card id (text), not {card_id!r}")
        return None
    card = ruleset.deck.by_id.get(card_id)
    if card is None:
        hint = did_you_mean(card_id, ruleset.deck.by_id)
        problems.append(f"{where}: {ruleset.id} has no card {card_id!r}; {hint}".rstrip("; "))
    return card
