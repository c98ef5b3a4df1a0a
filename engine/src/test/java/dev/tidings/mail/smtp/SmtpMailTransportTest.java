package dev.tidings.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.junit5.GreenMailExtension;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.tidings.mail.MailTransport;
import dev.tidings.mail.MailTransportContract;
import dev.tidings.testing.StartsServers;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The contract against GreenMail, a real SMTP server in this JVM, on a free port. */
@StartsServers
class SmtpMailTransportTest extends MailTransportContract {
  @RegisterExtension
  static final GreenMailExtension greenMail =
      new GreenMailExtension(ServerSetupTest.SMTP.dynamicPort());

  @Override
  protected MailTransport newTransport(InstantSource clock) {
    greenMail.setUser("sender", "pä:ss+w@rd");
    return SmtpMailTransport.fromUrl(
        URI.create(
            "smtp://sender:p%C3%A4%3Ass+w%40rd@127.0.0.1:" + greenMail.getSmtp().getPort()
                + "?pool=8&connectTimeoutMs=2000&readTimeoutMs=10000&writeTimeoutMs=10000"),
        clock);
  }

  @Override
  protected List<MimeMessage> delivered(int expected) {
    greenMail.waitForIncomingEmail(10_000, expected);
    return List.of(greenMail.getReceivedMessages());
  }

  @Test
  void describe_hides_the_password() {
    assertThat(transport.describe())
        .contains("sender")
        .contains("127.0.0.1")
        .doesNotContain("ss+w");
  }
}
