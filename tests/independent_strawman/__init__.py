"""An independent reading of Brian's "Straw Man Tarot: Not for 'Dummies'!" (oldcardgames,
English page, with its German version and cheat sheet where they read otherwise), used only
by the tests to check the interpreter's game records of `strawman-tarock` hand by hand.

Written from the rules text alone, never from the ruleset or the interpreter's code: it reads
a record's packs, dealer, options and decisions, plays each hand again by the text's rules
(every redeal, claim and card checked legal) and sets what it finds beside what the record
says (`hand.record_differences`). Modules: `cards` (ranks and card values), `hand` (one hand
from the deal to the net, and a whole sitting).

The straw men are the text's: once the claim is decided and after each trick, a tarot or King
lying face up on a pile goes into its player's hand, shown to the other, and the next card is
turned, until the pile shows a lesser suit card (played as if held) or is empty. Which cards
a player sees mid-trick does not change what may be played, so the record's moments of
turning (its page, "What the language cannot say") are not checked.

Where the text is silent, this is what the checker does (each the ruleset's documented
assumption too):

- The deal: three rounds of five cards to each player from the dealer's other (the next
  seat), the dealer second; then four rounds that lay one card on each of a player's three
  piles, the dealer's other first. The top of a pile is the card laid last.
- A hand without a tarot: with the English reading its holder may ask for a redeal by the
  same dealer; with the German one the deal is made again at once. The straw man is not
  looked at.
- The claim: the player who did not deal claims or passes; with the German reading the
  dealer may claim when she passes. Both passing makes a simple game, led by the player who
  did not deal; a claimed game is led by the claimer.
- Play: follow suit, else play a tarot, else anything; nobody need play higher. The Sküs is
  the highest tarot.
- Counting in threes: each group of three its sum less 2, one or two cards left over their
  sum less 1 (so "35 and two cards" is 36); 36 wins and 35 each is a draw. Simplified: the
  values added up, 36 wins.
- Bonuses, paid by the other player in any game, drawn ones included: Pagat ultimo (the
  Pagat winning the last trick; with `pagat_taken`, taking the last trick with the Pagat in
  it), the three honneurs, the four Kings, each 10; Absolut (won with 40 to 49) 10,
  Grandpoint (won with 50 or more) 20.
- The sitting: each player starts with 100 credits; it ends once one has lost them all.
"""
