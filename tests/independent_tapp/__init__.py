"""An independent reading of Brian's "Tapp Tarock: A Simple Tarot for Three" (oldcardgames,
English text, with its German version where it reads otherwise), used only by the tests to
check the interpreter's game records of `tapp-tarock` hand by hand.

Written from the rules text alone, never from the ruleset or the interpreter's code: it reads
a record's pack, dealer, options and decisions, plays the hand again by the text's rules
(every bid, tapp choice, discard, announcement, kontra and card checked legal) and sets what it
finds beside what the record says (`hand.hand_difference`). Modules: `cards` (ranks and card
values), `hand` (one hand from the deal to the net).

Where the text is silent, this is what the checker does (each the ruleset's documented
assumption too, so that the two can be compared):

- The deal: the tapp first (six cards), then four packets of four to each player from the
  dealer's right (the next seat in play), the dealer last.
- The auction goes round until one bidder is left; a player who passed speaks no more; when
  the first two pass, the third's word ends it. With the German reading `hold`, a player who
  spoke earlier in the auction than the highest bidder may hold that bid. With `one_step`,
  a bid is the next level up (a player who may hold may also bid the level above).
- The tapp in packets: the tapp as dealt, cut into 2, 3 or 6 equal packets in order.
- Tarots may be laid away only when the hand has no suit card but Kings left.
- Counting in threes: a group of three scores its sum less 2; one or two cards left over score
  their sum less 1 (the text's 70 for the pack needs it). The opponents' cards are counted as
  one pile. In a Bridscher the tapp counts for nobody and each player's pile is his own.
- Bonuses belong to a player (the fourth payout example): trull and four Kings made when the
  player took the cards in his own tricks; With 40 and With 50 only by the bid winner, 40-49
  and 50 or more as the table says. Pagat ultimo with the reading `pagat_wins` is made by the
  Pagat winning the last trick and announced only by its holder; `pagat_taken`: by the
  player taking the last trick with the Pagat in it. No bonus in a Bridscher.
- Bridscher: the player with the most card points pays each other player 10, doubled for each
  player without a trick; tied players with the most each pay each player not tied. The
  bid winner's lead is taken by the dealer's right-hand neighbour.
- Kontra (German reading): one per target, by the opponents (the game, With 40, With 50) or by
  any player who did not announce the bonus; it doubles that payment won or lost.
- Stakes: the German reading doubles every value.
"""
