"""Slack adapter: the /bwdoctor slash command and app mentions, answered by the same chat core as the web."""
