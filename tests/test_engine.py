"""Generic invariants of the engine, exercised on random hands of Marolles 1637.

Nothing here is specific to one game's scoring: conservation of cards and of marques, the
refusal of illegal actions, determinism, replay, the trick-taking rules and the effect of
ruleset options on what is offered.
"""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest
from hands import SEATS, agents_for, new_hand, played_hand, ruleset_with

from tarot.compile.loader import load_ruleset
from tarot.engine.game import play_game, play_hand
from tarot.engine.phases.settle import settlement_with
from tarot.engine.state import HandState, IllegalAction, count_points
from tarot.records.record import game_record
from tarot.records.replay import ReplayMismatch, record_problems, replay_record


def card_places(state: HandState) -> Counter:
    """How many times each card index appears across hands, discards, won piles and trick."""
    places: Counter = Counter()
    for seat in range(state.ruleset.players):
        places.update(state.hands[seat])
        places.update(state.discards[seat])
        places.update(state.won[seat])
    places.update(card for _seat, card in state.trick)
    return places


def snapshot(state: HandState) -> dict:
    return {
        "hands": copy.deepcopy(state.hands),
        "discards": copy.deepcopy(state.discards),
        "won": copy.deepcopy(state.won),
        "trick": list(state.trick),
        "decisions": copy.deepcopy(state.decisions),
        "payments": [p.as_record() for p in state.payments],
        "tricks": copy.deepcopy(state.tricks),
        "current": state.current_player(),
        "legal": state.legal_actions(),
        "phase": state.phase,
    }


def trick_winner_oracle(deck, trick: list[dict]) -> int:
    """Highest trump, else highest card of the suit led (the first non-Fool card)."""
    cards = [(entry["seat"], deck.cards[deck.by_id[entry["card"]]]) for entry in trick]
    led = next(card for _seat, card in cards if not card.fool)
    trumps = [(card.strength, seat) for seat, card in cards if card.is_trump]
    if trumps:
        return max(trumps)[1]
    return max((card.strength, seat) for seat, card in cards if card.suit == led.suit)[1]


def expected_legal(deck, hand: list[int], trick: list[tuple[int, int]], fool_may_lead: bool):
    """The legal cards by the rules of Marolles (McLeod): follow suit; if void, or if a trump
    was led, play a trump if able; any height of trump will do; the Fool instead of any card
    except when it is the last card; a led Fool lets the next card set the suit."""
    cards = deck.cards
    if len(hand) == 1:
        return set(hand)
    fool = {c for c in hand if cards[c].fool}
    others = [c for c in hand if not cards[c].fool]
    if not trick:
        return set(hand) if fool_may_lead else set(others)
    led = next((cards[c] for _s, c in trick if not cards[c].fool), None)
    if led is None:
        return set(hand)
    trumps = {c for c in others if cards[c].is_trump}
    if led.is_trump:
        return (trumps or set(others)) | fool
    following = {c for c in others if cards[c].suit == led.suit}
    return (following or trumps or set(others)) | fool


# --- conservation over many random hands --------------------------------------------------


@pytest.mark.slow
def test_thousand_random_hands_conserve_cards_and_marques(marolles):
    deck_size = len(marolles.deck)
    everything = Counter(range(deck_size))
    for seed in range(1000):
        state = new_hand(marolles, seed)
        agents = agents_for(seed)
        assert card_places(state) == everything, f"seed {seed}: after the deal"
        while not state.is_terminal():
            seat = state.current_player()
            action = agents[seat].choose(state, seat)
            state.apply_action(action)
            assert card_places(state) == everything, f"seed {seed}: after {seat} {action}"
        returns = state.returns()
        assert sum(returns) == 0, f"seed {seed}: returns {returns}"
        assert all(not hand for hand in state.hands), f"seed {seed}"
        assert state.trick == []
        assert len(state.tricks) == 20, f"seed {seed}"
        assert state.current_player() is None and state.legal_actions() == []
        # every payment is a transfer between two different seats of a positive amount
        assert all(p.payer != p.payee and p.amount > 0 for p in state.payments)


