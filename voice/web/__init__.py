"""The sighted opponent's board, the arbiter's panel and the spectators' view, in the browser.

A thin adapter: pages send validated messages that become input events for the game host, and
every batch of the core's outputs is pushed back as a full snapshot of the session's state.
No chess rule lives here; legality, clocks and results come from the session.
"""
