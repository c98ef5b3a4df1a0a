package dev.tidings.mail.smtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.tidings.config.Secret;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SmtpSettingsTest {
  @Test
  void user_and_password_are_percent_decoded_after_splitting_and_plus_stays_plus() {
    var settings = SmtpSettings.fromUrl(
        URI.create("smtp://us%3Aer%40corp:p%40ss%3Aw+rd%2F@mail.example:2525"));
    assertThat(settings.user()).hasValue("us:er@corp");
    assertThat(settings.password()).map(Secret::value).hasValue("p@ss:w+rd/");
    assertThat(settings.host()).isEqualTo("mail.example");
    assertThat(settings.port()).isEqualTo(2525);
    assertThat(settings.implicitTls()).isFalse();
  }

  @Test
  void default_ports_follow_the_scheme() {
    assertThat(SmtpSettings.fromUrl(URI.create("smtp://mail.example")).port()).isEqualTo(25);
    var smtps = SmtpSettings.fromUrl(URI.create("smtps://mail.example"));
    assertThat(smtps.port()).isEqualTo(465);
    assertThat(smtps.implicitTls()).isTrue();
  }

  @Test
  void options_set_starttls_pool_and_timeouts() {
    var settings = SmtpSettings.fromUrl(
        URI.create(
            "smtp://mail.example:587?starttls=true&pool=2&connectTimeoutMs=1500&readTimeoutMs=2500&writeTimeoutMs=3500&sendTimeoutMs=4500&helo=out.shop.example"));
    assertThat(settings.startTls()).isTrue();
    assertThat(settings.poolSize()).isEqualTo(2);
    assertThat(settings.connectTimeout()).isEqualTo(Duration.ofMillis(1500));
    assertThat(settings.readTimeout()).isEqualTo(Duration.ofMillis(2500));
    assertThat(settings.writeTimeout()).isEqualTo(Duration.ofMillis(3500));
    assertThat(settings.sendTimeout()).isEqualTo(Duration.ofMillis(4500));
    assertThat(SmtpSettings.fromUrl(URI.create("smtp://mail.example")).sendTimeout())
        .isEqualTo(SmtpSettings.DEFAULT_SEND_TIMEOUT);
    assertThat(settings.heloName()).hasValue("out.shop.example");
    assertThat(SmtpSettings.fromUrl(URI.create("smtp://mail.example")).startTls())
        .isFalse();
  }

  @Test
  void a_mistyped_option_other_scheme_or_zero_timeout_is_refused() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> SmtpSettings.fromUrl(URI.create("smtp://m.example?startls=true")))
        .withMessageContaining("startls");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> SmtpSettings.fromUrl(URI.create("http://m.example")));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> SmtpSettings.fromUrl(URI.create("smtp://m.example?readTimeoutMs=0")));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> SmtpSettings.fromUrl(URI.create("smtp://m.example?sendTimeoutMs=0")));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> SmtpSettings.fromUrl(URI.create("smtps://m.example?starttls=true")));
  }

  @Test
  void describe_masks_the_password() {
    var settings =
        SmtpSettings.fromUrl(URI.create("smtp://alice:hunter2@mail.example:2525?starttls=true"));
    assertThat(settings.describe())
        .contains("alice", "mail.example:2525", "STARTTLS")
        .doesNotContain("hunter2");
    assertThat(settings.toString()).doesNotContain("hunter2");
  }
}
