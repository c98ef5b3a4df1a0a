package dev.tidings.app;

import dev.tidings.campaign.send.Composer;
import dev.tidings.config.Settings;
import dev.tidings.coordination.ComputeOnce;
import dev.tidings.webhooks.WebhookSender;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a program built on the engine adds to a node, handed to {@link Node#of(Settings,
 * NodeAdditions)} in plain code: capabilities of its own (the demo's sample pictures), a composer in
 * place of the campaigns' (a benchmark's synthetic emails), the open-time slots' compute-once in place
 * of the node's coordination (a benchmark's baseline). The engine's own commands add nothing.
 *
 * @param capabilities served after the engine's own
 * @param composer writes the emails this node's send consumers send, instead of the campaigns
 * @param slotComputeOnce builds the open-time slots' compute-once from the node's infrastructure
 *     (whatever it opens, it opens through {@link Infrastructure#open}, so the node closes it)
 * @param webhooks how outgoing webhooks retry and how many go at once (a test's schedule in
 *     milliseconds)
 */
public record NodeAdditions(
    List<Capability> capabilities,
    Optional<Composer> composer,
    Optional<Function<Infrastructure, ComputeOnce>> slotComputeOnce,
    WebhookSender.Options webhooks) {
  public static final NodeAdditions NONE = new NodeAdditions(
      List.of(), Optional.empty(), Optional.empty(), WebhookSender.Options.DEFAULT);

  public NodeAdditions {
    capabilities = List.copyOf(capabilities);
    Objects.requireNonNull(composer, "composer");
    Objects.requireNonNull(slotComputeOnce, "slotComputeOnce");
    Objects.requireNonNull(webhooks, "webhooks");
  }

  public NodeAdditions withCapability(Capability capability) {
    var more = new ArrayList<>(capabilities);
    more.add(capability);
    return new NodeAdditions(more, composer, slotComputeOnce, webhooks);
  }

  public NodeAdditions withComposer(Composer writer) {
    return new NodeAdditions(capabilities, Optional.of(writer), slotComputeOnce, webhooks);
  }

  public NodeAdditions withSlotComputeOnce(Function<Infrastructure, ComputeOnce> builder) {
    return new NodeAdditions(capabilities, composer, Optional.of(builder), webhooks);
  }

  public NodeAdditions withWebhooks(WebhookSender.Options options) {
    return new NodeAdditions(capabilities, composer, slotComputeOnce, options);
  }
}
