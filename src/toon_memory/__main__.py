"""``python -m toon_memory`` runs the CLI."""

from toon_memory.adapters.cli.main import main

main()
