"""Recorded game streams the hostile-server fuzzer replays (:mod:`bot.stress.fuzz_stream`)."""
