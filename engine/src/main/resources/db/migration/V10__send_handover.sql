-- A recipient's states in send_recipient: planned -> sending (claimed by a worker under a fence)
-- -> handed_over (recorded just before the transport passes the point after which the email may have
-- been delivered) -> sent | failed | unknown | skipped. A takeover plans a stale 'sending' recipient
-- again (nobody can have its email) and settles a stale 'handed_over' one as unknown; the claim and
-- takeover queries find both through this index.
DROP INDEX send_recipient_open;
CREATE INDEX send_recipient_open ON send_recipient (campaign_id, run_id, part, subscriber_id)
  WHERE state IN ('planned', 'sending', 'handed_over');
