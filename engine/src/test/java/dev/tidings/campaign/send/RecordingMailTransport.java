package dev.tidings.campaign.send;

import dev.tidings.mail.Handover;
import dev.tidings.mail.MailTransport;
import dev.tidings.mail.OutgoingEmail;
import dev.tidings.mail.SendResult;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** A transport that counts what it was given per recipient and answers as the test scripts. */
final class RecordingMailTransport implements MailTransport {
  final Map<String, AtomicInteger> attemptsTo = new ConcurrentHashMap<>();
  final Map<String, AtomicInteger> acceptedFor = new ConcurrentHashMap<>();
  final ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
  private volatile Function<OutgoingEmail, SendResult> answer =
      email -> new SendResult.Accepted(email.messageId(), "250 ok");

  void answer(Function<OutgoingEmail, SendResult> script) {
    this.answer = script;
  }

  int attempts(String address) {
    var count = attemptsTo.get(address);
    return count == null ? 0 : count.get();
  }

  int accepted() {
    return acceptedFor.values().stream().mapToInt(AtomicInteger::get).sum();
  }

  @Override
  public SendResult send(OutgoingEmail email, Handover handover) {
    String to = email.to().email();
    attemptsTo.computeIfAbsent(to, key -> new AtomicInteger()).incrementAndGet();
    handover.begin(); // as SMTP does before it takes a connection
    SendResult result = answer.apply(email);
    // a scripted refusal never reached the end of its data; anything else asks the sender first
    if (!(result instanceof SendResult.Deferred || result instanceof SendResult.Rejected)
        && !handover.proceed()) {
      return new SendResult.Withheld("withdrawn at the handover");
    }
    if (result instanceof SendResult.Accepted) {
      acceptedFor.computeIfAbsent(to, key -> new AtomicInteger()).incrementAndGet();
      order.add(to);
    }
    return result;
  }

  @Override
  public String describe() {
    return "recording";
  }

  @Override
  public Optional<String> problem() {
    return Optional.empty();
  }

  @Override
  public void close() {}
}
