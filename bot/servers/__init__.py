"""Real DAIDE servers and peer bots, installed and started as subprocesses."""
