package dev.tidings.web.dashboard;

import dev.tidings.Attempt;
import dev.tidings.Problem;
import dev.tidings.Problems;
import dev.tidings.audience.Subscriber;
import dev.tidings.campaign.Campaign;
import dev.tidings.campaign.editor.TestSendResult;
import dev.tidings.mail.MimeEmails;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.web.KindStatus;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A campaign as one subscriber would get it: whether they would, and if not why; its headers, its text
 * part, its HTML in a sandboxed frame, and the products its open-time slots would show now. And the test
 * send, which mails that email to an address the person types.
 */
final class CampaignPreviewPage {
  private final CampaignEditorSources sources;
  private final FormGuard guard;
  private final CampaignActions actions;

  CampaignPreviewPage(CampaignEditorSources sources, FormGuard guard, CampaignActions actions) {
    this.sources = sources;
    this.guard = guard;
    this.actions = actions;
  }

  void register(HttpRouting.Builder routing, Pages pages) {
    routing.get("/campaigns/{id}/preview", pages.page(this::preview));
    routing.get("/campaigns/{id}/preview/email", pages.page(this::frame));
    routing.post("/campaigns/{id}/test", pages.page(this::testSend));
  }

  record Header(String name, String value) {}

  record SlotCard(String id, String title, String image, String price) {}

  record SlotCards(List<SlotCard> cards) {}

  record View(
      long id,
      String name,
      boolean editable,
      String asked,
      List<String> problem,
      boolean found,
      String verdict,
      String verdictClass,
      List<String> reason,
      List<Header> headers,
      boolean hasSlots,
      String slotCards,
      String slotNote,
      String subscriberLabel,
      String frameSrc,
      String text) {}

  private void preview(ServerRequest request, ServerResponse response, Visitor visitor) {
    Optional<Campaign> campaign = CampaignPath.id(request).flatMap(sources.campaigns()::get);
    if (campaign.isEmpty()) {
      CampaignPath.notFound(response, visitor);
      return;
    }
    Campaign c = campaign.get();
    boolean editable = sources.campaigns().view(c).state().editable();
    String asked = request.query().first("subscriber").asOptional().orElse("").trim();
    if (asked.isEmpty()) {
      send(response, visitor, 200, empty(c, editable, asked, List.of()));
      return;
    }
    Optional<Subscriber> subscriber = find(asked);
    if (subscriber.isEmpty()) {
      send(
          response,
          visitor,
          404,
          empty(c, editable, asked, List.of("No subscriber has the id or email “" + asked + "”.")));
      return;
    }
    var preview = sources.previews().preview(c.id(), subscriber.get().id());
    if (preview.isEmpty()) {
      send(
          response,
          visitor,
          404,
          empty(c, editable, asked, List.of("That subscriber is no longer there.")));
      return;
    }
    actions.done(CampaignActions.Action.PREVIEW);
    var p = preview.get();
    List<Header> headers = new ArrayList<>();
    p.email().ifPresent(email -> {
      headers.add(new Header("From", MimeEmails.display(email.from())));
      headers.add(new Header("To", MimeEmails.display(email.to())));
      email.replyTo().ifPresent(r -> headers.add(new Header("Reply-To", MimeEmails.display(r))));
      headers.add(new Header("Subject", email.subject()));
      email.headers().forEach((name, value) -> headers.add(new Header(name, value)));
    });
    String label = subscriber.get().name().orElse(subscriber.get().email());
    String slotNote = c.definition().slots() == 0
        ? "This campaign has no open-time slots."
        : "The recommender has nothing for this subscriber now; the email would show its"
            + " fallback picks.";
    send(
        response,
        visitor,
        200,
        new View(
            c.id(),
            c.definition().name(),
            editable,
            asked,
            List.of(),
            p.email().isPresent(),
            p.wouldSend() ? "Would get it." : "Would not get it:",
            p.wouldSend() ? "yes" : "no",
            p.reason().stream().toList(),
            headers,
            !p.slotProducts().isEmpty(),
            Templates.render(
                "slot-products",
                new SlotCards(p.slotProducts().stream()
                    .map(s -> new SlotCard(
                        s.id(),
                        s.title(),
                        s.imageUrl(),
                        s.price().toPlainString() + " " + s.currency().getCurrencyCode()))
                    .toList())),
            slotNote,
            label,
            "/campaigns/" + c.id() + "/preview/email?subscriber="
                + Html.encode(subscriber.get().id()),
            p.email().map(OutgoingEmail::text).orElse("")));
  }

  private View empty(Campaign c, boolean editable, String asked, List<String> problem) {
    return new View(
        c.id(),
        c.definition().name(),
        editable,
        asked,
        problem,
        false,
        "",
        "",
        List.of(),
        List.of(),
        false,
        "",
        "",
        "",
        "",
        "");
  }

