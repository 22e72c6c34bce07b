"""Analysis of finished games (issue 39): each decision judged from what its
player could know, and the luck of the cards told apart from the play.

``scoring`` turns win percentages into marks and accuracies; the judging of
decisions over sampled deals builds on it."""
