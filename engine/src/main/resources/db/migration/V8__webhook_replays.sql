-- Tokens of signed webhook requests already taken (dev.tidings.delivery.webhook.PostgresReplayGuard).
-- Mailgun signs timestamp + token, not the event, so a captured request could be sent again: the
-- first node to insert a token takes the request, every later insert of it (on any node) finds the
-- row. A row is needed only while its timestamp is fresh enough to pass the max-age check.
CREATE TABLE webhook_replays (
  provider   text        NOT NULL,
  token      text        NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (provider, token)
);

CREATE INDEX webhook_replays_expires_at ON webhook_replays (expires_at);
