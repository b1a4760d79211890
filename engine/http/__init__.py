"""The HTTP client both families use: ``client`` sends a request with credentials, allowed
origins and redirects checked, ``deadline`` bounds its total time, ``responses`` reads a body within
limits and words a refusal.

Shared by forms (HTTP sources, remote options) and openapi (documents by URL, the tools' calls);
it imports neither family.
"""
