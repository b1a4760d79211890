"""``deskcheck mcp``: deskcheck's tools served to an MCP client, and the tools around it.

- ``catalogue``: the contexts given on the command line, their tools under the names the
  exporters give them (prefixed where two contexts would clash), their instructions, and one
  call by name. No MCP SDK here: replay uses it too.
- ``call_log``: the JSON Lines log of every call (``--log``), credentials redacted.
- ``replay``: a recorded log run again against a context.
- ``sdk``: the official MCP SDK, imported lean (only the low-level server and its transports).
- ``server``: the SDK's low-level server over stdio or streamable HTTP.
"""
