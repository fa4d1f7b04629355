"""One module per puzzle kind (or service), each with ``register(subparsers)``."""

KINDS = ("sudoku", "binairo", "crossing", "serve", "bench", "certify")
