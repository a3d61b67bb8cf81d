"""The game viewer: a map of any phase of a recorded or live game, in the browser."""
