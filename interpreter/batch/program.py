"""A ruleset as the batch back end runs it: every rule's expressions compiled to array code,
and the payments they make.

Where it sits: built once per ruleset (`Program.of`, which raises `Unsupported` naming the
rule it cannot compile) and read by the batch phases (`tarot.batch.phases`). `fire`
pays a group of rules for many hands at once as the scalar engine's `_fire_rules` and
`_pay` do for one: each rule's condition, then each payer and payee in seat order, the
amount worked out with them, a negative amount paid the other way, nothing for 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import lcm
from typing import TypeVar

import numpy as np

from tarot.batch.announce_rules import ArrayAnnouncements, compile_announcements
from tarot.batch.array_exprs import ArrayCompiler, Fn, Node, typed_tree
from tarot.batch.auction_rules import ArrayBidding, compile_bidding
from tarot.batch.contract_play import ContractPlays, compile_plays
from tarot.batch.defender_share import defender_divisors
from tarot.batch.doubling_rules import ArrayTarget, compile_doubling, compile_limit
from tarot.batch.lasting import ArrayLasting, compile_lasting
from tarot.batch.phases.packets import ArrayPackets
from tarot.batch.phases.talon_takes import ArrayTake
from tarot.batch.question_rules import ArrayQuestion, compile_questions
from tarot.batch.scaled_amounts import payment_scale
from tarot.batch.seat_order import attack_order, attack_ordered
from tarot.batch.seating import SeatingRefused
from tarot.batch.state import THROWN_IN, BatchState, Logged
from tarot.batch.tables import DeckTables
from tarot.batch.values import Ctx, Unsupported, per_row, seat_mask
from tarot.compile.flow import after_taker
from tarot.core.flow import FlowStep
from tarot.core.ruleset import (
    HAND_SCORE,
    Declaration,
    DeclarationLevel,
    PaymentRule,
    PlayRules,
    RedealRule,
    Ruleset,
    TalonTake,
    TalonUse,
)
from tarot.core.summary import rule_keys
from tarot.engine.events import At, ThrownIn
from tarot.expressions import Type
from tarot.expressions.errors import EvaluationError

T = TypeVar("T")

#: the events whose payment rules the batch back end fires
EVENTS = ("cut", "discard", "discards_done", "card_played", "trick_end")


@dataclass(frozen=True)
class ArrayRule:
    key: str  # what its payments are named (a rule's id, or `declaration:level`)
    when: Node | None
    guard: np.ndarray | None  # by card: whether the event's card lets it fire
    never: bool  # its condition can never hold (the compiler's guard says so)
    payers: Node
    payees: Node
    amount: Node
    pairwise: bool  # the amount reads `payer` or `payee`
    # the scalar engine may pay the payers (payees) in the taker's side's order (`seat_order`)
    attack_ordered: tuple[bool, bool] = (False, False)


@dataclass(frozen=True)
class ArrayLevel:
    id: str
    when: Node
    value: Node
    shows: Node | None  # the level's own, or the declaration's (read with this level)
    show_count: Node | None


@dataclass(frozen=True)
class ArrayHandOver:
    cards: Node  # the cards asked for
    in_return: Node  # the declarer's cards he may give back for each
    named: bool = False  # the declarer names one of `cards` he does not hold (a decision)


@dataclass(frozen=True)
class ArrayDeclaration:
    declaration: Declaration
    index: int
    levels: tuple[ArrayLevel, ...]
    payers: Node
    payees: Node
    hands_over: ArrayHandOver | None


@dataclass(frozen=True)
class ArrayTalon:
    """Where a contract (or, without an auction, the ruleset) puts the talon."""

    to: str  # "hand", "pile", "out_of_play", "stock" or "trick_winners"
    seat: Node | None
    takes: tuple[ArrayTake, ...] = ()  # cards of a kind taken from it first
    shares_first: Node | None = None  # shared out: how many cards the seat takes first
    shares_others: int = 0  # then how many each other seat takes in turn
    ends_hand: Node | None = None  # once the seat has its cards: the hand ends, settled
    packets: ArrayPackets | None = None  # laid out in packets, some taken by the seat
    per_trick: int = 1  # to the trick winners: the cards each takes
    scored_by: Node | None = None  # once play is over: whom the talon left scores for


@dataclass(frozen=True)
class ArrayStep:
    """A step of the hand's flow with its expressions: the seats asked a question, the seats
    that bid, how many cards each seat lays away, whether a hand takes the step."""

    step: FlowStep
    seats: Node | None = None
    bidders: Node | None = None
    count: Node | None = None
    when: Node | None = None  # the hands that take the step (all, when None)

    @property
    def word(self) -> str:
        return self.step.word


@dataclass(frozen=True)
class ArrayHand:
    """What comes before play: redeal rules, the talon's place by contract, the partner
    call, the Fool's exchange."""

    redeals: tuple[tuple[RedealRule, Node], ...]
    talons: tuple[ArrayTalon | None, ...]  # by contract rank; one entry without an auction
    call_when: Node | None
    call_cards: Node | None
    exchange_cards: Node | None
    excuse_cards: Node | None  # the cards that play as Fools in a hand, if the ruleset picks them
    steps: tuple[ArrayStep, ...]  # the flow's steps, with their expressions as arrays
    agreed_by: tuple[Node | None, ...] = ()  # by redeal rule: the seats that must agree to it
    questions: tuple[ArrayQuestion, ...] = ()  # asked during play


