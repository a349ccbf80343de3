"""InsightShop's tool catalog, its guard, and the MCP server. (Named insightshop.mcp so `import mcp` stays the SDK.)"""
