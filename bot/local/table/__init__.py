"""The table: a Discord-like web page for the people playing through the loopback Discord.

``people`` are the seats at the table and their clients' languages; ``shown`` is what one person's Discord client
would show (their ephemeral answers and direct messages, nobody else's); ``asking`` turns what a person does on the
page into the interaction Discord would send, refusing what a Discord client refuses; ``chrome`` holds the page's
own words in each language; ``web`` serves the page and keeps each open page up to date over a websocket.
"""
