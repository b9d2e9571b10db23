"""The notebook widgets: the table and the replay viewer, and what they send to the browser."""
