"""Catan in Discord: spot names, the turn message, the private flows (hand, cards, trades) and their components."""
