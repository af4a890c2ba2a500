"""The Discord adapter and game host (discord.py 2.x). Built in a later issue; depends on render and engine."""
