package dev.tidings.web.dashboard;

import dev.tidings.campaign.Campaign;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Optional;

/** The campaign a page's path names ({@code /campaigns/{id}/...}), and the page for none. */
final class CampaignPath {
  private CampaignPath() {}

  /** The id in the path; empty for what is no campaign id (a word, zero, a negative number). */
  static Optional<Long> id(ServerRequest request) {
    try {
      long id = Long.parseLong(request.path().pathParameters().get("id"));
      return id > 0 ? Optional.of(id) : Optional.empty();
    } catch (NumberFormatException notAnId) {
      return Optional.empty();
    }
  }

  static void notFound(ServerResponse response, Visitor visitor) {
    Html.send(
        response,
        404,
        Html.page(
            "Not found",
            Html.Section.CAMPAIGNS,
            visitor,
            Templates.render("notfound", new Html.NotFound("No such campaign."))));
  }

  record Refused(long id, String name, String title, String problem, String back) {}

  /** A page that says why what was asked was not done, with the way back. */
  static void refuse(
      ServerResponse response,
      Visitor visitor,
      Campaign campaign,
      int status,
      String title,
      String problem,
      String back) {
    Html.send(
        response,
        status,
        Html.page(
            title,
            Html.Section.CAMPAIGNS,
            visitor,
            Templates.render(
                "campaign-refused",
                new Refused(campaign.id(), campaign.definition().name(), title, problem, back))));
  }
}
