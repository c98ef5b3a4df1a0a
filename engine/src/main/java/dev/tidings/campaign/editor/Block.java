package dev.tidings.campaign.editor;

import dev.tidings.InvalidInputException;
import dev.tidings.WebUrl;
import dev.tidings.message.MessageToken;
import java.util.Locale;
import java.util.Objects;

/**
 * A piece of template the editor inserts for its author (see {@link CampaignBlocks}). Each checks its
 * own values where it is made, naming the field that is wrong (a 422 at the API).
 */
public sealed interface Block {
  /** {@code count} open-time product slots, 1..{@value MessageToken#MAX_SLOTS}, in rows of three. */
  record Slots(int count) implements Block {
    public Slots {
      if (count < 1 || count > MessageToken.MAX_SLOTS)
        throw new InvalidInputException("count must be a whole number within 1.."
            + MessageToken.MAX_SLOTS + " but was " + count);
    }
  }

  /** A digest's list of what the subscriber follows, one row per notification. */
  record Digest() implements Block {}

  /** A button linking to an https page; the label is plain text, escaped where it is written. */
  record Button(String label, String url) implements Block {
    public static final int MAX_LABEL = 100;

    public Button {
      Objects.requireNonNull(label, "label");
      Objects.requireNonNull(url, "url");
      if (label.isBlank() || label.length() > MAX_LABEL)
        throw new InvalidInputException("label must be 1-" + MAX_LABEL + " characters");
      if (label.chars().anyMatch(Character::isISOControl))
        throw new InvalidInputException("label must not contain line breaks or control characters");
      // the snippet is template source: a mustache tag in it would become one
      if (label.contains("{{") || label.contains("}}"))
        throw new InvalidInputException("label must not contain {{ or }}");
      if (!url.toLowerCase(Locale.ROOT).startsWith("https://"))
        throw new InvalidInputException("url must be an https URL");
      WebUrl.problem(url).ifPresent(problem -> {
        throw new InvalidInputException("url " + problem);
      });
    }
  }

  /** The footer with the one-click unsubscribe link every campaign email should carry. */
  record Unsubscribe() implements Block {}
}
