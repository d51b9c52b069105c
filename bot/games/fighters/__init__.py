"""The fighters kit: machinery shared by Mad Arena and Ultimate Warriorz.

Both books fight in a ring of zones around a centre, reveal secretly picked
cards on a countdown, replace the card in play, roll attack dice against a
defence and word their rolls the same way. The kit holds that machinery as
plain functions, small classes and ``typing.Protocol``s; it never imports a
game's state, so each game keeps its own specials (Mad Arena's net, dragon and
gong; Ultimate Warriorz's specials, lucky charm, PP and stones) in its package.

- :mod:`.zones`: the ring and its centre, distance, the movement rule as a parameter.
- :mod:`.countdown`: who acts next on the initiative countdown, ties by size.
- :mod:`.hands`: revealing the pick, replacing the card in play, the refill rule.
- :mod:`.attacks`: roll -> optional reaction window -> resolution, hits, wounds.
- :mod:`.rolltexts`: the shared French and English wording of rolls.
"""
