"""An independent reading of source 004 (Bunbury's Jeu de Tarot, four players), used only by
the tests to check the interpreter's game records hand by hand.

Written from the text of `../shared/seeds/004_*.txt` and the notes on 004 in `rules-facts.md`,
never from the `jeu-de-tarot` rulesets or the interpreter's code. `hand.hand_difference`
replays one recorded hand (deal, auction, discard, declarations, every card, the Fool's
payment) by 004 and returns the first thing the record says that 004 does not.

Modules: `cards` (the cards and their points), `hand` (one hand from the auction to the net).

Where 004 is silent, or its table was lost, this is what the checker does:

- Bid multipliers (table lost): I'll Play 1, Solo 2, Solo with the stock 4, Solo against the
  stock 6 (rules-facts.md, an assumption there too).
- Abundance (table lost): 10/13/15 trumps for a single/double/triple with four players (3 and 5
  players from rules-facts.md), worth 20/30/40 (an assumption in rules-facts.md), added to the
  score after the multiplier; the side it goes to follows the record's `abundance_to` option.
  The Fool is not counted as a trump for it.
- The auction: one bid each in turn from Eldest; a bid must be higher than the last one made.
- Overtrumping: applied whenever trumps are already in the trick, trumps led included.
- A led Fool: the next card sets the suit to follow (004 is silent).
- The discard: exactly as many cards as the stock; a trump only when the declarer has fewer
  cards than that which are neither trump, King nor Honour.
- Counting in pairs: each card is its points less half a point, which is the same as one off
  each pair for an even pile.
- The Sparrow: announced by any player (+20 or -20 for his side); unannounced, 10 for the
  side of the player who won the last trick with the Magician. Added before the multiplier.
- The Slam: announced by the declarer only (the record's `slam_by`); unannounced, 200 to the
  side that took every trick. Added after the multiplier.
- The stock under Solo with the stock and the discard go to the defenders when the declarer
  wins no trick (`no_tricks` matters only with a partner).
- The Fool's payment: its owner gives the trick's winner his lowest card when the two are on
  different sides; "if they have taken no tricks" is read of the owner himself. The records
  read it of his side (a defender with no trick pays from a partner's pile): the test replays
  a hand that differs under that reading (`fool_side=True`) and reports it as known.
- Brass Balls: the Magician of a player who declares it plays like the Fool (no record seen
  declare it, so this branch is untested).
- Five and three players are not covered.
"""
