"""How tables look in Discord: card text, event narration, embeds and Pillow pictures."""
