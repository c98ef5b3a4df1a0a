package dev.tidings.demo;

import dev.tidings.demo.ReaderAction.Fetch;
import dev.tidings.demo.ReaderAction.Receipt;
import dev.tidings.demo.ReaderAction.SiteEvent;
import dev.tidings.demo.ReaderAction.Unsubscribe;
import dev.tidings.demo.ReaderAction.Who;
import dev.tidings.message.MessageId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;

/**
 * What the demo's readers do with the sent emails, drawn from a seed so that a demo behaves the same
 * every time. Shares follow what senders see: a few bounces, a third of the opens are Apple's
 * prefetch (all images at once, long before anyone reads), a few Gmail prefetches, people opening
 * over minutes (mostly early), some clicking a product (the first slots more often), link scanners
 * clicking within seconds, and a trickle of shop activity.
 */
public final class EngagementPlan {
  static final double BOUNCE = 0.04;
  static final double APPLE_PREFETCH = 0.30;
  static final double GMAIL_PREFETCH = 0.05;
  public static final double PERSON_OPENS = 0.60;
  static final double CLICKS_OF_OPENERS = 0.35;
  static final double SCANNED = 0.05;
  static final double COMPLAINS = 0.02;
  static final double UNSUBSCRIBES = 0.02;

  static final String APPLE_PROXY = "Mozilla/5.0";
  static final String GMAIL_PREFETCHER =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)"
          + " Chrome/42.0.2311.135 Safari/537.36 Edge/12.246";
  static final List<String> PEOPLE = List.of(
      "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)",
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Thunderbird/128.3.0",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
      "YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html");
  static final String SCANNER = "Mozilla/5.0 (compatible; Barracuda Sentinel link scanner)";
  private static final List<String> SITE_EVENTS =
      List.of("view", "view", "view", "view", "view", "add_to_cart", "add_to_cart", "purchase");

  private EngagementPlan() {}

  /**
   * @param products ids of shop products for the site activity (none: no site activity)
   * @param spread how long the whole plan lasts
   */
  public static List<ReaderAction> of(
      List<SentEmail> emails, List<String> products, Duration spread, long seed) {
    return of(emails, products, spread, seed, email -> PERSON_OPENS);
  }

  /**
   * @param opens the chance that a person opens the email (a subject people prefer has a higher one)
   */
  public static List<ReaderAction> of(
      List<SentEmail> emails,
      List<String> products,
      Duration spread,
      long seed,
      ToDoubleFunction<SentEmail> opens) {
    var random = new SplittableRandom(seed);
    long spreadMs = Math.max(10_000, spread.toMillis());
    List<ReaderAction> actions = new ArrayList<>();
    for (SentEmail email : emails) {
      if (random.nextDouble() < BOUNCE) {
        actions.add(new Receipt(
            ms(random.nextLong(1_000, 20_000)),
            email.messageId(),
            "bounced",
            "550 5.1.1 the mailbox does not exist"));
        continue;
      }
      actions.add(new Receipt(ms(random.nextLong(500, 8_000)), email.messageId(), "delivered", ""));
      double client = random.nextDouble();
      if (client < APPLE_PREFETCH) {
        actions.add(burst(email, ms(random.nextLong(3_000, 30_000)), APPLE_PROXY, Who.PREFETCH));
      } else if (client < APPLE_PREFETCH + GMAIL_PREFETCH) {
        actions.add(
            burst(email, ms(random.nextLong(3_000, 30_000)), GMAIL_PREFETCHER, Who.PREFETCH));
      }
      if (email.slots() > 0 && random.nextDouble() < SCANNED) {
        // a scanner at the receiving gateway follows a link the moment the email arrives
        actions.add(new Fetch(
            ms(random.nextLong(200, 4_000)),
            List.of("/c/" + email.token() + "/" + random.nextInt(email.slots())),
            SCANNER,
            Who.SCANNER));
      }
      if (random.nextDouble() >= opens.applyAsDouble(email)) continue;
      // most people open early, some much later: an exponential, cut at the spread
      long openAt = Math.min(
          spreadMs - 5_000, 5_000 + (long) (-Math.log(1 - random.nextDouble()) * spreadMs / 3));
      String agent = PEOPLE.get(random.nextInt(PEOPLE.size()));
      actions.add(burst(email, ms(openAt), agent, Who.PERSON));
      if (random.nextDouble() < 0.25) // reading it again later
      actions.add(burst(
          email,
          ms(Math.min(spreadMs, openAt + random.nextLong(10_000, 60_000))),
          agent,
          Who.PERSON));
      if (email.slots() > 0 && random.nextDouble() < CLICKS_OF_OPENERS) {
        long clickAt = openAt + random.nextLong(4_000, 30_000);
        actions.add(new Fetch(
            ms(clickAt),
            List.of("/c/" + email.token() + "/" + favouredSlot(random, email.slots())),
            agent,
            Who.PERSON));
        if (!products.isEmpty()) {
          String user = subscriber(email);
          String product = products.get(random.nextInt(products.size()));
          actions.add(new SiteEvent(ms(clickAt + 2_000), user, "view", product));
          if (random.nextDouble() < 0.3)
            actions.add(new SiteEvent(
                ms(clickAt + random.nextLong(5_000, 40_000)), user, "add_to_cart", product));
        }
      }
      double after = random.nextDouble();
      if (after < COMPLAINS) {
        actions.add(new Receipt(
            ms(openAt + random.nextLong(5_000, 40_000)),
            email.messageId(),
            "complained",
            "marked as spam"));
      } else if (after < COMPLAINS + UNSUBSCRIBES) {
        actions.add(new Unsubscribe(ms(openAt + random.nextLong(5_000, 40_000)), email.token()));
      }
    }
    if (!products.isEmpty() && !emails.isEmpty()) {
      // the shop's own traffic, independent of the email: a trickle across the whole spread
      for (long at = 1_000; at < spreadMs; at += random.nextLong(1_000, 4_000)) {
        String user = subscriber(emails.get(random.nextInt(emails.size())));
        actions.add(new SiteEvent(
            ms(at),
            user,
            SITE_EVENTS.get(random.nextInt(SITE_EVENTS.size())),
            products.get(random.nextInt(products.size()))));
      }
    }
    actions.sort(Comparator.comparing(ReaderAction::after));
    return List.copyOf(actions);
  }

  /** The first slots get clicked more: weight k for slot 0 down to 1 for the last. */
  static int favouredSlot(SplittableRandom random, int slots) {
    int total = slots * (slots + 1) / 2;
    int pick = random.nextInt(total);
    for (int slot = 0; slot < slots; slot++) {
      pick -= slots - slot;
      if (pick < 0) return slot;
    }
    return slots - 1;
  }

  /** The pixel and every slot image, fetched together as a client shows the email. */
  private static Fetch burst(SentEmail email, Duration at, String agent, Who who) {
    List<String> paths = new ArrayList<>();
    paths.add("/p/" + email.token());
    for (int slot = 0; slot < email.slots(); slot++) paths.add("/o/" + email.token() + "/" + slot);
    return new Fetch(at, paths, agent, who);
  }

  private static String subscriber(SentEmail email) {
    return MessageId.parse(email.messageId())
        .map(MessageId::subscriberId)
        .orElse(email.messageId());
  }

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }
}
