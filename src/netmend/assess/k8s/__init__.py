"""The K8s assessment: NetArena's loop restated, with a simulated kubectl and shell."""
