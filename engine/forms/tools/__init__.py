"""The form tools an agent calls: ``tools`` (the verbs over one state), ``session_tools`` (the
same verbs over stored sessions, with open and save), ``guide`` (the skill text).

The top forms layer: it may import every layer below it.
"""
