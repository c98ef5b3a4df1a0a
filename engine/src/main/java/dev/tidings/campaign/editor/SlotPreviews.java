package dev.tidings.campaign.editor;

import dev.tidings.message.MessageToken;
import java.util.List;

/**
 * What an email's open-time slots would show if its images were fetched now, in slot order, asked the
 * way the open-time path asks (the email's kept list, else the recommender, excluding the subscriber's
 * recent emails' products) and keeping nothing. The wiring answers it with the open-time capability's
 * {@code SlotChooser.wouldChoose} and the catalog.
 */
@FunctionalInterface
public interface SlotPreviews {
  /** A node without open-time slots: nothing to show. */
  SlotPreviews NONE = token -> List.of();

  List<SlotProduct> wouldShow(MessageToken token);
}
