"""Pillow board images drawn from a player's or spectator's view. Built in a later issue; depends on engine."""
