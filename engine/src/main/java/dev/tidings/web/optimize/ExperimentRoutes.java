package dev.tidings.web.optimize;

import dev.tidings.Json;
import dev.tidings.campaign.Campaign;
import dev.tidings.campaign.CampaignJson;
import dev.tidings.campaign.CampaignService;
import dev.tidings.campaign.Experiment;
import dev.tidings.optimize.CampaignExperiments;
import dev.tidings.optimize.ExperimentReport;
import dev.tidings.web.ApiProblem;
import dev.tidings.web.JsonBodies;
import dev.tidings.web.Requests;
import dev.tidings.web.RouteGroup;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/**
 * A campaign's experiment: {@code GET /api/v1/campaigns/{id}/experiment} (per variant: sent,
 * conversions, rate with interval, probability of being best, comparison with the control; the
 * decision and when it was made) and {@code POST /api/v1/campaigns/{id}/experiment/rollout} (an A/B
 * test's winner to the rest of the audience, as a new campaign sent at once).
 */
public final class ExperimentRoutes implements RouteGroup {
  private static final String PATH = "/api/v1/campaigns/{id}/experiment";

  private final CampaignService campaigns;
  private final CampaignExperiments experiments;
  private final Function<Experiment, CampaignExperiments.Plan> plans;

  /** {@code plans}: how a campaign's experiment reads as the analysis's plan. */
  public ExperimentRoutes(
      CampaignService campaigns,
      CampaignExperiments experiments,
      Function<Experiment, CampaignExperiments.Plan> plans) {
    this.campaigns = campaigns;
    this.experiments = experiments;
    this.plans = plans;
  }

  @Override
  public void register(HttpRouting.Builder routing) {
    routing.get(PATH, (request, response) -> {
      Campaign campaign = campaign(request);
      var report = experiments.report(campaign.id(), plans.apply(experiment(campaign)));
      JsonBodies.ok(response, toJson(campaign, report));
    });
    routing.post(PATH + "/rollout", (request, response) -> {
      Campaign campaign = campaign(request);
      Experiment experiment = experiment(campaign);
      if (experiment.allocation() != Experiment.Allocation.AB)
        throw ApiProblem.conflict("campaign " + campaign.id() + " is a bandit: every recipient"
            + " was in the test, there is no rest to roll out to");
      boolean sent = campaigns
          .view(campaign.id())
          .flatMap(view -> view.progress())
          .map(progress -> progress.state().finished())
          .orElse(false);
      if (!sent)
        throw ApiProblem.conflict("campaign " + campaign.id() + " has not finished sending its"
            + " test: roll out once it has");
      var report = experiments.report(campaign.id(), plans.apply(experiment));
      var decision = report
          .decision()
          .orElseThrow(() -> ApiProblem.conflict(
              "the experiment of campaign " + campaign.id() + " has not decided yet: no variant is"
                  + " better or worse than the control at its level; look again later"));
      var rolledOut = experiments
          .rollOutOnce(campaign.id(), () -> {
            Campaign rollout =
                campaigns.create(campaign.definition().rollout(campaign.id(), decision.winner()));
            campaigns.send(rollout.id());
            return rollout.id();
          })
          .orElseThrow(() -> ApiProblem.conflict(
              "campaign " + campaign.id() + " is being rolled out by another request"));
      Campaign rollout = campaigns
          .get(rolledOut.campaignId())
          .orElseThrow(() -> ApiProblem.conflict("campaign " + campaign.id()
              + " was rolled out as campaign " + rolledOut.campaignId() + ", since deleted"));
      response.header(HeaderNames.LOCATION, "/api/v1/campaigns/" + rollout.id());
      // a repeated rollout answers with the campaign the first one made, and sends nothing
      JsonBodies.write(response, rolledOut.created() ? 201 : 200, CampaignJson.toJson(rollout));
    });
  }

  private Campaign campaign(ServerRequest request) {
    long id = Requests.campaignId(request);
    return campaigns.get(id).orElseThrow(() -> ApiProblem.notFound("no campaign " + id));
  }

  private static Experiment experiment(Campaign campaign) {
    return campaign
        .definition()
        .experiment()
        .orElseThrow(
            () -> ApiProblem.notFound("campaign " + campaign.id() + " runs no experiment"));
  }

  static ObjectNode toJson(Campaign campaign, ExperimentReport report) {
    ObjectNode out = Json.MAPPER.createObjectNode();
    var experiment = campaign.definition().experiment().orElseThrow();
    out.put("campaignId", campaign.id());
    out.put("allocation", experiment.allocation().wire());
    out.put("metric", experiment.metric().wire());
    out.put("alpha", experiment.alpha());
    if (experiment.allocation() == Experiment.Allocation.AB)
      out.put("testShare", experiment.testShare());
    var variants = out.putArray("variants");
    for (var variant : report.variants()) {
      var entry = variants
          .addObject()
          .put("name", variant.name())
          .put("sent", variant.sent())
          .put("conversions", variant.conversions())
          .put("rate", variant.rate())
          .put("probabilityBest", variant.probabilityBest());
      entry
          .putObject("interval")
          .put("low", variant.interval().low())
          .put("high", variant.interval().high());
      variant.versusControl().ifPresent(comparison -> {
        var versus = entry
            .putObject("versusControl")
            .put("difference", comparison.difference())
            .put("relativeLift", comparison.relativeLift())
            .put("pValue", comparison.pValue());
        versus
            .putObject("interval")
            .put("low", comparison.interval().low())
            .put("high", comparison.interval().high());
      });
    }
    report
        .decision()
        .ifPresentOrElse(
            decision -> {
              var node = out.putObject("decision")
                  .put("winner", report.variants().get(decision.winner()).name())
                  .put("decidedAt", decision.decidedAt().toString())
                  .put("pValue", decision.pValue())
                  .put("difference", decision.difference());
              node.putObject("interval")
                  .put("low", decision.interval().low())
                  .put("high", decision.interval().high());
            },
            () -> out.putNull("decision"));
    return out;
  }
}
