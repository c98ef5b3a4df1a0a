package dev.tidings.campaign;

import dev.tidings.PageLimit;
import dev.tidings.campaign.send.PlannedSend;
import dev.tidings.campaign.send.SendJob;
import dev.tidings.campaign.send.SendProgress;
import dev.tidings.campaign.send.Sends;
import dev.tidings.sendtime.OpenHours;
import dev.tidings.sendtime.SendTimeMetrics;
import dev.tidings.sendtime.SendTimePlans;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Campaign definitions and their life cycle. A definition is checked whole (fields, then templates)
 * before anything is written, and every write is one statement, so a refused request leaves nothing
 * behind. Runs are the send pipeline's ({@link Sends}): this service claims the campaign, hands the
 * pipeline the audience as a stream of ids, and asks it for the run's state. Thread-safe.
 */
public final class CampaignService {
  private static final Logger log = LoggerFactory.getLogger(CampaignService.class);

  private final Jdbi jdbi;
  private final Sends sends;
  private final AudienceQuery audience;
  private final InstantSource clock;
  private final SendTimePlans sendTimes;

  /** Planning per-subscriber send times from the stored open hours, counting in {@code metrics}. */
  public CampaignService(
      Jdbi jdbi, Sends sends, AudienceQuery audience, InstantSource clock, MeterRegistry metrics) {
    this(
        jdbi,
        sends,
        audience,
        clock,
        new SendTimePlans(new OpenHours(jdbi), new SendTimeMetrics(metrics)));
  }

  /** As the other, planning per-subscriber send times with {@code sendTimes}. */
  public CampaignService(
      Jdbi jdbi,
      Sends sends,
      AudienceQuery audience,
      InstantSource clock,
      SendTimePlans sendTimes) {
    this.jdbi = jdbi;
    this.sends = sends;
    this.audience = audience;
    this.clock = clock;
    this.sendTimes = sendTimes;
  }

  public Campaign create(CampaignDefinition definition) {
    CampaignTemplates.compileVariants(definition);
    return jdbi.withHandle(handle -> {
      AudienceReferences.check(handle, definition.audience());
      return CampaignTable.insert(handle, definition, clock.instant());
    });
  }

  public Optional<Campaign> get(long id) {
    return jdbi.withHandle(handle -> CampaignTable.find(handle, id));
  }

  /** Newest first, those with an id below {@code before}. */
  public List<Campaign> list(Optional<Long> before, int limit) {
    PageLimit.check(limit);
    return jdbi.withHandle(handle -> CampaignTable.page(handle, before, limit));
  }

  /** Replaces the definition of a DRAFT or SCHEDULED campaign. */
  public Campaign replace(long id, CampaignDefinition definition) {
    CampaignTemplates.compileVariants(definition);
    return jdbi.withHandle(handle -> {
          AudienceReferences.check(handle, definition.audience());
          return CampaignTable.replace(handle, id, definition, clock.instant());
        })
        .orElseThrow(() -> notEditable(id));
  }

  /** Changes the fields {@code patch} names (JSON merge of the top-level fields). */
  public Campaign patch(long id, JsonNode patch) {
    Campaign current = get(id).orElseThrow(() -> CampaignProblem.notFound(id));
    if (!current.state().editable()) throw notEditable(id);
    return replace(id, CampaignJson.merge(current.definition(), patch));
  }

  /** Deletes a DRAFT campaign (one that never ran and is not scheduled). */
  public void delete(long id) {
    if (jdbi.withHandle(handle -> CampaignTable.deleteDraft(handle, id))) return;
    Campaign current = get(id).orElseThrow(() -> CampaignProblem.notFound(id));
    throw CampaignProblem.conflict("campaign " + id + " is " + current.state()
        + "; only a DRAFT campaign can be deleted (cancel a scheduled one first)");
  }

  public Optional<CampaignView> view(long id) {
    return get(id).map(this::view);
  }

  public CampaignView view(Campaign campaign) {
    Optional<SendProgress> progress =
        campaign.runId().flatMap(run -> sends.progress(campaign.id(), run));
    CampaignState state = progress.map(p -> CampaignState.of(p.state())).orElse(campaign.state());
    return new CampaignView(campaign, state, progress);
  }

