"""The journal: every game as an append-only file of JSON lines, in a room of its own.

Below the service (``app``), the spectator page (``web``), the club (``club``) and the
computer's review (``ai``), which all read it; above the rules and the words
(``ui.events``), which it uses to replay and to word what it holds.

* :mod:`companion.journal.store`: the file format, written and read (one module reads
  the line format): :class:`~companion.journal.store.JournalStore` begins, reopens and
  surveys journals; :func:`~companion.journal.store.load` reads one back (repairing a
  torn last line, or not), :func:`~companion.journal.store.parse_action` an action
  record;
* :mod:`companion.journal.record`: a journal as plain data for people, ``companion
  journal show`` / ``list`` / ``export`` and the pages (the record, its turns and
  events in words, in the language asked for);
* :mod:`companion.journal.names`: people's names as safe plain text
  (:func:`~companion.journal.names.clean_name`), for the box and the club alike;
* :mod:`companion.journal.roster`: the club's roster as the box keeps it
  (``roster.json``, written by the publisher, read by the seat screen with
  :func:`~companion.journal.roster.load_roster`).
"""