def _reads_pair(compiled: object) -> bool:
    tree = typed_tree(compiled)
    return tree is not None and (tree.mentions("payer") or tree.mentions("payee"))


@dataclass
class Program:
    ruleset: Ruleset
    tables: DeckTables
    compiler: ArrayCompiler
    rules: dict[str, tuple[ArrayRule, ...]]
    settlement: tuple[ArrayRule, ...]
    declarations: tuple[ArrayDeclaration, ...]
    discard_never: Fn | None
    discard_forbidden: Fn | None  # each: the mask of the cards it protects
    keys: dict[str, int]
    hand: ArrayHand
    # the trick rules, the ruleset's own and each contract's (`tarot.batch.contract_play`):
    # the first leader, the sides, the card rules, the winner exceptions, the end of play
    plays: ContractPlays
    hand_score: Node | None = None  # the points each `player` scores (rulesets that score)
    bidding: ArrayBidding | None = None  # the auction's rules (rulesets with `bidding`)
    announcements: ArrayAnnouncements | None = None  # rulesets with `announcements`
    doubling: tuple[ArrayTarget, ...] = ()  # the targets that may be doubled
    discard_told: Node | None = None  # cards whose count among each seat's discards is told
    lasting: ArrayLasting | None = None  # state that lasts from hand to hand (`batch.lasting`)
    discard_scored_by: Node | None = None  # once play is over: whom every discard scores for
    doubling_limit: Node | None = None  # `doubling.repeat.limit`: the most doublings in all
    discard_all_or_none: Node | None = None  # cards each `player` lays away all or none of
    # payments, nets and what rules paid are counted in 1/scale (`batch.scaled_amounts`)
    scale: int = 1

    @staticmethod
    def of(ruleset: Ruleset) -> Program:
        try:
            tables = DeckTables.of(ruleset)
        except SeatingRefused as error:  # the scalar engine stops the hand saying why
            raise Unsupported(str(error)) from None
        compiler = ArrayCompiler(ruleset, tables)
        guards: dict[bytes, np.ndarray] = {}
        scale = compiler.scale = _payment_scale(compiler, ruleset)
        rules = {
            event: tuple(_rule(compiler, tables, rule, event, guards, scale) for rule in group)
            for event, group in ruleset.payments.items()
        }
        settlement = tuple(
            _rule(compiler, tables, rule, "settlement", guards, scale)
            for rule in ruleset.settlement
        )
        declarations = tuple(
            _declaration(compiler, declaration, i)
            for i, declaration in enumerate(ruleset.declarations)
        )
        discard: dict[str, Fn | None] = {}
        for name, rule in (
            ("discard.never", ruleset.discard_never),
            ("discard.forbidden", ruleset.discard_forbidden),
        ):
            discard[name] = None if rule is None else _card_mask(compiler, name, rule)
        thrown = [f"{THROWN_IN}:{r.id}" for r in ruleset.redeals]
        if ruleset.bidding is not None:
            thrown.append(f"{THROWN_IN}:{ThrownIn.ALL_PASSED}")
        scored = [HAND_SCORE] if ruleset.hand_score is not None else []
        lasting = compile_lasting(compiler, ruleset, scale)
        moved = [] if lasting is None else lasting.keys
        keys = {
            key: i
            for i, key in enumerate(dict.fromkeys([*rule_keys(ruleset), *thrown, *scored, *moved]))
        }
        return Program(
            ruleset,
            tables,
            compiler,
            rules,
            settlement,
            declarations,
            discard["discard.never"],
            discard["discard.forbidden"],
            keys,
            _hand(compiler, ruleset),
            compile_plays(
                compiler,
                ruleset,
                tables,
                lambda rules, at: _ends_play(compiler, ruleset, rules, at),
            ),
            _optional(compiler, "hand_score", ruleset.hand_score, "hand_score"),
            compile_bidding(compiler, ruleset.bidding),
            compile_announcements(compiler, ruleset.announcements),
            compile_doubling(compiler, ruleset.doubling, ruleset.announcements),
            _optional(compiler, "discard.told", ruleset.discard_told, "talon"),
            lasting,
            _optional(compiler, "discard.scored_by", ruleset.discard_scored_by, "settlement"),
            compile_limit(compiler, ruleset.doubling),
            _optional(
                compiler, "discard.all_or_none", ruleset.discard_all_or_none, "discard_group"
            ),
            scale,
        )

    def fire(self, state: BatchState, event: str, ctx: Ctx, at: At) -> None:
        self.fire_rules(state, self.rules.get(event, ()), ctx, at)

    def fire_rules(self, state: BatchState, rules: Sequence[ArrayRule], ctx: Ctx, at: At) -> None:
        guarded: dict[int, Ctx | None] = {}  # by guard: the hands whose card it lets through
        for rule in rules:
            if rule.never:
                continue
            sub = ctx
            guard = rule.guard
            if guard is not None and "card" in ctx.vars:
                # rules of the same guard share it (`_rule`), and so its hands
                if id(guard) not in guarded:
                    guarded[id(guard)] = _let_through(guard, ctx)
                picked = guarded[id(guard)]
                if picked is None:
                    continue
                sub = picked
            if rule.when is not None:
                holds = per_row(rule.when.fn(sub), sub.size).astype(np.bool_)
                if not holds.any():
                    continue
                if not holds.all():
                    sub = sub.subset(holds)
            self.pay(state, rule, sub, at)

    def pay(self, state: BatchState, rule: ArrayRule, ctx: Ctx, at: At) -> None:
        amounts = None if rule.pairwise else per_row(rule.amount.fn(ctx), ctx.size)
        pay(
            state,
            self.keys[rule.key],
            rule.key,
            ctx,
            (rule.payers, rule.payees),
            at,
            amounts,
            rule.amount,
            rule.attack_ordered,
            self.compiler.remembers,
        )


