"""deskcheck's command line: parse, call the engine, render. Nothing here holds tool logic."""
