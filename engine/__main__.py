from engine.cli import main, run_command

run_command(main)
