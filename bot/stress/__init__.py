"""Scripted stress runs: a hostile DAIDE server, scenarios against Parlance, their figures."""
