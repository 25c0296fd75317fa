"""The club of boxes (issue 21): each box publishes its table's live game and finished
results to an MQTT broker (``companion publish``, :mod:`companion.club.publish`), and
the club page (``companion club``) shows every table. :mod:`companion.club.protocol`
is the wire protocol both follow. Needs the ``club`` extra (paho-mqtt).
"""
