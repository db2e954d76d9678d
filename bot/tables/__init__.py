"""Table logic: tables before play, a match in play, its live messages, seats, reviews, deal proofs."""
