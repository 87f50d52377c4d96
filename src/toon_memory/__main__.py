"""``python -m toon_memory`` runs the CLI."""

from toon_memory.cli.main import main

main()
