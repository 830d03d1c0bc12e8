"""Tests of netmend.serve, the A2A participant server."""