  /**
   * Starts the campaign's run now. A DRAFT or SCHEDULED campaign is claimed (RUNNING, new run id) in
   * one statement; a RUNNING campaign whose run the pipeline does not know (its start failed half way)
   * is started again under the same run id, which the pipeline treats as the same run.
   */
  public SendProgress send(long id) {
    // without a pipeline the claim would leave a RUNNING campaign that nothing sends
    if (!canSend()) throw UnwiredSends.missing();
    Campaign claimed = jdbi.withHandle(
            handle -> CampaignTable.claimForSend(handle, id, clock.instant()))
        .orElseGet(() -> {
          Campaign current = get(id).orElseThrow(() -> CampaignProblem.notFound(id));
          if (current.state() == CampaignState.RUNNING
              && current.runId().isPresent()
              && sends.progress(id, current.runId().get()).isEmpty()) return current;
          throw CampaignProblem.conflict("campaign " + id + " is "
              + view(current).state() + "; only a DRAFT or SCHEDULED campaign can be sent");
        });
    return start(claimed);
  }

  /** Whether this node has a send pipeline to hand runs to. */
  public boolean canSend() {
    return !(sends instanceof UnwiredSends);
  }

  /** Hands a claimed campaign's run to the pipeline. */
  SendProgress start(Campaign claimed) {
    long run = claimed.runId().orElseThrow();
    var definition = claimed.definition();
    var job = new SendJob(claimed.id(), run, definition.priority(), definition.ratePerSecond());
    log.info("campaign {} starts run {}", claimed.id(), run);
    SendTime sendTime = definition.sendTime();
    if (!sendTime.perSubscriber()) return sends.start(job, audience.ids(definition.audience()));
    var planner =
        sendTimes.planner(claimed.id(), clock.instant(), sendTime.within(), sendTime.holdout());
    Iterator<SendTimePlans.Recipient> members = map(
        audience.members(definition.audience()),
        member -> new SendTimePlans.Recipient(member.id(), member.timeZone()));
    return sends.startPlanned(job, map(sendTimes.plan(planner, members), CampaignService::send));
  }

  /** A planned recipient as the pipeline takes it: the held-out and the first hour go at once. */
  private static PlannedSend send(SendTimePlans.Planned planned) {
    var slot = planned.slot();
    return new PlannedSend(
        planned.subscriberId(),
        Optional.of(slot.at()),
        slot.heldOut() ? PlannedSend.Cohort.HELD_OUT : PlannedSend.Cohort.TIMED);
  }

