package dev.tidings.campaign;

import dev.tidings.Problem;
import dev.tidings.Problems;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jdbi.v3.core.Handle;

/**
 * The campaigns an audience's conditions name must exist where the audience enters (a campaign's create or
 * change, an audience count): "did not open campaign 999999" holds for everyone, and "was in campaign
 * 999999's test" for no one, so a mistyped id would quietly widen a send to the whole list or empty it.
 * Each unknown id is a problem naming its condition, in the API's notation
 * ({@code audience.conditions[1].campaignId}), which the editor shows beside that row.
 */
final class AudienceReferences {
  private AudienceReferences() {}

  /** @throws dev.tidings.InvalidInputException naming each condition whose campaign does not exist */
  static void check(Handle handle, Audience audience) {
    if (!(audience instanceof Audience.Segment segment)) return;
    Map<Integer, Long> named = new LinkedHashMap<>();
    for (int i = 0; i < segment.conditions().size(); i++) {
      switch (segment.conditions().get(i)) {
        case Condition.OpenedCampaign opened -> named.put(i, opened.campaignId());
        case Condition.InExperiment tested -> named.put(i, tested.campaignId());
        default -> {}
      }
    }
    if (named.isEmpty()) return;
    Set<Long> existing = CampaignTable.existing(handle, named.values());
    var problems = new Problems();
    named.forEach((index, id) -> {
      if (!existing.contains(id))
        problems.add(Problem.unknown(
            "audience.conditions[" + index + "].campaignId",
            "audience.conditions[" + index + "].campaignId must name a campaign, but"
                + " there is no campaign " + id));
    });
    problems.throwIfAny();
  }
}