def test_hand_sizes_through_a_hand(marolles):
    state = new_hand(marolles, 7)
    dealer = state.dealer
    assert [len(h) for h in state.hands] == [24 if s == dealer else 21 for s in range(SEATS)]
    agents = agents_for(7)
    while state.phase == "discard":
        state.apply_action(agents[state.current_player()].choose(state, state.current_player()))
    assert [len(h) for h in state.hands] == [20, 20, 20]
    assert [len(d) for d in state.discards] == [4 if s == dealer else 1 for s in range(SEATS)]
    play_hand(state, agents)
    # one card per seat per trick
    for trick in state.tricks:
        assert sorted(entry["seat"] for entry in trick["cards"]) == [0, 1, 2]


# --- illegal actions ------------------------------------------------------------------------


def test_illegal_actions_are_rejected_and_leave_the_state_unchanged(marolles):
    deck = marolles.deck
    checked = Counter()
    for seed in range(40):
        state = new_hand(marolles, seed)
        agents = agents_for(seed)
        step = 0
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            kind = state.decision.kind
            if step % 3 == 0:
                wrong = []
                if kind in ("discard", "play"):
                    # a card held by someone else, and a card of one's own hand not allowed
                    elsewhere = [c for s in range(SEATS) if s != seat for c in state.hands[s]]
                    if elsewhere:
                        wrong.append(deck.cards[elsewhere[0]].id)
                    own = [deck.cards[c].id for c in state.hands[seat]]
                    wrong += [c for c in own if c not in legal][:1]
                else:
                    wrong.append(legal[0].split(":")[0] + ":no_such_level")
                wrong += ["", "not-a-card"]
                for action in wrong:
                    assert action not in legal
                    before = snapshot(state)
                    with pytest.raises(IllegalAction):
                        state.apply_action(action)
                    assert snapshot(state) == before, f"seed {seed}: {kind} {action!r}"
                    checked[kind] += 1
            action = agents[seat].choose(state, seat)
            state.apply_action(action)  # a legal action is then accepted
            assert state.decisions[-1] == {"seat": seat, "kind": kind, "choice": action}
            step += 1
        with pytest.raises(IllegalAction):
            state.apply_action(deck.cards[0].id)
    assert checked["discard"] and checked["declare"] and checked["play"]
    # in play, some of the rejected cards were in the player's own hand (revoke)
    assert checked["play"] > 2 * 40


# --- determinism and records ----------------------------------------------------------------


def record_for(ruleset, seed: int, hands: int = 2) -> dict:
    states = play_game(ruleset, seed, agents_for(seed), hands=hands)
    return game_record(ruleset, seed, [a.name for a in agents_for(seed)], states)


def test_same_seed_same_record_and_different_seeds_differ(marolles):
    texts = {}
    for seed in (0, 1, 2, 99):
        first = json.dumps(record_for(marolles, seed, hands=3), sort_keys=True)
        second = json.dumps(record_for(marolles, seed, hands=3), sort_keys=True)
        assert first == second, f"seed {seed} is not reproducible"
        texts[seed] = first
    assert len(set(texts.values())) == len(texts)
    # different hands of one game have different deals and rotating dealers
    record = record_for(marolles, 3, hands=3)
    assert [h["dealer"] for h in record["hands"]] == [0, 1, 2]
    assert len({tuple(h["pack"]) for h in record["hands"]}) == 3


def test_records_replay(marolles):
    for seed in range(50):
        record = json.loads(json.dumps(record_for(marolles, seed)))
        assert record_problems(record) == [], f"seed {seed}"
        assert replay_record(record, marolles) == [], f"seed {seed}"  # nothing left unchecked


def test_tampered_payment_is_caught_with_its_path(marolles):
    record = json.loads(json.dumps(record_for(marolles, 11)))
    index = len(record["hands"][1]["payments"]) // 2
    record["hands"][1]["payments"][index]["amount"] += 1
    with pytest.raises(ReplayMismatch, match=rf"^\$\.hands\[1\]\.payments\[{index}\]"):
        replay_record(record, marolles)


