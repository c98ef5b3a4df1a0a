package dev.tidings.campaign.editor;

import dev.tidings.mail.OutgoingEmail;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One subscriber's email of a campaign as it would be written now, with tokens of the uncounted run.
 *
 * @param email empty when no email can be written from the subscriber's data ({@code reason} says why)
 * @param wouldSend whether a send now would mail this subscriber
 * @param reason why not, when it would not
 * @param slotProducts what the email's open-time slots would show now, in slot order (fewer than the
 *     slots when the catalog cannot fill them; empty for a campaign without slots)
 */
public record CampaignPreview(
    long campaignId,
    String subscriberId,
    Optional<OutgoingEmail> email,
    boolean wouldSend,
    Optional<String> reason,
    List<SlotProduct> slotProducts) {
  public CampaignPreview {
    Objects.requireNonNull(subscriberId, "subscriberId");
    Objects.requireNonNull(email, "email");
    Objects.requireNonNull(reason, "reason");
    slotProducts = List.copyOf(slotProducts);
    if (wouldSend == reason.isPresent())
      throw new IllegalArgumentException(
          "a reason is given exactly when the email would not be sent");
  }
}
