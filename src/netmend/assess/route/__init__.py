"""The Route room: NetArena's router faults (and more), its loop and scoring, in the router lab."""
