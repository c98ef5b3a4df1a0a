package dev.tidings.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SentEmailTest {
  private static final String EML = """
      Message-ID: <AQEBA3MtMA@shop.example>
      X-Tidings-Message-Id: AQEBA3MtMA
      List-Unsubscribe: <http://localhost:8097/u/ASgBAQEDcy0w5f5c>, <mailto:care@shop.example>
      Content-Type: text/html; charset=UTF-8
      Content-Transfer-Encoding: quoted-printable

      <a href=3D"http://localhost:8097/c/ASgBAQEDcy0w5f5c/0"><img src=3D"http://localhost:8097/o/ASgBAQ=
      EDcy0w5f5c/0"></a><a href=3D"http://localhost:8097/c/ASgBAQEDcy0w=
      5f5c/1"></a><a href=3D"http://localhost:8097/c/ASgBAQEDcy0w5f5c/2"></a>
      <a href=3D"http://localhost:8097/c/SomeOtherToken/7"></a>
      """;

  @Test
  void the_message_id_token_and_slots_are_read_through_quoted_printable() {
    var email = SentEmail.parse(EML).orElseThrow();
    assertThat(email.messageId()).isEqualTo("AQEBA3MtMA");
    assertThat(email.token()).isEqualTo("ASgBAQEDcy0w5f5c");
    assertThat(email.slots()).as("slot links of this email's token only").isEqualTo(3);
  }

  @Test
  void a_file_that_is_not_ours_is_skipped() {
    assertThat(SentEmail.parse("Subject: hello\n\nbody")).isEmpty();
  }
}
