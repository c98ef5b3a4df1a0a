package dev.tidings.web.dashboard;

import dev.tidings.journeys.JourneyTemplates;
import java.util.List;
import java.util.Optional;

/**
 * A new journey, {@code /journeys/new}: the ready-made journeys with what each does; choosing one asks
 * whom its emails are from, and making it makes its emails as draft campaigns and the journey as a
 * draft, as the API's templates do.
 */
final class JourneyTemplatesPage {
  private JourneyTemplatesPage() {}

  record Choice(String key, String name, String description, boolean current) {}

  record Email(String name, String subject) {}

  /** The sender's fields as typed, and what was wrong with them. */
  record Sender(String fromEmail, String fromName, List<String> emailError, List<String> problem) {
    static final Sender EMPTY = new Sender("", "", List.of(), List.of());
  }

  record Chosen(
      String key,
      String name,
      String description,
      String emailCount,
      List<Email> emails,
      Sender sender) {}

  record View(String csrf, List<Choice> templates, List<Chosen> chosen) {}

  static String render(Visitor visitor, Optional<JourneyTemplates.Template> chosen, Sender sender) {
    var view = new View(
        visitor.token(),
        JourneyTemplates.all().stream()
            .map(template -> new Choice(
                template.key(),
                template.name(),
                template.description(),
                chosen.map(c -> c.key().equals(template.key())).orElse(false)))
            .toList(),
        chosen.stream()
            .map(template -> new Chosen(
                template.key(),
                template.name(),
                template.description(),
                template.emails().size() == 1
                    ? "its email"
                    : "its " + template.emails().size() + " emails",
                template.emails().stream()
                    .map(email -> new Email(email.name(), email.subject()))
                    .toList(),
                sender))
            .toList());
    return Html.page(
        "New journey", Html.Section.JOURNEYS, visitor, Templates.render("journey-new", view));
  }
}
