"""Web pages: Jinja2 templates and static assets (the chat at `/`; other pages extend base.html)."""
