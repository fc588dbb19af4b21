"""An independent reading of Droggn (the Stubai valley's 66-card Tarock), used only by the
tests to check the interpreter's game records hand by hand.

Written from the rules as `docs/games/droggn.md` states them from the texts read (pagat.com's
introduction to "Droggn", Wikipedia's article and the summaries of it cited there), never
from the `droggn` ruleset or the interpreter's code, and importing neither.
`hand.hand_difference` replays one recorded hand (the deal from the pack, the auction, the
talon and the discard, the doubling, every card, the Gstiess's payment) and returns the first
thing the record says that this reading does not.

Modules: `cards` (the 66 cards, their order in a trick and their card points counted in
threes), `hand` (one hand from the deal to the net).

The reading, rule by rule (what the texts read give, then what the page marks as assumed):

- The players: three; with four at the table the dealer sits each hand out: he is dealt no
  card, does not bid, double or play, and (assumed) pays and receives nothing; the other three
  play the hand as three would, each "next" meaning the next of the three, and the deal
  passes round all four.
- The pack: 21 tarocks, the Gstiess, and in each suit King, Queen, Rider, Jack and seven pips,
  10 down to 4 in clubs and spades, Ace (1) up to 7 in hearts and diamonds, the Ace highest.
- The deal (assumed): six cards to the talon first, then four rounds of five from the
  dealer's left-hand neighbour (play goes clockwise, so the order of seats is the order of
  play), the dealer last.
- The auction (assumed): from the dealer's next, round and round until one is left, each
  bidding Game, Solo, Mord or Super Mord above the standing bid, or passing for good; all
  passing throws the hand in, nobody paying. Only the holder of the Gstiess may bid a Super
  Mord (it is "declared in advance").
- The talon (assumed): taken by the declarer in a Game, Mord and Super Mord, who lays away six
  cards (never a King or a trull card, but the Pagat and the Gstiess may go in a Mord) that
  count for him; in a Solo it counts for the defenders.
- The doubling (assumed): the defenders, in order of play from the dealer's next, may double
  the game; once one has, the declarer may redouble; each doubles what is paid.
- Play: the dealer's next leads; suit must be followed, a player without the suit must trump,
  trumps must be followed, with no duty to overtrump. The Gstiess may be played to any trick,
  led too, and never wins one: when it is led the next card sets what is followed. Its holder
  keeps it and his side gives the trick's winner a one-point card (a pip or a tarock II-XX)
  from its tricks as soon as it has one, or never if it never has; in the last trick it goes
  to the winner. In a Super Mord the Gstiess led to the last trick by the declarer, having
  won every trick before, wins it.
- Counting in threes: the trull cards and Kings 5, Queens 4, Riders 3, Jacks 2, the rest 1; a
  pile scores its counting cards' values less one each, one point for each whole three
  cards, and one more for two cards left over: 74 in the pack.
- The score: a Mord or Super Mord is won by taking every trick, a Game or Solo by 37 card
  points (38 under the option `needed=more_than_half`). Every trick in a Game or Solo is a
  Matsch, worth 37 more. Game 10, Solo 20, Mord 40, Super Mord 80 (assumed); under
  `margin=card_points` a Game or Solo that is no Matsch is worth also the declarer's card
  points over or under 37. The amount, doubled as doubled, is paid by each defender to the
  declarer, or by the declarer to each.
"""