def _let_through(guard: np.ndarray, ctx: Ctx) -> Ctx | None:
    """The hands of `ctx` whose card `guard` lets through (None: none of them)."""
    keep = guard[per_row(ctx.vars["card"], ctx.size)]
    if not keep.any():
        return None
    return ctx if keep.all() else ctx.subset(keep)


def pay(
    state: BatchState,
    column: int,
    key: str,
    ctx: Ctx,
    sides: tuple[Node, Node],
    at: At,
    amounts: np.ndarray | None,
    amount: Node | None = None,
    attack_ordered: tuple[bool, bool] = (False, False),
    remembered: bool = False,
) -> None:
    """Payments named `key` for the hands of `ctx`: each payer to each payee, in seat order
    (or, for a side `attack_ordered`, the taker's side's order), of `amounts` (one per hand)
    or of `amount` worked out for each payer and payee, each counted in 1/`state.scale` (a
    rule's amount is compiled so: `Program.scale`). `remembered`: the definitions are
    kept between evaluations (the settlement), so a pair's `amount` is worked out for every
    hand of `ctx`, where the definitions it reads were worked out already (`_pair_amounts`)."""
    size, players = ctx.size, state.players
    payers = seat_mask(sides[0].fn(ctx), size, players)
    payees = seat_mask(sides[1].fn(ctx), size, players)
    if state.tables.seating.sits_out:  # a seat sitting the hand out neither pays nor is paid
        in_play = state.in_play(ctx.rows)
        payers, payees = payers & in_play, payees & in_play
    if amounts is not None and not state.logging and _whole(amounts):
        _pay_whole(state, column, ctx, payers, payees, amounts)
        if state.flows is not None:
            state.flows.add(state.size, column, at.text, ctx.rows, payers, payees, amounts)
        return
    paid = np.zeros(size, dtype=np.bool_)
    ordered = any(attack_ordered)  # else both in seat order: one seat a pair for every hand
    every, seats = np.arange(size), np.arange(players)
    orders = [
        attack_order(state, ctx.rows) if side else np.broadcast_to(seats, (size, players))
        for side in attack_ordered
    ]
    for i in range(players):
        for j in range(players):
            payer: int | np.ndarray = i
            payee: int | np.ndarray = j
            if ordered:
                payer, payee = orders[0][:, i], orders[1][:, j]
                active = payers[every, payer] & payees[every, payee] & (payer != payee)
            elif i != j:
                active = payers[:, i] & payees[:, j]
            else:
                continue
            if not active.any():
                continue
            where = np.flatnonzero(active)
            if amounts is None:
                assert amount is not None  # a pairwise amount is worked out per pair
                value = _pair_amounts(amount, ctx, active, where, payer, payee, remembered)
            else:
                value = amounts[where]
            if ordered:
                payer, payee = np.asarray(payer)[where], np.asarray(payee)[where]
            nonzero = value != 0
            if not nonzero.all():
                where, value = where[nonzero], value[nonzero]
                if ordered:
                    payer, payee = np.asarray(payer)[nonzero], np.asarray(payee)[nonzero]
            if not len(where):
                continue
            forward = value > 0
            giver = np.where(forward, payer, payee)
            taker = np.where(forward, payee, payer)
            size_paid = np.abs(value).astype(np.float64)
            rows = ctx.rows[where]
            state.net[rows, giver] -= size_paid
            state.net[rows, taker] += size_paid
            state.lead_changed(rows)
            state.paid[rows, column] += size_paid
            if state.flows is not None:
                state.flows.add(state.size, column, at.text, rows, giver, taker, size_paid)
            paid[where] = True
            if state.logging:
                state.payment_log.append(Logged(rows, (key, giver, taker, np.abs(value), at.text)))
    state.fired[ctx.rows[paid], column] += 1


