"""``companion web``: the read-only spectator page (issue 15), a process of its own.

It serves, to any browser on the network it is bound to, the board of the game in
progress (the same position the engine holds, drawn as SVG), the last throw, the
event log in the words of ``companion journal show`` and whose turn it is, updated
by server-sent events within a second of a move being written; and the saved games
with their records. It reads the journal directory and never writes anything: see
:mod:`companion.web.view` (what is shown) and :mod:`companion.web.app` (the routes,
the headers). Needs the ``web`` extra (Starlette, uvicorn).
"""
