package dev.tidings.testing;

import dev.tidings.campaign.send.Composer;
import dev.tidings.campaign.send.SendJob;
import dev.tidings.mail.Address;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.message.MessageId;
import java.util.Map;
import java.util.Optional;

/**
 * Writes one short email per recipient from the message id alone, so the send pipeline's tests need no
 * campaign or subscriber data: the subject names the subscriber, the text part the message id.
 */
public final class PlainComposer implements Composer {
  @Override
  public Composed compose(SendJob job, MessageId message) {
    String subscriber = message.subscriberId();
    return new Composed.Email(new OutgoingEmail(
        message.text(),
        Address.of("news@shop.example.test", "Example Shop"),
        Address.of(subscriber + "@subscribers.example.test"),
        "Hello " + subscriber,
        "Message " + message.text() + "\n",
        Optional.of("<p>Message " + message.text() + "</p>"),
        Map.of()));
  }
}
