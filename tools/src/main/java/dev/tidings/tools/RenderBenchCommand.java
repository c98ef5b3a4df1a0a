package dev.tidings.tools;

import dev.tidings.Json;
import dev.tidings.audience.Consent;
import dev.tidings.audience.GeoPoint;
import dev.tidings.audience.Location;
import dev.tidings.audience.Subscriber;
import dev.tidings.campaign.Audience;
import dev.tidings.campaign.CampaignDefinition;
import dev.tidings.campaign.CampaignRenderer;
import dev.tidings.campaign.CampaignTemplates;
import dev.tidings.cli.UsageException;
import dev.tidings.config.Secret;
import dev.tidings.mail.Address;
import dev.tidings.message.MessageId;
import dev.tidings.message.TokenCodec;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "render",
    mixinStandardHelpOptions = true,
    description = {
      "Campaign rendering: emails/s written by the campaign renderer for a realistic template (greeting by",
      "name, k=6 product slots laid out by the template, a text part), each with its own signed token,",
      "List-Unsubscribe headers and open pixel, on every core. In memory only: no database, no MIME encoding."
    })
final class RenderBenchCommand implements Callable<Integer> {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  static final String HTML = """
      <!doctype html><html><head><meta charset="utf-8"><title>{{campaign.name}}</title></head>
      <body style="margin:0;padding:0;background:#f4f4f4">
      <table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
      <table role="presentation" width="600" cellpadding="0" cellspacing="0" style="background:#fff">
      <tr><td style="padding:24px;font-family:Helvetica,Arial,sans-serif">
      <h1 style="font-size:22px">Hello {{subscriber.firstName}},</h1>
      <p>Our autumn edit is here. We picked these for you{{#subscriber.city}} in {{subscriber.city}}{{/subscriber.city}}.</p>
      </td></tr>
      <tr><td><table role="presentation" cellpadding="0" cellspacing="8"><tr>
      {{#slots}}<td width="180"><a href="{{clickUrl}}"><img src="{{imageUrl}}" width="180" height="240" alt="Pick {{number}}" style="display:block;border:0"></a></td>{{/slots}}
      </tr></table></td></tr>
      <tr><td style="padding:24px;font:12px Helvetica,Arial,sans-serif;color:#666">
      You receive this because you subscribed at https://shop.example with {{subscriber.email}}.
      <a href="{{unsubscribeUrl}}">Unsubscribe</a> &middot; <a href="https://shop.example/help">Help</a>
      </td></tr></table></td></tr></table></body></html>
      """;
  static final String TEXT = """
      Hello {{subscriber.firstName}},

      Our autumn edit is here. We picked these for you:
      {{#slots}}{{number}}. {{clickUrl}}
      {{/slots}}
      Unsubscribe: {{unsubscribeUrl}}
      """;

  @Option(
      names = "--seconds",
      defaultValue = "5",
      description = "measured seconds (default ${DEFAULT-VALUE})")
  int seconds;

  @Option(names = "--threads", description = "rendering threads (default: the number of cores)")
  @Nullable Integer threads;

  @Option(names = "--json", description = "also write the figures as JSON to this file")
  @Nullable Path json;

