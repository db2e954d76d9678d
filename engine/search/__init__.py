"""What the strong players of both games share (a leaf: imports no game): ``sampling`` deals the cards a
seat cannot see consistently with what it knows; ``choice`` turns play-out results into a choice."""
