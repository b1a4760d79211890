"""deskcheck's engine: the tools an agent gets, with no CLI, no printing and no sys.exit.

Families live in subpackages (``docx``, ``forms``, ``openapi``); the shared tool protocol is
``deskcheck.engine.tools``. Importing this package stays cheap: heavy libraries (lxml, httpx,
jsonschema) are imported by the modules that need them, when they need them.
"""

__version__ = "0.1.0"