  @Override
  public Integer call() throws IOException, InterruptedException {
    if (seconds < 1) throw new UsageException("--seconds must be at least 1");
    int workers = threads != null ? threads : Runtime.getRuntime().availableProcessors();
    if (workers < 1) throw new UsageException("--threads must be at least 1");
    var definition = definition();
    var templates = CampaignTemplates.compile(definition);
    var renderer = new CampaignRenderer(
        URI.create("https://mail.shop.example"),
        TokenCodec.of(new Secret("render-bench-secret-0123456789")),
        InstantSource.system());
    List<Subscriber> subscribers = subscribers(10_000);

    var cpu = new LongAdder();
    run(
        renderer,
        definition,
        templates,
        subscribers,
        workers,
        Duration.ofSeconds(2),
        cpu); // warm-up
    cpu.reset();
    long started = System.nanoTime();
    long rendered = run(
        renderer, definition, templates, subscribers, workers, Duration.ofSeconds(seconds), cpu);
    double elapsed = (System.nanoTime() - started) / 1e9;
    double perSecond = rendered / elapsed;
    // CPU time, not wall time, says what a render costs when other processes share the cores
    double cpuSeconds = cpu.sum() / 1e9;
    double perCpuSecond = rendered / cpuSeconds;
    System.out.printf(
        Locale.ROOT,
        "render: %,d emails in %.1f s on %d threads: %,.0f renders/s wall clock, k=6%n"
            + "        %.1f us of CPU per email: %,.0f renders per CPU-second, %,.0f/s on %d idle cores%n",
        rendered,
        elapsed,
        workers,
        perSecond,
        cpuSeconds * 1e6 / rendered,
        perCpuSecond,
        perCpuSecond * workers,
        workers);
    if (json != null) {
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("scenario", "render");
      out.put("threads", workers);
      out.put("slots", definition.slots());
      out.put("emails", rendered);
      out.put("seconds", elapsed);
      out.put("rendersPerSecond", perSecond);
      out.put("cpuMicrosPerRender", cpuSeconds * 1e6 / rendered);
      out.put("rendersPerCpuSecond", perCpuSecond);
      Files.write(json, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(out));
    }
    return 0;
  }

  private static long run(
      CampaignRenderer renderer,
      CampaignDefinition definition,
      CampaignTemplates.Compiled templates,
      List<Subscriber> subscribers,
      int workers,
      Duration duration,
      LongAdder cpuNanos)
      throws InterruptedException {
    var done = new LongAdder();
    var stop = new AtomicBoolean();
    List<Thread> running = new ArrayList<>();
    for (int w = 0; w < workers; w++) {
      int offset = w;
      running.add(Thread.ofPlatform().start(() -> {
        long cpuAtStart = THREADS.getCurrentThreadCpuTime();
        long count = 0;
        for (int i = offset; !stop.get(); i += workers) {
          var subscriber = subscribers.get(i % subscribers.size());
          var result = renderer.render(
              1, definition, templates, subscriber, new MessageId(1, 1, subscriber.id()));
          if (!(result instanceof CampaignRenderer.Result.Written))
            throw new IllegalStateException("a bench email was refused: " + result);
          count++;
        }
        done.add(count);
        cpuNanos.add(THREADS.getCurrentThreadCpuTime() - cpuAtStart);
      }));
    }
    Thread.sleep(duration);
    stop.set(true);
    for (Thread thread : running) thread.join();
    return done.sum();
  }

  static CampaignDefinition definition() {
    return new CampaignDefinition(
        "Autumn edit",
        Address.of("news@shop.example", "Shop Example"),
        Optional.of(Address.of("care@shop.example")),
        "{{subscriber.firstName}}, six picks for you",
        HTML,
        TEXT,
        new Audience.All(),
        6,
        4,
        1000,
        Optional.empty(),
        Optional.empty(),
        Optional.empty());
  }

  static List<Subscriber> subscribers(int count) {
    List<Subscriber> out = new ArrayList<>(count);
    String[] names = {"Ada Lovelace", "Grace Hopper", "Émile Zola", "Jürgen Müller", "Li Wei"};
    for (int i = 0; i < count; i++) {
      out.add(new Subscriber(
          Integer.toString(100_000 + i),
          "user" + i + "@example.com",
          Optional.of(names[i % names.length]),
          Locale.forLanguageTag(i % 2 == 0 ? "en-GB" : "de-DE"),
          ZoneId.of("Europe/Berlin"),
          Optional.of(new Location(
              Optional.of(new GeoPoint(52.5, 13.4)), Optional.of("Berlin"), Optional.of("DE"))),
          Consent.SUBSCRIBED));
    }
    return out;
  }
}
