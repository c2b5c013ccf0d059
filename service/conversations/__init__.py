"""Conversations: chat turns kept so a conversation can continue on any replica."""
