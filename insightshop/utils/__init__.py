"""Only the agent executor lives here (the seed's utils/agent_executor.py)."""
