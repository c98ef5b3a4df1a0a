package dev.tidings.delivery;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Tells the opens and clicks of people from those of machines (docs/design notes on mail clients): a
 * provider's own verdict; Apple Mail Privacy Protection's prefetch (user agent exactly {@code
 * Mozilla/5.0}); Gmail's prefetch before display (its Edge/12.246 user agent); an empty user agent;
 * known link scanners; and a click within seconds of the send, which people do not manage but
 * scanners at delivery do. Image proxies that fetch when a person opens (Gmail's GoogleImageProxy,
 * Yahoo's YahooMailProxy) count as people: that fetch is the open.
 */
public final class MachineTraffic {
  /** Sooner than this after the send, a click is a scanner's. */
  public static final Duration SCANNER_WINDOW = Duration.ofSeconds(10);

  private static final List<String> MACHINE_OPENERS = List.of("edge/12.246");
  private static final List<String> SCANNERS = List.of(
      "barracuda",
      "mimecast",
      "proofpoint",
      "safelinks",
      "bingpreview",
      "python-requests",
      "curl/",
      "wget/",
      "go-http-client",
      "headlesschrome",
      "scanner",
      "bot");

  private MachineTraffic() {}

  /** Whether a person made this open or click; anything else is always "not an engagement". */
  public static boolean human(Receipt receipt, Optional<Instant> sentAt) {
    if (receipt.providerSaysMachine()) return false;
    if (receipt.status() != DeliveryStatus.OPENED && receipt.status() != DeliveryStatus.CLICKED)
      return false;
    String agent = receipt.userAgent().orElse("").trim();
    if (agent.isEmpty()) return false;
    String lower = agent.toLowerCase(Locale.ROOT);
    if (receipt.status() == DeliveryStatus.OPENED) {
      if (agent.equals("Mozilla/5.0")) return false;
      return MACHINE_OPENERS.stream().noneMatch(lower::contains);
    }
    if (SCANNERS.stream().anyMatch(lower::contains)) return false;
    return sentAt.map(sent -> !receipt.at().isBefore(sent.plus(SCANNER_WINDOW))).orElse(true);
  }
}
