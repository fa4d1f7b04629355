"""The commands besides the grid kinds' shared ones (:mod:`.grid`): one module each, with
``register(subparsers)``; a module named after a grid kind extends that kind's command."""

COMMANDS = ("crossing", "serve", "certify", "compare")
