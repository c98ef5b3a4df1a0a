-- A list chosen by a node that could not wait for the coordinator (a fallback) is kept as provisional:
-- when the coordinator's winner was only slow, its list replaces the fallback's, so every node ends
-- up serving and counting clicks on the one list the coordinator published.
ALTER TABLE message_slots ADD COLUMN provisional boolean NOT NULL DEFAULT false;
