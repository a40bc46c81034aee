"""Settings split by environment: ``base`` is shared, ``dev``/``test``/``prod`` adjust it.

Only :mod:`config.settings.env` reads the process environment.
"""
