package dev.tidings.app;

import dev.tidings.campaign.send.Composer;
import dev.tidings.campaign.send.LedgerExpiry;
import dev.tidings.campaign.send.SendOptions;
import dev.tidings.campaign.send.SendPipeline;
import dev.tidings.campaign.send.Sends;
import dev.tidings.queue.ConsumerGroup;
import dev.tidings.retention.Expiring;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sending campaign runs: {@link #sends()} over the node's database (the ledger), coordination
 * (countdown, shared rate), and work queue; on worker and demo nodes, the send queue's consumers,
 * which send through the node's mail transport what the {@link Composer} writes. The composer comes
 * from outside (the campaign capability writes the emails, or a benchmark its synthetic ones); a node
 * without one plans and steers runs but consumes nothing.
 */
public final class SendingWiring implements Capability {
  private static final Logger log = LoggerFactory.getLogger(SendingWiring.class);

  private final Infrastructure infrastructure;
  private final Supplier<Optional<Composer>> composer;
  private final Lazy<SendPipeline> pipeline;

  SendingWiring(Infrastructure infrastructure, Supplier<Optional<Composer>> composer) {
    this.infrastructure = infrastructure;
    this.composer = composer;
    this.pipeline = Lazy.of(() -> new SendPipeline(
        infrastructure.database().jdbi(),
        infrastructure.workQueue(),
        infrastructure.coordination(),
        SendOptions.fromEnvironment(infrastructure.settings().send()),
        infrastructure.clock(),
        infrastructure.metrics()));
  }

  public Sends sends() {
    return pipeline.get().sends();
  }

  public SendPipeline pipeline() {
    return pipeline.get();
  }

  @Override
  public List<Expiring> expiring() {
    return List.of(new Expiring(
        new LedgerExpiry(infrastructure.database().jdbi()),
        infrastructure.settings().retention().messages()));
  }

  @Override
  public List<ConsumerGroup> consumers() {
    Optional<Composer> writer = composer.get();
    if (writer.isEmpty()) {
      log.warn("no Composer: this node will not send campaign emails");
      return List.of();
    }
    return List.of(pipeline.get().consumers(writer.get(), infrastructure.mail()));
  }

  @Override
  public void close() {
    pipeline.ifBuilt().ifPresent(SendPipeline::close);
  }
}