def _pair_amounts(
    amount: Node,
    ctx: Ctx,
    active: np.ndarray,
    where: np.ndarray,
    payer: int | np.ndarray,
    payee: int | np.ndarray,
    remembered: bool,
) -> np.ndarray:
    """A pairwise `amount` for the hands `active` picks (at `where`), from `payer` to
    `payee` (a seat, or one per hand of `ctx`). Each hand's value is worked out from that
    hand alone, so with the definitions remembered it is worked out for every hand of `ctx`
    (whose definitions are known) and read at `where`; where that fails in a hand the pair
    does not pay in (a division by zero, say), for the paying hands alone, as otherwise."""
    if remembered:
        try:
            whole = amount.fn(ctx.with_vars(payer=payer, payee=payee))
        except EvaluationError:
            pass
        else:
            return per_row(whole, ctx.size)[where]
    if not isinstance(payer, int):
        payer, payee = np.asarray(payer)[where], np.asarray(payee)[where]
    pair = ctx.subset(active).with_vars(payer=payer, payee=payee)
    return per_row(amount.fn(pair), len(where))


def _pay_whole(
    state: BatchState,
    column: int,
    ctx: Ctx,
    payers: np.ndarray,
    payees: np.ndarray,
    amounts: np.ndarray,
) -> None:
    """`pay` for whole amounts, every pair at once: whole numbers add up exactly in any
    order, so each seat's result is the scalar engine's, payment by payment. A seat is paid
    by every payer but itself, and pays every payee but itself."""
    payers_int, payees_int = payers.astype(np.int64), payees.astype(np.int64)
    received = payees_int * (payers_int.sum(axis=1)[:, None] - payers_int)
    made = payers_int * (payees_int.sum(axis=1)[:, None] - payees_int)
    pairs = made.sum(axis=1)  # payments made in each hand
    values = amounts.astype(np.float64)
    state.net[ctx.rows] += (received - made) * values[:, None]
    state.lead_changed(ctx.rows)
    state.paid[ctx.rows, column] += pairs * np.abs(values)
    paid = (pairs > 0) & (values != 0)
    state.fired[ctx.rows[paid], column] += 1


def _whole(amounts: np.ndarray) -> bool:
    """Whether every amount is a whole number."""
    return amounts.dtype.kind in "biu" or bool(np.all(amounts == np.round(amounts)))


def _card_mask(compiler: ArrayCompiler, where: str, rule: object) -> Fn:
    return _named(where, lambda: compiler.card_mask(rule, "discard_check"))