  private static <A, B> Iterator<B> map(Iterator<A> from, Function<A, B> each) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return from.hasNext();
      }

      @Override
      public B next() {
        return each.apply(from.next());
      }
    };
  }

  /**
   * The campaign's run's recipients by the time they are planned for, earliest first; empty before it
   * runs.
   */
  public List<Map.Entry<Instant, Long>> plannedByTime(Campaign campaign) {
    return campaign.runId().map(run -> sends.plannedByTime(campaign.id(), run)).orElse(List.of());
  }

  public void pause(long id) {
    long run = runIn(id, CampaignState.RUNNING, "paused");
    sends.pause(id, run);
    jdbi.useHandle(handle -> CampaignTable.moveState(
        handle, id, List.of(CampaignState.RUNNING), CampaignState.PAUSED, clock.instant()));
  }

  public void resume(long id) {
    long run = runIn(id, CampaignState.PAUSED, "resumed");
    sends.resume(id, run);
    jdbi.useHandle(handle -> CampaignTable.moveState(
        handle, id, List.of(CampaignState.PAUSED), CampaignState.RUNNING, clock.instant()));
  }

  /**
   * Cancels a run, or a scheduled campaign (it no longer starts). A draft has nothing to cancel: it is
   * deleted instead, which a cancelled campaign could no longer be.
   */
  public void cancel(long id) {
    if (jdbi.withHandle(handle -> CampaignTable.moveState(
        handle, id, List.of(CampaignState.SCHEDULED), CampaignState.CANCELLED, clock.instant())))
      return;
    CampaignView view = view(id).orElseThrow(() -> CampaignProblem.notFound(id));
    if (view.state() == CampaignState.DRAFT)
      throw CampaignProblem.conflict(
          "campaign " + id + " is a DRAFT: nothing to cancel; DELETE removes it");
    if (view.state() != CampaignState.RUNNING && view.state() != CampaignState.PAUSED)
      throw CampaignProblem.conflict(
          "campaign " + id + " is " + view.state() + "; nothing to cancel");
    sends.cancel(id, view.campaign().runId().orElseThrow());
    jdbi.useHandle(handle -> CampaignTable.moveState(
        handle,
        id,
        List.of(CampaignState.RUNNING, CampaignState.PAUSED),
        CampaignState.CANCELLED,
        clock.instant()));
  }

  /**
   * Sends this campaign to one subscriber now, ahead of bulk work, in the campaign's run of triggered
   * sends (a welcome, a price drop); any campaign but a cancelled one can be triggered.
   */
  public SendJob trigger(long id, String subscriberId) {
    Campaign campaign = get(id).orElseThrow(() -> CampaignProblem.notFound(id));
    if (campaign.state() == CampaignState.CANCELLED)
      throw CampaignProblem.conflict("campaign " + id + " is CANCELLED; it sends nothing more");
    // a send to nobody would be queued, then skipped at compose time:
    // the caller's mistake is told now
    if (!audience.exists(subscriberId)) throw CampaignProblem.subscriberNotFound(subscriberId);
    long run = jdbi.withHandle(handle -> CampaignTable.triggerRun(handle, id))
        .orElseThrow(() -> CampaignProblem.notFound(id));
    var job =
        new SendJob(id, run, SendJob.TRIGGERED_PRIORITY, campaign.definition().ratePerSecond());
    sends.trigger(job, subscriberId);
    return job;
  }

  /**
   * The run of this campaign that {@code key} names (a journey's step for one entry number), made the
   * first time it is asked for and the same run ever after; empty for a campaign that does not exist.
   */
  public Optional<Long> keyedRun(long id, String key) {
    return jdbi.inTransaction(handle -> CampaignTable.keyedRun(handle, id, key));
  }

  /** Where the campaign's run {@code runId} is: planned, sent, failed, unknown and skipped. */
  public Optional<SendProgress> runProgress(long id, long runId) {
    return sends.progress(id, runId);
  }

  /**
   * Sends this campaign's content to one subscriber now in {@code runId} (a {@link #keyedRun}), once
   * however often it is asked: a repeat of a send that was queued and not yet taken queues it again,
   * and one already taken or sent changes nothing. Consent and suppression are checked when the email
   * is composed, as for every send.
   */
  public SendJob triggerIn(long id, long runId, String subscriberId) {
    Campaign campaign = get(id).orElseThrow(() -> CampaignProblem.notFound(id));
    if (campaign.state() == CampaignState.CANCELLED)
      throw CampaignProblem.conflict("campaign " + id + " is CANCELLED; it sends nothing more");
    var job =
        new SendJob(id, runId, SendJob.TRIGGERED_PRIORITY, campaign.definition().ratePerSecond());
    sends.trigger(job, subscriberId);
    return job;
  }

  /**
   * Whether this campaign's audience holds the subscriber now (a segment's conditions, consent and
   * suppressions), for a preview that says whether a send would reach them.
   */
  public boolean inAudience(Campaign campaign, String subscriberId) {
    return audience.includes(campaign.definition().audience(), subscriberId);
  }

  /** How many subscribers the audience holds now: the people a send started now would plan. */
  public long countAudience(Audience who) {
    jdbi.useHandle(handle -> AudienceReferences.check(handle, who));
    return audience.count(who);
  }

  private long runIn(long id, CampaignState required, String verb) {
    CampaignView view = view(id).orElseThrow(() -> CampaignProblem.notFound(id));
    if (view.state() != required || view.campaign().runId().isEmpty())
      throw CampaignProblem.conflict("campaign " + id + " is " + view.state() + "; only a "
          + required + " campaign can be " + verb);
    return view.campaign().runId().get();
  }

  private CampaignProblem notEditable(long id) {
    Campaign current = get(id).orElseThrow(() -> CampaignProblem.notFound(id));
    return CampaignProblem.conflict("campaign " + id + " is " + view(current).state()
        + "; only a DRAFT or SCHEDULED campaign can be changed");
  }
}
