package dev.tidings.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidings.WebUrl;
import dev.tidings.catalog.Product;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Currency;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoFeedTest {
  @TempDir
  Path dir;

  private static Product product(
      String id, String brand, String category, String price, String sale) {
    return new Product(
        id,
        "Product " + id,
        Optional.of(brand),
        Optional.of(category),
        new BigDecimal(price),
        Currency.getInstance("EUR"),
        WebUrl.of("https://img.example/" + id + ".png"),
        WebUrl.of("https://shop.example/" + id),
        true,
        Map.of(),
        Optional.ofNullable(sale).map(BigDecimal::new),
        Optional.empty());
  }

  private final DemoFeed feed = new DemoFeed(List.of(
      product("FH-1", "Fernhill", "Home > Lamps", "40.00", "30.00"),
      product("FH-2", "Larkspur", "Home > Lamps", "20.00", null)));

  @Test
  void generated_follows_and_events_move_onto_the_feeds_brands_categories_and_products()
      throws IOException {
    Path follows = Files.writeString(dir.resolve("follows.jsonl"), """
        {"subscriberId":"s1","targetType":"brand","targetId":"acme","followedAt":"2026-01-01T00:00:00Z"}
        {"subscriberId":"s1","targetType":"category","targetId":"women/shoes","followedAt":"2026-01-01T00:00:00Z"}
        {"subscriberId":"s2","targetType":"brand","targetId":"acme","followedAt":"2026-01-01T00:00:00Z"}
        """);
    Path events = Files.writeString(dir.resolve("events.jsonl"), """
        {"userId":"s1","type":"view","itemId":"p-17","timestamp":"2026-01-01T00:00:00Z"}
        {"userId":"s1","type":"purchase","itemId":"p-17","timestamp":"2026-01-01T00:00:00Z","price":"99.00"}
        """);

    feed.moveFollows(follows, dir.resolve("follows-feed.jsonl"));
    feed.moveEvents(events, dir.resolve("events-feed.jsonl"));

    List<String> moved = Files.readAllLines(dir.resolve("follows-feed.jsonl"));
    assertThat(moved).hasSize(3);
    assertThat(moved.get(1)).contains("\"targetId\":\"Home > Lamps\"");
    assertThat(Set.of("Fernhill", "Larkspur"))
        .anyMatch(brand -> moved.get(0).contains("\"targetId\":\"" + brand + "\""));
    assertThat(moved.get(2))
        .as("the same generated brand, the same feed brand")
        .isEqualTo(moved.get(0).replace("\"s1\"", "\"s2\""));
    List<String> movedEvents = Files.readAllLines(dir.resolve("events-feed.jsonl"));
    String itemId = movedEvents.get(0).replaceAll(".*\"itemId\":\"([^\"]+)\".*", "$1");
    assertThat(itemId).isIn("FH-1", "FH-2");
    assertThat(movedEvents.get(1))
        .contains("\"itemId\":\"" + itemId + "\"")
        .contains("\"price\":\"" + (itemId.equals("FH-1") ? "30.00" : "20.00") + "\"");
  }
}