def _named(where: str, build: Callable[[], T]) -> T:
    """What `build` makes, or Unsupported naming `where`."""
    try:
        return build()
    except Unsupported as error:
        raise Unsupported(f"{where}: {error}") from None


def _payment_scale(compiler: ArrayCompiler, ruleset: Ruleset) -> int:
    """What payments are counted in (1/scale) so that every amount is held exactly."""
    rules = [rule for group in ruleset.payments.values() for rule in group]
    amounts = [rule.amount for rule in [*rules, *ruleset.settlement]]
    if ruleset.lasting is not None:  # a transfer to or from an account is paid as they are
        amounts += [transfer.amount for transfer in ruleset.lasting.transfers]
    trees = [typed_tree(amount) for amount in amounts]
    try:
        scale = payment_scale(
            [tree for tree in trees if tree is not None], compiler.in_hand, compiler.body
        )
    except ValueError as error:
        raise Unsupported(str(error)) from None
    # a seat sitting out settling as a defender is paid a share of payments already made
    return scale * lcm(1, *defender_divisors(ruleset))


def _rule(
    compiler: ArrayCompiler,
    tables: DeckTables,
    rule: PaymentRule,
    event: str,
    guards: dict[bytes, np.ndarray],
    scale: int = 1,
) -> ArrayRule:
    """The rule as array code, its amount counted in 1/`scale`; `guards`: those made so far,
    so that rules letting the same cards through share one (`Program.fire_rules` then picks
    their hands once)."""
    if event not in (*EVENTS, "settlement"):
        raise Unsupported(f"payment rule {rule.id}: the event {event!r}")
    where = f"payment rule {rule.id}"
    needs = getattr(rule.when, "needs", {})
    guard = None
    if needs is not None and "card" in needs:
        guard = tables.layout.to_bools(tables.layout.of(needs["card"]))
        guard = guards.setdefault(guard.tobytes(), guard)
    return ArrayRule(
        key=rule.id,
        when=None
        if rule.when is None
        else _named(where, lambda: compiler.expression(rule.when, event)),
        guard=guard,
        never=needs is None,
        payers=_named(where, lambda: compiler.expression(rule.payers, event)),
        payees=_named(where, lambda: compiler.expression(rule.payees, event)),
        amount=_named(
            where, lambda: compiler.expression(rule.amount, event, amount=True, scale=scale)
        ),
        pairwise=_reads_pair(rule.amount),
        attack_ordered=(
            attack_ordered(typed_tree(rule.payers), compiler.definitions),
            attack_ordered(typed_tree(rule.payees), compiler.definitions),
        ),
    )


def _declaration(compiler: ArrayCompiler, declaration: Declaration, index: int) -> ArrayDeclaration:
    where = f"declaration {declaration.id}"

    def optional(compiled: object, event: str) -> Node | None:
        return None if compiled is None else compiler.expression(compiled, event)

    def shown(level: DeclarationLevel) -> Node | None:
        shows = declaration.shows if level.shows is None else level.shows
        if shows is None:
            return None
        return compiler.expression(shows, "declaration_shown", constants={"level": level.id})

    over = declaration.hands_over

    def build() -> ArrayDeclaration:
        levels = tuple(
            ArrayLevel(
                level.id,
                compiler.expression(level.when, "declaration"),
                compiler.expression(level.value, "declaration"),
                shown(level),
                optional(level.show_count, "declaration"),
            )
            for level in declaration.levels
        )
        return ArrayDeclaration(
            declaration,
            index,
            levels,
            compiler.expression(declaration.payers, "declaration"),
            compiler.expression(declaration.payees, "declaration"),
            None
            if over is None
            else ArrayHandOver(
                compiler.expression(over.cards, "declaration"),
                compiler.expression(over.in_return, "declaration"),
                over.named,
            ),
        )

    return _named(where, build)


def _optional(compiler: ArrayCompiler, where: str, compiled: object, event: str) -> Node | None:
    """The array form of an expression the ruleset may leave out, or Unsupported naming
    `where`."""
    if compiled is None:
        return None
    return _named(where, lambda: compiler.expression(compiled, event))


