"""tournaments: meets, events, units, teams, rounds and pairings. It uses games/, never the
reverse."""
