-- Dashboard sessions that were signed out before their cookie expired (dev.tidings.web.dashboard
-- .SessionSignOuts). The cookie is signed, not stored, so a sign-out must be written where every node
-- sharing the API key looks: a row lives until the session would have expired anyway (at most
-- 12 hours) and is purged after that.
CREATE TABLE dashboard_sign_outs (
  session_id text COLLATE "C" PRIMARY KEY,
  expires_at timestamptz NOT NULL
);

CREATE INDEX dashboard_sign_outs_expiry ON dashboard_sign_outs (expires_at);
