package dev.tidings.campaign;

import dev.tidings.campaign.send.Composer;
import dev.tidings.campaign.send.SendJob;
import dev.tidings.message.MessageId;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link Composer} that can write many emails of one run at once: a worker holding a partition calls
 * this with its recipients so that their subscribers and suppressions are read in one query each
 * instead of two per email. The answers are in the order of {@code messages}.
 */
public interface BatchComposer extends Composer {
  default List<Composed> composeAll(SendJob job, List<MessageId> messages) {
    List<Composed> out = new ArrayList<>(messages.size());
    for (MessageId message : messages) out.add(compose(job, message));
    return out;
  }
}
