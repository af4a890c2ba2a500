import sys

sys.stderr.write(
    "boardhost: the Discord host (python -m bot) is not built yet; it arrives with the bot issue.\n"
    "The engines work today: python -m engine --help\n"
)
sys.exit(1)
