-- What the composer of an email asked the ledger to keep with its handover (a digest: the positions of
-- the notification buckets it was read from and the pieces it told). Written by the same statement that
-- records the handover, so a worker that dies after the transport accepted the email and before it
-- could mark what the email told leaves the note behind; the takeover that settles the recipient as
-- unknown hands the note back to the composer, which completes the marking then. Null for emails whose
-- sending has nothing to complete.
ALTER TABLE send_recipient ADD COLUMN handover_note text;
