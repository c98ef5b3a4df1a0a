-- The audience tells what happens to its subscribers as events (dev.tidings.events.audience), written to
-- the event outbox by the subscribers table's own statement triggers, whichever way a subscriber came
-- (API, bulk import, the dashboard): one outbox row per statement. Ids only, never the address.
CREATE FUNCTION audience_event(kind text, subscriber text, data jsonb) RETURNS jsonb LANGUAGE sql AS $$
  SELECT event_outbox_event(
    'dev.tidings.audience.' || kind, subscriber, data || jsonb_build_object('subscriberId', subscriber))
$$;

CREATE FUNCTION subscribers_added_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM event_outbox_append(coalesce(
    (SELECT jsonb_agg(audience_event('subscribed', id, '{}'::jsonb) ORDER BY id)
       FROM added WHERE consent = 'subscribed'),
    '[]'::jsonb));
  RETURN NULL;
END $$;

CREATE TRIGGER subscribers_added_events AFTER INSERT ON subscribers
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION subscribers_added_events();

-- A consent that changed is told as it changed; a withdrawal is also told as unsubscribed, and a new
-- consent to receive as subscribed.
CREATE FUNCTION subscribers_changed_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM event_outbox_append(coalesce(
    (SELECT jsonb_agg(event ORDER BY id, kind) FROM (
       SELECT n.id, 1 AS kind, audience_event('consent_changed', n.id,
                jsonb_build_object('from', o.consent, 'consent', n.consent)) AS event
         FROM stored n JOIN before o ON o.id = n.id
        WHERE n.consent <> o.consent
       UNION ALL
       SELECT n.id, 2, audience_event('unsubscribed', n.id, '{}'::jsonb)
         FROM stored n JOIN before o ON o.id = n.id
        WHERE n.consent = 'unsubscribed' AND o.consent <> 'unsubscribed'
       UNION ALL
       SELECT n.id, 2, audience_event('subscribed', n.id, '{}'::jsonb)
         FROM stored n JOIN before o ON o.id = n.id
        WHERE n.consent = 'subscribed' AND o.consent <> 'subscribed') AS changed),
    '[]'::jsonb));
  RETURN NULL;
END $$;

CREATE TRIGGER subscribers_changed_events AFTER UPDATE ON subscribers
  REFERENCING OLD TABLE AS before NEW TABLE AS stored FOR EACH STATEMENT
  EXECUTE FUNCTION subscribers_changed_events();

-- A subscriber deleted is gone with their follows: listeners remove what they keep about them.
CREATE FUNCTION subscribers_erased_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM event_outbox_append(coalesce(
    (SELECT jsonb_agg(audience_event('erased', id, '{}'::jsonb) ORDER BY id) FROM gone),
    '[]'::jsonb));
  RETURN NULL;
END $$;

CREATE TRIGGER subscribers_erased_events AFTER DELETE ON subscribers
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION subscribers_erased_events();