def _talon(compiler: ArrayCompiler, use: TalonUse | None, where: str) -> ArrayTalon | None:
    if use is None:
        return None
    if use.to not in ("hand", "pile", "out_of_play", "stock", "trick_winners"):
        raise Unsupported(f"{where}: the talon as a {use.to} (not run by the batch back end)")
    takes = tuple(_take(compiler, take, f"{where}.takes[{i}]") for i, take in enumerate(use.takes))
    shares, packets = use.shares, use.packets
    return ArrayTalon(
        use.to,
        _optional(compiler, where, use.seat, "talon"),
        takes,
        None if shares is None else _optional(compiler, where, shares.first, "talon"),
        0 if shares is None else shares.others,
        _optional(compiler, where, use.ends_hand, "talon"),
        None
        if packets is None
        else ArrayPackets(
            packets.count,
            packets.choose,
            packets.rest_to,
            _optional(compiler, f"{where}.packets", packets.rest_seat, "talon"),
            _optional(compiler, f"{where}.packets.forbidden", packets.forbidden, "packet_check"),
        ),
        use.per_trick,
        _optional(compiler, f"{where}.scored_by", use.scored_by, "settlement"),
    )


def _take(compiler: ArrayCompiler, take: TalonTake, where: str) -> ArrayTake:
    def build() -> ArrayTake:
        seat = compiler.expression(take.seat, "talon")
        cards = compiler.expression(take.cards, "talon")
        return ArrayTake(seat, cards, take.end, take.in_a_row, getattr(take.seat, "where", ""))

    return _named(where, build)


def _hand(compiler: ArrayCompiler, ruleset: Ruleset) -> ArrayHand:
    redeals = []
    for rule in ruleset.redeals:
        when = _optional(compiler, f"redeal {rule.id}", rule.when, "redeal")
        assert when is not None  # every redeal rule has a condition
        redeals.append((rule, when))
    bidding = ruleset.bidding
    talons: tuple[ArrayTalon | None, ...] = (_talon(compiler, ruleset.talon, "talon"),)
    if bidding is not None:
        talons = tuple(
            _talon(compiler, c.talon, f"the talon of contract {c.id}") for c in bidding.contracts
        )
    call = ruleset.partner_call
    exchange = ruleset.play.excuse_exchange
    return ArrayHand(
        redeals=tuple(redeals),
        talons=talons,
        call_when=None if call is None else _optional(compiler, "partner_call", call.when, "call"),
        call_cards=None
        if call is None
        else _optional(compiler, "partner_call", call.cards, "call"),
        exchange_cards=None
        if exchange is None
        else _optional(compiler, "play.excuse.exchange", exchange.cards, "trick_end"),
        excuse_cards=_optional(compiler, "play.excuse.cards", ruleset.play.excuse_cards, "play"),
        steps=tuple(
            _step(compiler, i, step, i >= after_taker(ruleset.flow))
            for i, step in enumerate(ruleset.flow)
        ),
        agreed_by=tuple(
            _optional(compiler, f"redeal {rule.id}", rule.agreed_by, "redeal")
            for rule in ruleset.redeals
        ),
        questions=compile_questions(compiler, ruleset.questions),
    )


def _ends_play(
    compiler: ArrayCompiler, ruleset: Ruleset, rules: PlayRules, where: str
) -> tuple[Node, ...]:
    """What may end play after a trick: a seat's claim of the game (any seat it gives), the
    play rules' `ends_when` (`rules`, written at `where`)."""
    found = []
    game = ruleset.game
    if game is not None and game.claim is not None:
        claim = _named("game.claim_during_play", lambda: compiler.expression(game.claim, "game"))
        claim_fn, players = claim.fn, ruleset.players
        found.append(
            Node(Type.BOOL, lambda ctx: seat_mask(claim_fn(ctx), ctx.size, players).any(axis=1))
        )
    ends_when = rules.ends_when
    if ends_when is not None:
        found.append(
            _named(f"{where}.ends_when", lambda: compiler.expression(ends_when, "after_trick"))
        )
    return tuple(found)


def _step(compiler: ArrayCompiler, index: int, step: FlowStep, late: bool) -> ArrayStep:
    """A flow step's expressions compiled where the scalar compiler compiled them (`late`:
    after the auction, with the taker's names)."""
    where = f"flow[{index}] ({step.word})"
    seat_event = "step_seat" if late else "step_seat_before_taker"
    event = "step" if late else "step_before_taker"
    question = step.question
    return ArrayStep(
        step,
        seats=None if question is None else _optional(compiler, where, question.seats, event),
        bidders=_optional(compiler, where, step.bidders, "step_before_taker"),
        count=_optional(compiler, where, step.count, seat_event),
        when=_optional(compiler, where, step.when, event),
    )
