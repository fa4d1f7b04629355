"""mindgames: the command line and the HTTP service, thin layers over :mod:`models` and :mod:`solver`."""

__version__ = "0.1.0"
