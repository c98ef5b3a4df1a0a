package dev.tidings.mail.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.mail.MailTransport;
import dev.tidings.mail.MailTransportContract;
import dev.tidings.mail.MimeEmails;
import dev.tidings.mail.SendResult;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutboxMailTransportTest extends MailTransportContract {
  @TempDir
  Path dataDir;

  private Path outbox() {
    return dataDir.resolve("outbox");
  }

  @Override
  protected MailTransport newTransport(InstantSource clock) {
    return new OutboxMailTransport(outbox(), clock);
  }

  @Override
  protected List<MimeMessage> delivered(int expected) throws Exception {
    // Files are complete once send() returns, so there is nothing to wait for.
    var messages = new ArrayList<MimeMessage>();
    for (Path file : files(".eml")) {
      try (InputStream in = Files.newInputStream(file)) {
        messages.add(new MimeMessage(MimeEmails.offlineSession(), in));
      }
    }
    return messages;
  }

  private List<Path> files(String suffix) throws IOException {
    if (!Files.exists(outbox())) return List.of();
    try (Stream<Path> walk = Files.walk(outbox())) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> p.getFileName().toString().endsWith(suffix))
          .sorted()
          .toList();
    }
  }

  @Test
  void writes_one_file_per_message_in_a_directory_per_day_and_leaves_no_temporary_files()
      throws Exception {
    transport.send(email("day-1"));
    transport.send(email("day-2"));

    assertThat(files(".eml"))
        .extracting(p -> outbox().relativize(p).toString())
        .containsExactly("2026-03-14/day-1.eml", "2026-03-14/day-2.eml");
    assertThat(files(".tmp")).isEmpty();
  }

  @Test
  void a_message_withheld_at_its_handover_never_enters_the_outbox() throws Exception {
    assertThat(transport.send(email("withheld"), () -> false))
        .isInstanceOf(SendResult.Withheld.class);
    assertThat(transport.send(email("handed-over"), () -> true))
        .isInstanceOf(SendResult.Accepted.class);

    assertThat(files(".eml"))
        .extracting(p -> outbox().relativize(p).toString())
        .containsExactly("2026-03-14/handed-over.eml");
    assertThat(files(".tmp")).isEmpty();
  }

  @Test
  void sending_the_same_message_id_again_leaves_one_file() throws Exception {
    transport.send(email("again"));
    transport.send(email("again"));

    assertThat(files(".eml")).hasSize(1);
  }

  @Test
  void unsafe_message_ids_become_safe_distinct_file_names() throws Exception {
    transport.send(email("../../etc/passwd"));
    transport.send(email("a:b"));
    transport.send(email("a;b"));

    List<Path> written = files(".eml");
    assertThat(written).hasSize(3).allSatisfy(p -> {
      assertThat(p.getParent().getParent()).isEqualTo(outbox());
      assertThat(p.getFileName().toString()).matches("[A-Za-z0-9._-]+\\.eml").doesNotStartWith(".");
    });
    assertThat(OutboxMailTransport.fileName("x".repeat(300))).hasSizeLessThan(130);
  }

  @Test
  void an_unwritable_directory_is_a_problem_and_defers_sends() throws Exception {
    Path blocker =
        Files.writeString(dataDir.resolve("not-a-directory"), "a file where the outbox should be");
    try (var blocked = new OutboxMailTransport(blocker.resolve("outbox"), CLOCK)) {
      assertThat(blocked.problem())
          .hasValueSatisfying(problem -> assertThat(problem).contains("not writable"));
      assertThat(blocked.send(email("nowhere"))).isInstanceOf(SendResult.Deferred.class);
    }
  }

  @Test
  void describe_names_the_outbox_directory() {
    assertThat(transport.describe()).contains(outbox().toString());
  }
}