def test_tampered_totals_and_net_are_caught(marolles):
    record = json.loads(json.dumps(record_for(marolles, 12)))
    record["hands"][0]["net"][0] += 1
    with pytest.raises(ReplayMismatch, match=r"^\$\.hands\[0\]\.net\[0\]"):
        replay_record(record, marolles)
    record = json.loads(json.dumps(record_for(marolles, 12)))
    record["totals"][2] -= 1
    with pytest.raises(ReplayMismatch, match=r"^\$\.totals"):
        replay_record(record, marolles)


def _first_revoke(marolles, record: dict) -> tuple[int, str]:
    """A play decision of hand 0 and a card the player held that was not legal there."""
    hand = record["hands"][0]
    deck = marolles.deck
    state = HandState(marolles, hand["dealer"], [deck.by_id[c] for c in hand["pack"]], 1)
    for i, decision in enumerate(hand["decisions"]):
        if decision["kind"] == "play":
            legal = state.legal_actions()
            held = [deck.cards[c].id for c in state.hands[decision["seat"]]]
            wrong = [c for c in held if c not in legal]
            if wrong:
                return i, wrong[0]
        state.apply_action(decision["choice"])
    raise AssertionError("no revoke possible in this hand")


def test_tampered_decision_is_caught_with_its_path(marolles):
    record = json.loads(json.dumps(record_for(marolles, 13)))
    index, card = _first_revoke(marolles, record)
    record["hands"][0]["decisions"][index]["choice"] = card
    with pytest.raises(ReplayMismatch, match=rf"^\$\.hands\[0\]\.decisions\[{index}\]: illegal"):
        replay_record(record, marolles)


def test_decision_swapped_for_another_legal_card_is_caught(marolles):
    record = json.loads(json.dumps(record_for(marolles, 14)))
    hand = record["hands"][0]
    deck = marolles.deck
    state = HandState(marolles, hand["dealer"], [deck.by_id[c] for c in hand["pack"]], 1)
    index, other = None, None
    for i, decision in enumerate(hand["decisions"]):
        legal = state.legal_actions()
        if decision["kind"] == "play" and len(legal) > 1:
            index, other = i, next(c for c in legal if c != decision["choice"])
            break
        state.apply_action(decision["choice"])
    assert other is not None
    hand["decisions"][index]["choice"] = other
    with pytest.raises(ReplayMismatch, match=r"^\$\.hands\[0\]\.(decisions|tricks)"):
        replay_record(record, marolles)


def test_record_of_another_ruleset_reading_is_refused(marolles):
    record = json.loads(json.dumps(record_for(marolles, 15, hands=1)))
    other = ruleset_with(ultimo_failure="literal")
    with pytest.raises(ReplayMismatch, match=r"^\$\.ruleset\.hash"):
        replay_record(record, other)


# --- following suit and trumping -----------------------------------------------------------


def test_legal_cards_follow_the_rules_of_play(marolles):
    deck = marolles.deck
    seen = Counter()
    for seed in range(150):
        state = new_hand(marolles, seed)
        agents = agents_for(seed)
        while not state.is_terminal():
            seat = state.current_player()
            if state.decision.kind == "play":
                hand = state.hands[seat]
                legal = {deck.by_id[c] for c in state.legal_actions()}
                assert legal == expected_legal(deck, hand, state.trick, True), (
                    f"seed {seed} trick {state.play.trick_number}: hand "
                    f"{[deck.cards[c].id for c in hand]}, trick "
                    f"{[deck.cards[c].id for _s, c in state.trick]}"
                )
                fool = deck.by_id["fool"]
                if fool in hand:
                    # the Fool may always be played, even to a trick it cannot follow
                    assert fool in legal
                    seen["fool offered"] += 1
                best = max(
                    (deck.cards[c].strength for _s, c in state.trick if deck.cards[c].is_trump),
                    default=None,
                )
                if best is not None and any(
                    deck.cards[c].strength < best for c in legal if deck.cards[c].is_trump
                ):
                    # no obligation to overtrump: a lower trump than the best one is allowed
                    seen["undertrump allowed"] += 1
            state.apply_action(agents[seat].choose(state, seat))
        for trick in state.tricks:
            assert trick["winner"] == trick_winner_oracle(deck, trick["cards"]), (
                f"seed {seed}: {trick}"
            )
        # the winner of each trick leads the next; the player after the dealer leads first
        assert state.tricks[0]["leader"] == (state.dealer + 1) % SEATS
        for before, after in zip(state.tricks, state.tricks[1:], strict=False):
            assert after["leader"] == before["winner"]
            assert after["cards"][0]["seat"] == after["leader"]
    assert seen["fool offered"] > 0 and seen["undertrump allowed"] > 0


