"""The strong bot (``"strong"`` in ``engine.bots.BOTS``), by topic: the board's odds and rents
(odds), the valuation (worth), trades (trading), building and mortgages (building), raising
money (cash), the decisions (bot), its reasons (why) and their words (words)."""
