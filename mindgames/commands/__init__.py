"""The commands besides the kinds' shared ones (:mod:`.grid`, :mod:`.plan`): one module each, with
``register(subparsers)``; a module named after a kind extends that kind's command."""

COMMANDS = ("serve", "worker", "certify", "compare")
