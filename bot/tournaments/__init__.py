"""Tournament logic: the tournament side of the running bot and the data its texts are built from."""