  /**
   * The HTML part alone, for the preview's frame. Its own policy makes it a sandbox even opened on its
   * own: no script, no form, nothing but its images and inline style, and only this site may frame it.
   */
  private void frame(ServerRequest request, ServerResponse response, Visitor visitor) {
    String subscriber = request.query().first("subscriber").asOptional().orElse("");
    @Nullable String html = CampaignPath.id(request)
        .flatMap(id -> sources.previews().email(id, subscriber))
        .flatMap(OutgoingEmail::html)
        .orElse(null);
    response.status(html == null ? 404 : 200);
    response.header(HeaderNames.CONTENT_TYPE, "text/html; charset=UTF-8");
    response.header(HeaderNames.CACHE_CONTROL, "no-store");
    response.header(
        "Content-Security-Policy",
        "sandbox; default-src 'none'; img-src http: https: data:; style-src 'unsafe-inline';"
            + " frame-ancestors 'self'");
    response.header("X-Content-Type-Options", "nosniff");
    response.header("Referrer-Policy", "no-referrer");
    response.send((html == null ? "<p>No preview.</p>" : html).getBytes(StandardCharsets.UTF_8));
  }

  private void testSend(ServerRequest request, ServerResponse response, Visitor visitor) {
    Optional<Campaign> campaign = CampaignPath.id(request).flatMap(sources.campaigns()::get);
    if (campaign.isEmpty()) {
      CampaignPath.notFound(response, visitor);
      return;
    }
    var form = guard.accept(request, response, visitor, 4096);
    if (form.isEmpty()) return;
    Campaign c = campaign.get();
    String back =
        fromCampaignPage(form.get()) ? "/campaigns/" + c.id() : "/campaigns/" + c.id() + "/edit";
    String to = form.get().get("to").trim();
    String as = form.get().get("subscriber").trim();
    Optional<String> subscriberId = Optional.empty();
    if (!as.isEmpty()) {
      var found = find(as);
      if (found.isEmpty()) {
        refused(
            response,
            visitor,
            c,
            back,
            404,
            "subscriber: no subscriber has the id or email “" + as + "”.");
        return;
      }
      subscriberId = Optional.of(found.get().id());
    }
    Optional<String> chosen = subscriberId;
    var sending = Attempt.of(() -> sources.tests().send(c.id(), to, chosen));
    switch (sending) {
      // a refusal is answered with its kind's one status, as the API answers it
      case Attempt.Refused<TestSendResult> no -> {
        refused(
            response,
            visitor,
            c,
            back,
            KindStatus.of(no.reason().kind()),
            String.join(
                " ", no.reason().asProblems().stream().map(Problem::message).toList()));
        return;
      }
      case Attempt.Done<TestSendResult> done -> {
        switch (done.value()) {
          case TestSendResult.Sent sent -> actions.done(CampaignActions.Action.TEST);
          case TestSendResult.Refused no -> {
            refused(response, visitor, c, back, 422, no.reason());
            return;
          }
          case TestSendResult.Failed failed -> {
            refused(
                response,
                visitor,
                c,
                back,
                502,
                "The mail server did not take it: " + failed.reason());
            return;
          }
          case TestSendResult.Limited limited -> {
            long seconds = Math.max(1, limited.retryAfter().toSeconds());
            response.header(HeaderNames.RETRY_AFTER, Long.toString(seconds));
            refused(
                response,
                visitor,
                c,
                back,
                429,
                "Too many tests this minute: try again in " + seconds + " s.");
            return;
          }
        }
      }
    }
    boolean editable = sources.campaigns().view(c).state().editable();
    // back where the test was asked for: the campaign's page, or the editor's foot
    Html.redirect(
        response,
        fromCampaignPage(form.get()) || !editable
            ? "/campaigns/" + c.id() + (editable ? "?done=tested" : "")
            : "/campaigns/" + c.id() + "/edit?done=tested");
  }

  private static void refused(
      ServerResponse response,
      Visitor visitor,
      Campaign c,
      String back,
      int status,
      String problem) {
    CampaignPath.refuse(response, visitor, c, status, "Test not sent", problem, back);
  }

  /** Whether the test form was the campaign page's rather than the editor's. */
  private static boolean fromCampaignPage(FormFields.Fields form) {
    return "campaign".equals(form.get("back"));
  }

  /** A subscriber by email (when it has an {@code @}) or id. */
  private Optional<Subscriber> find(String asked) {
    if (asked.length() > 320) return Optional.empty();
    return asked.contains("@")
        ? sources.subscribers().findByEmail(asked)
        : Problems.isId(asked) ? sources.subscribers().get(asked) : Optional.empty();
  }

  private static void send(ServerResponse response, Visitor visitor, int status, View view) {
    Html.send(
        response,
        status,
        Html.page(
            "Preview: " + view.name(),
            Html.Section.CAMPAIGNS,
            visitor,
            Templates.render("campaign-preview", view)));
  }
}
