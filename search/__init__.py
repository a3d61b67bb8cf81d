"""Choosing orders: MCTS and the heuristic players."""