def test_led_fool_lets_the_second_card_set_the_suit(marolles):
    deck = marolles.deck
    fool = deck.by_id["fool"]
    found = 0
    for seed in range(300):
        state = new_hand(marolles, seed)
        agents = agents_for(seed)
        while not state.is_terminal():
            seat = state.current_player()
            if state.decision.kind == "play" and state.trick[:1] and state.trick[0][1] == fool:
                hand = state.hands[seat]
                legal = {deck.by_id[c] for c in state.legal_actions()}
                if len(state.trick) == 1:
                    assert legal == set(hand)
                    found += 1
                else:
                    second = deck.cards[state.trick[1][1]]
                    following = [c for c in hand if deck.cards[c].suit == second.suit]
                    if second.suit is not None and following:
                        assert legal == set(following)
            state.apply_action(agents[seat].choose(state, seat))
    assert found > 0


# --- options change behaviour --------------------------------------------------------------


def test_fool_may_not_be_led_when_forbidden(marolles):
    forbidden = ruleset_with(fool_may_lead="forbidden")
    deck = forbidden.deck
    fool = deck.by_id["fool"]
    counts = Counter()
    for name, ruleset in (("allowed", marolles), ("forbidden", forbidden)):
        for seed in range(200):
            state = new_hand(ruleset, seed)
            agents = agents_for(seed)
            while not state.is_terminal():
                seat = state.current_player()
                hand = state.hands[seat]
                if state.decision.kind == "play" and not state.trick and fool in hand:
                    legal = state.legal_actions()
                    if len(hand) > 1:
                        assert ("fool" in legal) == (name == "allowed"), f"{name} seed {seed}"
                        counts[name] += 1
                    else:
                        assert legal == ["fool"]
                    if name == "forbidden":
                        expected = expected_legal(deck, hand, state.trick, False)
                        assert {deck.by_id[c] for c in legal} == expected
                state.apply_action(agents[seat].choose(state, seat))
            if name == "forbidden":
                assert all(t["cards"][0]["card"] != "fool" for t in state.tricks[:-1])
    assert counts["allowed"] > 0 and counts["forbidden"] > 0


def test_forbidden_discards_offer_no_trump_or_tarot(marolles):
    forbidden = ruleset_with(illegal_discard="forbidden")
    protected = forbidden.deck.sets["not_discardable"]
    offered_default = 0
    for name, ruleset in (("per_card", marolles), ("forbidden", forbidden)):
        for seed in range(200):
            state = new_hand(ruleset, seed)
            agents = agents_for(seed)
            while state.phase == "discard":
                seat = state.current_player()
                choices = {ruleset.deck.by_id[c] for c in state.legal_actions()}
                others = [c for c in state.hands[seat] if c not in protected]
                if name == "forbidden":
                    if others:
                        # the other cards go first; a protected card only once none are left
                        assert not choices & protected, f"seed {seed} seat {seat}"
                        assert choices == set(others)
                    else:
                        assert choices == set(state.hands[seat]), f"seed {seed} seat {seat}"
                else:
                    assert choices == set(state.hands[seat])
                    offered_default += bool(choices & protected)
                state.apply_action(agents[seat].choose(state, seat))
            play_hand(state, agents)
            if name == "forbidden":
                assert not [p for p in state.payments if p.rule.startswith("illegal_discard")]
    assert offered_default > 0


