"""Hall of Thoth's blackjack engine and its mathematics: pure Python, no Django.

Modules: ``cards`` (cards, shoes, compositions), ``rules`` (Rules and presets), ``hand``
(totals), ``round`` (one round at a five-box table), ``dealer`` and ``ev`` (exact
probabilities and expected values), ``strategy`` (charts and the AI levels).
"""
