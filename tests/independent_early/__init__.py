"""An independent reading of source 002 (Early French Tarot, two to six players), used only by
the tests to check the interpreter's game records hand by hand and game by game.

It was written from the text of `../shared/seeds/002_*.txt` and the note on 002 in
`rules-facts.md`, never from the `early-french` rulesets or the interpreter's code: it reads a
record's pack and decisions, plays every hand again by 002's rules and sets what it finds
beside what the record says (`game.record_differences`). Run it on a record with
`python -m tests.independent_early RECORD.json`.

Modules: `cards` (the cards, their order and scoring values), `hand` (one hand from the deal
to each seat's net), `game` (the running totals, the game to 50 and the record beside it).

Where 002 is silent, or its table is lost, this is what the checker does:

- Scoring values: 002's table did not survive; rules-facts gives Fool 5, World and Magician
  4, Kings 4, Queens 3, Cavaliers 2, Jacks 1, and every card counts one more in the record's
  `card_points` (002's one point a card over or under 12): net = cards - 12 + values.
- The deal: 002 gives no packet size, so only the outcome is checked: twelve cards to each
  player from the top of the pack, every one of the first 12 x players cards dealt once, and
  the remainder, in the pack's order, set aside.
- Seats are numbered in the order of play whichever `direction` the record names (002: any
  direction, as long as it is kept); the eldest hand, who leads the first trick, is the seat
  after the dealer. The dealer's turn from hand to hand is not checked (002 names only the
  first dealer).
- Trumping: a player void in the suit led must trump, but need not beat a trump already
  played (002 asks for no more).
- The Fool led: the next card played sets the suit to follow; with two players that card wins.
- Paying for the Fool: with any card its player has already won (002: "any other card"); when
  he has won none yet, after the first trick he wins later. A player who wins no trick gives
  the Fool itself to the winner of the trick it was played to.
- The Fool in the last trick follows the option `fool_last_trick`: `kept` (as in any trick)
  or `captured` (it goes to the trick's winner, nothing is paid).
- Several players at 50 after one hand follow the option `tie_break`: `highest` (the highest
  total wins, equal highest share), `shared` (all at 50 or more share) or `first_to_claim`
  (after each trick a player's count is his total so far plus the cards he has taken less 12
  and the values of his cards, the Fool counting with its player; the first of tricks 1-11
  after which one reaches 50 ends the hand and the game, and every player then at 50 or more
  claims; a Fool not yet paid for then goes to the winner of its trick. After the 12th trick
  the game to 50 decides as under `highest`).
"""