def test_literal_ultimo_failure_costs_one_per_opponent(marolles):
    literal = ruleset_with(ultimo_failure="literal")
    ultimo = marolles.deck.sets["ultimo_cards"]
    for seed in range(500):
        state = played_hand(literal, seed)
        lost = [p for p in state.payments if p.rule == "ultimo_lost"]
        if lost:
            break
    else:
        pytest.fail("no seed under 500 with a failed Ultimo")
    last = state.tricks[-1]
    losers = [
        e["seat"]
        for e in last["cards"]
        if marolles.deck.by_id[e["card"]] in ultimo and e["seat"] != last["winner"]
    ]
    assert sorted((p.payer, p.payee, p.amount) for p in lost) == sorted(
        (seat, other, 1) for seat in losers for other in range(SEATS) if other != seat
    )
    assert all(p.at == "trick 20" for p in lost)
    # the same deal and the same agents under the default reading: six instead of one
    default = played_hand(marolles, seed)
    assert default.decisions == state.decisions
    six = [p for p in default.payments if p.rule == "ultimo_lost"]
    assert sorted((p.payer, p.payee, p.amount) for p in six) == sorted(
        (seat, other, 6) for seat in losers for other in range(SEATS) if other != seat
    )


def test_unknown_option_or_reading_is_refused():
    from tarot.errors import RulesetError

    with pytest.raises(RulesetError):
        load_ruleset("marolles-1637", choices={"no_such_option": "x"})
    with pytest.raises(RulesetError):
        load_ruleset("marolles-1637", choices={"ultimo_failure": "no_such_reading"})


def test_card_points_asked_during_play_do_not_freeze_the_settlement(marolles):
    counting = marolles.counting

    def recount(state):
        return [count_points(counting, state.won[s] + state.discards[s]) for s in range(SEATS)]

    # seed 3: the final points are 24/32/18, so seat 2 owes seat 1 one marque
    state = new_hand(marolles, 3)
    agents = agents_for(3)
    for _ in range(30):  # discards, declarations and some tricks
        seat = state.current_player()
        state.apply_action(agents[seat].choose(state, seat))
    assert state.card_points() == recount(state)  # a look at the score so far
    play_hand(state, agents)
    assert state.card_points() == recount(state)
    settled = [p.as_record() for p in state.payments if p.at == "settlement"]
    assert settled == [p.as_record() for p in settlement_with(state, recount(state))]


@pytest.mark.parametrize(
    "name",
    [
        "marolles-1637",
        "french-tarot",
        "early-french",
        # the Fool as the highest trump, groups of equal trumps (the first or last wins)
        "tests/data/rulesets/partners-trump-order.yaml",
    ],
)
def test_winning_agrees_with_the_trick_winner(name):
    """The play-outs' one-look answer to 'does this card win the trick for me?' is the trick
    winner's, for random tricks, excuse sets and cards (a Fool led, every card an excuse)."""
    import random

    from tarot.engine.tricks import trick_winner, winning

    ruleset = load_ruleset(name)
    cards, size = ruleset.deck.cards, len(ruleset.deck)
    rng = random.Random(7)
    for _ in range(3000):
        dealt = rng.sample(range(size), 4)
        trick = list(enumerate(dealt[: rng.randint(0, 3)]))
        excuses = rng.choice(
            [None, ruleset.deck.fools, frozenset(rng.sample(range(size), 3)), frozenset(dealt)]
        )
        seat = len(trick)
        candidates = [*rng.sample(range(size), 5), *ruleset.deck.fools]
        wins = winning(cards, trick, excuses, seat, candidates)
        for card, won in zip(candidates, wins, strict=True):
            expected = trick_winner(list(cards), [*trick, (seat, card)], excuses) == seat
            assert won == expected, (trick, excuses, card)
