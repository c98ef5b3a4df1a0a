-- The nodes of the installation (dev.tidings.cluster.NodeRegistry): each running node writes its row
-- every few seconds; the System page lists those seen lately, with their role and version, so that an
-- operator sees every node during an upgrade. A node that stops deletes its row; one that died is
-- shown as gone until its row is a day old, then deleted by any node.
CREATE TABLE nodes (
  id         uuid        PRIMARY KEY,
  role       text        NOT NULL,
  version    text        NOT NULL,
  host       text        NOT NULL,
  started_at timestamptz NOT NULL,
  seen_at    timestamptz NOT NULL
);
