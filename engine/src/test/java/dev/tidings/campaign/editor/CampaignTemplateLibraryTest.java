package dev.tidings.campaign.editor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.campaign.CampaignTemplates;
import dev.tidings.mail.Address;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The starter campaigns kept with Tidings: each compiles, passes the HTML checks and is usable. */
class CampaignTemplateLibraryTest {
  private final CampaignTemplateLibrary library = new CampaignTemplateLibrary();
  private static final Address FROM = new Address("news@shop.example", Optional.of("Shop"));

  @Test
  void the_four_starters_are_listed_in_order() {
    assertThat(library.list())
        .extracting(StarterTemplate::name)
        .containsExactly("newsletter", "open-time-picks", "digest", "announcement");
    assertThat(library.list())
        .allSatisfy(t -> assertThat(t.title()).isNotBlank())
        .allSatisfy(t -> assertThat(t.description()).isNotBlank());
  }

  @Test
  void
      every_starter_compiles_and_passes_the_html_checks_with_a_600px_layout_and_an_unsubscribe_link() {
    for (StarterTemplate template : library.list()) {
      var compiled = CampaignTemplates.compile(
          CampaignTemplateLibrary.definition(template, template.title(), FROM));
      assertThat(compiled.htmlLinksUnsubscribe()).as(template.name()).isTrue();
      assertThat(compiled.textLinksUnsubscribe()).as(template.name()).isTrue();
      assertThat(template.html())
          .as(template.name())
          .contains("<table role=\"presentation\" width=\"600\"", "max-width:600px")
          .contains("name=\"viewport\"");
    }
  }

  @Test
  void the_picks_place_their_slots_and_the_digest_its_notifications() {
    StarterTemplate picks = library.get("open-time-picks").orElseThrow();
    assertThat(picks.slots()).isPositive();
    var compiledPicks =
        CampaignTemplates.compile(CampaignTemplateLibrary.definition(picks, "picks", FROM));
    assertThat(compiledPicks.htmlPlacesSlots()).isTrue();
    assertThat(compiledPicks.textPlacesSlots()).isTrue();

    StarterTemplate digest = library.get("digest").orElseThrow();
    assertThat(digest.digest()).isPresent();
    var compiledDigest =
        CampaignTemplates.compile(CampaignTemplateLibrary.definition(digest, "digest", FROM));
    assertThat(compiledDigest.htmlPlacesNotifications()).isTrue();
    assertThat(compiledDigest.textPlacesNotifications()).isTrue();

    assertThat(library.get("newsletter").orElseThrow().slots()).isZero();
    assertThat(library.get("announcement").orElseThrow().digest()).isEmpty();
  }

  @Test
  void an_unknown_name_is_empty() {
    assertThat(library.get("nope")).isEmpty();
    assertThat(library.get("../digest")).isEmpty();
  }
}
