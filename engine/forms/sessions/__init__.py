"""Form sessions and their store: an open form kept between calls and processes.

``session`` opens a form over a source and saves it back (with ``rebase`` when the source moved);
``store_base`` is the store's records and protocol, ``store`` the SQLite store, ``store_postgres``
the one a fleet of servers shares, ``store_url`` picks one from a URL, ``store_copy`` and
``store_recovery`` copy and repair stores.

Imports ``sources``, ``state``, ``schema`` and the engine's shared modules.
"""
