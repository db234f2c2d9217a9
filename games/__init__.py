"""games: the card room. Players sit at tables of six and play matches of deals; it knows nothing of
events."""
