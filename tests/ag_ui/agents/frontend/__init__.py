from . import agent  # noqa: F401  (adk api_server reads agent.root_agent)
