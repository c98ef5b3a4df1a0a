package dev.tidings.campaign.editor;

import dev.tidings.campaign.DigestOptions;
import java.util.Objects;
import java.util.Optional;

/**
 * A campaign to start from: what the editor shows in its list ({@code name}, {@code title}, {@code
 * description}) and the fields it fills in (subject, templates, slots, digest options).
 *
 * @param name the template's id in URLs, lower case and hyphens
 */
public record StarterTemplate(
    String name,
    String title,
    String description,
    String subject,
    String html,
    String text,
    int slots,
    Optional<DigestOptions> digest) {
  public StarterTemplate {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(html, "html");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(digest, "digest");
  }
}
