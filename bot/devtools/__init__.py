"""Development tools: the demo, simulated people, replays, the Bot API simulator, the load test and benches.

Never imported by production code."""
